/**
 * Errors raised by the wire engines.
 *
 * Every error says whose fault it is and what to do about it (CONTRIBUTING.md, 'Errors'):
 * - `side: 'remote'`: the bytes we received break the protocol (the peer's fault);
 * - `side: 'local'`: the API was misused (our caller's fault), e.g. sending a body on a HEAD response.
 * `code` is stable and machine-readable (tests and docs key on it); `offset` is the byte offset in the
 * input where the problem was found, when there is one. After a protocol error an engine stays in a
 * terminal error state: nothing is silently repaired.
 */
export type ErrorSide = 'local' | 'remote';

export interface WireErrorInit {
  code: string;
  message: string;
  side?: ErrorSide;
  offset?: number;
  line?: number;
  column?: number;
  /** HTTP status a server would answer with for this problem (HTTP/1 only), e.g. 400 or 431. */
  statusHint?: number;
}

export class WireError extends Error {
  override readonly name: string = 'WireError';
  readonly code: string;
  readonly side: ErrorSide;
  readonly offset: number;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly statusHint: number | undefined;

  constructor(init: WireErrorInit) {
    super(init.message);
    this.code = init.code;
    this.side = init.side ?? 'remote';
    this.offset = init.offset ?? 0;
    this.line = init.line;
    this.column = init.column;
    this.statusHint = init.statusHint;
  }
}

export const isWireError = (value: unknown): value is WireError => value instanceof WireError;
