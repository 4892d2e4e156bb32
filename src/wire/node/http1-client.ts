/**
 * The HTTP/1 engine as a real client: one TCP socket driven by an `Http1Connection` in the 'client' role.
 * `request()` serializes the request with the engine, feeds every received byte back into it, and returns
 * the parsed response; the connection's state tables decide whether the socket may carry another request
 * (keep-alive) or must close (`Connection: close`, HTTP/1.0, a body delimited by close).
 *
 * Requests on one client go one after another (a call waits for the previous response); pipelining is the
 * engine's business and the server adapter shows it, so the client keeps to the simple, common case.
 */
import { connect } from 'node:net';
import { WireError } from '../errors';
import {
  Http1Connection,
  type Http1ConnectionOptions,
  type Http1Header,
  type Http1Response,
  type Http1Version,
  http1Data,
  http1EndOfMessage,
  http1Request,
  canDecodeHttp1TransferCodings,
  decodeHttp1TransferCodings,
  http1UndecodedCodingsNote,
} from '../http1/index';
import { SocketTransport, type Timers, realTimers } from './transport';

export interface Http1ClientOptions {
  readonly host: string;
  readonly port: number;
  /** Give up on a socket idle this long (real ms); default 10 000. */
  readonly timeoutMs?: number;
  readonly engine?: Omit<Http1ConnectionOptions, 'role'>;
  readonly timers?: Timers;
}

export interface Http1ClientRequest {
  readonly method?: string;
  readonly target: string;
  readonly version?: Exclude<Http1Version, '0.9'>;
  /** Sent in order. Host is added first when missing (RFC 9112 §3.2), Content-Length when a body has no framing. */
  readonly headers?: readonly Http1Header[];
  readonly body?: Uint8Array | string;
}

/** The final response, plus any 1xx responses that came before it. */
export interface Http1ClientResponse extends Http1Response {
  readonly informational: readonly Http1Response[];
}

const EMPTY = new Uint8Array(0);
const has = (headers: readonly Http1Header[], name: string) => headers.some((h) => h.name.toLowerCase() === name);

export class Http1Client {
  readonly #conn: Http1Connection;
  readonly #transport: SocketTransport;
  readonly #authority: string;
  #queue: Promise<unknown> = Promise.resolve();
  #eof = false;
  /** Resolves when the socket has fully closed, by either side. */
  readonly closed: Promise<void>;

  private constructor(transport: SocketTransport, closed: Promise<void>, authority: string, engine: Http1ClientOptions['engine']) {
    // No one here takes the fired transitions; kept, they would grow with every request on a reused connection.
    this.#conn = new Http1Connection({ ...engine, role: 'client', recordTransitions: false });
    this.#transport = transport;
    this.closed = closed;
    this.#authority = authority;
  }

