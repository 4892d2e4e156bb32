/**
 * One HTTP/2 connection of the simulator's client (client.ts): it opens TCP (through a CONNECT tunnel and TLS
 * where the URL asks), sends the preface and its SETTINGS with the receive windows a browser offers, starts
 * requests as streams up to the peer's SETTINGS_MAX_CONCURRENT_STREAMS, keeps pushed responses for a later GET,
 * and settles each fetch from its stream's HEADERS and DATA, or hands it back to be retried elsewhere.
 */
import type { HeaderField, WireResponse } from '../../net/codec';
import { header } from '../../net/codec';
import { defaultPort } from '../http1/agent';
import { abortReason, roundTimings, toFetchResponse, type Exchange } from '../exchange';
import type { ProtocolEnv } from '../protocol';
import type { ByteStream } from '../../net/stream';
import { concatBytes } from '../../net/stream';
import { TlsStream } from '../../net/tls';
import { ConnectTunnel } from '../proxy-tunnel';
import { binaryString } from '../../trace/events';
import { emitPrebuilt } from '../../trace/trace';
import type { Settings } from '../../http2/constants';
import { DEFAULT_WINDOW_SIZE, ERROR_CODES } from '../../http2/constants';
import type { Http2FlowControl } from '../../net/options';
import { Http2Connection } from '../../http2/connection';
import type { Http2Event } from '../../http2/events';
import { DataQueue, FifoQueue, field, frozenFields, h2Fields, regularFields } from './common';
import { Http2Tracer } from './trace';
import type { Http2ClientOptions } from './client';

/**
 * The receive windows Chrome offers in its first flight: SETTINGS_INITIAL_WINDOW_SIZE = 6 MiB and a
 * connection WINDOW_UPDATE of 15,663,105, raising the connection window to 15 MiB.
 */
export const BROWSER_STREAM_WINDOW = 6 * 1024 * 1024;
export const BROWSER_CONNECTION_WINDOW = 15 * 1024 * 1024;

/** The stream and connection receive windows a flow-control choice stands for (options.ts Http2FlowControl). */
export function flowControlWindows(flow: Http2FlowControl = 'browser'): { readonly stream: number; readonly connection: number } {
  if (flow === 'browser') return { stream: BROWSER_STREAM_WINDOW, connection: BROWSER_CONNECTION_WINDOW };
  if (flow === 'rfc-defaults') return { stream: DEFAULT_WINDOW_SIZE, connection: DEFAULT_WINDOW_SIZE };
  return { stream: flow.streamWindow, connection: flow.connectionWindow };
}

/** Chrome's assumption before the server's SETTINGS arrive (kDefaultInitialMaxConcurrentStreams). */
const INITIAL_MAX_STREAMS = 100;

/** Settles a fetch as failed, once; the client (client.ts) fails with it too, before a session has the fetch. */
export function fail(env: ProtocolEnv, exchange: Exchange, reason: 'aborted' | 'network-error', error: unknown, message: string): void {
  if (exchange.settled) return;
  exchange.settled = true;
  env.ctx.trace.emit({ type: 'request-failed', requestId: exchange.id, reason, message });
  exchange.reject(error);
}

interface StreamCtx {
  exchange: Exchange | undefined;
  readonly url: string;
  status: number;
  headers: HeaderField[];
  readonly body: Uint8Array[];
  headersSize: number;
  requestHeaders: HeaderField[];
  requestHeadersSize: number;
  done: boolean;
}

/**
 * The session's streams by id, counting the client-initiated (odd) ones as they come and go: #pump
 * compares that count with the limit for every queued request, and counting the map each time made
 * n requests cost O(n * limit).
 */
class ClientStreams extends Map<number, StreamCtx> {
  ownCount = 0;

  override set(id: number, s: StreamCtx): this {
    if (id % 2 === 1 && !this.has(id)) this.ownCount++;
    return super.set(id, s);
  }

