/**
 * One client-side HTTP/1 connection: writes requests, matches responses to them in order, and decides
 * after each response whether the connection persists (RFC 9112 §9.3). Its states and moves are the
 * rows of CLIENT_CONNECTION_TABLE; every move is traced as a 'transition' event.
 *
 * Responses are read by the engine, Http1Connection (observer.ts, driving): what it rejects is what this
 * client rejects, a 'protocol-error' (the engine's code, text and offset), the fetch failed with the engine's
 * WireError as the cause, and the connection closed. A body the engine marks with transfer codings
 * (`Transfer-Encoding: gzip, chunked`) is decoded before anyone sees it (RFC 9112 §6.1); a body that does not
 * decode fails the fetch the same way. Codings no one here can undo (`chunked, deflate`, which RFC 9112 §6.3
 * rule 4 frames until close; `identity`; an unknown one) leave a correctly framed response: the fetch gets its
 * bytes as received, and the 'message-parsed' event notes that they were not decoded.
 *
 * Persistence after a response, in the order RFC 9112 §9.3 checks it:
 * - we asked to close (Connection: close, or a 1.0 request without Keep-Alive) -> close;
 * - the response says Connection: close -> close;
 * - an HTTP/1.0 response persists only with Connection: keep-alive (RFC 2068 §19.7.1);
 * - HTTP/1.1 persists otherwise; HTTP/0.9 responses end at close, so never.
 * A `Keep-Alive: timeout=<s>` from the server shortens our idle timer to match.
 */
import type { WireError } from '../../errors';
import type { MessageCodec, HeaderField, Http1Version, WireRequest, WireResponse } from '../../net/codec';
import { keepAliveParams, startLine } from '../../net/codec';
import { nextState, type ClientConnectionInput, type ClientConnectionState } from '../../net/connection-table';
import type { Exchange } from '../exchange';
import type { ByteStream, CloseInfo } from '../../net/stream';
import { concatBytes } from '../../net/stream';
import type { NetContext } from '../../net/tcp';
import {
  type Http1ReadStep,
  canDecodeHttp1TransferCodings,
  decodeHttp1TransferCodings,
  http1UndecodedCodingsNote,
  isHttp1Persistent as isPersistent,
} from '../../http1/index';
import { Http1Observer } from './observer';
import { traceHttp1ProtocolError } from './protocol-error';

export interface ConnectionHooks {
  /** Builds the request for this exchange as it will go on this connection. */
  build(exchange: Exchange): { request: WireRequest; last: boolean };
  onResponse(exchange: Exchange, response: WireResponse): void;
  /** The engine rejected this exchange's response (or its body did not decode): the fetch fails with `error`. */
  onError(exchange: Exchange, error: WireError): void;
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
  /** Registers host-side async work (decoding a transfer-coded body) so virtual time waits for it. */
  readonly track?: (work: Promise<unknown>) => void;
}

/** A bound on the engine steps one arrival is turned into (each step consumes bytes or ends the loop). */
const MAX_STEPS_PER_READ = 100_000;

/** The response being read: its head, and its body so far. */
interface Reading {
  readonly version: Http1Version;
  readonly status: number;
  readonly reason: string;
  readonly headers: readonly HeaderField[];
  readonly chunks: Uint8Array[];
  codings: readonly string[] | undefined;
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
  #reading: Reading | undefined;
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
    this.#engine = new Http1Observer('client', stream.connectionId, setup.ctx, { driving: true });
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
   * Whether one more request may be pipelined now: the connection must already be known to persist (a
   * response has said so; the agent's caution, see agent.ts), be below `depth`, and the request must be
   * idempotent (the caller checks that).
   */
  canPipeline(depth: number): boolean {
    // The engine must agree: its table does not let a request follow a non-idempotent one before that one's
    // final status arrives (RFC 9112 §9.3.2), nor an HTTP/1.0 one before a response has confirmed persistence.
    return (this.#state === 'busy' || this.#state === 'pipelined') && this.#persistent && this.#outstanding.length < depth && this.#engine.canSend;
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
    const refused = this.#engine.sent(request);
    if (refused) {
      // The engine will not send this request (its state table forbids it now): nothing goes on the wire.
      this.#protocolError(refused);
      this.#reject(exchange, refused, 'request refused');
      return;
    }
    this.#stream.write(codec.encodeRequest(request));
  }

  #receive(bytes: Uint8Array): void {
    this.#engine.feed(bytes);
    const steps = this.#readSteps();
    const head = this.#outstanding[0];
    if (head && head.firstByteAt === undefined) {
      head.firstByteAt = this.#setup.ctx.clock.now();
      this.#setup.ctx.trace.emit({ type: 'response-started', requestId: head.id, connectionId: this.id });
    }
    this.#handle(steps);
  }

  /**
   * Every step the engine reads now, up to one that needs more bytes; its state-table rows are traced as it
   * reads, so they come before what this connection makes of the steps (as when the engine only observed).
   */
  #readSteps(): Http1ReadStep[] {
    const steps: Http1ReadStep[] = [];
    for (let i = 0; i < MAX_STEPS_PER_READ; i++) {
      const step = this.#engine.next();
      if (step.type === 'need-data' || step.type === 'paused') break;
      steps.push(step);
      if (step.type === 'error' || step.type === 'connection-closed') break;
    }
    return steps;
  }