  /** Opens a TCP connection to host:port. */
  static connect(options: Http1ClientOptions): Promise<Http1Client> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: options.host, port: options.port });
      const closed = new Promise<void>((done) => socket.once('close', () => done()));
      const timeout = options.timeoutMs ?? 10_000;
      socket.setTimeout(timeout, () => socket.destroy(new Error(`No bytes moved for ${timeout} ms; the connection was given up.`)));
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        const transport = new SocketTransport(socket, options.timers ?? realTimers);
        const authority = options.host.includes(':') ? `[${options.host}]:${options.port}` : `${options.host}:${options.port}`;
        resolve(new Http1Client(transport, closed, authority, options.engine));
      });
    });
  }

  /** The engine, for tests and traces. */
  get connection(): Http1Connection {
    return this.#conn;
  }

  /** May another request go on this socket? False once either side has said this exchange is the last. */
  get reusable(): boolean {
    const s = this.#conn.states;
    return !this.#transport.closed && s.client === 'IDLE' && s.server === 'IDLE';
  }

  /** Sends one request and resolves with its response; calls queue behind each other. */
  request(init: Http1ClientRequest): Promise<Http1ClientResponse> {
    const run = this.#queue.then(() => this.#exchange(init));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Orderly close (FIN); resolves when the socket is closed. */
  close(): Promise<void> {
    this.#transport.end();
    return this.closed;
  }

  async #exchange(init: Http1ClientRequest): Promise<Http1ClientResponse> {
    if (!this.reusable) {
      throw new WireError({
        code: 'connection-not-reusable',
        side: 'local',
        message: 'This connection cannot take another request (it was closed or marked Connection: close); open a new one.',
      });
    }
    const body = typeof init.body === 'string' ? new TextEncoder().encode(init.body) : (init.body ?? EMPTY);
    const given = init.headers ?? [];
    const headers = [
      ...(has(given, 'host') ? [] : [{ name: 'Host', value: this.#authority }]),
      ...given,
      ...(body.length > 0 && !has(given, 'content-length') && !has(given, 'transfer-encoding') ? [{ name: 'Content-Length', value: String(body.length) }] : []),
    ];
    const head = http1Request({ method: init.method ?? 'GET', target: init.target, version: init.version ?? '1.1', headers });
    const out = [this.#conn.send(head)];
    if (body.length > 0) out.push(this.#conn.send(http1Data(body)));
    out.push(this.#conn.send(http1EndOfMessage()));
    for (const bytes of out) await this.#transport.write(bytes);
    const response = await this.#readResponse();
    if (this.#conn.ourState === 'MUST_CLOSE' || this.#conn.theirState === 'MUST_CLOSE') this.#transport.end();
    return response;
  }

  async #readResponse(): Promise<Http1ClientResponse> {
    const informational: Http1Response[] = [];
    let final: Http1Response | undefined;
    const chunks: Uint8Array[] = [];
    let codings: readonly string[] | undefined;
    for (;;) {
      const step = this.#conn.nextEvent();
      switch (step.type) {
        case 'need-data': {
          if (this.#eof) throw closedEarly();
          const bytes = await this.#transport.read();
          if (bytes === null) {
            this.#eof = true;
            this.#conn.receiveEof();
          } else this.#conn.receiveData(bytes);
          break;
        }
        case 'informational':
          informational.push({ kind: 'response', version: step.version, status: step.status, reason: step.reason, headers: [...step.headers], body: EMPTY });
          break;
        case 'response':
          final = { kind: 'response', version: step.version, status: step.status, reason: step.reason, headers: [...step.headers], body: EMPTY };
          break;
        case 'data':
          chunks.push(step.data);
          codings ??= step.codings;
          break;
        case 'end-of-message': {
          let n = 0;
          for (const c of chunks) n += c.length;
          let body: Uint8Array = new Uint8Array(n);
          n = 0;
          for (const c of chunks) {
            body.set(c, n);
            n += c.length;
          }
          // Transfer-Encoding: gzip, chunked: give back the content, never the coded bytes (RFC 9112 §6.1).
          // Codings nothing here can undo (`chunked, deflate`: read until close, RFC 9112 §6.3 rule 4): the bytes
          // as received, with the note saying so.
          if (codings !== undefined && codings.length > 0 && !canDecodeHttp1TransferCodings(codings))
            return { ...final!, body, trailers: [...step.trailers], informational, undecoded: { codings, note: http1UndecodedCodingsNote(codings) } };
          if (codings !== undefined && codings.length > 0) body = await decodeHttp1TransferCodings(body, codings);
          return { ...final!, body, trailers: [...step.trailers], informational };
        }
        case 'error':
          throw step.error;
        case 'connection-closed':
          throw closedEarly();
        case 'paused':
          throw new WireError({
            code: 'protocol-switched',
            side: 'remote',
            message: 'The connection left HTTP/1 (a 101 or a tunnel); this client speaks HTTP/1 only, so open a new connection.',
          });
        case 'request':
          throw new WireError({ code: 'unexpected-request', side: 'remote', message: 'The server sent a request; a client only reads responses.' });
      }
    }
  }
}

const closedEarly = () =>
  new WireError({
    code: 'connection-closed',
    side: 'remote',
    message: 'The server closed the connection before its response was complete; retry on a new connection if the request is idempotent.',
  });
