/**
 * The HTTP/3 client of the simulation: a `ClientProtocol` for httpVersion '3' (sim/protocol.ts), with
 * the server's side (server.ts) on the other end of a simulated QUIC connection. Both sides are
 * `Http3Connection` engines (http3/http3-connection.ts); this file turns exchanges into their requests
 * and their events into responses, and udp.ts moves their datagrams.
 *
 * Connection management, browser-like:
 * - One QUIC connection per origin carries every request to it, each on its own bidirectional stream
 *   (0, 4, 8, ...; RFC 9000 §2.1), all at once: no per-origin connection limit and no queueing behind
 *   other requests, and no head-of-line blocking between streams (streams.ts).
 * - A new connection costs ONE round trip before the first request can leave (transport and TLS 1.3
 *   handshakes combined, RFC 9001 §4); HTTP/1.1 or HTTP/2 over TCP + TLS 1.3 cost two.
 * - After a connection, the client keeps the server's session ticket (per origin). The next connection
 *   to that origin resumes and sends safe requests (GET, HEAD, OPTIONS) in 0-RTT packets in its first
 *   flight, so they cost no round trip at all. Other methods wait for the handshake, because 0-RTT data
 *   can be replayed by an attacker (RFC 9001 §9.2, RFC 8470; RFC 9114 §10.9).
 * - Each side opens a control stream and sends SETTINGS first (RFC 9114 §6.2.1).
 * - A connection with no open request for `idleTimeout` ms is closed: GOAWAY on the control stream
 *   (RFC 9114 §5.2), then CONNECTION_CLOSE with H3_NO_ERROR.
 * - Aborting a fetch (AbortSignal) whose request is on the wire cancels its stream (RFC 9114 §4.1.1):
 *   STOP_SENDING and RESET_STREAM with H3_REQUEST_CANCELLED in one packet; the server answers with its
 *   own RESET_STREAM (RFC 9000 §3.5) and sends nothing more. The connection stays open for other
 *   requests. A request still waiting for keys is just forgotten: nothing of it was sent.
 * - A server that resets a response stream fails that fetch with a network error, naming the code.
 * - A GOAWAY from the server (RFC 9114 §5.2) sends the requests it did not process, and any not yet sent,
 *   to a new connection ('request-retried'); the others stay to be answered or failed.
 *
 * HAR timings: `connect` and `ssl` are both the QUIC handshake time before the request was sent (TLS is
 * part of QUIC's handshake, so they are the same span; 0 for a 0-RTT request); -1 on a reused
 * connection.
 *
 * QPACK: both ends announce the simulation's `http3.qpack` limits (default 4096 and 100, RFC 9204 §5) and
 * use the dynamic table within the peer's; a request blocked behind a lost encoder-stream packet is traced
 * ('qpack-blocked', 'qpack-unblocked'), and its encoder-stream bytes ('qpack-instructions') carry the
 * `offset` a `lossSchedule` names to lose them.
 *
 * Simplifications: every URL (http: too) goes over QUIC, as if the server had advertised h3 with
 * Alt-Svc (RFC 9114 §3.1.1) and the client trusted it at once; no proxies (an error, see the constructor);
 * server push is not used.
 */
import { WireError } from '../../errors';
import type { ClientProtocol, ClientProtocolFactory, ProtocolEnv } from '../protocol';
import { abortReason, roundTimings, toFetchResponse, type Exchange } from '../exchange';
import { MockServer, type ServerOptions } from '../../server/server';
import { binaryString } from '../../trace/events';
import type { QuicConnection } from '../../http3/connection';
import { http3ErrorName, HTTP3_ERROR_CODES } from '../../http3/frames';
import { Http3Connection } from '../../http3/http3-connection';
import type { Http3Event } from '../../http3/http3-events';
import { http3Fields, pseudo, type Http3Message } from '../../http3/message';
import { Http3ServerSession } from './server';
import { Http3Endpoint } from './udp';

