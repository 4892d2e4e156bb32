/**
 * One client-side HTTP/1 connection: writes requests, matches responses to them in order, and decides
 * after each response whether the connection persists (RFC 9112 §9.3). Its states and moves are the
 * rows of CLIENT_CONNECTION_TABLE; every move is traced as a 'transition' event.
 *
 * Persistence after a response, in the order RFC 9112 §9.3 checks it:
 * - we asked to close (Connection: close, or a 1.0 request without Keep-Alive) -> close;
 * - the response says Connection: close -> close;
 * - an HTTP/1.0 response persists only with Connection: keep-alive (RFC 2068 §19.7.1);
 * - HTTP/1.1 persists otherwise; HTTP/0.9 responses end at close, so never.
 * A `Keep-Alive: timeout=<s>` from the server shortens our idle timer to match.
 */
import type { MessageCodec, WireRequest, WireResponse } from '../../net/codec';
import { keepAliveParams, startLine } from '../../net/codec';
import { nextState, type ClientConnectionInput, type ClientConnectionState } from '../../net/connection-table';
import type { Exchange } from '../exchange';
import type { ByteStream, CloseInfo } from '../../net/stream';
import { concatBytes } from '../../net/stream';
import type { NetContext } from '../../net/tcp';
import { isHttp1Persistent as isPersistent } from '../../http1/index';
import { Http1Observer } from './observer';

export interface ConnectionHooks {
  /** Builds the request for this exchange as it will go on this connection. */
  build(exchange: Exchange): { request: WireRequest; last: boolean };
  onResponse(exchange: Exchange, response: WireResponse): void;
  /** The connection changed state (e.g. became idle): a chance to dispatch queued requests. */
  onStateChange(connection: Http1ClientConnection): void;
  /** The connection ended; `unanswered` lists requests that got no response. */
  onClosed(connection: Http1ClientConnection, unanswered: Exchange[], info: CloseInfo): void;
}

export interface ConnectionSetup {
  readonly codec: MessageCodec;
  readonly ctx: NetContext;
  readonly hooks: ConnectionHooks;
  /** Pool key (origin or proxy) this connection serves. */
  readonly key: string;
  readonly idleTimeout: number;
  readonly serverIPAddress: string;
  /** Time the transport under TLS became ready, when known (for HAR ssl). */
  readonly transportReadyAt?: () => number | undefined;
}

export class Http1ClientConnection {
  readonly key: string;
  readonly serverIPAddress: string;
  readonly #stream: ByteStream;
  readonly #setup: ConnectionSetup;
  readonly #openingAt: number;
  #state: ClientConnectionState = 'connecting';
  readonly #outstanding: Exchange[] = [];
  #waiting: Exchange | undefined;
  #buffer: Uint8Array = new Uint8Array(0);
  #served = 0;
  #idleTimer: number | undefined;
  #idleMs: number;
  #persistent = false;
  readonly #engine: Http1Observer;

