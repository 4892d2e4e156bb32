/**
 * The HTTP/2 server side of one real TCP connection, by prior knowledge (h2c, RFC 9113 §3.3): the client
 * starts with the preface "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", the listener's protocol seam (protocol.ts)
 * sees it and hands the connection here. The sans-I/O `Http2Connection` (role 'server') does framing,
 * HPACK, stream states and flow control; this file turns each complete request stream into a
 * `WireRequest` for the same Dispatch the HTTP/1 session uses, and the answer back into frames.
 *
 * Connection rules:
 * - Streams are independent (RFC 9113 §5): each request is dispatched as soon as its stream ends, and a
 *   slow answer on one stream holds back no other. Faults still apply in request-arrival order.
 * - A request becomes a HTTP/1.1-shaped `WireRequest`: `:authority` becomes Host (RFC 9113 §8.3.1), split
 *   `cookie` fields are joined with "; " (§8.2.3), `:path` is the target.
 * - `expect: 100-continue` on a request with a body gets a 100 (Continue) HEADERS at once (RFC 9110 §10.1.1).
 * - The reply's connection-specific fields (Connection, Keep-Alive, Transfer-Encoding, ...) are dropped
 *   (§8.2.2); `content-length`, `date` and `server` are ours. HEAD, 204 and 304 end with the HEADERS frame.
 * - Server push (§8.4): when the request path has a push list (`H2cServerOptions.push`, and a route's own
 *   `push` option), each listed path is dispatched as a GET and, if it answers, promised with PUSH_PROMISE
 *   before the response that refers to it, then answered on the promised stream. Nothing is pushed to a
 *   client that set SETTINGS_ENABLE_PUSH = 0 (curl does), nor more streams than its
 *   SETTINGS_MAX_CONCURRENT_STREAMS allows (§5.1.2). Pushed GETs go through the same Dispatch as
 *   requests, so an injected fault can hit one.
 * - Faults: a 'reset' drop resets the one stream (RST_STREAM INTERNAL_ERROR), the HTTP/2 way of losing a
 *   response; a 'close' drop ends the whole connection with GOAWAY, then FIN.
 * - With no open stream and no byte for `idleTimeoutMs`, the server says GOAWAY (NO_ERROR) and closes.
 */
import type { HeaderField } from '../hpack/index';
import { CLIENT_PREFACE, type Http2Event, type Http2Limits, type Http2Settings } from '../http2/index';
import type { WireRequest } from '../net/index';
import type { Dispatch, Outcome, Reply } from './dispatch';
import { Http2Link, SENDING_STATES, concatBytes, field } from './h2-link';
import { type ProtocolEnv, type ServerProtocol, prefaceDetector } from './protocol';
import type { Transport } from './transport';

export interface H2cServerOptions {
  /**
   * Paths to push with the response for a request path (query ignored), e.g. `{ '/': ['/style.css'] }`,
   * or a function of the path. Merged with the route's own `push` option.
   */
  readonly push?: Readonly<Record<string, readonly string[]>> | ((path: string) => readonly string[]);
  /** Value of the server header (default: the mock server's name, else 'roundtrip-sim', as for HTTP/1). */
  readonly name?: string;
  /** Settings we announce (e.g. a small INITIAL_WINDOW_SIZE to watch flow control); defaults otherwise. */
  readonly settings?: Partial<Http2Settings>;
  /**
   * Close a connection after this many real ms without a byte while no answer is being produced (default
   * 5000). Streams the client opened and never finished do not keep it open.
   */
  readonly idleTimeoutMs?: number;
  /** The engine's flood and size defences (concurrent streams, header list, CONTINUATION, ...). */
  readonly limits?: Partial<Http2Limits>;
  /**
   * Largest request body per stream (default 1 MiB, as over HTTP/1). A stream that sends more is answered
   * 413 (Content Too Large) and reset with NO_ERROR: RFC 9113 §8.1 lets a server answer before the
   * request ends and ask the client to stop sending that way.
   */
  readonly maxBodyBytes?: number;
  /**
   * Streams refused over SETTINGS_MAX_CONCURRENT_STREAMS (RST_STREAM REFUSED_STREAM) that one connection
   * may open before it is ended with GOAWAY ENHANCE_YOUR_CALM. A client that keeps opening streams after
   * being refused makes the server write a reset for each one (the reset flood, CVE-2019-9514). Default
   * 100, Node's `maxSessionRejectedStreams`.
   */
  readonly maxRefusedStreams?: number;
  /**
   * Request body bytes one connection holds at a time, over all its unfinished streams (default 16 MiB).
   * Bodies are collected whole before the handler runs and the engine keeps the receive windows open, so
   * without this a client could park `maxBodyBytes` on each of its concurrent streams (100 MiB by default).
   * The stream whose DATA would cross it is reset with REFUSED_STREAM: no handler saw it, so the client
   * may retry it once other uploads are done (RFC 9113 §8.7).
   */
  readonly maxBufferedBodyBytes?: number;
}

