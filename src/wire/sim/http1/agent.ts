/**
 * The client's connection manager (a browser's "socket pool"): which connection each request goes on.
 *
 * For each pool key (an origin, or the proxy for plain-HTTP requests sent through one), in order:
 * 1. an idle persistent connection is reused;
 * 2. otherwise a new connection is opened while fewer than `maxConnectionsPerOrigin` exist (browsers
 *    use 6; RFC 9112 §9.4 only asks clients to limit themselves);
 * 3. otherwise, with pipelining on, an idempotent request joins the shortest pipeline on a connection
 *    already known to persist. Waiting for that first response is a browser's caution, not a rule of
 *    RFC 9112: §9.3.2 only forbids pipelining right after connecting when retrying requests a failed
 *    connection left unanswered (RFC 2616 §8.1.2.2 said to wait until the connection is known to persist);
 * 4. otherwise it waits in the pool's queue ('request-queued').
 *
 * When a connection ends with requests unanswered, idempotent ones are retried once, on a new connection
 * when the limit allows, if the connection had already served a response (RFC 9112 §9.3.1 allows automatic retry
 * of idempotent requests; browsers do it for reused connections). If requests behind a pipeline were
 * lost, pipelining is switched off for that pool key, as browsers did when a proxy broke it.
 */
import { isIdempotentMethod } from '../../data/index';
import type { Http1Version, MessageCodec, HeaderField, WireRequest, WireResponse } from '../../net/codec';
import { header, headerTokens } from '../../net/codec';
import { Http1ClientConnection } from './client-connection';
import { abortReason, roundTimings, toFetchResponse, type Exchange } from '../exchange';
import type { Link } from '../../net/link';
import type { ByteStream } from '../../net/stream';
import { binaryString } from '../../trace/events';
import type { NetContext, TcpNetwork } from '../../net/tcp';
import { TlsStream, type TlsVersion } from '../../net/tls';
import type { TlsKeyShare } from '../../transport/tls-sizes';
import { ConnectTunnel } from '../proxy-tunnel';

export interface AgentProxy {
  /** "host:port" the proxy listens on. */
  readonly address: string;
  readonly ip: string;
  /** Send `Proxy-Connection: keep-alive` instead of `Connection: keep-alive` to the proxy (1.0). */
  readonly useProxyConnection: boolean;
}

export interface AgentConfig {
  readonly version: Http1Version;
  readonly maxConnectionsPerOrigin: number;
  readonly keepAlive: boolean;
  readonly idleTimeout: number;
  /** Max requests outstanding on one connection when pipelining; 1 turns pipelining off. */
  readonly pipelineDepth: number;
  readonly tls: TlsVersion;
  /** The TLS key exchange (the `tlsKeyShare` option). */
  readonly tlsKeyShare?: TlsKeyShare;
  /** TLS 1.2 False Start (the `tlsFalseStart` option). */
  readonly tlsFalseStart?: boolean;
  readonly proxy: AgentProxy | undefined;
  readonly link: Link;
  readonly network: TcpNetwork;
  readonly codec: MessageCodec;
  readonly ctx: NetContext;
  readonly ipFor: (host: string) => string;
  /** Registers host-side async work (decoding a transfer-coded response body) so virtual time waits for it. */
  readonly track?: (work: Promise<unknown>) => void;
}

interface Pool {
  readonly connections: Http1ClientConnection[];
  readonly queue: Exchange[];
  pipeliningBroken: boolean;
}

export function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

export class Agent {
  readonly #config: AgentConfig;
  readonly #pools = new Map<string, Pool>();
  readonly #pipelined = new WeakSet<Exchange>();

  constructor(config: AgentConfig) {
    this.#config = config;
  }

  /** The pool key for a URL: plain HTTP through a proxy shares the proxy's connections. */
  keyFor(url: URL): string {
    const origin = `${url.protocol}//${url.hostname}:${defaultPort(url)}`;
    const proxy = this.#config.proxy;
    return proxy && url.protocol === 'http:' ? `proxy ${proxy.address}` : origin;
  }

  /** Connections currently in the pool for a key (for tests and visualizers). */
  connections(key: string): readonly Http1ClientConnection[] {
    return this.#pools.get(key)?.connections ?? [];
  }

