/**
 * The mock server's HTTP/2 side: one accepted connection, its streams answered through the same
 * `respond` (server/semantics.ts) as HTTP/1, so handlers, routes and method semantics are identical.
 *
 * - Streams are answered as soon as their request is complete, concurrently: a slow route (latency)
 *   holds back only its own stream, unlike HTTP/1 where it holds back the whole connection.
 * - Responses carry :status, Date, Server and the handler's fields, lower-cased (RFC 9113 §8.2.1),
 *   without connection-specific fields (§8.2.2) and without a reason phrase (HTTP/2 has none).
 * - Server push (RFC 9113 §8.4): a route with `push: ['/style.css']` makes the server promise those
 *   paths as GET requests before it sends the response that references them (§8.4.1: promises go
 *   before the frames that could refer to them), then answer each promised stream through `respond`.
 *   Nothing is pushed when the client announced SETTINGS_ENABLE_PUSH = 0 (§6.5.2).
 * - Shutdown and idle timeout end the connection gracefully (§6.8): GOAWAY(NO_ERROR) with the last
 *   stream processed, open streams finish, then TCP closes. Only streams being answered keep a connection
 *   from idling: streams whose request never ends (slowloris) are dropped at the idle timeout, unless the
 *   server's `halfOpenStreamsKeepAlive` says otherwise.
 * - Defences (RFC 9113 §10.5) are the engine's, with the server's `http2Limits` and the virtual clock
 *   (the RST_STREAM budget refills on it). A connection error is answered with its GOAWAY, written
 *   before the TCP connection closes, so the peer (and the trace) sees why.
 * - With `limitRunningHandlers`, Go's rapid-reset defence (CVE-2023-39325): a handler holds one of
 *   SETTINGS_MAX_CONCURRENT_STREAMS slots until it has finished, its route's latency included, even if the
 *   client reset its stream meanwhile (a handler cannot tell). Requests over the limit queue in arrival order;
 *   one reset while it waits is skipped; a queue past 4 x the limit is GOAWAY ENHANCE_YOUR_CALM, Go's bound.
 *   Without it every request is handled at once: SETTINGS_MAX_CONCURRENT_STREAMS counts open streams only
 *   (§5.1.2), so a client that resets each stream can have any number of handlers running.
 * - Faults: a 'status' fault answers with that status; a 'drop' fault resets the TCP connection.
 *   A slow body (bytesPerTick) is not modelled over HTTP/2: DATA goes out as flow control allows.
 */
import { Http2Connection } from '../../http2/connection';
import { CLIENT_PREFACE } from '../../http2/constants';
import type { Http2Event } from '../../http2/events';
import type { HeaderField, WireRequest } from '../../net/codec';
import type { ByteStream } from '../../net/stream';
import { concatBytes } from '../../net/stream';
import type { NetContext } from '../../net/tcp';
import { emitPrebuilt } from '../../trace/trace';
import type { Http2ConnectionInfo, MockServer } from '../../server/server';
import { faultReply, internalError, respond, type Reply } from '../../server/semantics';
import { type ServerEnv as AttachOptions, type ServerProtocol, prefaceDetector } from '../protocol';
import { DataQueue, field, frozenFields, h2Fields, regularFields } from './common';
import { Http2Tracer } from './trace';

export type { Http2ConnectionInfo };

/** HTTP/2 as a server protocol: claims a connection that opens with the client preface (RFC 9113 §3.4). */
export function http2Server(): ServerProtocol {
  const detect = prefaceDetector(CLIENT_PREFACE);
  return {
    id: 'h2',
    detect,
    serve(server, stream, env, initial) {
      const h2 = new Http2ServerConnection(server, stream, env, env.network.ctx);
      const forget = server.opened(h2);
      stream.onData((more) => h2.receive(more));
      stream.onClose(forget);
      if (initial) h2.receive(initial);
    },
  };
}

/** What nginx and h2o announce; clients queue requests beyond it (RFC 9113 §5.1.2). */
export const SERVER_MAX_CONCURRENT_STREAMS = 100;
/** `limitRunningHandlers`: the queue may hold this many times the stream limit (golang.org/x/net http2, scheduleHandler). */
const QUEUED_HANDLERS_PER_STREAM = 4;

interface IncomingRequest {
  readonly headers: readonly HeaderField[];
  readonly body: Uint8Array[];
}

