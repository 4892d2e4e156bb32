/**
 * HTTP/2 errors (RFC 9113 §5.4). Every error carries the error code name as `code` (what tests and
 * docs key on), the numeric `errorCode` sent in RST_STREAM / GOAWAY, and its `scope`:
 * - 'connection': the connection cannot continue; the endpoint sends GOAWAY and stops (§5.4.1);
 * - 'stream': only one stream is affected; the endpoint sends RST_STREAM and carries on (§5.4.2).
 * `side: 'local'` marks API misuse by our caller, which never puts anything on the wire.
 */
import { WireError } from '../errors';
import { ERROR_CODES, type ErrorCodeName } from './constants';

export type ErrorScope = 'connection' | 'stream';

export interface Http2ErrorInit {
  code: ErrorCodeName;
  scope: ErrorScope;
  message: string;
  streamId?: number;
  offset?: number;
  side?: 'local' | 'remote';
}

export class Http2Error extends WireError {
  override readonly name: string = 'Http2Error';
  declare readonly code: ErrorCodeName;
  readonly scope: ErrorScope;
  readonly errorCode: number;
  /** The stream concerned (0 for the connection). */
  readonly streamId: number;

  constructor(init: Http2ErrorInit) {
    super({ code: init.code, message: init.message, offset: init.offset ?? 0, side: init.side ?? 'remote' });
    this.scope = init.scope;
    this.errorCode = ERROR_CODES[init.code];
    this.streamId = init.streamId ?? 0;
  }
}

export const connectionError = (code: ErrorCodeName, message: string, offset = 0): Http2Error => new Http2Error({ code, scope: 'connection', message, offset });

export const streamError = (code: ErrorCodeName, streamId: number, message: string, offset = 0): Http2Error =>
  new Http2Error({ code, scope: 'stream', streamId, message, offset });

/** Misuse of the API (our caller's fault): nothing is sent. */
export const usageError = (code: ErrorCodeName, message: string, streamId = 0): Http2Error =>
  new Http2Error({ code, scope: streamId ? 'stream' : 'connection', streamId, message, side: 'local' });

/**
 * RFC 9113 §8.1.1: a message whose DATA does not add up to its content-length is malformed, a stream error.
 * Checked when the content overruns the announced length, and at END_STREAM (`complete`) for a shortfall.
 */
export function contentLengthMismatch(streamId: number, expected: number | null, received: number, complete: boolean): Http2Error | null {
  if (expected === null || (complete ? received === expected : received <= expected)) return null;
  return streamError('PROTOCOL_ERROR', streamId, `Malformed message: content-length ${expected}, but ${received} octets of DATA (RFC 9113 §8.1.1).`);
}

/** Throws when the API may not be used: after a connection error, or before `initiate()` when `notInitiated`. */
export function checkUsable(terminal: Http2Error | null, notInitiated: boolean): void {
  if (terminal) throw usageError(terminal.code, `The connection failed: ${terminal.message}`);
  // RFC 9113 §3.4: the preface (our SETTINGS) is the first thing each side sends.
  if (notInitiated) throw usageError('PROTOCOL_ERROR', 'Call initiate() first: the connection preface goes out before anything else (RFC 9113 §3.4).');
}