/** The simulator's server default (src/wire/server/server.ts), as for HTTP/1. */
const DEFAULT_IDLE_MS = 5000;
const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_MAX_REFUSED = 100;
const DEFAULT_MAX_BUFFERED = 16 * 1024 * 1024;
/** The engine's clock for its rate limits: monotonic ms. */
const monotonic = (): number => performance.now();
const EMPTY = new Uint8Array(0);
/** RFC 9113 §8.2.2, plus the fields this session writes itself. */
const DROPPED_FIELDS = /^(connection|keep-alive|proxy-connection|transfer-encoding|upgrade|te|content-length|date|server|trailer)$/i;

interface Incoming {
  readonly headers: readonly HeaderField[];
  readonly body: Uint8Array[];
  size: number;
}

/** One connection's h2c session. `run()` resolves when the connection is over. */
export class H2cServerSession {
  readonly #link: Http2Link;
  readonly #transport: Transport;
  readonly #dispatch: Dispatch;
  readonly #env: ProtocolEnv;
  readonly #options: H2cServerOptions;
  readonly #incoming = new Map<number, Incoming>();
  /** Streams whose answer is still being produced or sent. */
  readonly #answering = new Set<Promise<void>>();
  #done = false;
  /** Promised streams whose response is not finished: they count toward the client's stream limit. */
  #pushesInFlight = 0;
  /** The client sent GOAWAY: close once the streams it already opened are answered (RFC 9113 §6.8). */
  #peerLeaving = false;
  /** Requests completed by the bytes being processed; dispatched once all of those bytes are read. */
  readonly #ready: number[] = [];
  /** Streams the engine refused over the concurrent limit so far (see `maxRefusedStreams`). */
  #refused = 0;
  /** Body bytes held in #incoming (see `maxBufferedBodyBytes`). */
  #buffered = 0;