export class Http2ServerConnection {
  readonly #server: MockServer;
  readonly #stream: ByteStream;
  readonly #env: AttachOptions;
  readonly #ctx: NetContext;
  readonly #conn: Http2Connection;
  readonly #tracer: Http2Tracer;
  readonly #requests = new Map<number, IncomingRequest>();
  /** Streams accepted and not yet fully answered (including promised ones). */
  readonly #working = new Set<number>();
  readonly #data = new DataQueue();
  /** Streams whose request completed in the read being processed, handled after all its events. */
  readonly #ready: number[] = [];
  /** Frames produced since the last write: written together by one zero-delay timer. */
  readonly #out: Uint8Array[] = [];
  #writeTimer: number | undefined;
  #closing = false;
  #goingAway = false;
  /** Handlers started and not finished, their stream reset or not (`limitRunningHandlers`). */
  #running = 0;
  /** Requests waiting for a handler slot, in arrival order (`limitRunningHandlers`). */
  #unstarted: { readonly streamId: number; readonly incoming: IncomingRequest }[] = [];
  /** The SETTINGS_MAX_CONCURRENT_STREAMS we announce: the handler limit. */
  readonly #streamLimit: number;
  #idleTimer: number | undefined;
  #dateAt = NaN;
  #dateText = '';

