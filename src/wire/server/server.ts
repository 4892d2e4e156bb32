/**
 * The mock origin server: its routes, resource store, faults, defences and persistence settings. It
 * speaks no protocol itself: the simulation's server side (src/wire/sim/, `listen` in sim/listen.ts) accepts
 * connections on the simulated network and hands each complete request to `respond` (semantics.ts); the Node
 * adapters (src/wire/node/) do the same on real sockets. The HTTP/1 connection rules are described in
 * sim/http1/server.ts, the HTTP/2 ones in sim/http2/server.ts.
 */
import { DEFAULT_HEADER_TIMEOUT_MS } from '../http1/connection';
import type { Http2Limits } from '../http2/limits';
import { Faults } from './faults';
import type { Route } from './router';
import { ResourceStore, type ResourceInit } from './store';

export interface ServerOptions {
  /** Routes, e.g. `[http.get('/todos/:id', handler)]`. */
  readonly routes?: readonly Route[];
  /** Enables the built-in resource store (PUT/GET/DELETE on paths no route owns), optionally seeded. */
  readonly resources?: true | Readonly<Record<string, ResourceInit>>;
  /** Persistent connections: idle timeout (virtual ms, default 5000) and max requests (default 100). */
  readonly keepAlive?: false | { readonly timeout?: number; readonly max?: number };
  /** Value of the Server header (default 'roundtrip-sim'). */
  readonly name?: string;
  /**
   * HTTP/2 defences of every connection (RFC 9113 §10.5); fields left out keep `DEFAULT_HTTP2_LIMITS`. A
   * lesson switches one off by putting it out of reach (`{ resetBurst: Infinity }`). The RST_STREAM budget
   * refills on the virtual clock.
   */
  readonly http2Limits?: Partial<Http2Limits>;
  /**
   * HTTP/1: virtual ms within which a request's whole header section must arrive, counted from its first
   * byte; past it the server answers 408 and closes (slowloris). `false`: no deadline, and the idle timer
   * restarts on every read instead, so a byte now and then holds the connection. Default 10000, the HTTP/1
   * engine's `headerTimeoutMs`.
   */
  readonly headerTimeout?: number | false;
  /**
   * Listening for HTTP/2: virtual ms for a new connection to show whether it sends the client preface
   * (RFC 9113 §3.4); past it the connection is closed. `false`: wait forever. Default 10000.
   */
  readonly prefaceTimeout?: number | false;
  /**
   * HTTP/2: whether a stream whose request is still arriving keeps an idle connection open. Default false:
   * only streams being answered do, so a client that opens streams and never ends them (slowloris over
   * HTTP/2) gets GOAWAY at the keep-alive timeout, and its half-open streams are dropped.
   */
  readonly halfOpenStreamsKeepAlive?: boolean;
  /**
   * HTTP/2: whether a request still reaches its handler when the client reset its stream in the same read
   * (HEADERS then RST_STREAM, the rapid reset of CVE-2023-44487). Default false: requests are handled once
   * the whole read is seen, so a withdrawn one is never started, as the real-port server does. true: each
   * request is handled as soon as its frame is read, the cost the attack exploits.
   */
  readonly handleResetStreams?: boolean;
  /**
   * HTTP/2: at most SETTINGS_MAX_CONCURRENT_STREAMS handlers running at once on a connection, counting a
   * handler until it has finished (its route's `latency` included) even when the client reset its stream.
   * Requests over it wait in a queue, and a request whose stream is reset while it waits never starts; a
   * queue longer than four times the limit ends the connection with GOAWAY ENHANCE_YOUR_CALM. Go's answer to
   * rapid reset (CVE-2023-39325, golang.org/x/net 0.17.0). Default false: every request is handled at once.
   */
  readonly limitRunningHandlers?: boolean;
}