export interface Http3ProtocolOptions {
  /**
   * The server to answer with. Default: the simulation's `server` option when it is a MockServer;
   * when it is plain options, a MockServer built from them (then `sim.server` is a different instance).
   */
  readonly server?: MockServer;
}

interface Pending {
  readonly exchange: Exchange;
  headersSize: number;
}

interface Connection {
  readonly id: string;
  readonly key: string;
  readonly endpoint: Http3Endpoint;
  readonly openedAt: number;
  readyAt: number | undefined;
  /** Requests waiting for keys (1-RTT, or 0-RTT for safe methods). */
  readonly waiting: Exchange[];
  readonly streams: Map<number, Pending>;
  idleTimer: number | undefined;
  served: number;
  /** The stream id of the server's GOAWAY, once one has arrived. */
  goaway: number | undefined;
}

export class Http3Client implements ClientProtocol {
  readonly #env: ProtocolEnv;
  readonly #server: MockServer;
  /** The connection new requests to an origin use. */
  readonly #connections = new Map<string, Connection>();
  /** Every connection not closed yet, including those a GOAWAY took out of `#connections`. */
  readonly #live = new Set<Connection>();
  /** Origins we hold a session ticket for (RFC 8446 §4.6.1), enabling 0-RTT. */
  readonly #tickets = new Set<string>();

  constructor(env: ProtocolEnv, options: Http3ProtocolOptions = {}) {
    if (env.proxyAddress) {
      // An HTTP forward proxy relays TCP (CONNECT); QUIC needs UDP relayed, which takes the connect-udp upgrade token
      // (RFC 9298, MASQUE). Browsers do not use HTTP/3 when a proxy is configured, and neither do we.
      throw new WireError({
        code: 'unsupported-option',
        side: 'local',
        message:
          "createSimulation: HTTP/3 cannot go through the simulated proxy: QUIC runs over UDP and an HTTP proxy tunnels TCP (relaying UDP takes a proxy that supports the connect-udp upgrade token, RFC 9298, which this one does not). Use httpVersion '2' (CONNECT tunnel) or '1.1' with a proxy.",
      });
    }
    this.#env = env;
    const configured = env.options.server;
    this.#server = options.server ?? (configured instanceof MockServer ? configured : new MockServer((configured as ServerOptions | undefined) ?? {}));
  }

  keyFor(url: URL): string {
    return `${url.protocol}//${url.hostname}:${url.port || (url.protocol === 'http:' ? '80' : '443')}`;
  }

  /** The live connection for a pool key, for tests and visualizers. */
  connection(key: string): QuicConnection | undefined {
    return this.#connections.get(key)?.endpoint.engine.quic;
  }

  submit(exchange: Exchange): void {
    const { ctx } = this.#env;
    let connection = this.#connections.get(exchange.origin);
    const reused = connection !== undefined;
    connection ??= this.#open(exchange);
    ctx.clock.clearTimeout(connection.idleTimer);
    exchange.dispatchedAt = ctx.clock.now();
    exchange.connectionId = connection.id;
    exchange.reused = reused;
    exchange.serverIPAddress = this.#env.ipFor(exchange.url.hostname);
    ctx.trace.emit({ type: 'request-dispatched', requestId: exchange.id, connectionId: connection.id, reused, pipelineDepth: connection.streams.size });
    connection.waiting.push(exchange);
    this.#flushWaiting(connection);
  }