  constructor(server: MockServer, stream: ByteStream, env: AttachOptions, ctx: NetContext) {
    this.#server = server;
    this.#stream = stream;
    this.#env = env;
    this.#ctx = ctx;
    this.#streamLimit = server.defences.http2Limits.maxConcurrentStreams ?? SERVER_MAX_CONCURRENT_STREAMS;
    // `annotateFieldBlocks`: the tracer shows the encoder's own HPACK steps rather than decoding every block again.
    this.#conn = new Http2Connection({
      role: 'server',
      limits: { maxConcurrentStreams: SERVER_MAX_CONCURRENT_STREAMS, ...server.defences.http2Limits },
      now: () => ctx.clock.now(),
      annotateFieldBlocks: true,
    });
    this.#tracer = new Http2Tracer(ctx, stream.connectionId, 'server');
    const secure = env.tls !== undefined;
    ctx.trace.emit({ type: 'h2-session', connectionId: stream.connectionId, side: 'server', protocol: secure ? 'h2' : 'h2c', alpn: secure ? 'h2' : null });
    stream.onClose(() => {
      this.#closing = true;
      ctx.clock.clearTimeout(this.#idleTimer);
    });
    this.#write(this.#conn.initiate().bytes);
    this.#armIdle();
  }

  /** Graceful shutdown (RFC 9113 §6.8): GOAWAY now, close once the streams in progress are answered. */
  shutdown(debug = 'server shutting down'): void {
    if (this.#closing || this.#goingAway || this.#conn.isClosed) return;
    this.#goingAway = true;
    this.#write(this.#conn.goAway('NO_ERROR', debug).bytes);
    this.#closeWhenDone();
  }

  /** What this connection holds for its peer right now (see MockServer.http2Connections). */
  info(): Http2ConnectionInfo {
    return {
      connectionId: this.#stream.connectionId,
      heldFieldBlock: this.#conn.heldFieldBlock,
      requestsArriving: this.#requests.size,
      answering: this.#working.size - this.#requests.size,
      error: this.#conn.error?.code ?? null,
    };
  }

  receive(bytes: Uint8Array): void {
    if (this.#closing) return;
    this.#tracer.received(bytes);
    const result = this.#conn.receiveData(bytes);
    for (const e of result.events) this.#event(e);
    // Requests are handled once every event of the read is seen, so a stream the client resets in the same
    // bytes (rapid reset, CVE-2023-44487) never reaches the handler: the reset forgot its request. After a
    // connection error none is handled (the node adapter, node/h2c-server.ts, does the same).
    const ready = this.#ready.splice(0);
    if (this.#conn.error === null) for (const streamId of ready) if (this.#requests.has(streamId)) this.#handle(streamId);
    if (this.#conn.error !== null) {
      this.#closeWith(result.bytes, `HTTP/2 connection error: ${this.#conn.error.message}`);
      return;
    }
    if (this.#closing) return; // the handler queue overflowed (#handle) and the GOAWAY went out
    this.#write(result.bytes);
    this.#flush();
  }

  /** The GOAWAY that says why goes out (after anything already queued), then the connection closes. */
  #closeWith(goaway: Uint8Array, reason: string): void {
    this.#out.push(goaway);
    const out = concatBytes(this.#out.splice(0));
    this.#ctx.clock.clearTimeout(this.#writeTimer);
    this.#writeTimer = undefined;
    this.#tracer.sent(out);
    this.#stream.write(out);
    this.#closing = true;
    this.#ctx.clock.clearTimeout(this.#idleTimer);
    this.#stream.close(reason);
  }

  #event(e: Http2Event): void {
    switch (e.type) {
      case 'headers':
        if (e.kind === 'trailers') {
          // Trailers end the request (RFC 9113 §8.1); the semantics layer has no use for their fields.
          if (e.endStream && this.#requests.has(e.streamId)) this.#complete(e.streamId);
          return;
        }
        if (e.kind !== 'request') return;
        // The tracer's frozen list for the same block, when equal: 'message-parsed' shares the frame event's entries.
        this.#requests.set(e.streamId, { headers: this.#tracer.receivedBlock(e.streamId, e.headers) ?? e.headers, body: [] });
        this.#working.add(e.streamId);
        if (e.endStream || this.#server.defences.halfOpenStreamsKeepAlive) this.#ctx.clock.clearTimeout(this.#idleTimer);
        if (e.endStream) this.#complete(e.streamId);
        return;
      case 'data': {
        const r = this.#requests.get(e.streamId);
        if (!r) return;
        r.body.push(e.data);
        if (e.endStream) this.#complete(e.streamId);
        return;
      }
      case 'stream-reset':
      case 'stream-error':
        this.#requests.delete(e.streamId);
        this.#working.delete(e.streamId);
        this.#data.drop(e.streamId);
        this.#closeWhenDone();
        return;
      case 'connection-error':
        // receive() writes the GOAWAY and closes, once every event of the read has been seen.
        return;
      default:
        return;
    }
  }

  /** The request as the HTTP/1-shaped semantics layer wants it: Host from :authority (RFC 9113 §8.3.1). */
  #wireRequest(headers: readonly HeaderField[], body: Uint8Array): WireRequest {
    const authority = field(headers, ':authority');
    return {
      method: field(headers, ':method') ?? 'GET',
      target: field(headers, ':path') ?? '/',
      version: '1.1',
      headers: regularFields<HeaderField>(headers, authority === undefined ? undefined : { name: 'host', value: authority }),
      body,
    };
  }

  /**
   * A request is complete: it waits for the end of the read (so a reset in the same bytes withdraws it), unless
   * the lesson turned that defence off (`handleResetStreams`), when it is handled at once, as a server that
   * dispatches frame by frame does.
   */
  #complete(streamId: number): void {
    if (this.#server.defences.handleResetStreams) this.#handle(streamId);
    else this.#ready.push(streamId);
  }

  #handle(streamId: number): void {
    if (this.#closing) return;
    this.#ctx.clock.clearTimeout(this.#idleTimer);
    const incoming = this.#requests.get(streamId)!;
    this.#requests.delete(streamId);
    if (this.#server.defences.limitRunningHandlers && this.#running >= this.#streamLimit) {
      const bound = QUEUED_HANDLERS_PER_STREAM * this.#streamLimit;
      if (this.#unstarted.length > bound) {
        const debug = `More than ${bound} requests waiting for one of ${this.#streamLimit} handlers: streams reset while their handlers still run (CVE-2023-39325).`;
        this.#closeWith(this.#conn.goAway('ENHANCE_YOUR_CALM', debug).bytes, `HTTP/2: ${debug}`);
        return;
      }
      this.#unstarted.push({ streamId, incoming });
      return;
    }
    this.#start(streamId, incoming);
  }

  /** Runs the handler for a request: a handler slot is taken until #handlerDone. */
  #start(streamId: number, incoming: IncomingRequest): void {
    this.#running++;
    const request = this.#wireRequest(incoming.headers, incoming.body.length === 1 ? incoming.body[0]! : concatBytes(incoming.body));
    const { trace } = this.#ctx;
    const id = this.#stream.connectionId;
    const startLine = `${request.method} ${request.target} HTTP/2`;
    emitPrebuilt(trace, {
      type: 'message-parsed',
      connectionId: id,
      by: 'server',
      kind: 'request',
      startLine,
      headers: frozenFields(incoming.headers),
      bodyLength: request.body.length,
      seq: 0,
      at: 0,
    });
    const fault = this.#server.faults.take();
    if (fault?.kind === 'drop') {
      this.#running--;
      trace.emit({ type: 'fault-injected', connectionId: id, fault: 'drop', detail: `${fault.how} instead of answering ${request.method} ${request.target}` });
      this.#closing = true;
      if (fault.how === 'reset') this.#stream.abort('fault: dropped connection');
      else this.#stream.close('fault: dropped connection');
      return;
    }
    let work: Promise<Reply>;
    if (fault?.kind === 'status') {
      trace.emit({ type: 'fault-injected', connectionId: id, fault: 'status', detail: `answer ${fault.status} to ${request.method} ${request.target}` });
      work = Promise.resolve(faultReply(fault));
    } else {
      work = respond(request, this.#config());
    }
    this.#env.track(work);
    void work.then(
      (reply) => this.#answer(streamId, request, reply, true),
      (error: unknown) => this.#answer(streamId, request, internalError(error), true),
    );
  }

  #config() {
    return { routes: this.#server.routes, store: this.#server.store, origin: this.#env.origin };
  }

  /** `mayPush`: the reply of a client's request (not of a push), whose handler holds a slot until it is done. */
  #answer(streamId: number, request: WireRequest, reply: Reply, mayPush: boolean): void {
    if (this.#closing) return;
    const { clock, trace } = this.#ctx;
    if (!this.#working.has(streamId)) {
      // Reset while its handler ran: the handler cannot tell and works to its end, keeping its slot.
      const latency = reply.options.latency ?? 0;
      if (!mayPush) return;
      trace.emit({
        type: 'server-handled',
        connectionId: this.#stream.connectionId,
        method: request.method,
        target: request.target,
        route: reply.route,
        status: reply.status,
        discarded: true,
      });
      if (latency > 0) clock.setTimeout(() => this.#handlerDone(), latency);
      else this.#handlerDone();
      return;
    }
    emitPrebuilt(trace, {
      type: 'server-handled',
      connectionId: this.#stream.connectionId,
      method: request.method,
      target: request.target,
      route: reply.route,
      status: reply.status,
      seq: 0,
      at: 0,
    });
    const extra = this.#server.faults.extraLatency;
    if (extra > 0) trace.emit({ type: 'fault-injected', connectionId: this.#stream.connectionId, fault: 'latency', detail: `+${extra} ms` });
    const delay = (reply.options.latency ?? 0) + extra;
    const send = (): void => {
      if (mayPush) this.#handlerDone();
      if (this.#closing || !this.#working.has(streamId)) return;
      if (mayPush) this.#push(streamId, request, reply);
      this.#respond(streamId, request.method, reply);
    };
    if (delay > 0) clock.setTimeout(send, delay);
    else send();
  }

  /**
   * A handler finished: its slot goes to the oldest waiting request whose stream is still open; those reset
   * while they waited are dropped on the way, as golang.org/x/net's handlerDone does.
   */
  #handlerDone(): void {
    this.#running--;
    if (this.#closing) return;
    let i = 0;
    for (; i < this.#unstarted.length; i++) {
      const next = this.#unstarted[i]!;
      if (!this.#working.has(next.streamId)) continue;
      if (this.#running >= this.#streamLimit) break;
      this.#start(next.streamId, next.incoming);
    }
    this.#unstarted.splice(0, i);
  }

  #push(streamId: number, request: WireRequest, reply: Reply): void {
    const paths = reply.options.push ?? [];
    // RFC 9113 §6.5.2: with SETTINGS_ENABLE_PUSH = 0 the server must not send PUSH_PROMISE.
    if (paths.length === 0 || this.#conn.remoteSettings.ENABLE_PUSH === 0 || this.#goingAway) return;
    const authority = request.headers.find((h) => h.name === 'host')?.value ?? new URL(this.#env.origin).host;
    const scheme = new URL(this.#env.origin).protocol.slice(0, -1);
    for (const path of paths) {
      // §8.4.1: a promised request is safe and cacheable and has no content: a GET.
      const fields: HeaderField[] = [
        { name: ':method', value: 'GET' },
        { name: ':scheme', value: scheme },
        { name: ':authority', value: authority },
        { name: ':path', value: path },
      ];
      const promised = this.#conn.pushPromise(streamId, fields);
      this.#tracer.encoded(promised.block);
      this.#write(promised.bytes);
      this.#working.add(promised.promisedStreamId);
      const pushed: WireRequest = { method: 'GET', target: path, version: '1.1', headers: [{ name: 'host', value: authority }], body: new Uint8Array(0) };
      const work = respond(pushed, this.#config());
      this.#env.track(work);
      void work.then(
        (r) => this.#answer(promised.promisedStreamId, pushed, r, false),
        (error: unknown) => this.#answer(promised.promisedStreamId, pushed, internalError(error), false),
      );
    }
  }

  #respond(streamId: number, method: string, reply: Reply): void {
    const bodyless = method === 'HEAD' || reply.status === 204 || reply.status === 304;
    const fields: HeaderField[] = [
      { name: ':status', value: String(reply.status) },
      { name: 'date', value: this.#date() },
      { name: 'server', value: this.#server.name },
      ...h2Fields(reply.headers).filter((h) => h.name !== 'content-length' && h.name !== 'date' && h.name !== 'server'),
    ];
    // RFC 9110 §8.6: HEAD may announce the GET's length; 204 and 304 carry none.
    if (reply.status !== 204 && reply.status !== 304) fields.push({ name: 'content-length', value: String(reply.body.length) });
    const body = bodyless ? new Uint8Array(0) : reply.body;
    const sent = this.#conn.sendHeaders(streamId, fields, { endStream: body.length === 0 });
    // Frozen once encoded, so the frame events (and the client's response headers) share its entries.
    this.#tracer.encoded(sent.block, frozenFields(fields));
    this.#write(sent.bytes);
    if (body.length > 0) this.#data.push(streamId, body, true);
    else this.#done(streamId);
    this.#flush();
  }

  /**
   * The Date field for now (RFC 9110 §6.6.1), formatted once per virtual instant: the responses that
   * become ready together (a hundred concurrent streams) share one string.
   */
  #date(): string {
    const at = this.#env.epoch + this.#ctx.clock.now();
    if (at !== this.#dateAt) {
      this.#dateAt = at;
      this.#dateText = new Date(at).toUTCString();
    }
    return this.#dateText;
  }

  #flush(): void {
    if (this.#data.size > 0) this.#writeTimer ??= this.#ctx.clock.setTimeout(() => this.#drain(), 0);
  }

  #done(streamId: number): void {
    this.#working.delete(streamId);
    this.#closeWhenDone();
  }

  #closeWhenDone(): void {
    if (this.#writeTimer !== undefined) return;
    if (this.#working.size > 0) {
      // Nothing left but requests still arriving: the idle timer watches them (unless they count as work).
      if (!this.#goingAway && this.#working.size === this.#halfOpen()) this.#armIdle();
      return;
    }
    if (this.#goingAway && !this.#closing) {
      this.#closing = true;
      this.#stream.close('GOAWAY: all streams answered');
      return;
    }
    this.#armIdle();
  }

  #armIdle(): void {
    const { clock } = this.#ctx;
    clock.clearTimeout(this.#idleTimer);
    if (this.#closing) return;
    const timeout = this.#server.keepAlive?.timeout ?? 5000;
    this.#idleTimer = clock.setTimeout(() => {
      if (this.#working.size > this.#halfOpen()) return;
      // Requests that never finished arriving are given up: they must not hold the connection (slowloris).
      for (const id of this.#requests.keys()) this.#working.delete(id);
      this.#requests.clear();
      this.shutdown('idle timeout');
    }, timeout);
  }

  /** Streams whose request is still arriving, when they do not count as work (the slowloris defence). */
  #halfOpen(): number {
    return this.#server.defences.halfOpenStreamsKeepAlive ? 0 : this.#requests.size;
  }

  /**
   * Queues bytes for the socket. Everything produced at one virtual instant goes out in one write from
   * a zero-delay timer, after the pending DATA of every stream has had its round-robin turn: that is
   * how responses that become ready together end up interleaved frame by frame on the one connection.
   */
  #write(bytes: Uint8Array): void {
    if (bytes.length === 0 || this.#closing) return;
    this.#out.push(bytes);
    this.#writeTimer ??= this.#ctx.clock.setTimeout(() => this.#drain(), 0);
  }

  #drain(): void {
    this.#writeTimer = undefined;
    if (this.#closing) return;
    if (this.#data.size > 0 && this.#conn.error === null) {
      this.#out.push(...this.#data.flush(this.#conn));
      for (const id of [...this.#working]) if (this.#conn.streamState(id) === 'closed') this.#working.delete(id);
    }
    const bytes = this.#out.length === 1 ? this.#out[0]! : concatBytes(this.#out.splice(0));
    this.#out.length = 0;
    if (bytes.length > 0) {
      this.#tracer.sent(bytes);
      this.#stream.write(bytes);
      // The simulated socket takes every write: nothing is left queued for a peer that does not read.
      this.#conn.outputFlushed();
    }
    this.#closeWhenDone();
  }
}