/** What the mock server reports about one HTTP/2 connection (`MockServer.http2Connections()`). */
export interface Http2ConnectionInfo {
  readonly connectionId: string;
  /** A field block started and not ended: a CONTINUATION flood grows it (RFC 9113 §10.5.1). */
  readonly heldFieldBlock: { readonly streamId: number; readonly frames: number; readonly bytes: number } | null;
  /** Streams whose request has not finished arriving. */
  readonly requestsArriving: number;
  /** Streams whose request is in and whose response is not finished. */
  readonly answering: number;
  /** The code of the connection error that ended it, if one did. */
  readonly error: string | null;
}

/** A connection the simulation's server side holds open for this server and reports to it (HTTP/2 today). */
export interface ServedConnection {
  /** What the connection holds for its peer right now. */
  info(): Http2ConnectionInfo;
  /** Graceful shutdown: refuse new requests, finish the ones accepted, close. */
  shutdown(): void;
}

/** Idle timeout of a persistent connection when `keepAlive` does not say (virtual ms). */
export const DEFAULT_KEEP_ALIVE_TIMEOUT = 5000;
const DEFAULT_MAX = 100;
/** The real-port listener's default (src/wire/node/tcp-server.ts). */
const DEFAULT_PREFACE_TIMEOUT = 10_000;

export class MockServer {
  readonly faults = new Faults();
  readonly store: ResourceStore | undefined;
  readonly #routes: Route[];
  readonly #options: ServerOptions;
  readonly #open = new Set<ServedConnection>();

  constructor(options: ServerOptions = {}) {
    this.#options = options;
    this.#routes = [...(options.routes ?? [])];
    this.store = options.resources ? new ResourceStore(options.resources === true ? {} : options.resources) : undefined;
  }

  /** Adds routes; earlier routes win when two match the same method and path. */
  use(...routes: Route[]): this {
    this.#routes.push(...routes);
    return this;
  }

  get routes(): readonly Route[] {
    return this.#routes;
  }

  /** The defences configured in the options, with their defaults filled in. */
  get defences(): {
    http2Limits: Partial<Http2Limits>;
    headerTimeout: number | false;
    prefaceTimeout: number | false;
    halfOpenStreamsKeepAlive: boolean;
    handleResetStreams: boolean;
    limitRunningHandlers: boolean;
  } {
    const o = this.#options;
    return {
      http2Limits: o.http2Limits ?? {},
      headerTimeout: o.headerTimeout ?? DEFAULT_HEADER_TIMEOUT_MS,
      prefaceTimeout: o.prefaceTimeout ?? DEFAULT_PREFACE_TIMEOUT,
      halfOpenStreamsKeepAlive: o.halfOpenStreamsKeepAlive ?? false,
      handleResetStreams: o.handleResetStreams ?? false,
      limitRunningHandlers: o.limitRunningHandlers ?? false,
    };
  }

  /**
   * The HTTP/2 connections open now, as the server sees them: what a playground prints to show what an
   * attack costs (a field block held without end, requests still arriving).
   */
  http2Connections(): Http2ConnectionInfo[] {
    return [...this.#open].map((c) => c.info());
  }

  get keepAlive(): { timeout: number; max: number } | undefined {
    const k = this.#options.keepAlive;
    if (k === false) return undefined;
    return { timeout: k?.timeout ?? DEFAULT_KEEP_ALIVE_TIMEOUT, max: k?.max ?? DEFAULT_MAX };
  }

  /**
   * Called by the simulation's server side (sim/) for each connection it opens that the server reports on;
   * returns the function to call when the connection closes.
   */
  opened(connection: ServedConnection): () => void {
    this.#open.add(connection);
    return () => this.#open.delete(connection);
  }

  /**
   * Graceful shutdown of the HTTP/2 connections: each sends GOAWAY(NO_ERROR) (RFC 9113 §6.8), finishes
   * the streams it accepted, then closes. HTTP/1 connections are left to their keep-alive timeout.
   */
  shutdown(): void {
    for (const connection of [...this.#open]) connection.shutdown();
  }

  get name(): string {
    return this.#options.name ?? 'roundtrip-sim';
  }
}

export function createServer(options: ServerOptions = {}): MockServer {
  return new MockServer(options);
}