  override delete(id: number): boolean {
    const had = super.delete(id);
    if (had && id % 2 === 1) this.ownCount--;
    return had;
  }

  override clear(): void {
    this.ownCount = 0;
    super.clear();
  }
}

interface SessionHooks {
  readonly retry: (exchange: Exchange) => void;
  readonly ended: (session: Http2ClientSession) => void;
}

export class Http2ClientSession {
  readonly key: string;
  readonly #env: ProtocolEnv;
  readonly #hooks: SessionHooks;
  readonly #stream: ByteStream;
  readonly #conn: Http2Connection;
  readonly #tracer: Http2Tracer;
  readonly #queue = new FifoQueue<Exchange>();
  readonly #streams = new ClientStreams();
  readonly #byExchange = new Map<Exchange, number>();
  /** Pushed responses by URL, until a fetch claims them. */
  readonly #pushed = new Map<string, number>();
  readonly #data = new DataQueue();
  readonly #origin: URL;
  readonly #serverIP: string;
  #settingsKnown = false;
  #draining = false;
  #closed = false;
  #openedAt: number | undefined;
  #readyAt: number | undefined;
  #tlsMs = -1;
  /** A request has been started on this connection: the first one opened it, and only it paid for the setup. */
  #opener = false;
  #idleTimer: number | undefined;
  #corked: Uint8Array[] | undefined;

