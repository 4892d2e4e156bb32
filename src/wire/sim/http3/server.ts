/**
 * The server side of the HTTP/3 model: one session per QUIC connection, answering requests with the
 * MockServer's routes and resource store through `respond` (server/semantics.ts), like the HTTP/1 server.
 * The HTTP/3 protocol itself (control stream, SETTINGS, framing, QPACK) is the server's `Http3Connection`
 * engine (http3/http3-connection.ts); this file decides what to answer and when.
 *
 * - When its 1-RTT keys are ready the server opens its control stream (stream 3, type 0x00) and sends
 *   SETTINGS first (RFC 9114 §6.2.1, §7.2.4): a QPACK table capacity of 0 and no blocked streams.
 * - Each client-initiated bidirectional stream (0, 4, 8, ...) carries one request (§4.1). The request is
 *   answered once its stream has ended (FIN); requests on different streams are answered independently,
 *   in whatever order they complete. A response is HEADERS then DATA, then FIN.
 * - Route latency (`latency` in a route's options) delays the answer on the virtual clock.
 * - Host work: each handler's promise is registered with the simulation (`track`, as the HTTP/1 and
 *   HTTP/2 servers do through server.attach), so virtual time does not move while a handler awaits or
 *   streams its body; the answer goes out at the virtual instant the request was handled.
 * - Cancellation (RFC 9114 §4.1.1): a client that gives up on a request sends STOP_SENDING and
 *   RESET_STREAM with H3_REQUEST_CANCELLED. The QUIC engine answers STOP_SENDING with its own RESET_STREAM
 *   (RFC 9000 §3.5); here the session forgets the request, so a handler still running, a latency timer or
 *   a slow body send nothing more.
 *
 * Faults (server/faults.ts), as over HTTP/1 and HTTP/2 where they make sense for QUIC:
 * - 'status': that status instead of the route's answer.
 * - 'drop': QUIC has no TCP RST or FIN to drop a connection with; an endpoint ends one with
 *   CONNECTION_CLOSE (RFC 9000 §10.2). `how: 'close'` is the graceful kind: GOAWAY, then CONNECTION_CLOSE
 *   with H3_NO_ERROR. The GOAWAY names the stream after this request's (RFC 9114 §5.2: streams below it
 *   "might have been processed"), so the client cannot safely retry this request and it fails, as the
 *   fault intends; requests on later streams were never read and the client retries them elsewhere.
 *   `how: 'reset'` is the abrupt kind: CONNECTION_CLOSE with H3_INTERNAL_ERROR (§8.1), no GOAWAY.
 * - 'latency': extra virtual ms before every response, on top of the route's own.
 * - 'slow-body' (and a route's `bytesPerTick`): HEADERS at once, then one DATA frame of `bytesPerTick`
 *   bytes every `tickMs`, FIN with the last. Each DATA frame is traced.
 *
 * Not modelled: the server's own idle timeout (the client closes idle connections), and request bodies
 * that stream before FIN (the request is handled once complete).
 */
import { reasonPhrase } from '../../data/index';
import type { WireRequest } from '../../net/codec';
import type { MockServer } from '../../server/server';
import { faultReply, internalError, respond, type Reply } from '../../server/semantics';
import { HTTP3_ERROR_CODES } from '../../http3/frames';
import type { Http3Event } from '../../http3/http3-events';
import { http3Fields, pseudo, type Http3Message } from '../../http3/message';
import type { QpackField } from '../../http3/qpack';
import type { Http3Endpoint } from './udp';

const DEFAULT_TICK_MS = 10;

export interface Http3ServerSessionOptions {
  readonly server: MockServer;
  readonly endpoint: Http3Endpoint;
  /** Unix ms at virtual time 0, for the Date header. */
  readonly epoch: number;
  readonly setTimeout: (callback: () => void, ms: number) => void;
  /**
   * Registers a handler's promise with the simulation so virtual time waits for it (ProtocolEnv.track).
   * Without it, handlers get only the driver's microtask budget before time moves on.
   */
  readonly track?: (work: Promise<unknown>) => void;
}

export class Http3ServerSession {
  readonly #options: Http3ServerSessionOptions;

  constructor(options: Http3ServerSessionOptions) {
    this.#options = options;
  }

