/**
 * serveTcp: puts a MockServer on a real TCP port (loopback by default), so curl, a browser or Node's own
 * HTTP client can talk to the same routes and method semantics the simulator shows.
 *
 * For each accepted socket: wrap it in a Transport, let the registered protocols look at the first bytes
 * (h2c-server.ts claims the HTTP/2 preface), and otherwise run an HTTP/1.x session. `close()` stops listening and
 * destroys every open connection, so a test's afterEach leaves nothing behind.
 */
import { type Server, type Socket, createServer as createNetServer } from 'node:net';
import type { MockServer } from '../server/index';
import { type Dispatch, mockDispatch } from './dispatch';
import { type Http1ServerOptions, http1Protocol } from './http1-server';
import { type ProtocolEnv, type ServerProtocol, selectProtocol } from './protocol';
import { SocketTransport, type Timers, realTimers } from './transport';

export interface ServeTcpOptions {
  /** Port to listen on; 0 (the default) picks a free ephemeral port. */
  readonly port?: number;
  /** Address to bind; default 127.0.0.1. The mock server has no hardening: keep it on loopback. */
  readonly host?: string;
  /** Protocols that claim connections by their first bytes (e.g. h2c prior knowledge), tried in order. */
  readonly protocols?: readonly ServerProtocol[];
  /** HTTP/1 engine options (strict parsing, header limit). */
  readonly engine?: Http1ServerOptions['engine'];
  readonly timers?: Timers;
  /** Wall-clock ms for the Date header; default Date.now. */
  readonly now?: () => number;
  /** Called when a connection fails for a reason other than the peer going away. Default: console.error. */
  readonly onError?: (error: unknown) => void;
  /**
   * A connection must show which protocol it speaks (the whole h2c preface, or a first byte that is not
   * one) within this many ms, else it is closed: this bounds connections that send nothing or half a
   * preface. Default 10 000. Only applies when `protocols` are registered (HTTP/1 alone has its own
   * header-read deadline).
   */
  readonly prefaceTimeoutMs?: number;
  /** Open connections at most; the listener drops new ones beyond (node:net's maxConnections). Default 1024. */
  readonly maxConnections?: number;
  /**
   * Requests one HTTP/1 keep-alive connection carries; the last one's reply says `Connection: close`.
   * Default `Infinity` (no limit, as node:http's `maxRequestsPerSocket`). The mock server's own
   * `keepAlive.max` (100 by default) is the simulator's figure and is not used on a real port, where a
   * reconnect every hundred requests costs a handshake and a lingering close for nothing.
   */
  readonly maxRequestsPerConnection?: number;
}

export const DEFAULT_PREFACE_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_CONNECTIONS = 1024;
export const DEFAULT_MAX_REQUESTS_PER_CONNECTION = Infinity;

export interface TcpServer {
  readonly host: string;
  readonly port: number;
  /** 'http://127.0.0.1:PORT' */
  readonly url: string;
  /** Connections accepted so far (a keep-alive client reuses one). */
  readonly accepted: number;
  /** Requests handed to the mock server so far, over either protocol (pushed GETs included). */
  readonly requests: number;
  /** Stops listening, destroys open connections, resolves when all is closed. */
  close(): Promise<void>;
}

export async function serveTcp(mock: MockServer, options: ServeTcpOptions = {}): Promise<TcpServer> {
  const host = options.host ?? '127.0.0.1';
  const timers = options.timers ?? realTimers;
  const env: ProtocolEnv = { timers, now: options.now ?? (() => Date.now()), ...(mock.name ? { name: mock.name } : {}) };
  const onError = options.onError ?? ((e: unknown) => console.error('roundtrip serve:', e));
  const maxRequests = options.maxRequestsPerConnection ?? DEFAULT_MAX_REQUESTS_PER_CONNECTION;
  if (!(maxRequests >= 1)) throw new RangeError(`maxRequestsPerConnection is a count of at least 1 (or Infinity), got ${maxRequests}.`);
  const keepAlive = mock.keepAlive ? { timeout: mock.keepAlive.timeout, max: maxRequests } : false;
  const http1 = http1Protocol({ keepAlive, name: mock.name, ...(options.engine ? { engine: options.engine } : {}) });
  const claimants = options.protocols ?? [];
  const sockets = new Set<Socket>();
  const prefaceTimeout = options.prefaceTimeoutMs ?? DEFAULT_PREFACE_TIMEOUT_MS;
  let accepted = 0;
  let requests = 0;
  let dispatch: Dispatch | undefined;

  // allowHalfOpen: a client may send its request and shut down its side, and still get the answer.
  const server: Server = createNetServer({ allowHalfOpen: true }, (socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const transport = new SocketTransport(socket, timers);
    void (async () => {
      let timer: unknown;
      const late = new Promise<'late'>((resolve) => (timer = timers.setTimeout(() => resolve('late'), prefaceTimeout)));
      const selected = claimants.length === 0 ? undefined : await Promise.race([selectProtocol(transport, claimants), late]);
      timers.clearTimeout(timer);
      if (selected === 'late') {
        transport.end();
        return;
      }
      const protocol = selected ?? http1;
      await protocol.serve(transport, dispatch!, env);
    })().catch((e: unknown) => {
      transport.reset();
      onError(e);
    });
  });

  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('serveTcp: the server has no TCP address.');
  const authority = address.family === 'IPv6' ? `[${address.address}]:${address.port}` : `${address.address}:${address.port}`;
  const mockAnswer = mockDispatch(mock, `http://${authority}`);
  dispatch = (request) => {
    requests++;
    return mockAnswer(request);
  };

  return {
    host: address.address,
    port: address.port,
    url: `http://${authority}`,
    get accepted() {
      return accepted;
    },
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