  constructor(env: ProtocolEnv, options: Http2ClientOptions, first: Exchange, hooks: SessionHooks) {
    this.key = first.origin;
    this.#env = env;
    this.#hooks = hooks;
    const { ctx, network, link } = env;
    const url = first.url;
    this.#origin = new URL(`${url.protocol}//${url.host}`);
    this.#serverIP = env.proxyIP ?? env.ipFor(url.hostname);
    const https = url.protocol === 'https:';
    const authority = `${url.hostname}:${defaultPort(url)}`;
    const tcp = network.connect(env.proxyAddress ?? authority, { from: 'client', link });
    // Through a proxy, TLS starts once the CONNECT tunnel is open (submit() admits only https: then).
    const transport: ByteStream = env.proxyAddress ? new ConnectTunnel(tcp, authority, env.codec, ctx) : tcp;
    transport.onOpen(() => (this.#openedAt = ctx.clock.now()));
    if (https) {
      // TLS 1.2 cannot carry h2 in practice (RFC 9113 §9.2 cipher suite rules); the simulation's TLS version applies.
      const tls = new TlsStream(transport, env.options.tls === '1.2' ? '1.2' : '1.3', ctx, {
        keyShare: env.options.tlsKeyShare,
        falseStart: env.options.tlsFalseStart,
      });
      tls.onOpen(() => {
        this.#readyAt = ctx.clock.now();
        this.#tlsMs = this.#readyAt - (this.#openedAt ?? this.#readyAt);
      });
      this.#stream = tls;
    } else {
      tcp.onOpen(() => (this.#readyAt = ctx.clock.now()));
      this.#stream = tcp;
    }
    ctx.trace.emit({ type: 'h2-session', connectionId: tcp.connectionId, side: 'client', protocol: https ? 'h2' : 'h2c', alpn: https ? 'h2' : null });
    this.#tracer = new Http2Tracer(ctx, tcp.connectionId, 'client');
    const windows = flowControlWindows(env.options.http2.flowControl);
    const settings: Partial<Settings> = {
      ...(windows.stream === DEFAULT_WINDOW_SIZE ? {} : { INITIAL_WINDOW_SIZE: windows.stream }),
      ...(options.enablePush === false ? { ENABLE_PUSH: 0 } : {}),
      ...options.settings,
    };
    // The tracer shows the encoder's own HPACK steps rather than decoding every block again.
    this.#conn = new Http2Connection({ role: 'client', settings, connectionWindow: windows.connection, annotateFieldBlocks: true });
    this.#stream.onData((bytes) => this.#receive(bytes));
    this.#stream.onClose((info) => this.#onClose(`${info.how === 'reset' ? 'reset' : 'closed'} by the ${info.by}: ${info.reason}`));
    // RFC 9113 §3.4: the preface goes first; the byte stream queues it until TCP (and TLS) are up.
    this.#write(this.#conn.initiate().bytes);
  }

  get connectionId(): string {
    return this.#stream.connectionId;
  }

  /** False once the connection is going away: new requests need a new connection. */
  get accepting(): boolean {
    return !this.#draining && !this.#closed && !this.#conn.isClosed;
  }

  submit(exchange: Exchange): void {
    const { ctx } = this.#env;
    ctx.clock.clearTimeout(this.#idleTimer);
    const pushedId = exchange.method === 'GET' ? this.#pushed.get(exchange.url.href) : undefined;
    if (pushedId !== undefined) this.#pushed.delete(exchange.url.href);
    const s = pushedId === undefined ? undefined : this.#streams.get(pushedId);
    // A pushed stream the server has since reset is gone from #streams: then the fetch asks for itself.
    if (pushedId !== undefined && s && !s.exchange) {
      exchange.dispatchedAt = ctx.clock.now();
      exchange.connectionId = this.connectionId;
      exchange.reused = true;
      exchange.serverIPAddress = this.#serverIP;
      exchange.sentAt = ctx.clock.now(); // nothing goes on the wire: the promised response answers it
      emitPrebuilt(ctx.trace, {
        type: 'request-dispatched',
        requestId: exchange.id,
        connectionId: this.connectionId,
        reused: true,
        pipelineDepth: this.#streams.size,
        seq: 0,
        at: 0,
      });
      s.exchange = exchange;
      this.#byExchange.set(exchange, pushedId);
      if (s.done) this.#finish(pushedId, s);
      return;
    }
    this.#queue.push(exchange);
    this.#pump();
  }

  abort(exchange: Exchange): void {
    this.#queue.remove(exchange);
    const id = this.#byExchange.get(exchange);
    if (id === undefined) return;
    this.#byExchange.delete(exchange);
    this.#streams.delete(id);
    this.#data.drop(id);
    fail(this.#env, exchange, 'aborted', abortReason(exchange.signal!), 'aborted by the caller');
    // RFC 9113 §8.7: a client cancels one request with RST_STREAM(CANCEL); the connection carries on.
    const state = this.#conn.streamState(id);
    if (!this.#closed && !this.#conn.isClosed && state !== 'closed' && state !== 'idle') this.#write(this.#conn.resetStream(id, 'CANCEL').bytes);
    this.#pump();
  }

  #limit(): number {
    return this.#settingsKnown ? this.#conn.remoteSettings.MAX_CONCURRENT_STREAMS : INITIAL_MAX_STREAMS;
  }

  #active(): number {
    return this.#streams.ownCount;
  }

  #pump(): void {
    const { ctx } = this.#env;
    while (this.#queue.length > 0 && this.accepting && this.#active() < this.#limit()) {
      const exchange = this.#queue.shift()!;
      if (exchange.settled) continue;
      this.#start(exchange);
    }
    // Only the newest arrivals can be unreported: scan back from the end (the queue can be long).
    for (let position = this.#queue.length - 1; position >= 0; position--) {
      const exchange = this.#queue.at(position)!;
      if (exchange.queuedReported) break;
      exchange.queuedReported = true;
      emitPrebuilt(ctx.trace, { type: 'request-queued', requestId: exchange.id, origin: exchange.origin, reason: 'connection-limit', position, seq: 0, at: 0 });
    }
    if (this.#draining && !this.#busy() && !this.#closed) this.#stream.close('GOAWAY: no streams left');
  }

  #start(exchange: Exchange): void {
    const { ctx } = this.#env;
    const url = exchange.url;
    const authority = header(exchange.headers, 'host') ?? (url.port ? `${url.hostname}:${url.port}` : url.hostname);
    // RFC 9113 §8.3.1: the request's control data are pseudo-header fields, before the regular ones.
    const fields: HeaderField[] = [
      { name: ':method', value: exchange.method },
      { name: ':scheme', value: url.protocol.slice(0, -1) },
      { name: ':authority', value: authority },
      { name: ':path', value: url.pathname + url.search },
      ...h2Fields(exchange.headers),
    ];
    const body = exchange.body;
    if ((body.length > 0 || ['POST', 'PUT', 'PATCH'].includes(exchange.method)) && field(fields, 'content-length') === undefined) {
      fields.push({ name: 'content-length', value: String(body.length) });
    }
    // Requests started while the first one's TCP and TLS handshakes run wait for that connection, as in Chrome,
    // whose DevTools show them stalled with no connection phases: they reuse a connection they did not open.
    const reused = this.#readyAt !== undefined || this.#opener;
    this.#opener = true;
    exchange.dispatchedAt = ctx.clock.now();
    exchange.connectionId = this.connectionId;
    exchange.reused = reused;
    exchange.serverIPAddress = this.#serverIP;
    // Flat events (strings, numbers, booleans) have nothing below them to freeze: emitPrebuilt.
    emitPrebuilt(ctx.trace, {
      type: 'request-dispatched',
      requestId: exchange.id,
      connectionId: this.connectionId,
      reused,
      pipelineDepth: this.#active(),
      seq: 0,
      at: 0,
    });
    const sent = this.#conn.request(fields, { endStream: body.length === 0 });
    // Shared by this request's 'request-sent' and 'request-finished' events. Frozen once the engine has
    // read it: its hot loops then see the same kind of array from the client and the server.
    frozenFields(fields);
    const id = sent.streamId;
    this.#tracer.encoded(sent.block, fields);
    const headersSize = sent.frames.reduce((n, f) => n + ('headerBlockFragment' in f ? f.headerBlockFragment.length : 0), 0);
    this.#streams.set(id, {
      exchange,
      url: url.href,
      status: 0,
      headers: [],
      body: [],
      headersSize: 0,
      requestHeaders: fields,
      requestHeadersSize: headersSize,
      done: false,
    });
    this.#byExchange.set(exchange, id);
    this.#write(sent.bytes);
    if (body.length > 0) {
      this.#data.push(id, body, true);
      for (const bytes of this.#data.flush(this.#conn)) this.#write(bytes);
    }
    const stamp = (): void => {
      exchange.sentAt ??= ctx.clock.now();
      const startLine = `${exchange.method} ${url.pathname + url.search} HTTP/2 (stream ${id})`;
      emitPrebuilt(ctx.trace, { type: 'request-sent', requestId: exchange.id, connectionId: this.connectionId, startLine, headers: fields, seq: 0, at: 0 });
    };
    // The request is on the wire once the connection is ready; until then the byte stream holds it.
    if (this.#readyAt !== undefined) stamp();
    else this.#stream.onOpen(stamp);
  }

  #write(bytes: Uint8Array): void {
    if (bytes.length === 0 || this.#closed) return;
    if (this.#corked) {
      this.#corked.push(bytes);
      return;
    }
    this.#tracer.sent(bytes);
    this.#stream.write(bytes);
    // The simulated socket takes every write: nothing stays queued for a peer that does not read.
    this.#conn.outputFlushed();
  }

  /** Handles one delivery of bytes; what it makes us send (ACKs, WINDOW_UPDATEs, requests) leaves in one write. */
  #receive(bytes: Uint8Array): void {
    this.#tracer.received(bytes);
    this.#corked = [];
    const result = this.#conn.receiveData(bytes);
    for (const e of result.events) this.#event(e);
    this.#write(result.bytes);
    if (this.#data.size > 0) for (const b of this.#data.flush(this.#conn)) this.#write(b);
    this.#pump();
    const out = this.#corked;
    this.#corked = undefined;
    if (out.length > 0) this.#write(out.length === 1 ? out[0]! : concatBytes(out));
    this.#armIdle();
  }

  #event(e: Http2Event): void {
    const { ctx } = this.#env;
    switch (e.type) {
      case 'settings-received':
        this.#settingsKnown = true;
        return;
      case 'headers': {
        const s = this.#streams.get(e.streamId);
        if (!s) return;
        if (e.kind !== 'response') {
          // fetch surfaces neither 1xx responses nor trailers, but trailers end the response (RFC 9113 §8.1).
          if (e.kind === 'trailers' && e.endStream) this.#complete(e.streamId, s);
          return;
        }
        s.status = Number(field(e.headers, ':status'));
        // The entries the frame's trace event holds, when the tracer decoded the same list: no second frozen copy.
        const decoded = this.#tracer.receivedBlock(e.streamId, e.headers);
        s.headers = decoded ? (Object.freeze(regularFields(decoded)) as HeaderField[]) : frozenFields(regularFields(e.headers));
        s.headersSize = this.#tracer.lastBlockReceived;
        if (s.exchange) {
          s.exchange.firstByteAt ??= ctx.clock.now();
          emitPrebuilt(ctx.trace, { type: 'response-started', requestId: s.exchange.id, connectionId: this.connectionId, seq: 0, at: 0 });
        }
        if (e.endStream) this.#complete(e.streamId, s);
        return;
      }
      case 'data': {
        const s = this.#streams.get(e.streamId);
        if (!s) return;
        s.body.push(e.data);
        if (e.endStream) this.#complete(e.streamId, s);
        return;
      }
      case 'push-promise': {
        // RFC 9113 §8.4.1: the promised request's URL comes from its pseudo-header fields.
        const url = `${field(e.headers, ':scheme') ?? this.#origin.protocol.slice(0, -1)}://${field(e.headers, ':authority') ?? this.#origin.host}${field(e.headers, ':path') ?? '/'}`;
        this.#streams.set(e.promisedStreamId, {
          exchange: undefined,
          url,
          status: 0,
          headers: [],
          body: [],
          headersSize: 0,
          requestHeaders: frozenFields([...e.headers]),
          requestHeadersSize: 0,
          done: false,
        });
        this.#pushed.set(url, e.promisedStreamId);
        return;
      }
      case 'stream-reset':
      case 'stream-error': {
        const s = this.#streams.get(e.streamId);
        this.#streams.delete(e.streamId);
        this.#data.drop(e.streamId);
        const ex = s?.exchange;
        if (!ex || ex.settled) return;
        this.#byExchange.delete(ex);
        if (e.type === 'stream-reset' && e.errorCode === ERROR_CODES.REFUSED_STREAM) return this.#retry(ex, 'REFUSED_STREAM');
        const message = e.type === 'stream-reset' ? `stream ${e.streamId} reset by the server: ${e.errorName}` : `stream ${e.streamId}: ${e.error.message}`;
        fail(this.#env, ex, 'network-error', new TypeError('Failed to fetch', { cause: new Error(message) }), message);
        return;
      }
      case 'goaway': {
        // RFC 9113 §6.8: streams above lastStreamId were not processed and may be retried elsewhere.
        this.#draining = true;
        this.#hooks.ended(this);
        for (const id of e.unprocessedStreams) {
          const s = this.#streams.get(id);
          this.#streams.delete(id);
          if (s?.exchange && !s.exchange.settled) {
            this.#byExchange.delete(s.exchange);
            this.#retry(s.exchange, `GOAWAY (${e.errorName}) above stream ${e.lastStreamId}`);
          }
        }
        for (const ex of this.#queue.drain()) this.#hooks.retry(ex);
        return;
      }
      case 'connection-error':
        this.#stream.close(`HTTP/2 connection error: ${e.error.message}`);
        this.#onClose(e.error.message);
        return;
      default:
        return;
    }
  }

  #retry(exchange: Exchange, why: string): void {
    exchange.attempts++;
    this.#env.ctx.trace.emit({ type: 'request-retried', requestId: exchange.id, connectionId: this.connectionId, reason: why });
    for (const f of ['dispatchedAt', 'connectionId', 'reused', 'sentAt', 'firstByteAt', 'wire', 'setup'] as const) delete exchange[f];
    this.#hooks.retry(exchange);
  }

  #complete(id: number, s: StreamCtx): void {
    s.done = true;
    if (s.exchange) this.#finish(id, s);
  }

  #finish(id: number, s: StreamCtx): void {
    const ex = s.exchange!;
    this.#streams.delete(id);
    this.#byExchange.delete(ex);
    if (ex.settled) return;
    ex.settled = true;
    const { ctx } = this.#env;
    const now = ctx.clock.now();
    const body = s.body.length === 1 ? s.body[0]! : concatBytes(s.body);
    const response: WireResponse = { version: '1.1', status: s.status, reason: '', headers: s.headers, body };
    const firstByte = ex.firstByteAt ?? now;
    const sentAt = ex.sentAt ?? now;
    const dispatched = ex.dispatchedAt ?? ex.startedAt;
    const fresh = ex.reused === false;
    // Built whole, its parts frozen here (the header lists were frozen when they arrived): see emitPrebuilt.
    emitPrebuilt(ctx.trace, {
      type: 'request-finished',
      requestId: ex.id,
      connectionId: this.connectionId,
      startedAt: ex.startedAt,
      reused: !fresh,
      serverIPAddress: this.#serverIP,
      timings: Object.freeze(
        roundTimings({
          // A request that waited for another's handshakes was blocked until its HEADERS could leave.
          blocked: (fresh ? dispatched : sentAt) - ex.startedAt,
          dns: -1,
          connect: fresh ? sentAt - dispatched : -1,
          ssl: fresh ? this.#tlsMs : -1,
          send: 0,
          wait: Math.max(0, firstByte - sentAt),
          receive: now - firstByte,
        }),
      ),
      // Chrome exports HTTP/2 entries with httpVersion "h2" and the pseudo-headers among the headers.
      request: Object.freeze({
        method: ex.method,
        url: ex.url.href,
        httpVersion: 'h2',
        headers: s.requestHeaders,
        headersSize: s.requestHeadersSize,
        bodySize: ex.body.length,
      }),
      response: Object.freeze({
        status: s.status,
        statusText: '',
        httpVersion: 'h2',
        headers: s.headers,
        headersSize: s.headersSize,
        bodySize: body.length,
        mimeType: header(s.headers, 'content-type') ?? 'x-unknown',
        body: binaryString(body),
      }),
      seq: 0,
      at: 0,
    });
    ex.resolve(toFetchResponse(ex, response));
  }