  onEvent(event: Http3Event): void {
    // After a 'drop' fault closed the connection, requests that arrived with it are not read.
    if (this.#options.endpoint.engine.state === 'closed') return;
    if (event.type === 'message') this.#handle(event.streamId, event);
    // A malformed request is a stream error (RFC 9114 §4.1.2); we answer 400 on that stream.
    else if (event.type === 'stream-error')
      this.#send(event.streamId, 'GET', { ...internalError(event.error), status: 400, reason: reasonPhrase(400), route: 'builtin:400' });
  }

  #handle(streamId: number, message: Http3Message): void {
    const { endpoint, server } = this.#options;
    const connectionId = endpoint.connectionId;
    const method = pseudo(message.fields, ':method') ?? 'GET';
    const authority = pseudo(message.fields, ':authority') ?? 'localhost';
    const origin = `${pseudo(message.fields, ':scheme') ?? 'https'}://${authority}`;
    const headers = [{ name: 'host', value: authority }, ...message.fields.filter((f) => !f.name.startsWith(':'))];
    const request: WireRequest = { method, target: pseudo(message.fields, ':path') ?? '/', version: '1.1', headers, body: message.body };
    endpoint.emit({
      type: 'message-parsed',
      connectionId,
      by: 'server',
      kind: 'request',
      startLine: `${method} ${request.target} HTTP/3`,
      headers: message.fields,
      bodyLength: message.body.length,
    });
    const fault = server.faults.take();
    if (fault?.kind === 'drop') {
      endpoint.emit({
        type: 'fault-injected',
        connectionId,
        fault: 'drop',
        detail: `${fault.how === 'close' ? 'GOAWAY and CONNECTION_CLOSE (H3_NO_ERROR)' : 'CONNECTION_CLOSE (H3_INTERNAL_ERROR)'} instead of answering ${request.method} ${request.target}`,
      });
      this.#drop(streamId, fault.how);
      return;
    }
    let work: Promise<Reply>;
    if (fault?.kind === 'status') {
      endpoint.emit({ type: 'fault-injected', connectionId, fault: 'status', detail: `answer ${fault.status} to ${request.method} ${request.target}` });
      work = Promise.resolve(faultReply(fault));
    } else {
      work = respond(request, { routes: server.routes, store: server.store, origin: origin.replace(/:\d+$/, '') });
    }
    this.#options.track?.(work);
    void work.then(
      (reply) => this.#answer(streamId, request, reply),
      (error: unknown) => this.#answer(streamId, request, internalError(error)),
    );
  }

  /** Ends the whole connection instead of answering (a 'drop' fault). */
  #drop(streamId: number, how: 'reset' | 'close'): void {
    const { endpoint } = this.#options;
    const engine = endpoint.engine;
    const now = endpoint.now();
    if (how === 'reset') {
      endpoint.apply(engine.close(HTTP3_ERROR_CODES.H3_INTERNAL_ERROR, 'fault: dropped connection', now));
      return;
    }
    // RFC 9114 §5.2: a server's GOAWAY carries the first client request stream id it did not process.
    // This request was read and dropped, so it counts as possibly processed: the next id goes out.
    endpoint.apply(engine.goAway(streamId + 4, now));
    endpoint.apply(engine.close(HTTP3_ERROR_CODES.H3_NO_ERROR, 'fault: dropped connection', now));
  }

  #live(streamId: number): boolean {
    return this.#options.endpoint.engine.isWritable(streamId);
  }

  #answer(streamId: number, request: WireRequest, reply: Reply): void {
    if (!this.#live(streamId)) return;
    const { endpoint, server } = this.#options;
    endpoint.emit({
      type: 'server-handled',
      connectionId: endpoint.connectionId,
      method: request.method,
      target: request.target,
      route: reply.route,
      status: reply.status,
    });
    const extra = server.faults.extraLatency;
    if (extra > 0) endpoint.emit({ type: 'fault-injected', connectionId: endpoint.connectionId, fault: 'latency', detail: `+${extra} ms` });
    const latency = (reply.options.latency ?? 0) + extra;
    if (latency > 0) this.#options.setTimeout(() => this.#send(streamId, request.method, reply), latency);
    else this.#send(streamId, request.method, reply);
  }

  #send(streamId: number, method: string, reply: Reply): void {
    if (!this.#live(streamId)) return;
    const { endpoint, server, epoch } = this.#options;
    const bodyless = method === 'HEAD' || reply.status === 204 || reply.status === 304;
    const headers = [
      { name: 'date', value: new Date(epoch + endpoint.now()).toUTCString() },
      { name: 'server', value: server.name },
      ...reply.headers.filter((h) => !/^(content-length|date|server)$/i.test(h.name)),
    ];
    // RFC 9110 §8.6: HEAD may announce the GET's length; 204 and 304 carry none.
    if (reply.status !== 204 && reply.status !== 304) headers.push({ name: 'content-length', value: String(reply.body.length) });
    const fields = http3Fields([{ name: ':status', value: String(reply.status) }], headers);
    const body = bodyless ? new Uint8Array(0) : reply.body;
    const slow = reply.options.bytesPerTick ? reply.options : server.faults.slow;
    if (!slow?.bytesPerTick || body.length === 0) {
      endpoint.apply(endpoint.engine.respond(streamId, fields, body, endpoint.now()));
      return;
    }
    this.#trickle(streamId, fields, body, slow.bytesPerTick, slow.tickMs ?? DEFAULT_TICK_MS);
  }

  /** A slow body: HEADERS now, then one DATA frame of `step` bytes per tick, FIN with the last. */
  #trickle(streamId: number, fields: readonly QpackField[], body: Uint8Array, step: number, tick: number): void {
    const { endpoint } = this.#options;
    endpoint.emit({ type: 'fault-injected', connectionId: endpoint.connectionId, fault: 'slow-body', detail: `${step} bytes every ${tick} ms` });
    endpoint.apply(endpoint.engine.sendHeaders(streamId, fields, false, endpoint.now()));
    let at = 0;
    const pump = (): void => {
      if (!this.#live(streamId)) return;
      const payload = body.subarray(at, at + step);
      at += step;
      const last = at >= body.length;
      endpoint.apply(endpoint.engine.sendData(streamId, payload, last, endpoint.now()));
      if (!last) this.#options.setTimeout(pump, tick);
    };
    this.#options.setTimeout(pump, tick);
  }
}
