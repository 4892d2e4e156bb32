/**
 * The mock server's HTTP/1 side on the simulated network: one accepted connection, whose bytes the HTTP/1
 * engine parses; requests are answered through `respond` (server/semantics.ts) and persistence is managed here.
 *
 * Connection rules (RFC 9112 §9.3, and RFC 2068 §19.7.1 for HTTP/1.0 Keep-Alive):
 * - HTTP/0.9: the response is the body alone and the connection closes after it; an error becomes an
 *   HTML page, since 0.9 has no status line.
 * - HTTP/1.0: one request per connection unless the request says `Connection: keep-alive` (case-
 *   insensitive) and keep-alive is enabled; then the reply says `Connection: keep-alive` and
 *   `Keep-Alive: timeout=<s>, max=<remaining>`.
 * - HTTP/1.1: persistent unless either side says `Connection: close`.
 * - `Proxy-Connection` means nothing to an origin server and is ignored (that is the whole point of it).
 * - A handler may name its own fields in Connection (RFC 9110 §7.6.1): they are sent, and the reply's one
 *   Connection field lists them before the server's own persistence option, so a proxy removes them; a
 *   handler's `Connection: close` closes the connection. (HTTP/2 and HTTP/3 drop such fields instead,
 *   since those versions carry no connection-specific fields.)
 * - An idle persistent connection is closed after the keep-alive timeout; after `max` requests the last
 *   reply says `Connection: close`.
 * - Pipelined requests are answered one at a time in arrival order (RFC 9112 §9.3.2), so a slow first
 *   response holds back the ones behind it.
 *
 * The server replies with the request's own version (1.0 to 1.0). RFC 9110 §6.2 would have it announce
 * 1.1; mirroring keeps each lesson about one version, and the persistence headers are explicit anyway.
 */
import { reasonPhrase } from '../../data/index';
import type { HeaderField, WireRequest, WireResponse } from '../../net/codec';
import { headerTokens, startLine } from '../../net/codec';
import type { ByteStream } from '../../net/stream';
import { concatBytes, utf8 } from '../../net/stream';
import type { NetContext } from '../../net/tcp';
import { DEFAULT_KEEP_ALIVE_TIMEOUT, type MockServer } from '../../server/server';
import { faultReply, internalError, respond, type Reply } from '../../server/semantics';
import type { ServerEnv as AttachOptions, ServerProtocol } from '../protocol';
import type { WireError } from '../../errors';
import { type Http1RequestEvent, isHttp1Persistent as isPersistent } from '../../http1/index';
import { Http1Observer } from './observer';
import { http1RefusalStatus, traceHttp1ProtocolError } from './protocol-error';

/** A bound on the engine steps one read is turned into (each step consumes bytes or ends the loop). */
const MAX_STEPS_PER_READ = 100_000;

function html09Error(status: number, detail: string): Uint8Array {
  const title = `${status} ${reasonPhrase(status)}`;
  return utf8(`<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${detail}</p></body></html>\n`);
}

/** One accepted connection: a queue of parsed requests answered strictly in order. */
/** HTTP/1 as a server protocol: the listener's fallback, so it claims no connection by its first bytes. */
export function http1Server(): ServerProtocol {
  return {
    id: 'http/1.1',
    detect: () => 'no',
    serve: (server, stream, env, initial) => void new Http1ServerConnection(server, stream, env, env.network.ctx, initial),
  };
}

export class Http1ServerConnection {
  readonly #server: MockServer;
  readonly #stream: ByteStream;
  readonly #env: AttachOptions;
  readonly #ctx: NetContext;
  /** The request being read: its head, and its body so far. */
  #head: Http1RequestEvent | undefined;
  #body: Uint8Array[] = [];
  readonly #queue: WireRequest[] = [];
  #busy = false;
  #served = 0;
  #closing = false;
  #idleTimer: number | undefined;
  /** The header-read deadline of the request whose first bytes have arrived (slowloris, `headerTimeout`). */
  #headerTimer: number | undefined;
  readonly #engine: Http1Observer;