  /** Streams still expecting frames (a completed push nobody has claimed yet does not count). */
  #busy(): boolean {
    for (const s of this.#streams.values()) if (!s.done) return true;
    return this.#queue.length > 0;
  }

  #armIdle(): void {
    const { clock } = this.#env.ctx;
    clock.clearTimeout(this.#idleTimer);
    if (this.#busy() || this.#closed) return;
    this.#idleTimer = clock.setTimeout(() => {
      if (this.#busy() || this.#closed || this.#conn.isClosed) return;
      // RFC 9113 §6.8: a graceful close announces itself with GOAWAY before the connection ends.
      this.#draining = true;
      this.#hooks.ended(this);
      this.#write(this.#conn.goAway('NO_ERROR', 'idle').bytes);
      this.#stream.close('idle timeout');
    }, this.#env.options.idleTimeout);
  }

  #onClose(why: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#env.ctx.clock.clearTimeout(this.#idleTimer);
    this.#hooks.ended(this);
    for (const [, s] of this.#streams) {
      const ex = s.exchange;
      if (!ex || ex.settled) continue;
      const message = `connection ${this.connectionId} closed before the response: ${why}`;
      fail(this.#env, ex, 'network-error', new TypeError('Failed to fetch', { cause: new Error(message) }), message);
    }
    this.#streams.clear();
    for (const ex of this.#queue.drain()) this.#hooks.retry(ex);
  }
}