  submit(exchange: Exchange): void {
    const pool = this.#pool(exchange.origin);
    pool.queue.push(exchange);
    this.#dispatch(exchange.origin);
    if (pool.queue.includes(exchange) && !exchange.queuedReported) {
      exchange.queuedReported = true;
      this.#config.ctx.trace.emit({
        type: 'request-queued',
        requestId: exchange.id,
        origin: exchange.origin,
        reason: 'connection-limit',
        position: pool.queue.indexOf(exchange),
      });
    }
  }

  abort(exchange: Exchange): void {
    if (exchange.settled) return;
    this.#fail(exchange, 'aborted', abortReason(exchange.signal!), 'aborted by the caller');
    const pool = this.#pool(exchange.origin);
    const queued = pool.queue.indexOf(exchange);
    if (queued >= 0) {
      pool.queue.splice(queued, 1);
      return;
    }
    // HTTP/1 cannot cancel one request and keep the connection: the only way is to close it.
    const connection = pool.connections.find((c) => c.id === exchange.connectionId);
    connection?.abort('request aborted');
  }

  #pool(key: string): Pool {
    let pool = this.#pools.get(key);
    if (!pool) {
      pool = { connections: [], queue: [], pipeliningBroken: false };
      this.#pools.set(key, pool);
    }
    return pool;
  }

  #dispatch(key: string): void {
    const pool = this.#pool(key);
    const { maxConnectionsPerOrigin, pipelineDepth } = this.#config;
    while (pool.queue.length > 0) {
      const exchange = pool.queue[0]!;
      // A retry goes on a fresh connection while there is room: the reused one it failed on may not be
      // the only connection that went stale (a relay that ignores a kept-alive connection, for one).
      const wantsFresh = exchange.attempts > 1 && pool.connections.length < maxConnectionsPerOrigin;
      const idle = wantsFresh ? undefined : pool.connections.find((c) => c.state === 'idle');
      if (idle) {
        pool.queue.shift();
        this.#assign(exchange, idle, true);
        continue;
      }
      if (pool.connections.length < maxConnectionsPerOrigin) {
        pool.queue.shift();
        this.#open(pool, exchange);
        continue;
      }
      if (pipelineDepth > 1 && !pool.pipeliningBroken && isIdempotentMethod(exchange.method)) {
        const candidates = pool.connections.filter((c) => c.canPipeline(pipelineDepth));
        candidates.sort((a, b) => a.outstanding - b.outstanding);
        const target = candidates[0];
        if (target) {
          pool.queue.shift();
          this.#pipelined.add(exchange);
          this.#assign(exchange, target, true);
          continue;
        }
      }
      break;
    }
  }

  #assign(exchange: Exchange, connection: Http1ClientConnection, reused: boolean): void {
    const { ctx } = this.#config;
    exchange.dispatchedAt = ctx.clock.now();
    exchange.connectionId = connection.id;
    exchange.reused = reused;
    exchange.serverIPAddress = connection.serverIPAddress;
    ctx.trace.emit({ type: 'request-dispatched', requestId: exchange.id, connectionId: connection.id, reused, pipelineDepth: connection.outstanding });
    connection.send(exchange);
  }

  #open(pool: Pool, exchange: Exchange): void {
    const { network, link, proxy, codec, ctx, tls } = this.#config;
    const url = exchange.url;
    const authority = `${url.hostname}:${defaultPort(url)}`;
    const https = url.protocol === 'https:';
    let stream: ByteStream;
    let transportReadyAt: () => number | undefined = () => undefined;
    if (proxy) {
      const tcp = network.connect(proxy.address, { from: 'client', link });
      if (https) {
        const tunnel = new ConnectTunnel(tcp, authority, codec, ctx);
        stream = new TlsStream(tunnel, tls, ctx, { keyShare: this.#config.tlsKeyShare, falseStart: this.#config.tlsFalseStart });
        transportReadyAt = () => tunnel.openedAt;
      } else {
        stream = tcp;
      }
    } else {
      const tcp = network.connect(authority, { from: 'client', link });
      if (https) {
        let openedAt: number | undefined;
        tcp.onOpen(() => (openedAt = ctx.clock.now()));
        stream = new TlsStream(tcp, tls, ctx, { keyShare: this.#config.tlsKeyShare, falseStart: this.#config.tlsFalseStart });
        transportReadyAt = () => openedAt;
      } else {
        stream = tcp;
      }
    }
    const connection = new Http1ClientConnection(stream, {
      codec,
      ctx,
      key: exchange.origin,
      idleTimeout: this.#config.idleTimeout,
      serverIPAddress: proxy ? proxy.ip : this.#config.ipFor(url.hostname),
      transportReadyAt,
      ...(this.#config.track === undefined ? {} : { track: this.#config.track }),
      hooks: {
        build: (ex) => this.#build(ex),
        onResponse: (ex, response) => this.#finish(ex, response),
        onError: (ex, error) => {
          if (ex.settled) return;
          const message = `HTTP/1 ${error.side === 'local' ? 'request refused' : 'response rejected'} (${error.code}): ${error.message}`;
          this.#fail(ex, 'network-error', new TypeError('Failed to fetch', { cause: error }), message);
        },
        onStateChange: (conn) => this.#dispatch(conn.key),
        onClosed: (conn, unanswered, info) => this.#closed(conn, unanswered, info.reason),
      },
    });
    pool.connections.push(connection);
    this.#assign(exchange, connection, false);
  }

  /** The request as it goes on the wire: start line form, Host, and connection-management fields. */
  #build(exchange: Exchange): { request: WireRequest; last: boolean } {
    const { version, keepAlive, proxy } = this.#config;
    const url = exchange.url;
    const viaProxy = proxy !== undefined && url.protocol === 'http:';
    // RFC 9112 §3.2.2: requests to a proxy use absolute-form; §3.2.1: origin-form otherwise.
    const target = viaProxy ? url.href.replace(/#.*$/, '') : url.pathname + url.search;
    if (version === '0.9') {
      return { request: { method: 'GET', target, version, headers: [], body: new Uint8Array(0) }, last: true };
    }
    const headers: HeaderField[] = [];
    if (header(exchange.headers, 'host') === undefined) {
      // RFC 9112 §3.2: Host is required in 1.1; 1.0 clients sent it too, for virtual hosting.
      headers.push({ name: 'Host', value: url.port ? `${url.hostname}:${url.port}` : url.hostname });
    }
    headers.push(...exchange.headers);
    const asked = headerTokens(exchange.headers, 'connection');
    let last: boolean;
    if (version === '1.1') {
      last = asked.includes('close') || !keepAlive;
      if (!keepAlive && !asked.includes('close')) headers.push({ name: 'Connection', value: 'close' });
    } else {
      const wants = keepAlive || asked.includes('keep-alive') || headerTokens(exchange.headers, 'proxy-connection').includes('keep-alive');
      last = !wants || asked.includes('close');
      if (keepAlive && !asked.includes('keep-alive')) {
        // The Netscape-era workaround for blind 1.0 proxies: name the option in Proxy-Connection instead.
        headers.push({ name: viaProxy && proxy.useProxyConnection ? 'Proxy-Connection' : 'Connection', value: 'keep-alive' });
      }
    }
    const needsLength = exchange.body.length > 0 || ['POST', 'PUT', 'PATCH'].includes(exchange.method);
    if (needsLength && header(exchange.headers, 'content-length') === undefined) {
      headers.push({ name: 'Content-Length', value: String(exchange.body.length) });
    }
    return { request: { method: exchange.method, target, version, headers, body: exchange.body }, last };
  }

  #finish(exchange: Exchange, response: WireResponse): void {
    if (exchange.settled) return;
    exchange.settled = true;
    const { ctx, codec } = this.#config;
    const now = ctx.clock.now();
    const request = exchange.wire!;
    const firstByte = exchange.firstByteAt ?? now;
    const sentAt = exchange.sentAt ?? now;
    const dispatched = exchange.dispatchedAt ?? exchange.startedAt;
    const fresh = exchange.reused === false;
    const httpVersion = (v: string): string => `HTTP/${v}`;
    ctx.trace.emit({
      type: 'request-finished',
      requestId: exchange.id,
      connectionId: exchange.connectionId ?? '',
      startedAt: exchange.startedAt,
      reused: !fresh,
      serverIPAddress: exchange.serverIPAddress ?? '',
      timings: roundTimings({
        blocked: dispatched - exchange.startedAt,
        dns: -1,
        connect: fresh ? sentAt - dispatched : -1,
        ssl: fresh ? (exchange.setup?.ssl ?? -1) : -1,
        send: 0,
        wait: firstByte - sentAt,
        receive: now - firstByte,
      }),
      request: {
        method: request.method,
        url: exchange.url.href,
        httpVersion: httpVersion(request.version),
        headers: request.headers,
        headersSize: codec.encodeRequest(request).length - request.body.length,
        bodySize: request.body.length,
      },
      response: {
        status: response.version === '0.9' ? 200 : response.status,
        statusText: response.reason,
        httpVersion: httpVersion(response.version),
        headers: response.headers,
        headersSize: codec.encodeResponse(response, request.method).length - response.body.length,
        bodySize: response.body.length,
        mimeType: header(response.headers, 'content-type') ?? (response.version === '0.9' ? 'text/html' : 'x-unknown'),
        body: binaryString(response.body),
      },
    });
    exchange.resolve(toFetchResponse(exchange, response));
  }

  #fail(exchange: Exchange, reason: 'aborted' | 'network-error' | 'stalled', error: unknown, message: string): void {
    exchange.settled = true;
    this.#config.ctx.trace.emit({ type: 'request-failed', requestId: exchange.id, reason, message });
    exchange.reject(error);
  }

  #closed(connection: Http1ClientConnection, unanswered: Exchange[], why: string): void {
    const pool = this.#pool(connection.key);
    const at = pool.connections.indexOf(connection);
    if (at >= 0) pool.connections.splice(at, 1);
    const retry: Exchange[] = [];
    for (const ex of unanswered) {
      if (ex.settled) continue;
      if (this.#pipelined.has(ex)) pool.pipeliningBroken = true;
      if (isIdempotentMethod(ex.method) && ex.attempts < 2 && connection.served > 0) {
        ex.attempts++;
        this.#config.ctx.trace.emit({
          type: 'request-retried',
          requestId: ex.id,
          connectionId: connection.id,
          reason: `connection closed before the response (${why})`,
        });
        for (const field of ['dispatchedAt', 'connectionId', 'reused', 'sentAt', 'firstByteAt', 'wire', 'setup'] as const) delete ex[field];
        retry.push(ex);
      } else {
        const message = `connection ${connection.id} closed before the response: ${why}`;
        this.#fail(ex, 'network-error', new TypeError('Failed to fetch', { cause: new Error(message) }), message);
      }
    }
    pool.queue.unshift(...retry);
    this.#dispatch(connection.key);
  }
}