  /** Turns the engine's steps into responses, in order, for the requests outstanding. */
  #handle(steps: readonly Http1ReadStep[], closing = false): void {
    const { ctx } = this.#setup;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      switch (step.type) {
        case 'informational': {
          if (!this.#outstanding[0]) break; // nothing asked: stray bytes are ignored (RFC 9112 §9.3 leaves them undefined)
          const interim: WireResponse = { version: step.version, status: step.status, reason: step.reason, headers: step.headers, body: new Uint8Array(0) };
          this.#parsed(interim);
          break;
        }
        case 'response':
          this.#reading = { version: step.version, status: step.status, reason: step.reason, headers: step.headers, chunks: [], codings: undefined };
          break;
        case 'data':
          if (!this.#reading) break;
          this.#reading.chunks.push(step.data);
          this.#reading.codings ??= step.codings;
          break;
        case 'end-of-message': {
          const reading = this.#reading;
          this.#reading = undefined;
          const exchange = this.#outstanding[0];
          if (!reading || !exchange) break; // a response nobody asked for: ignored, as above
          const { chunks } = reading;
          const body = chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? new Uint8Array(0) : concatBytes(chunks);
          const response: WireResponse = { version: reading.version, status: reading.status, reason: reading.reason, headers: reading.headers, body };
          // Codings nobody here can undo (`chunked, deflate`, read until close by RFC 9112 §6.3 rule 4): the
          // response is framed correctly, so the fetch gets its bytes as received and the trace says why.
          const { codings } = reading;
          const undecodable = codings !== undefined && codings.length > 0 && !canDecodeHttp1TransferCodings(codings);
          this.#parsed(response, undecodable ? http1UndecodedCodingsNote(codings) : undefined);
          this.#complete(exchange, response, undecodable ? undefined : codings);
          // The next response has begun if the engine read more, or holds bytes it has not read yet.
          const next = this.#outstanding[0];
          const more = steps.slice(i + 1).some((s) => s.type !== 'connection-closed') || this.#engine.buffered > 0;
          if (next && more && next.firstByteAt === undefined) {
            next.firstByteAt = ctx.clock.now();
            ctx.trace.emit({ type: 'response-started', requestId: next.id, connectionId: this.id });
          }
          break;
        }
        case 'error': {
          const reading = this.#reading;
          this.#reading = undefined;
          const exchange = this.#outstanding[0];
          // The peer closed before any byte of a response: not a malformed response but requests left
          // unanswered, which #closed hands back (the agent may retry them, RFC 9112 §9.3.1).
          if (closing && (!exchange || (!reading && exchange.firstByteAt === undefined))) return;
          this.#protocolError(step.error);
          if (exchange) this.#reject(exchange, step.error, 'bad response');
          else if (!closing && this.#state !== 'closed') this.abort(`bad response: ${step.error.message}`);
          return;
        }
        default:
          break; // connection-closed: #closed deals with the close
      }
    }
  }

  #parsed(response: WireResponse, note?: string): void {
    this.#setup.ctx.trace.emit({
      type: 'message-parsed',
      connectionId: this.id,
      by: 'client',
      kind: 'response',
      startLine: startLine(response),
      headers: response.headers,
      bodyLength: response.body.length,
      ...(note === undefined ? {} : { note }),
    });
  }

  /** The engine's error, traced with its code, text and offset (a client answers nothing: no status). */
  #protocolError(error: WireError): void {
    traceHttp1ProtocolError(this.#setup.ctx, this.id, 'client', error, null);
  }

  /** The exchange fails with the engine's error, and the connection, which cannot be trusted any more, closes. */
  #reject(exchange: Exchange, error: WireError, why: string): void {
    this.#setup.hooks.onError(exchange, error);
    if (this.#state !== 'closed') this.abort(`${why}: ${error.message}`);
  }

  #complete(exchange: Exchange, response: WireResponse, codings: readonly string[] | undefined): void {
    this.#outstanding.shift();
    this.#served++;
    // The one persistence rule of HTTP/1 (RFC 9112 §9.3), the engine's: http1/framing.ts isPersistent.
    const close = exchange.lastOnConnection === true || !isPersistent(response.version, response.headers);
    const { timeout } = keepAliveParams(response.headers);
    if (timeout !== undefined) this.#idleMs = Math.min(this.#idleMs, timeout * 1000);
    this.#persistent = !close;
    if (codings !== undefined && codings.length > 0) this.#decode(exchange, response, codings);
    else this.#setup.hooks.onResponse(exchange, response);
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

  /**
   * `Transfer-Encoding: gzip, chunked`: the engine undid chunked and left gzip; the fetch gets the content,
   * never the coded bytes (RFC 9112 §6.1). Decoding is asynchronous (DecompressionStream), tracked so virtual
   * time waits for it. The message was framed correctly, so the connection carries on either way.
   */
  #decode(exchange: Exchange, response: WireResponse, codings: readonly string[]): void {
    const work = decodeHttp1TransferCodings(response.body, codings).then(
      (body) => this.#setup.hooks.onResponse(exchange, { ...response, body }),
      (error: WireError) => {
        this.#protocolError(error);
        this.#setup.hooks.onError(exchange, error);
      },
    );
    this.#setup.track?.(work);
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
    if (info.by !== 'client') {
      // A response delimited by the close (RFC 9112 §6.3) ends now; one cut short is the engine's error.
      this.#engine.feed('eof');
      this.#handle(this.#readSteps(), true);
    }
    if (this.#state !== 'closed') this.#move('peer-closed');
    const unanswered = [...this.#outstanding];
    if (this.#waiting) unanswered.unshift(this.#waiting);
    this.#outstanding.length = 0;
    this.#waiting = undefined;
    this.#setup.hooks.onClosed(this, unanswered, info);
  }
}
