/**
 * The HTTP/2 engine as a real client, by prior knowledge (h2c, RFC 9113 §3.3): one TCP socket driven by an
 * `Http2Connection` in the 'client' role. The connection opens with the preface and SETTINGS; `request()`
 * opens a stream, and any number of requests run concurrently on the one connection, each answered on
 * its own stream (RFC 9113 §5), up to the server's SETTINGS_MAX_CONCURRENT_STREAMS (§5.1.2), beyond
 * which requests wait for a stream to close.
 *
 * Flow control both ways: request bodies go out as the server's windows allow (h2-link.ts), and the
 * engine refills our receive windows with WINDOW_UPDATE as response bodies are read (§6.9).
 *
 * Server push is refused by default (SETTINGS_ENABLE_PUSH = 0, §6.5.2), as curl does: a client that
 * does not use pushed responses should not invite them. With `settings: { ENABLE_PUSH: 1 }` each
 * response lists the pushes promised with it (`pushes`), each with its own response promise.
 */
import { connect } from 'node:net';
import { WireError } from '../errors';
import type { HeaderField } from '../hpack/index';
import type { Http2Connection, Http2Event, Http2Settings } from '../http2/index';
import { type FrameCounts, Http2Link, concatBytes, field } from './h2-link';
import { SocketTransport, type Timers, realTimers } from './transport';

export interface Http2ClientOptions {
  readonly host: string;
  readonly port: number;
  /** Give up on a socket idle this long (real ms); default 10 000. */
  readonly timeoutMs?: number;
  /** Settings we announce; default `{ ENABLE_PUSH: 0 }`. */
  readonly settings?: Partial<Http2Settings>;
  readonly timers?: Timers;
}

export interface Http2ClientRequest {
  readonly method?: string;
  /** The :path, e.g. '/todos?done=1'. */
  readonly path: string;
  /** Lower-case field names (RFC 9113 §8.2.1); :authority is host:port unless given. */
  readonly headers?: readonly HeaderField[];
  readonly body?: Uint8Array | string;
  /** Sent after the body in a HEADERS frame that ends the stream (RFC 9113 §8.1). */
  readonly trailers?: readonly HeaderField[];
}

export interface Http2ClientResponse {
  readonly streamId: number;
  readonly status: number;
  /** The response's fields without :status. */
  readonly headers: readonly HeaderField[];
  /** 1xx field blocks that came before the final response, :status included. */
  readonly informational: readonly (readonly HeaderField[])[];
  readonly body: Uint8Array;
  readonly trailers: readonly HeaderField[];
  /** Responses the server promised with this one (PUSH_PROMISE, RFC 9113 §8.4); only with ENABLE_PUSH = 1. */
  readonly pushes: readonly Http2Push[];
}

export interface Http2Push {
  readonly promisedStreamId: number;
  /** The request the server answers on our behalf: :method, :scheme, :authority, :path. */
  readonly request: readonly HeaderField[];
  /** The pushed response, which may complete after the response that promised it. */
  readonly response: Promise<Http2ClientResponse>;
}

interface Exchange {
  final?: readonly HeaderField[];
  readonly informational: (readonly HeaderField[])[];
  readonly body: Uint8Array[];
  trailers: readonly HeaderField[];
  /** The server's END_STREAM arrived: the response is complete whatever happens to our side. */
  ended: boolean;
  /** A pushed stream: opened by the server, so it does not count toward our request limit. */
  readonly pushed: boolean;
  readonly pushes: Http2Push[];
  readonly resolve: (response: Http2ClientResponse) => void;
  readonly reject: (error: Error) => void;
}

const newExchange = (pushed: boolean, resolve: Exchange['resolve'], reject: Exchange['reject']): Exchange => ({
  informational: [],
  body: [],
  trailers: [],
  ended: false,
  pushed,
  pushes: [],
  resolve,
  reject,
});

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

export class Http2Client {
  readonly #link: Http2Link;
  readonly #transport: SocketTransport;
  readonly #authority: string;
  readonly #exchanges = new Map<number, Exchange>();
  /** Requests waiting for a free stream slot (§5.1.2). */
  #waiting: (() => void)[] = [];
  #failure: Error | undefined;
  /** Settle the promise connect() waits on: the server's first SETTINGS, or a failure before it. */
  #onSettings: (() => void) | undefined;
  #onFailure: ((e: Error) => void) | undefined;
  /** Resolves when the socket has fully closed, by either side. */
  readonly closed: Promise<void>;