  constructor(server: MockServer, stream: ByteStream, env: AttachOptions, ctx: NetContext, initial?: Uint8Array) {
    this.#server = server;
    this.#stream = stream;
    this.#env = env;
    this.#ctx = ctx;
    const headerTimeout = server.defences.headerTimeout;
    this.#engine = new Http1Observer('server', stream.connectionId, ctx, {
      driving: true,
      ...(headerTimeout === false ? {} : { headerTimeoutMs: headerTimeout }),
    });
    stream.onData((bytes) => this.#receive(bytes));
    stream.onClose((info) => {
      if (info.by !== 'server') this.#engine.feed('eof');
      this.#closing = true;
      ctx.clock.clearTimeout(this.#idleTimer);
      ctx.clock.clearTimeout(this.#headerTimer);
    });
    this.#armIdle();
    if (initial) this.#receive(initial);
  }

  #receive(bytes: Uint8Array): void {
    if (this.#closing) return;
    this.#engine.feed(bytes);
    this.#read();
  }

  /** Reads every request the engine lets through now, and acts on the engine's verdict. */
  #read(): void {
    for (let i = 0; i < MAX_STEPS_PER_READ && !this.#closing; i++) {
      const step = this.#engine.next();
      if (step.type === 'request') {
        this.#head = step;
        this.#body = [];
      } else if (step.type === 'data') {
        this.#body.push(step.data);
      } else if (step.type === 'end-of-message') {
        const head = this.#head;
        this.#head = undefined;
        if (!head) continue;
        const body = this.#body.length === 1 ? this.#body[0]! : concatBytes(this.#body);
        const request: WireRequest = { method: head.method, target: head.target, version: head.version, headers: head.headers, body };
        this.#ctx.trace.emit({
          type: 'message-parsed',
          connectionId: this.#stream.connectionId,
          by: 'server',
          kind: 'request',
          startLine: startLine(request),
          headers: request.headers,
          bodyLength: request.body.length,
        });
        this.#queue.push(request);
      } else if (step.type === 'error') {
        this.#reject(step.error);
        return;
      } else if (step.type !== 'informational' && step.type !== 'response') {
        break; // need-data, paused (a request is being answered), connection-closed
      }
    }
    this.#watchHeaders();
    this.#next();
  }

  /**
   * The engine rejected what the client sent: the error is traced, and the engine's suggested status (400 by
   * default) answers it before the connection ends (RFC 9112 §2.2: the server cannot know where the next
   * request would start).
   */
  #reject(error: WireError): void {
    this.#closing = true;
    const { clock } = this.#ctx;
    clock.clearTimeout(this.#headerTimer);
    clock.clearTimeout(this.#idleTimer);
    const status = http1RefusalStatus(error);
    traceHttp1ProtocolError(this.#ctx, this.#stream.connectionId, 'server', error, status);
    const response: WireResponse = {
      version: '1.1',
      status,
      reason: reasonPhrase(status),
      headers: [
        { name: 'Connection', value: 'close' },
        { name: 'Content-Type', value: 'text/plain;charset=UTF-8' },
      ],
      body: utf8(error.message),
    };
    this.#write(response, 'GET', () => this.#stream.close('bad request'));
  }

  /**
   * Slowloris (a header section sent a byte at a time): a request's header section must be complete within
   * `headerTimeout` of its first byte, however steadily the bytes come; then 408 (RFC 9110 §15.5.9) and
   * close. Without the deadline only the idle timer is left, and every read restarts it.
   */
  #watchHeaders(): void {
    const { clock } = this.#ctx;
    const partial = this.#engine.readingHead(clock.now());
    if (!partial) {
      if (this.#headerTimer === undefined) return;
      clock.clearTimeout(this.#headerTimer);
      this.#headerTimer = undefined;
      // The head is in: a body still arriving is watched by the idle timer again, as before the request.
      this.#armIdle();
      return;
    }
    const deadline = this.#server.defences.headerTimeout;
    if (deadline === false) {
      this.#armIdle();
      return;
    }
    clock.clearTimeout(this.#idleTimer);
    this.#headerTimer ??= clock.setTimeout(() => this.#requestTimeout(deadline), deadline);
  }

  #requestTimeout(deadline: number): void {
    this.#headerTimer = undefined;
    if (this.#closing) return;
    this.#closing = true;
    const body = utf8(`The request's header section did not arrive within ${deadline} ms of its first byte.`);
    const response: WireResponse = {
      version: '1.1',
      status: 408,
      reason: reasonPhrase(408),
      headers: [
        { name: 'Connection', value: 'close' },
        { name: 'Content-Type', value: 'text/plain;charset=UTF-8' },
      ],
      body,
    };
    this.#engine.sent(response);
    this.#engine.closed();
    this.#stream.write(this.#env.codec.encodeResponse(response, 'GET'));
    this.#stream.close('header timeout: 408');
  }

  #armIdle(): void {
    const { clock } = this.#ctx;
    clock.clearTimeout(this.#idleTimer);
    const keepAlive = this.#server.keepAlive;
    const timeout = keepAlive?.timeout ?? DEFAULT_KEEP_ALIVE_TIMEOUT;
    this.#idleTimer = clock.setTimeout(() => {
      if (!this.#busy && this.#queue.length === 0) {
        this.#closing = true;
        this.#stream.close('idle: keep-alive timeout');
      }
    }, timeout);
  }

  #next(): void {
    if (this.#busy || this.#closing) return;
    const request = this.#queue.shift();
    if (!request) return;
    this.#busy = true;
    this.#ctx.clock.clearTimeout(this.#idleTimer);
    const id = this.#stream.connectionId;
    const fault = this.#server.faults.take();
    if (fault?.kind === 'drop') {
      this.#ctx.trace.emit({
        type: 'fault-injected',
        connectionId: id,
        fault: 'drop',
        detail: `${fault.how} instead of answering ${request.method} ${request.target}`,
      });
      this.#closing = true;
      if (fault.how === 'reset') this.#stream.abort('fault: dropped connection');
      else this.#stream.close('fault: dropped connection');
      return;
    }
    const config = { routes: this.#server.routes, store: this.#server.store, origin: this.#env.origin };
    const work = (async (): Promise<Reply> => {
      if (fault?.kind === 'status') {
        this.#ctx.trace.emit({
          type: 'fault-injected',
          connectionId: id,
          fault: 'status',
          detail: `answer ${fault.status} to ${request.method} ${request.target}`,
        });
        return faultReply(fault);
      }
      return respond(request, config);
    })();
    this.#env.track(work);
    // A failure inside the server still gets an answer (500), never an unhandled rejection and a stalled fetch.
    void work.then(
      (reply) => this.#answer(request, reply),
      (error: unknown) => this.#answer(request, internalError(error)),
    );
  }

  #answer(request: WireRequest, reply: Reply): void {
    if (this.#closing) return;
    const { clock, trace } = this.#ctx;
    const id = this.#stream.connectionId;
    trace.emit({ type: 'server-handled', connectionId: id, method: request.method, target: request.target, route: reply.route, status: reply.status });
    const extra = this.#server.faults.extraLatency;
    if (extra > 0) trace.emit({ type: 'fault-injected', connectionId: id, fault: 'latency', detail: `+${extra} ms` });
    const delay = (reply.options.latency ?? 0) + extra;
    const send = (): void => {
      if (this.#closing) return;
      const { response, close } = this.#finalize(request, reply);
      this.#engine.sent(response);
      this.#write(
        response,
        request.method,
        () => {
          this.#served++;
          this.#busy = false;
          if (close) {
            this.#closing = true;
            this.#engine.closed();
            this.#stream.close(request.version === '0.9' ? 'HTTP/0.9: response ends at close' : 'Connection: close');
          } else {
            this.#armIdle();
            this.#read();
          }
        },
        reply.options,
      );
    };
    if (delay > 0) clock.setTimeout(send, delay);
    else send();
  }

  /** Adds framing and persistence headers and decides whether the connection ends after this reply. */
  #finalize(request: WireRequest, reply: Reply): { response: WireResponse; close: boolean } {
    if (request.version === '0.9') {
      const body = reply.status >= 400 ? html09Error(reply.status, `${request.method} ${request.target}`) : reply.body;
      return { response: { version: '0.9', status: 200, reason: 'OK', headers: [], body }, close: true };
    }
    const keepAlive = this.#server.keepAlive;
    // The handler's own Connection options. Persistence tokens are the server's to decide (a handler's
    // `close` is honoured); the field names it lists stay, because the fields they name are hop-by-hop
    // only if the next hop is told so: RFC 9110 §7.6.1 has a proxy remove exactly the fields Connection
    // names, so dropping Connection here while keeping those fields would let them leak past a proxy.
    const replyOptions = headerTokens(reply.headers, 'connection');
    const named = reply.headers
      .filter((h) => h.name.toLowerCase() === 'connection')
      .flatMap((h) => h.value.split(','))
      .map((t) => t.trim())
      .filter((t) => t !== '' && !/^(close|keep-alive)$/i.test(t));
    const remaining = (keepAlive?.max ?? 1) - this.#served - 1;
    // The request's own persistence is the HTTP/1 rule (isPersistent, http1/framing.ts); then this server's
    // settings and the handler's `Connection: close` can only end the connection sooner.
    const persist = keepAlive !== undefined && remaining > 0 && !replyOptions.includes('close') && isPersistent(request.version, request.headers);
    const headers: HeaderField[] = [
      { name: 'Date', value: new Date(this.#env.epoch + this.#ctx.clock.now()).toUTCString() },
      { name: 'Server', value: this.#server.name },
      ...reply.headers.filter((h) => !/^(content-length|connection|keep-alive|transfer-encoding|date|server)$/i.test(h.name)),
    ];
    // RFC 9110 §8.6: a HEAD reply may carry the Content-Length the GET would have; 204 and 304 carry none.
    if (reply.status !== 204 && reply.status !== 304) headers.push({ name: 'Content-Length', value: String(reply.body.length) });
    // One Connection field: the names the handler listed, then this hop's persistence option.
    if (!persist) {
      headers.push({ name: 'Connection', value: [...named, 'close'].join(', ') });
    } else if (request.version === '1.0' && keepAlive) {
      headers.push({ name: 'Connection', value: [...named, 'keep-alive'].join(', ') });
      headers.push({ name: 'Keep-Alive', value: `timeout=${Math.ceil(keepAlive.timeout / 1000)}, max=${remaining}` });
    } else if (named.length > 0) {
      headers.push({ name: 'Connection', value: named.join(', ') });
    }
    const body = request.method === 'HEAD' || reply.status === 204 || reply.status === 304 ? new Uint8Array(0) : reply.body;
    return { response: { version: request.version, status: reply.status, reason: reply.reason, headers, body }, close: !persist };
  }

  /** Writes a response, trickling the body when a slow-body option applies; calls `done` afterwards. */
  #write(response: WireResponse, method: string, done: () => void, options: { bytesPerTick?: number; tickMs?: number } = {}): void {
    const slow = options.bytesPerTick ? options : this.#server.faults.slow;
    const bytes = this.#env.codec.encodeResponse(response, method);
    if (!slow || response.body.length === 0 || method === 'HEAD') {
      this.#stream.write(bytes);
      done();
      return;
    }
    const headLength = bytes.length - response.body.length;
    const step = slow.bytesPerTick!;
    const tick = slow.tickMs ?? 10;
    this.#ctx.trace.emit({ type: 'fault-injected', connectionId: this.#stream.connectionId, fault: 'slow-body', detail: `${step} bytes every ${tick} ms` });
    this.#stream.write(bytes.subarray(0, headLength));
    let at = headLength;
    const pump = (): void => {
      if (this.#closing && this.#stream.state === 'closed') return;
      this.#stream.write(bytes.subarray(at, at + step));
      at += step;
      if (at >= bytes.length) done();
      else this.#ctx.clock.setTimeout(pump, tick);
    };
    this.#ctx.clock.setTimeout(pump, tick);
  }
}