  constructor(stream: ByteStream, setup: ConnectionSetup) {
    this.#stream = stream;
    this.#setup = setup;
    this.key = setup.key;
    this.serverIPAddress = setup.serverIPAddress;
    this.#idleMs = setup.idleTimeout;
    this.#openingAt = setup.ctx.clock.now();
    this.#engine = new Http1Observer('client', stream.connectionId, setup.ctx);
    stream.onOpen(() => this.#ready());
    stream.onData((bytes) => this.#receive(bytes));
    stream.onClose((info) => this.#closed(info));
  }

  get id(): string {
    return this.#stream.connectionId;
  }
  get state(): ClientConnectionState {
    return this.#state;
  }
  get outstanding(): number {
    return this.#outstanding.length + (this.#waiting ? 1 : 0);
  }
  /** Responses received so far. */
  get served(): number {
    return this.#served;
  }

  /**
   * Whether one more request may be pipelined now: the connection must already be known to persist
   * (RFC 9112 §9.3.2), be below `depth`, and the request must be idempotent (the caller checks that).
   */
  canPipeline(depth: number): boolean {
    return (this.#state === 'busy' || this.#state === 'pipelined') && this.#persistent && this.#outstanding.length < depth;
  }

  /** Sends now (idle or pipelining) or as soon as the connection is ready (connecting). */
  send(exchange: Exchange): void {
    if (this.#state === 'connecting') {
      if (this.#waiting) throw new Error(`Connection ${this.id} already has a first request waiting.`);
      this.#waiting = exchange;
      return;
    }
    this.#write(exchange);
  }

  abort(reason: string): void {
    if (this.#state === 'closed') return;
    this.#move('abort');
    this.#stream.abort(reason);
  }

  #move(input: ClientConnectionInput): void {
    const row = nextState(this.#state, input);
    this.#setup.ctx.trace.emit({ type: 'transition', machine: 'client-connection', connectionId: this.id, from: row.from, input, to: row.to });
    this.#state = row.to;
  }

  #ready(): void {
    if (this.#state !== 'connecting') return;
    const now = this.#setup.ctx.clock.now();
    const transport = this.#setup.transportReadyAt?.();
    const setup = { connect: now - this.#openingAt, ssl: transport === undefined ? -1 : now - transport };
    this.#move('ready');
    const first = this.#waiting;
    this.#waiting = undefined;
    if (first) {
      first.setup = setup;
      this.#write(first);
    } else {
      this.#armIdle();
      this.#setup.hooks.onStateChange(this);
    }
  }

  #write(exchange: Exchange): void {
    const { ctx, codec, hooks } = this.#setup;
    const { request, last } = hooks.build(exchange);
    const input: ClientConnectionInput = this.#outstanding.length > 0 ? 'pipeline' : last ? 'send-last' : 'send';
    ctx.clock.clearTimeout(this.#idleTimer);
    exchange.wire = request;
    exchange.lastOnConnection = last;
    exchange.sentAt = ctx.clock.now();
    this.#outstanding.push(exchange);
    this.#move(input);
    ctx.trace.emit({ type: 'request-sent', requestId: exchange.id, connectionId: this.id, startLine: startLine(request), headers: request.headers });
    this.#engine.sent(request);
    this.#stream.write(codec.encodeRequest(request));
  }

  #receive(bytes: Uint8Array): void {
    this.#engine.received(bytes);
    const head = this.#outstanding[0];
    if (!head) return; // nothing asked: stray bytes are ignored (RFC 9112 §9.3 leaves them undefined)
    if (head.firstByteAt === undefined) {
      head.firstByteAt = this.#setup.ctx.clock.now();
      this.#setup.ctx.trace.emit({ type: 'response-started', requestId: head.id, connectionId: this.id });
    }
    this.#buffer = this.#buffer.length === 0 ? bytes : concatBytes([this.#buffer, bytes]);
    this.#drain(false);
  }

  #drain(closed: boolean): void {
    const { codec, ctx } = this.#setup;
    for (let head = this.#outstanding[0]; head; head = this.#outstanding[0]) {
      if (this.#buffer.length === 0 && !closed) return;
      const decoded = codec.decodeResponse(this.#buffer, {
        requestMethod: head.method,
        requestVersion: head.wire?.version ?? '1.1',
        closed,
      });
      if (decoded.kind === 'need-more') return;
      if (decoded.kind === 'error') {
        // The HTTP/1 reader rejected the response: traced with its code, text and offset; the fetch fails.
        this.#buffer = new Uint8Array(0);
        const { error } = decoded;
        ctx.trace.emit({
          type: 'protocol-error',
          connectionId: this.id,
          by: 'client',
          protocol: 'http/1',
          code: error.code,
          message: error.message,
          offset: error.offset ?? null,
          status: null,
        });
        if (this.#state !== 'closed') this.abort(`bad response: ${error.message}`);
        return;
      }
      this.#buffer = this.#buffer.subarray(decoded.consumed);
      const response = decoded.message;
      ctx.trace.emit({
        type: 'message-parsed',
        connectionId: this.id,
        by: 'client',
        kind: 'response',
        startLine: startLine(response),
        headers: response.headers,
        bodyLength: response.body.length,
      });
      if (response.status >= 100 && response.status < 200 && response.version !== '0.9') continue; // interim
      this.#complete(head, response);
      const next = this.#outstanding[0];
      if (next && this.#buffer.length > 0 && next.firstByteAt === undefined) {
        next.firstByteAt = ctx.clock.now();
        ctx.trace.emit({ type: 'response-started', requestId: next.id, connectionId: this.id });
      }
    }
  }

  #complete(exchange: Exchange, response: WireResponse): void {
    this.#outstanding.shift();
    this.#served++;
    // The one persistence rule of HTTP/1 (RFC 9112 §9.3), the engine's: http1/framing.ts isPersistent.
    const close = exchange.lastOnConnection === true || !isPersistent(response.version, response.headers);
    const { timeout } = keepAliveParams(response.headers);
    if (timeout !== undefined) this.#idleMs = Math.min(this.#idleMs, timeout * 1000);
    this.#persistent = !close;
    this.#setup.hooks.onResponse(exchange, response);
    if (this.#state === 'closed') return;
    if (close) {
      this.#move('response-close');
      this.#engine.closed();
      this.#stream.close(response.version === '0.9' ? 'HTTP/0.9 response complete' : 'connection not persistent');
    } else if (this.#outstanding.length === 0) {
      this.#move('response-keep');
      this.#armIdle();
    } else {
      this.#move(this.#outstanding.length === 1 ? 'response-one-left' : 'response-more-left');
    }
    this.#setup.hooks.onStateChange(this);
  }

  #armIdle(): void {
    const { clock } = this.#setup.ctx;
    clock.clearTimeout(this.#idleTimer);
    this.#idleTimer = clock.setTimeout(() => {
      if (this.#state !== 'idle') return;
      this.#move('idle-timeout');
      this.#engine.closed();
      this.#stream.close('idle timeout');
    }, this.#idleMs);
  }

  #closed(info: CloseInfo): void {
    this.#setup.ctx.clock.clearTimeout(this.#idleTimer);
    if (info.by !== 'client') this.#engine.received('eof');
    if (this.#outstanding.length > 0) this.#drain(true); // a response delimited by the close (RFC 9112 §6.3)
    if (this.#state !== 'closed') this.#move('peer-closed');
    const unanswered = [...this.#outstanding];
    if (this.#waiting) unanswered.unshift(this.#waiting);
    this.#outstanding.length = 0;
    this.#waiting = undefined;
    this.#setup.hooks.onClosed(this, unanswered, info);
  }
}