  abort(exchange: Exchange): void {
    if (exchange.settled) return;
    const now = this.#env.ctx.clock.now();
    const touched: Connection[] = [];
    for (const connection of this.#live) {
      const at = connection.waiting.indexOf(exchange);
      if (at >= 0) {
        connection.waiting.splice(at, 1);
        touched.push(connection);
      }
      for (const [id, pending] of connection.streams) {
        if (pending.exchange !== exchange) continue;
        connection.streams.delete(id);
        touched.push(connection);
        // RFC 9114 §4.1.1: a client cancels a request by aborting reading (STOP_SENDING) and resetting
        // its sending part (RESET_STREAM), both with H3_REQUEST_CANCELLED.
        connection.endpoint.apply(connection.endpoint.engine.cancel(id, now));
      }
    }
    this.#fail(exchange, 'aborted', abortReason(exchange.signal!), 'aborted by the caller');
    for (const connection of touched) this.#armIdle(connection);
  }

  #open(exchange: Exchange): Connection {
    const { ctx, link, options } = this.#env;
    const id = ctx.nextId('q');
    const key = exchange.origin;
    const resume = this.#tickets.has(key);
    const { restartAfterIdle, certificateChainBytes, tlsKeyShare: keyShare, congestionControl, pacing } = options;
    const qpack = options.http3?.qpack ?? {};
    const client = new Http3Connection({ role: 'client', resume, restartAfterIdle, keyShare, congestionControl, pacing, qpack });
    const server = new Http3Connection({ role: 'server', restartAfterIdle, certificateChainBytes, keyShare, congestionControl, pacing, qpack });
    let session: Http3ServerSession | undefined;
    const connection: Connection = {
      id,
      key,
      endpoint: new Http3Endpoint(client, id, ctx, link, (event) => this.#onEvent(connection, event)),
      openedAt: ctx.clock.now(),
      readyAt: undefined,
      waiting: [],
      streams: new Map(),
      idleTimer: undefined,
      served: 0,
      goaway: undefined,
    };
    const serverEndpoint = new Http3Endpoint(server, id, ctx, link, (event) => session?.onEvent(event));
    session = new Http3ServerSession({
      server: this.#server,
      endpoint: serverEndpoint,
      epoch: options.epoch,
      setTimeout: (cb, ms) => ctx.clock.setTimeout(cb, ms),
      track: this.#env.track,
    });
    connection.endpoint.pair(serverEndpoint);
    serverEndpoint.pair(connection.endpoint);
    this.#connections.set(key, connection);
    this.#live.add(connection);
    ctx.trace.emit({
      type: 'quic-connection-opening',
      connectionId: id,
      address: `${exchange.url.hostname}:${key.split(':').pop()}`,
      rtt: link.rtt,
      resumed: resume,
      congestionControl: client.quic.recovery.algorithm,
    });
    // RFC 9114 §6.2.1: the control stream's first frame is SETTINGS. On a resumed connection it goes in 0-RTT.
    connection.endpoint.apply(client.start(ctx.clock.now()));
    return connection;
  }

