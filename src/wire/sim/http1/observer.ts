/**
 * src/wire/http1's connection engine (Http1Connection) on one simulated connection, tracing every row of its
 * state table that fires ('transition' events with machine 'http1-client' or 'http1-server'), so the docs'
 * HTTP/1 state diagram lights up in step with the animation.
 *
 * Two ways to use it:
 * - driving (the simulated server, server.ts, and client, client-connection.ts): `feed` the bytes received
 *   and read the messages with `next`; what the engine rejects is what that side rejects (the server answers
 *   400, or the engine's status, and closes; the client fails the fetch and closes).
 * - observing: `received` runs the engine beside a connection that parses some other way; a refusal is
 *   traced as the move to ERROR and the observer stops.
 * Either way `sent` and `closed` tell the engine what this side wrote; its bytes come from the same writer.
 */
import {
  Http1Connection,
  http1Data,
  http1EndOfMessage,
  http1Informational,
  http1Request,
  http1Response,
  http1ConnectionClosed,
  type Http1FiredTransition,
  type Http1ReadStep,
} from '../../http1/index';

type ReadStep = Http1ReadStep;
const NEED_DATA: ReadStep = Object.freeze({ type: 'need-data' });
import { WireError } from '../../errors';
import type { WireRequest, WireResponse } from '../../net/codec';
import type { NetContext } from '../../net/tcp';

export class Http1Observer {
  readonly #engine: Http1Connection;
  readonly #ctx: NetContext;
  readonly #connectionId: string;
  readonly #machine: string;
  #stopped = false;

  /** Driving: `next` reads the engine's events, so `sent` and `closed` must not read them for it. */
  readonly #driving: boolean;

  constructor(
    role: 'client' | 'server',
    connectionId: string,
    ctx: NetContext,
    options: { readonly headerTimeoutMs?: number; readonly driving?: boolean } = {},
  ) {
    this.#driving = options.driving === true;
    this.#engine = new Http1Connection({
      role,
      pipelining: true,
      ...(options.headerTimeoutMs === undefined ? {} : { headerTimeoutMs: options.headerTimeoutMs }),
    });
    this.#ctx = ctx;
    this.#connectionId = connectionId;
    this.#machine = `http1-${role}`;
  }

  /**
   * This side sent a whole message. Returns the engine's refusal when its table does not allow the message
   * now (or a field cannot go on the wire); the engine is then failed and the observer stops.
   */
  sent(message: WireRequest | WireResponse): WireError | undefined {
    let refusal: WireError | undefined;
    this.#guard(
      () => {
        const head =
          'method' in message
            ? http1Request({ method: message.method, target: message.target, version: message.version, headers: message.headers })
            : message.status < 200
              ? http1Informational(message)
              : http1Response(message);
        this.#engine.send(head);
        // A 2xx to CONNECT ends HTTP/1 on the connection at its head (RFC 9110 §9.3.6): no content, no end.
        if (head.type !== 'informational' && this.#engine.ourState !== 'SWITCHED_PROTOCOL') {
          if (message.body.length > 0) this.#engine.send(http1Data(message.body));
          this.#engine.send(http1EndOfMessage());
        }
      },
      (e) => (refusal = e),
    );
    return refusal;
  }

  /** Client: whether the engine lets this side send a request now (idle, or free to pipeline one more). */
  get canSend(): boolean {
    return !this.#stopped && this.#engine.ourState === 'IDLE';
  }

  /** This side received bytes (or, with no bytes, learned that the peer closed). */
  received(bytes: Uint8Array | 'eof'): void {
    this.#guard(() => {
      if (bytes === 'eof') this.#engine.receiveEof();
      else this.#engine.receiveData(bytes);
    });
  }

  /**
   * Driving: the next step the engine reads from the bytes received so far (a request or response head, body
   * data, end-of-message, 'need-data', 'paused' until this side has answered, or the error that ends the
   * connection), with the state-table rows it fired traced. After an error the engine stays failed.
   */
  next(): ReadStep {
    if (this.#stopped) return NEED_DATA;
    let step: ReadStep;
    try {
      step = this.#engine.nextEvent();
    } catch {
      this.#stopped = true;
      step = NEED_DATA;
    }
    if (step.type === 'error') this.#stopped = true;
    this.#flush();
    return step;
  }

  /** Feeds bytes for `next` to read (driving; `received` reads them at once instead). */
  feed(bytes: Uint8Array | 'eof'): void {
    if (this.#stopped) return;
    try {
      if (bytes === 'eof') this.#engine.receiveEof();
      else this.#engine.receiveData(bytes);
    } catch {
      this.#stopped = true;
    }
  }

  /** Bytes fed and not yet read by `next` (the first bytes of a message whose head is still arriving). */
  get buffered(): number {
    return this.#stopped ? 0 : this.#engine.bufferedBytes;
  }

  /** Server: whether a request head has started arriving and is not complete (what the header deadline times). */
  readingHead(now: number): boolean {
    return !this.#stopped && this.#engine.deadline(now)?.phase === 'head';
  }

  /** The state of each side in the engine's table (what a test compares between the server and the proxy). */
  get states(): Readonly<Record<'client' | 'server', string>> {
    return this.#engine.states;
  }

  /**
   * After a CONNECT was accepted (both sides SWITCHED_PROTOCOL, RFC 9110 §9.3.6): the bytes received after the
   * HTTP/1 message, which already belong to the tunnel.
   */
  trailing(): Uint8Array {
    return this.#stopped ? new Uint8Array(0) : this.#engine.takeTrailingData();
  }

  /** This side closed the connection. */
  closed(): void {
    this.#guard(() => this.#engine.send(http1ConnectionClosed()));
  }

  #guard(action: () => void, refused?: (error: WireError) => void): void {
    if (this.#stopped) return;
    try {
      action();
      if (!this.#driving) this.#drain();
    } catch (e) {
      this.#stopped = true;
      if (e instanceof WireError) refused?.(e);
    }
    this.#flush();
  }

  /** Reads every event the engine can produce now, so its receive-side rows fire. */
  #drain(): void {
    for (let i = 0; i < 10_000; i++) {
      const step = this.#engine.nextEvent();
      if (step.type === 'need-data' || step.type === 'paused') return;
      if (step.type === 'error' || step.type === 'connection-closed') {
        if (step.type === 'error') this.#stopped = true;
        return;
      }
    }
  }

  #flush(): void {
    for (const fired of this.#engine.takeTransitions()) this.#emit(fired);
  }

  #emit(fired: Http1FiredTransition): void {
    const input = fired.kind === 'event' ? fired.row.id : fired.kind === 'settle' ? fired.rule.id : `error: ${fired.code}`;
    this.#ctx.trace.emit({
      type: 'transition',
      machine: this.#machine,
      connectionId: this.#connectionId,
      from: `${fired.role}:${fired.from}`,
      input,
      to: `${fired.role}:${fired.to}`,
    });
  }
}