  private constructor(transport: SocketTransport, closed: Promise<void>, authority: string, settings: Partial<Http2Settings>) {
    this.#transport = transport;
    this.#link = new Http2Link(transport, { role: 'client', settings });
    this.closed = closed;
    this.#authority = authority;
  }

  /** Connects, sends the preface, and resolves once the server's SETTINGS have arrived (§3.4). */
  static async connect(options: Http2ClientOptions): Promise<Http2Client> {
    const client = await new Promise<Http2Client>((resolve, reject) => {
      const socket = connect({ host: options.host, port: options.port });
      const closed = new Promise<void>((done) => socket.once('close', () => done()));
      const timeout = options.timeoutMs ?? 10_000;
      socket.setTimeout(timeout, () => socket.destroy(new Error(`No bytes moved for ${timeout} ms; the connection was given up.`)));
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        const transport = new SocketTransport(socket, options.timers ?? realTimers);
        const authority = options.host.includes(':') ? `[${options.host}]:${options.port}` : `${options.host}:${options.port}`;
        resolve(new Http2Client(transport, closed, authority, options.settings ?? { ENABLE_PUSH: 0 }));
      });
    });
    await client.#start();
    return client;
  }

  /** The engine, for tests and traces. */
  get connection(): Http2Connection {
    return this.#link.conn;
  }

  /** Frames sent and received so far, by type. */
  get frameCounts(): { readonly sent: FrameCounts; readonly received: FrameCounts } {
    return this.#link.frameCounts;
  }

  async #start(): Promise<void> {
    this.#link.send(this.#link.conn.initiate());
    const settled = new Promise<void>((resolve, reject) => {
      this.#onSettings = resolve;
      this.#onFailure = reject;
    });
    void this.#readLoop();
    await settled;
  }

  async #readLoop(): Promise<void> {
    try {
      for (;;) {
        const bytes = await this.#transport.read();
        if (bytes === null) break;
        const events = this.#link.receive(bytes);
        for (const e of events) this.#onEvent(e);
        // The engine reports `stream-closed` before the reset or error that closed the stream: settle
        // closed streams after the whole batch, so a reset is reported as a reset, not a bare close.
        for (const e of events) if (e.type === 'stream-closed') this.#settle(e.streamId);
        if (this.#link.conn.error) {
          this.#fail(this.#link.conn.error);
          this.#transport.end();
          return;
        }
      }
      this.#fail(
        new WireError({ code: 'connection-closed', side: 'remote', message: 'The server closed the connection; open a new one to send more requests.' }),
      );
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#onFailure?.(error);
    this.#link.abandon(error.message);
    for (const [id, ex] of this.#exchanges) {
      this.#exchanges.delete(id);
      ex.reject(error);
    }
    this.#wakeWaiting();
  }

  #onEvent(e: Http2Event): void {
    switch (e.type) {
      case 'settings-received':
        this.#onSettings?.();
        this.#onSettings = undefined;
        this.#wakeWaiting(); // MAX_CONCURRENT_STREAMS may have grown
        return;
      case 'headers': {
        const ex = this.#exchanges.get(e.streamId);
        if (!ex) return;
        if (e.kind === 'informational') ex.informational.push(e.headers);
        else if (e.kind === 'response') ex.final = e.headers;
        else if (e.kind === 'trailers') ex.trailers = e.headers;
        if (e.endStream) ex.ended = true;
        return;
      }
      case 'push-promise': {
        const parent = this.#exchanges.get(e.streamId);
        if (!parent) return;
        let settle!: Pick<Exchange, 'resolve' | 'reject'>;
        const response = new Promise<Http2ClientResponse>((resolve, reject) => (settle = { resolve, reject }));
        response.catch(() => undefined); // a caller who ignores pushes must not see an unhandled rejection
        this.#exchanges.set(e.promisedStreamId, newExchange(true, settle.resolve, settle.reject));
        parent.pushes.push({ promisedStreamId: e.promisedStreamId, request: e.headers, response });
        return;
      }
      case 'data': {
        const ex = this.#exchanges.get(e.streamId);
        ex?.body.push(e.data);
        if (ex && e.endStream) ex.ended = true;
        return;
      }
      case 'stream-reset':
        // RFC 9113 §8.1: a server may answer before the request is complete, then RST_STREAM(NO_ERROR)
        // to stop the upload; the client must not discard that response.
        if (e.errorName === 'NO_ERROR' && this.#exchanges.get(e.streamId)?.ended) return this.#settle(e.streamId);
        return this.#settle(
          e.streamId,
          new WireError({ code: e.errorName, side: 'remote', message: `The server reset stream ${e.streamId} with ${e.errorName} (RFC 9113 §6.4).` }),
        );
      case 'stream-error':
        return this.#settle(e.streamId, e.error);
      case 'goaway':
        // RFC 9113 §6.8: streams above lastStreamId were not processed and may be retried elsewhere.
        for (const id of e.unprocessedStreams) {
          this.#settle(
            id,
            new WireError({
              code: 'REFUSED_STREAM',
              side: 'remote',
              message: `The server's GOAWAY left stream ${id} unprocessed; it is safe to retry on a new connection.`,
            }),
          );
        }
        return;
      default:
        return;
    }
  }

  #settle(streamId: number, error?: Error): void {
    const ex = this.#exchanges.get(streamId);
    if (!ex) return;
    this.#exchanges.delete(streamId);
    this.#wakeWaiting();
    if (error) return ex.reject(error);
    if (!ex.final) return ex.reject(new WireError({ code: 'incomplete-response', side: 'remote', message: `Stream ${streamId} closed without a response.` }));
    const status = Number(field(ex.final, ':status'));
    ex.resolve({
      streamId,
      status,
      headers: ex.final.filter((h) => h.name !== ':status'),
      informational: ex.informational,
      body: ex.body.length === 0 ? EMPTY : concatBytes(ex.body),
      trailers: ex.trailers,
      pushes: ex.pushes,
    });
  }

  #requestsInFlight(): number {
    let n = 0;
    for (const ex of this.#exchanges.values()) if (!ex.pushed) n++;
    return n;
  }

  #wakeWaiting(): void {
    const all = this.#waiting;
    this.#waiting = [];
    for (const wake of all) wake();
  }

  /** Sends one request on a new stream; resolves with its response. Calls may overlap. */
  async request(init: Http2ClientRequest): Promise<Http2ClientResponse> {
    const conn = this.#link.conn;
    while (!this.#failure && this.#requestsInFlight() >= conn.remoteSettings.MAX_CONCURRENT_STREAMS) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    if (this.#failure) throw this.#failure;
    const body = typeof init.body === 'string' ? encoder.encode(init.body) : (init.body ?? EMPTY);
    const given = init.headers ?? [];
    const headers: HeaderField[] = [
      { name: ':method', value: init.method ?? 'GET' },
      { name: ':scheme', value: 'http' },
      { name: ':authority', value: field(given, ':authority') ?? this.#authority },
      { name: ':path', value: init.path },
      ...given.filter((h) => h.name !== ':authority'),
    ];
    const hasContent = body.length > 0 || init.trailers !== undefined;
    const opened = conn.request(headers, { endStream: !hasContent });
    const response = new Promise<Http2ClientResponse>((resolve, reject) => {
      this.#exchanges.set(opened.streamId, newExchange(false, resolve, reject));
    });
    this.#link.send(opened);
    if (hasContent) {
      // A body the server resets (e.g. it answered early) rejects here; the response decides the outcome.
      this.#link.sendBody(opened.streamId, body, { endStream: true, ...(init.trailers ? { trailers: init.trailers } : {}) }).catch(() => undefined);
    }
    return response;
  }

  /** Graceful close: GOAWAY (NO_ERROR), then FIN; resolves when the socket is closed. */
  close(): Promise<void> {
    const conn = this.#link.conn;
    if (!conn.isClosed && !this.#transport.closed) this.#link.send(conn.goAway('NO_ERROR'));
    this.#transport.end();
    return this.closed;
  }
}
