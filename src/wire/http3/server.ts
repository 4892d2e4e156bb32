/**
 * The server side of the HTTP/3 model: one session per QUIC connection, answering requests with the
 * MockServer's routes and resource store through `respond` (server/semantics.ts), like the HTTP/1 server.
 *
 * - When its 1-RTT keys are ready the server opens its control stream (stream 3, type 0x00) and sends
 *   SETTINGS first (RFC 9114 §6.2.1, §7.2.4): a QPACK table capacity of 0 and no blocked streams.
 * - Each client-initiated bidirectional stream (0, 4, 8, ...) carries one request (§4.1). The request is
 *   answered once its stream has ended (FIN); requests on different streams are answered independently,
 *   in whatever order they complete. A response is HEADERS then DATA, then FIN.
 * - Route latency (`latency` in a route's options) delays the answer on the virtual clock.
 *
 * Host work: the HTTP/1 server registers each handler's promise with the simulation (`track`) so virtual
 * time waits for it. `ProtocolEnv` does not hand `track` to protocol factories, so here handlers rely on
 * the driver's microtask budget (simulation.ts yields 16 microtasks before moving time). Handlers that
 * build a Response synchronously or await a little (`req.text()`) are fine; a handler that waits on real
 * timers or I/O would look stalled. Adding `track` to ProtocolEnv (net/) would remove the limit.
 *
 * Not modelled: the server's faults (server/faults.ts apply to HTTP/1 and HTTP/2 connections only), the
 * server's own GOAWAY and idle timeout (the client closes idle connections), and request bodies that
 * stream before FIN (the request is handled once complete).
 */
import { reasonPhrase } from '../data/index';
import type { WireRequest } from '../net/codec';
import type { MockServer } from '../server/server';
import { internalError, respond, type Reply } from '../server/semantics';
import type { QuicEvent } from './connection';
import { encodeHttp3Frame, http3PayloadLength, HTTP3_SETTINGS, HTTP3_STREAM_TYPES, type Http3Frame } from './frames';
import { decodeMessage, encodeMessage, http3Fields, pseudo } from './message';
import type { QuicEndpoint } from './udp';

/** Our endpoints' SETTINGS (RFC 9204 §5): no dynamic table, so no blocked streams either. */
export const HTTP3_LOCAL_SETTINGS: Http3Frame = {
  type: 'SETTINGS',
  settings: [
    { id: HTTP3_SETTINGS.QPACK_MAX_TABLE_CAPACITY, value: 0 },
    { id: HTTP3_SETTINGS.QPACK_BLOCKED_STREAMS, value: 0 },
  ],
};

export interface Http3ServerSessionOptions {
  readonly server: MockServer;
  readonly endpoint: QuicEndpoint;
  /** Unix ms at virtual time 0, for the Date header. */
  readonly epoch: number;
  readonly setTimeout: (callback: () => void, ms: number) => void;
}

export class Http3ServerSession {
  readonly #options: Http3ServerSessionOptions;
  readonly #requests = new Map<number, Uint8Array[]>();
  #controlOpened = false;

  constructor(options: Http3ServerSessionOptions) {
    this.#options = options;
  }

  onEvent(event: QuicEvent): void {
    if (event.type === 'ready') this.#openControl();
    if (event.type !== 'stream-data') return;
    // RFC 9000 §2.1: the two low bits of a stream id say who opened it and in which direction.
    if (event.streamId % 4 !== 0) return; // client unidirectional streams: control (SETTINGS, GOAWAY)
    const parts = this.#requests.get(event.streamId) ?? [];
    parts.push(event.data);
    this.#requests.set(event.streamId, parts);
    if (event.fin) {
      this.#requests.delete(event.streamId);
      const total = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let pos = 0;
      for (const p of parts) {
        total.set(p, pos);
        pos += p.length;
      }
      this.#handle(event.streamId, total);
    }
  }

  #openControl(): void {
    if (this.#controlOpened) return;
    this.#controlOpened = true;
    const { endpoint } = this.#options;
    const settings = encodeHttp3Frame(HTTP3_LOCAL_SETTINGS);
    const bytes = new Uint8Array(1 + settings.length);
    bytes[0] = HTTP3_STREAM_TYPES.CONTROL;
    bytes.set(settings, 1);
    endpoint.emit({ type: 'http3-frame', connectionId: endpoint.connectionId, from: 'server', streamId: 3, frame: 'SETTINGS', length: http3PayloadLength(HTTP3_LOCAL_SETTINGS) });
    endpoint.apply(endpoint.connection.write(3, bytes, false, endpoint.now()));
  }

  #handle(streamId: number, bytes: Uint8Array): void {
    const { endpoint, server } = this.#options;
    let request: WireRequest;
    let origin: string;
    try {
      const message = decodeMessage(bytes);
      const method = pseudo(message.fields, ':method') ?? 'GET';
      const authority = pseudo(message.fields, ':authority') ?? 'localhost';
      origin = `${pseudo(message.fields, ':scheme') ?? 'https'}://${authority}`;
      const headers = [{ name: 'host', value: authority }, ...message.fields.filter((f) => !f.name.startsWith(':'))];
      request = { method, target: pseudo(message.fields, ':path') ?? '/', version: '1.1', headers, body: message.body };
    } catch (error) {
      // A malformed request is a stream error (RFC 9114 §4.1.2); we answer 400 on that stream.
      this.#send(streamId, 'GET', { ...internalError(error), status: 400, reason: reasonPhrase(400), route: 'builtin:400' });
      return;
    }
    const hostless = origin.replace(/:\d+$/, '');
    void respond(request, { routes: server.routes, store: server.store, origin: hostless }).then(
      (reply) => this.#answer(streamId, request, reply),
      (error: unknown) => this.#answer(streamId, request, internalError(error)),
    );
  }

  #answer(streamId: number, request: WireRequest, reply: Reply): void {
    const { endpoint } = this.#options;
    endpoint.emit({ type: 'server-handled', connectionId: endpoint.connectionId, method: request.method, target: request.target, route: reply.route, status: reply.status });
    const latency = reply.options.latency ?? 0;
    if (latency > 0) this.#options.setTimeout(() => this.#send(streamId, request.method, reply), latency);
    else this.#send(streamId, request.method, reply);
  }

  #send(streamId: number, method: string, reply: Reply): void {
    const { endpoint, server, epoch } = this.#options;
    if (endpoint.connection.state === 'closed') return;
    const bodyless = method === 'HEAD' || reply.status === 204 || reply.status === 304;
    const headers = [
      { name: 'date', value: new Date(epoch + endpoint.now()).toUTCString() },
      { name: 'server', value: server.name },
      ...reply.headers.filter((h) => !/^(content-length|date|server)$/i.test(h.name)),
    ];
    if (reply.status !== 204 && reply.status !== 304) headers.push({ name: 'content-length', value: String(reply.body.length) });
    const fields = http3Fields([{ name: ':status', value: String(reply.status) }], headers);
    const encoded = encodeMessage({ fields, body: bodyless ? new Uint8Array(0) : reply.body });
    for (const frame of encoded.frames) {
      const length = http3PayloadLength(frame);
      endpoint.emit({ type: 'http3-frame', connectionId: endpoint.connectionId, from: 'server', streamId, frame: frame.type === 'HEADERS' ? 'HEADERS' : 'DATA', length, ...(frame.type === 'HEADERS' ? { fields } : {}) });
    }
    endpoint.apply(endpoint.connection.write(streamId, encoded.bytes, true, endpoint.now()));
  }
}