  constructor(transport: Transport, dispatch: Dispatch, env: ProtocolEnv, options: H2cServerOptions = {}) {
    this.#transport = transport;
    this.#link = new Http2Link(transport, {
      role: 'server',
      now: monotonic,
      ...(options.settings ? { settings: options.settings } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    });
    this.#dispatch = dispatch;
    this.#env = env;
    this.#options = options;
  }

  /** The link (engine plus frame counts), for tests and traces. */
  get link(): Http2Link {
    return this.#link;
  }

  async run(): Promise<void> {
    // RFC 9113 §3.4: the server preface is a SETTINGS frame, sent without waiting for the client's.
    this.#link.send(this.#link.conn.initiate());
    try {
      for (;;) {
        const bytes = await this.#receive();
        if (bytes === null || this.#done) break;
        for (const e of this.#link.receive(bytes)) this.#onEvent(e);
        if (this.#link.conn.error) break; // GOAWAY already went out with the engine's answer
        this.#dispatchReady();
      }
    } catch (e) {
      // The peer reset the socket: nothing more to read or send. Anything else is ours to report.
      this.#transport.reset();
      if (!(e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && !('side' in e))) throw e;
    }
    this.#link.abandon('The connection closed.');
    await Promise.allSettled([...this.#answering]);
    this.#transport.end();
  }

  /** The next bytes; after `idleTimeoutMs` with nothing in progress, GOAWAY and a clean close. */
  async #receive(): Promise<Uint8Array | null> {
    const { timers } = this.#env;
    const idle = this.#options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
    const arm = (): unknown =>
      timers.setTimeout(() => {
        if (this.#answering.size > 0) {
          timer = arm();
          return;
        }
        this.#goAway();
      }, idle);
    let timer = arm();
    try {
      return await this.#transport.read();
    } finally {
      timers.clearTimeout(timer);
    }
  }

  #goAway(code: 'NO_ERROR' | 'ENHANCE_YOUR_CALM' = 'NO_ERROR', debug = ''): void {
    if (this.#done) return;
    this.#done = true;
    if (!this.#link.conn.isClosed) this.#link.send(this.#link.conn.goAway(code, debug));
    this.#transport.end();
  }

  #onEvent(e: Http2Event): void {
    switch (e.type) {
      case 'headers': {
        if (e.kind === 'request') {
          // RFC 9110 §8.6: a declared length over the limit is refused before any of the body is read.
          const declared = e.endStream ? undefined : field(e.headers, 'content-length');
          if (declared !== undefined && Number(declared) > (this.#options.maxBodyBytes ?? DEFAULT_MAX_BODY)) return this.#tooLarge(e.streamId);
          this.#incoming.set(e.streamId, { headers: e.headers, body: [], size: 0 });
          // RFC 9110 §10.1.1, as over HTTP/1: every request is accepted on its head, so 100 goes out at once.
          if (!e.endStream && field(e.headers, 'expect')?.toLowerCase() === '100-continue') {
            this.#link.send(this.#link.conn.sendHeaders(e.streamId, [{ name: ':status', value: '100' }]));
          }
        }
        // Trailers on a request are read and dropped: WireRequest has no place for them.
        if (e.endStream) this.#complete(e.streamId);
        return;
      }
      case 'data': {
        const incoming = this.#incoming.get(e.streamId);
        if (!incoming) return;
        if (incoming.size + e.data.length > (this.#options.maxBodyBytes ?? DEFAULT_MAX_BODY)) return this.#tooLarge(e.streamId);
        if (this.#buffered + e.data.length > (this.#options.maxBufferedBodyBytes ?? DEFAULT_MAX_BUFFERED)) {
          this.#forget(e.streamId);
          this.#link.send(this.#link.conn.resetStream(e.streamId, 'REFUSED_STREAM'));
          return;
        }
        incoming.size += e.data.length;
        this.#buffered += e.data.length;
        incoming.body.push(e.data);
        if (e.endStream) this.#complete(e.streamId);
        return;
      }
      case 'stream-reset':
        this.#forget(e.streamId);
        return;
      case 'stream-error': {
        this.#forget(e.streamId);
        const budget = this.#options.maxRefusedStreams ?? DEFAULT_MAX_REFUSED;
        if (e.error.code === 'REFUSED_STREAM' && ++this.#refused > budget) {
          this.#goAway('ENHANCE_YOUR_CALM', `More than ${budget} streams opened over SETTINGS_MAX_CONCURRENT_STREAMS after REFUSED_STREAM.`);
        }
        return;
      }
      case 'goaway':
        this.#peerLeaving = true;
        this.#closeIfLeaving();
        return;
      default:
        return;
    }
  }

  /** Drops a stream's collected request, and its bytes from the connection's count. */
  #forget(streamId: number): Incoming | undefined {
    const incoming = this.#incoming.get(streamId);
    if (incoming === undefined) return undefined;
    this.#incoming.delete(streamId);
    this.#buffered -= incoming.size;
    return incoming;
  }

  /** RFC 9113 §8.1: a complete 413 before the request ends, then RST_STREAM NO_ERROR to stop the upload. */
  #tooLarge(streamId: number): void {
    this.#forget(streamId);
    const conn = this.#link.conn;
    const limit = this.#options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    const text = new TextEncoder().encode(`The request body is larger than the ${limit} bytes this server accepts (RFC 9110 §15.5.14).\n`);
    const headers = [
      { name: ':status', value: '413' },
      { name: 'content-type', value: 'text/plain;charset=UTF-8' },
      { name: 'content-length', value: String(text.length) },
    ];
    this.#link.send(conn.sendHeaders(streamId, headers));
    // The body fits any initial window (65,535); sent through the link so flow control still applies.
    void this.#link
      .sendBody(streamId, text, { endStream: true })
      .then(() => {
        if (SENDING_STATES.has(conn.streamState(streamId)) || conn.streamState(streamId) === 'half_closed_local')
          this.#link.send(conn.resetStream(streamId, 'NO_ERROR'));
      })
      .catch(() => undefined);
  }

  /**
   * A request is complete: queue it. Requests are dispatched after all the bytes at hand are read, so a
   * stream the client resets in the same bytes (rapid reset, CVE-2023-44487) never reaches the handler.
   */
  #complete(streamId: number): void {
    this.#ready.push(streamId);
  }

  #dispatchReady(): void {
    for (const id of this.#ready.splice(0)) this.#dispatchOne(id);
  }

  #dispatchOne(streamId: number): void {
    const incoming = this.#forget(streamId);
    if (!incoming) return;
    const request = toWireRequest(incoming);
    // Faults are taken in arrival order: dispatch now, synchronously with the arrival.
    const outcome = this.#dispatch(request);
    const task = this.#answer(streamId, request, outcome).catch(() => {
      // The stream or connection went away mid-answer (the peer reset it or closed): nothing to send.
    });
    this.#answering.add(task);
    void task.finally(() => {
      this.#answering.delete(task);
      this.#closeIfLeaving();
    });
  }

  #closeIfLeaving(): void {
    if (this.#peerLeaving && this.#answering.size === 0 && this.#incoming.size === 0) this.#goAway();
  }

  async #answer(streamId: number, request: WireRequest, pending: Outcome | Promise<Outcome>): Promise<void> {
    const outcome = await pending;
    const conn = this.#link.conn;
    if (outcome.kind === 'drop') {
      if (outcome.how === 'reset') this.#link.send(conn.resetStream(streamId, 'INTERNAL_ERROR'));
      else this.#goAway();
      return;
    }
    if (outcome.delayMs > 0) await this.#sleep(outcome.delayMs);
    const pushes = await this.#promisePushes(streamId, request, outcome);
    try {
      await this.#respond(streamId, request.method, outcome);
    } finally {
      // Promised streams are streams of their own: answered even if the client reset the page's stream,
      // and one refused push (RST_STREAM on the promised stream) does not stop the others.
      for (const p of pushes) {
        await this.#respond(p.streamId, 'GET', p.outcome).catch(() => undefined);
        this.#pushesInFlight--;
      }
    }
  }

  /** RFC 9113 §8.4.1: promise pushed resources before sending the response that refers to them. */
  async #promisePushes(
    streamId: number,
    request: WireRequest,
    outcome: Extract<Outcome, { kind: 'reply' }>,
  ): Promise<{ streamId: number; outcome: Extract<Outcome, { kind: 'reply' }> }[]> {
    const conn = this.#link.conn;
    const paths = this.#pushList(request.target, outcome);
    if (paths.length === 0 || conn.remoteSettings.ENABLE_PUSH === 0 || outcome.reply.status >= 400) return [];
    const authority =
      field(
        request.headers.map((h) => ({ name: h.name.toLowerCase(), value: h.value })),
        'host',
      ) ?? '';
    const promised: { streamId: number; outcome: Extract<Outcome, { kind: 'reply' }> }[] = [];
    for (const path of paths) {
      // RFC 9113 §5.1.2: a pushed stream counts toward the client's SETTINGS_MAX_CONCURRENT_STREAMS once
      // its HEADERS go out. The engine does not check this for pushed streams (see h2-engine.test.ts),
      // so the session keeps count: no promise that could not be answered within the limit.
      if (this.#pushesInFlight >= conn.remoteSettings.MAX_CONCURRENT_STREAMS) break;
      // §8.4: a promised request is safe and carries no content; GET it from the same mock server.
      const pushed = await this.#dispatch({ method: 'GET', target: path, version: '1.1', headers: [{ name: 'Host', value: authority }], body: EMPTY });
      // §6.6: a promise goes on an open stream; the client may have reset it while the GET ran.
      if (pushed.kind !== 'reply' || !SENDING_STATES.has(conn.streamState(streamId))) continue;
      const headers = [
        { name: ':method', value: 'GET' },
        { name: ':scheme', value: 'http' },
        { name: ':authority', value: authority },
        { name: ':path', value: path },
      ];
      const result = conn.pushPromise(streamId, headers);
      this.#link.send(result);
      this.#pushesInFlight++;
      promised.push({ streamId: result.promisedStreamId, outcome: pushed });
    }
    return promised;
  }

  #pushList(target: string, outcome: Extract<Outcome, { kind: 'reply' }>): readonly string[] {
    const path = target.split('?')[0]!;
    const push = this.#options.push;
    const configured = push === undefined ? [] : typeof push === 'function' ? push(path) : (push[path] ?? []);
    return [...new Set([...configured, ...(outcome.push ?? [])])].filter((p) => p.startsWith('/') && p !== path);
  }

  /** HEADERS, then the body (flow-controlled, trickled for a slow route). */
  async #respond(streamId: number, method: string, outcome: Extract<Outcome, { kind: 'reply' }>): Promise<void> {
    const conn = this.#link.conn;
    const { reply, slow } = outcome;
    // RFC 9110 §8.6, §9.3.2: HEAD announces the GET's length but carries none; 204 and 304 carry none.
    const bodiless = method === 'HEAD' || reply.status === 204 || reply.status === 304;
    const body = bodiless ? EMPTY : reply.body;
    this.#link.send(conn.sendHeaders(streamId, this.#responseHeaders(reply), { endStream: body.length === 0 }));
    if (body.length === 0) return;
    if (!slow) return this.#link.sendBody(streamId, body, { endStream: true });
    for (let at = 0; at < body.length; at += slow.bytesPerTick) {
      await this.#sleep(slow.tickMs);
      const end = Math.min(at + slow.bytesPerTick, body.length);
      await this.#link.sendBody(streamId, body.subarray(at, end), { endStream: end === body.length });
    }
  }

  #responseHeaders(reply: Reply): HeaderField[] {
    const headers: HeaderField[] = [
      { name: ':status', value: String(reply.status) },
      { name: 'date', value: new Date(this.#env.now()).toUTCString() },
      { name: 'server', value: this.#options.name ?? this.#env.name ?? 'roundtrip-sim' },
    ];
    for (const h of reply.headers) {
      if (!DROPPED_FIELDS.test(h.name)) headers.push({ name: h.name.toLowerCase(), value: h.value.trim() });
    }
    if (reply.status !== 204 && reply.status !== 304) headers.push({ name: 'content-length', value: String(reply.body.length) });
    return headers;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.#env.timers.setTimeout(resolve, ms));
  }
}

/** An HTTP/2 request as the HTTP/1.1-shaped request the mock server understands. */
function toWireRequest({ headers, body }: Incoming): WireRequest {
  const authority = field(headers, ':authority') ?? field(headers, 'host');
  const fields: HeaderField[] = authority === undefined ? [] : [{ name: 'Host', value: authority }];
  const cookies: string[] = [];
  for (const h of headers) {
    if (h.name.startsWith(':') || h.name === 'host') continue;
    if (h.name === 'cookie') cookies.push(h.value);
    else fields.push(h);
  }
  // RFC 9113 §8.2.3: cookie may be split into several fields; join them for an HTTP/1.1 context.
  if (cookies.length > 0) fields.push({ name: 'cookie', value: cookies.join('; ') });
  return {
    method: field(headers, ':method') ?? 'GET',
    // CONNECT (§8.5) has no :path; the mock server answers it 405 whatever the target.
    target: field(headers, ':path') ?? authority ?? '*',
    version: '1.1',
    headers: fields,
    body: body.length === 0 ? EMPTY : concatBytes(body),
  };
}

/** h2c by prior knowledge as a ServerProtocol: claims connections that start with the client preface. */
export const h2cProtocol = (options: H2cServerOptions = {}): ServerProtocol => ({
  id: 'h2c',
  detect: prefaceDetector(CLIENT_PREFACE),
  serve: (transport, dispatch, env) => new H2cServerSession(transport, dispatch, env, options).run(),
});