  #flushWaiting(connection: Connection): void {
    const engine = connection.endpoint.engine;
    const ready = connection.waiting.filter((ex) => engine.maySend(ex.method));
    for (const exchange of ready) {
      connection.waiting.splice(connection.waiting.indexOf(exchange), 1);
      this.#send(connection, exchange);
    }
  }

  #send(connection: Connection, exchange: Exchange): void {
    const { ctx } = this.#env;
    const url = exchange.url;
    const body = exchange.body;
    const headers = [...exchange.headers];
    if (body.length > 0 && !headers.some((h) => h.name.toLowerCase() === 'content-length'))
      headers.push({ name: 'content-length', value: String(body.length) });
    const fields = http3Fields(
      [
        { name: ':method', value: exchange.method },
        { name: ':scheme', value: url.protocol.slice(0, -1) },
        { name: ':authority', value: url.host },
        { name: ':path', value: url.pathname + url.search },
      ],
      headers,
    );
    const now = ctx.clock.now();
    exchange.sentAt = now;
    exchange.wire = { method: exchange.method, target: url.pathname + url.search, version: '1.1', headers: fields, body };
    const setup = exchange.reused ? -1 : now - (exchange.dispatchedAt ?? now);
    exchange.setup = { connect: setup, ssl: setup };
    const sent = connection.endpoint.engine.request(fields, body, now);
    connection.streams.set(sent.streamId, { exchange, headersSize: sent.fieldSectionSize });
    connection.endpoint.apply(sent.events, () =>
      ctx.trace.emit({
        type: 'request-sent',
        requestId: exchange.id,
        connectionId: connection.id,
        startLine: `${exchange.method} ${url.pathname + url.search} HTTP/3`,
        headers: fields,
      }),
    );
  }

  #onEvent(connection: Connection, event: Http3Event): void {
    const { ctx } = this.#env;
    switch (event.type) {
      case 'ready':
        connection.readyAt = ctx.clock.now();
        this.#flushWaiting(connection);
        return;
      case 'confirmed':
        this.#tickets.add(connection.key); // the NewSessionTicket came with HANDSHAKE_DONE
        return;
      case 'goaway':
        this.#goaway(connection, event.id);
        return;
      case 'message-data': {
        const exchange = connection.streams.get(event.streamId)?.exchange;
        if (!exchange || exchange.firstByteAt !== undefined) return; // an aborted or retried request
        exchange.firstByteAt = ctx.clock.now();
        ctx.trace.emit({ type: 'response-started', requestId: exchange.id, connectionId: connection.id });
        return;
      }
      case 'message':
      case 'stream-error': {
        const pending = connection.streams.get(event.streamId);
        if (!pending) return;
        connection.streams.delete(event.streamId);
        if (event.type === 'message') this.#finish(connection, pending, event);
        else {
          const text = `${event.error.code}: ${event.error.message}`;
          this.#fail(pending.exchange, 'network-error', new TypeError('Failed to fetch', { cause: event.error }), `malformed HTTP/3 response: ${text}`);
        }
        return;
      }
      case 'stream-reset': {
        const pending = event.by === 'server' ? connection.streams.get(event.streamId) : undefined;
        if (!pending) return;
        connection.streams.delete(event.streamId);
        const message = `the server reset stream ${event.streamId} with ${http3ErrorName(event.errorCode)} before the response was complete`;
        this.#fail(pending.exchange, 'network-error', new TypeError('Failed to fetch', { cause: new Error(message) }), message);
        this.#armIdle(connection);
        return;
      }
      case 'closed':
        this.#closed(connection, event.reason);
        return;
      default:
        return;
    }
  }

  /**
   * RFC 9114 §5.2: the server will not process requests on streams from `id` on. Those, and requests not
   * sent yet, are retried on a new connection (they never ran, so even a POST is safe to send again);
   * those below `id` may have been processed and stay to be answered or failed. Nothing new uses this
   * connection.
   */
  #goaway(connection: Connection, id: number): void {
    const { ctx } = this.#env;
    connection.goaway = Math.min(id, connection.goaway ?? id);
    if (this.#connections.get(connection.key) === connection) this.#connections.delete(connection.key);
    ctx.clock.clearTimeout(connection.idleTimer);
    const retry: { exchange: Exchange; why: string }[] = connection.waiting
      .splice(0)
      .map((exchange) => ({ exchange, why: 'GOAWAY before the request was sent' }));
    for (const [streamId, pending] of connection.streams) {
      if (streamId < connection.goaway) continue;
      connection.streams.delete(streamId);
      retry.push({ exchange: pending.exchange, why: `GOAWAY ${connection.goaway}: stream ${streamId} was not processed` });
    }
    for (const { exchange, why } of retry) {
      if (exchange.settled) continue;
      exchange.attempts++;
      ctx.trace.emit({ type: 'request-retried', requestId: exchange.id, connectionId: connection.id, reason: why });
      for (const f of ['dispatchedAt', 'connectionId', 'reused', 'sentAt', 'firstByteAt', 'wire', 'setup'] as const) delete exchange[f];
      this.submit(exchange);
    }
  }

  #finish(connection: Connection, pending: Pending, message: Http3Message & { readonly fieldSectionSize: number }): void {
    const { ctx } = this.#env;
    const exchange = pending.exchange;
    connection.served++;
    this.#armIdle(connection);
    if (exchange.settled) return;
    exchange.settled = true;
    const now = ctx.clock.now();
    const status = Number(pseudo(message.fields, ':status') ?? '500');
    const headers = message.fields.filter((f) => !f.name.startsWith(':'));
    const request = exchange.wire!;
    const firstByte = exchange.firstByteAt ?? now;
    const sentAt = exchange.sentAt ?? now;
    ctx.trace.emit({
      type: 'request-finished',
      requestId: exchange.id,
      connectionId: connection.id,
      startedAt: exchange.startedAt,
      reused: exchange.reused === true,
      serverIPAddress: exchange.serverIPAddress ?? '',
      timings: roundTimings({
        // Waiting for a connection that another request is setting up counts as blocked, as in browsers.
        blocked: sentAt - exchange.startedAt - Math.max(0, exchange.setup?.connect ?? 0),
        dns: -1,
        connect: exchange.setup?.connect ?? -1,
        ssl: exchange.setup?.ssl ?? -1,
        send: 0,
        wait: firstByte - sentAt,
        receive: now - firstByte,
      }),
      request: {
        method: request.method,
        url: exchange.url.href,
        httpVersion: 'HTTP/3',
        headers: request.headers,
        headersSize: pending.headersSize,
        bodySize: request.body.length,
      },
      response: {
        status,
        statusText: '',
        httpVersion: 'HTTP/3',
        headers,
        headersSize: message.fieldSectionSize,
        bodySize: message.body.length,
        mimeType: headers.find((h) => h.name === 'content-type')?.value ?? 'x-unknown',
        body: binaryString(message.body),
      },
    });
    exchange.resolve(toFetchResponse(exchange, { version: '1.1', status, reason: '', headers, body: message.body }));
  }

  #armIdle(connection: Connection): void {
    const { ctx, options } = this.#env;
    ctx.clock.clearTimeout(connection.idleTimer);
    if (connection.streams.size > 0 || connection.waiting.length > 0) return;
    connection.idleTimer = ctx.clock.setTimeout(() => {
      if (connection.streams.size > 0 || connection.waiting.length > 0) return;
      const engine = connection.endpoint.engine;
      const now = ctx.clock.now();
      // RFC 9114 §5.2: GOAWAY first (a client's carries a push id; we never allow pushes, so 0).
      connection.endpoint.apply(engine.goAway(0, now));
      connection.endpoint.apply(engine.close(HTTP3_ERROR_CODES.H3_NO_ERROR, 'idle', now));
    }, options.idleTimeout);
  }

  #closed(connection: Connection, reason: string): void {
    const { ctx } = this.#env;
    ctx.clock.clearTimeout(connection.idleTimer);
    if (this.#connections.get(connection.key) === connection) this.#connections.delete(connection.key);
    this.#live.delete(connection);
    const unanswered = [...connection.waiting, ...[...connection.streams.values()].map((p) => p.exchange)];
    for (const exchange of unanswered) {
      if (exchange.settled) continue;
      const message = `QUIC connection ${connection.id} closed before the response: ${reason}`;
      this.#fail(exchange, 'network-error', new TypeError('Failed to fetch', { cause: new Error(message) }), message);
    }
  }

  #fail(exchange: Exchange, reason: 'aborted' | 'network-error', error: unknown, message: string): void {
    exchange.settled = true;
    this.#env.ctx.trace.emit({ type: 'request-failed', requestId: exchange.id, reason, message });
    exchange.reject(error);
  }
}

/** A `protocols['3']` factory: `createSimulation({ httpVersion: '3', protocols: { '3': http3Protocol() } })`. */
export function http3Protocol(options: Http3ProtocolOptions = {}): ClientProtocolFactory {
  return (env) => new Http3Client(env, options);
}
