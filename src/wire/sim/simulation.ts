/**
 * createSimulation: a client, a network, an optional proxy and a mock server on one virtual clock, with
 * a `fetch` that has the real signature and returns a real `Response`.
 *
 * How time moves (the choice this file makes):
 * - Everything runs on `sim.clock`, a VirtualClock; nothing reads real time.
 * - drive: 'auto' (default). While at least one `sim.fetch` is unsettled, a driver loop alternates
 *   "let the host run" (awaits handlers' promises, then yields 16 microtasks so caller code that reacts
 *   to a response can start its next fetch at the same virtual instant) and `clock.step()` (jump to the
 *   next timer). So `await sim.fetch(url)` just works, and finishes in zero wall-clock time however long
 *   the virtual round trips are. Time never runs ahead of pending fetches: when the last one settles,
 *   the loop stops, and idle timers wait for the next fetch.
 * - drive: 'manual'. Nothing moves on its own; visualizers call `await sim.step()` (one timer),
 *   `await sim.advance(ms)` or `await sim.run()` (until no fetch is pending).
 * - If fetches are pending but no timer and no host work is left, nothing can ever happen: they are
 *   failed with a TypeError and a 'request-failed' event with reason 'stalled'. The same happens when
 *   the clock is busy going nowhere (stall-guard.ts: timers spinning at one instant, or a request pending
 *   for a virtual day); `sim.advance` throws a 'simulation-stalled' WireError then.
 *
 * Handlers must not wait on the virtual clock themselves (see server/router.ts); use route latency.
 *
 * Extension point for HTTP/2 and HTTP/3: the `protocols` option maps a version to a factory. A factory
 * receives the network, link, clock and trace and returns a `ClientProtocol` (protocol.ts) that takes
 * exchanges; HTTP/1.x is the built-in `Agent` (http1/agent.ts). It is an option, not a global registry, so
 * simulations sharing a page cannot affect each other. `protocols['2']` defaults to `http2Client()`
 * (http2/client.ts), and with httpVersion '2' the server side also accepts HTTP/2 connections (listen.ts,
 * `ServerProtocol`). HTTP/3 likewise: `protocols['3']` defaults to `http3Protocol()`, QUIC over simulated UDP.
 */
import { WireError } from '../errors';
import { Trace, emitPrebuilt } from '../trace/trace';
import type { TraceListener } from '../trace/trace';
import type { Unsubscribe } from '../trace/subscribable';
import { toHar, type Har } from '../trace/har';
import { VirtualClock } from '../net/clock';
import { createRandom } from '../net/random';
import { Link } from '../net/link';
import { StallGuard } from './stall-guard';
import { TcpNetwork, type NetContext } from '../net/tcp';
import { Agent, defaultPort } from './http1/agent';
import { ForwardProxy } from './proxy';
import { MockServer, type ServerOptions } from '../server/server';
import type { HeaderField, Http1Version, MessageCodec } from '../net/codec';
import { header } from '../net/codec';
import type { Exchange } from './exchange';
import { abortReason } from './exchange';
import { resolveOptions, type ResolvedSimulationOptions, type SimHttpVersion } from '../net/options';
import type { SimulationOptions } from './options';
import { utf8, type ByteStream } from '../net/stream';
import { TlsStream, type TlsVersion } from '../net/tls';
import { http1Codec } from './http1/codec';
import { http2Client } from './http2/client';
import { http3Protocol } from './http3/client';
import { listen } from './listen';
import type { ClientProtocol, ClientProtocolFactory, ProtocolEnv } from './protocol';

const PROXY_ADDRESS = 'proxy.example:3128';
const PROXY_IP = '198.51.100.1'; // RFC 5737 documentation range (TEST-NET-2)
const MICROTASK_YIELDS = 16;
const FETCH_NORMALIZED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

interface RedirectHop {
  readonly url: URL;
  readonly method: string;
  readonly headers: HeaderField[];
  readonly body: Uint8Array;
  readonly signal: AbortSignal | undefined;
  readonly redirect: RequestRedirect;
  readonly count: number;
}

export interface Simulation {
  readonly options: ResolvedSimulationOptions;
  readonly clock: VirtualClock;
  readonly trace: Trace;
  readonly server: MockServer;
  /** The simulated network: `listen`/`connect` for engines that bring their own protocol (HTTP/2). */
  readonly network: TcpNetwork;
  /** The client's first hop (RTT, bandwidth, loss). */
  readonly link: Link;
  /**
   * Same signature as the global fetch; resolves once the whole response has arrived. Unlike a browser it lets TRACE
   * and CONNECT through, so lessons can show what those methods do.
   */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /**
   * A raw byte stream from the client to "host:port" over the client's link (TLS when `tls` is given):
   * the socket API that other protocol engines and byte-level playgrounds build on.
   */
  connect(address: string, options?: { readonly tls?: TlsVersion }): ByteStream;
  /** Number of fetches not settled yet. */
  readonly pending: number;
  /** Runs one timer (after letting host work finish). False when no timer is left. */
  step(): Promise<boolean>;
  /** Moves virtual time forward by `ms`, running timers (and host work) on the way. */
  advance(ms: number): Promise<void>;
  /** Drives time until no fetch is pending. */
  run(): Promise<void>;
  subscribe(listener: TraceListener): Unsubscribe;
  /** The trace as HAR 1.2. */
  har(): Har;
  /** Stops listening and drops pending timers' effects. */
  dispose(): void;
}

function headerList(init: HeadersInit | undefined): HeaderField[] {
  if (!init) return [];
  if (init instanceof Headers) {
    const out: HeaderField[] = [];
    init.forEach((value, name) => out.push({ name, value }));
    return out;
  }
  const pairs = Array.isArray(init) ? init : Object.entries(init);
  return pairs.map((pair) => {
    const [name, value] = pair as [string, string];
    return { name: String(name), value: String(value) };
  });
}

function syncBodyBytes(body: BodyInit | null | undefined): { bytes: Uint8Array; type?: string } | undefined {
  if (body === null || body === undefined) return { bytes: new Uint8Array(0) };
  if (typeof body === 'string') return { bytes: utf8(body), type: 'text/plain;charset=UTF-8' };
  if (body instanceof URLSearchParams) return { bytes: utf8(body.toString()), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (body instanceof Uint8Array) return { bytes: new Uint8Array(body as Uint8Array) };
  if (body instanceof ArrayBuffer) return { bytes: new Uint8Array(body.slice(0)) };
  if (ArrayBuffer.isView(body)) return { bytes: new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)) };
  return undefined;
}

async function bodyBytes(body: BodyInit | null | undefined): Promise<{ bytes: Uint8Array; type?: string }> {
  const sync = syncBodyBytes(body);
  if (sync) return sync;
  const response = new Response(body);
  const type = response.headers.get('content-type') ?? undefined;
  return { bytes: new Uint8Array(await response.arrayBuffer()), ...(type === undefined ? {} : { type }) };
}

export function createSimulation(options: SimulationOptions = {}): Simulation {
  const resolved = resolveOptions(options);
  const codec = resolved.codec ?? http1Codec;
  const { clock, trace, ctx, nextId } = createContext();
  const network = new TcpNetwork(ctx, {
    minRto: resolved.minRto,
    rtoFormula: resolved.rtoFormula,
    restartAfterIdle: resolved.restartAfterIdle,
    timestamps: resolved.tcpTimestamps,
    congestionControl: resolved.congestionControl,
    tailLossProbe: resolved.tailLossProbe,
    delayedAcks: resolved.delayedAcks,
    pacing: resolved.pacing,
  });
  const random = createRandom(resolved.seed);
  const link = new Link(
    {
      rtt: resolved.rtt,
      bandwidth: resolved.bandwidth,
      loss: resolved.loss,
      lossModel: resolved.lossModel,
      queue: resolved.queue,
      lossSchedule: resolved.lossSchedule,
    },
    random.fork('client'),
  );
  const ipFor = createAddressBook();
  const host = createHostWork();
  const server = resolved.server instanceof MockServer ? resolved.server : new MockServer((resolved.server ?? {}) as ServerOptions);
  const base = new URL(resolved.baseUrl);
  const stops = listenOnOrigins(server, resolved, base, { network, codec, ipFor, track: host.track });
  const proxyAddress = startProxy(resolved, { network, codec, random, stops });
  const env: ProtocolEnv = {
    options: resolved,
    ctx,
    network,
    link,
    codec,
    ipFor,
    proxyAddress,
    proxyIP: proxyAddress ? PROXY_IP : undefined,
    track: host.track,
  };
  const client = createClient(resolved, env);
  const driver = createDriver(clock, trace, host);
  const start = createFetch({ resolved, base, clock, trace, nextId, client, driver });

  return {
    options: resolved,
    clock,
    trace,
    server,
    network,
    link,
    fetch: (input, init) => start(input, init),
    connect(address, connectOptions) {
      const tcp = network.connect(address, { from: 'client', link });
      return connectOptions?.tls ? new TlsStream(tcp, connectOptions.tls, ctx, { keyShare: resolved.tlsKeyShare, falseStart: resolved.tlsFalseStart }) : tcp;
    },
    get pending() {
      return driver.pending.size;
    },
    async step() {
      await host.settle();
      const stepped = clock.step();
      await host.settle();
      return stepped;
    },
    async advance(ms) {
      const target = clock.now() + ms;
      for (let due = clock.nextDue(); due !== undefined && due <= target; due = clock.nextDue()) {
        await host.settle();
        clock.step();
        const stuck = driver.checkProgress();
        // Moving on would run the same timers inside clock.advance, where nothing can stop them.
        if (stuck !== undefined) throw new WireError({ code: 'simulation-stalled', side: 'local', message: `sim.advance(${ms}): ${stuck}.` });
      }
      await host.settle();
      clock.advance(target - clock.now());
    },
    run: driver.run,
    subscribe: (listener) => trace.subscribe(listener),
    har: () => toHar(trace.events, { epoch: resolved.epoch }),
    dispose() {
      for (const stop of stops.splice(0)) stop();
    },
  };
}

/** One virtual clock, the trace stamped by it, and per-simulation ids ('c1', 'r1'...). */
function createContext(): { clock: VirtualClock; trace: Trace; ctx: NetContext; nextId: (prefix: string) => string } {
  const clock = new VirtualClock();
  const trace = new Trace(() => clock.now());
  const counters = new Map<string, number>();
  const nextId = (prefix: string): string => {
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    return `${prefix}${n}`;
  };
  return { clock, trace, ctx: { clock, trace, nextId }, nextId };
}

/** Each host name gets the next address of RFC 5737's TEST-NET-1, in order of first use. */
function createAddressBook(): (host: string) => string {
  const ips = new Map<string, string>();
  return (host: string): string => {
    let ip = ips.get(host);
    if (!ip) {
      ip = `192.0.2.${10 + ips.size}`; // RFC 5737 TEST-NET-1
      ips.set(host, ip);
    }
    return ip;
  };
}

/**
 * Host work (handlers' promises) still running: `track` counts it, `settle` lets it finish and then yields
 * MICROTASK_YIELDS microtasks, so caller code reacting to a response can start its next fetch at the same
 * virtual instant. A count and one waiter rather than a set awaited with Promise.allSettled: a big run has
 * thousands of handlers in flight, and settling a copy of the set after every clock step was over 1% of its
 * allocation.
 */
interface HostWork {
  track(work: Promise<unknown>): void;
  /** Lets host work finish, then yields to the host's microtasks. */
  settle(): Promise<void>;
  /** Host work is running. */
  busy(): boolean;
}

function createHostWork(): HostWork {
  let hostBusy = 0;
  let wakeWhenIdle: (() => void) | undefined;
  let idle: Promise<void> | undefined;
  const workDone = (): void => {
    if (--hostBusy > 0 || wakeWhenIdle === undefined) return;
    const wake = wakeWhenIdle;
    wakeWhenIdle = undefined;
    idle = undefined;
    wake();
  };
  const hostIdle = (): Promise<void> => (idle ??= new Promise<void>((resolve) => (wakeWhenIdle = resolve)));
  return {
    track: (work) => {
      hostBusy++;
      void work.then(workDone, workDone);
    },
    busy: () => hostBusy > 0,
    settle: async () => {
      for (let i = 0; i < MICROTASK_YIELDS; i++) {
        if (hostBusy > 0) await hostIdle();
        await Promise.resolve();
      }
    },
  };
}

/** The mock server listens on every host, on port 80 and, with TLS, 443 (or the base URL's port). Returns the stops. */
function listenOnOrigins(
  server: MockServer,
  resolved: ResolvedSimulationOptions,
  base: URL,
  deps: { network: TcpNetwork; codec: MessageCodec; ipFor: (host: string) => string; track: (work: Promise<unknown>) => void },
): (() => void)[] {
  const { network, codec, ipFor, track } = deps;
  const stops: (() => void)[] = [];
  const http2 = resolved.httpVersion === '2';
  for (const host of [base.hostname, ...resolved.hosts]) {
    ipFor(host);
    const httpPort = base.protocol === 'http:' && base.hostname === host ? defaultPort(base) : '80';
    const httpsPort = base.protocol === 'https:' && base.hostname === host ? defaultPort(base) : '443';
    stops.push(listen(server, { network, address: `${host}:${httpPort}`, codec, origin: `http://${host}`, track, epoch: resolved.epoch, http2 }));
    stops.push(
      listen(server, {
        network,
        address: `${host}:${httpsPort}`,
        codec,
        origin: `https://${host}`,
        tls: tlsVersionOf(resolved),
        certificateChainBytes: resolved.certificateChainBytes,
        tlsKeyShare: resolved.tlsKeyShare,
        track,
        epoch: resolved.epoch,
        http2,
      }),
    );
  }
  return stops;
}

/** The TLS version https: URLs use: the `tls` option, TLS 1.3 when it is 'none' (an https: URL still needs one). */
const tlsVersionOf = (resolved: ResolvedSimulationOptions): TlsVersion => (resolved.tls === 'none' ? '1.3' : resolved.tls);

/** With the `proxy` option, a forward proxy listening at PROXY_ADDRESS behind its own upstream link. */
function startProxy(
  resolved: ResolvedSimulationOptions,
  deps: { network: TcpNetwork; codec: MessageCodec; random: ReturnType<typeof createRandom>; stops: (() => void)[] },
): string | undefined {
  const p = resolved.proxy;
  if (!p) return undefined;
  const upstreamLink = new Link(
    { rtt: p.rtt ?? resolved.rtt, bandwidth: resolved.bandwidth, loss: resolved.loss, lossModel: resolved.lossModel, queue: resolved.queue },
    deps.random.fork('upstream'),
  );
  const proxy = new ForwardProxy({
    kind: p.kind ?? 'smart',
    pipelining: p.pipelining ?? true,
    network: deps.network,
    codec: deps.codec,
    upstreamLink,
    name: 'proxy.example',
  });
  deps.stops.push(proxy.listen(PROXY_ADDRESS));
  return PROXY_ADDRESS;
}

/** The client for the HTTP version: the built-in HTTP/1.x Agent, or a `protocols` factory (HTTP/2, HTTP/3). */
function createClient(resolved: ResolvedSimulationOptions, env: ProtocolEnv): ClientProtocol {
  const version = resolved.httpVersion;
  if (version === '0.9' || version === '1.0' || version === '1.1') {
    const depth = resolved.pipelining === true ? 6 : resolved.pipelining === false ? 1 : resolved.pipelining;
    const { proxyAddress, link, network, codec, ctx, ipFor, track } = env;
    return new Agent({
      version: version as Http1Version,
      maxConnectionsPerOrigin: resolved.maxConnectionsPerOrigin,
      keepAlive: resolved.keepAlive,
      idleTimeout: resolved.idleTimeout,
      pipelineDepth: depth,
      tls: tlsVersionOf(resolved),
      tlsKeyShare: resolved.tlsKeyShare,
      tlsFalseStart: resolved.tlsFalseStart,
      proxy: proxyAddress
        ? { address: proxyAddress, ip: PROXY_IP, useProxyConnection: resolved.proxy ? resolved.proxy.useProxyConnection === true : false }
        : undefined,
      link,
      network,
      codec,
      ctx,
      ipFor,
      track,
    });
  }
  const builtIn: Partial<Record<SimHttpVersion, ClientProtocolFactory>> = { '2': http2Client(), '3': http3Protocol() };
  const factory = (resolved.protocols as Partial<Record<SimHttpVersion, ClientProtocolFactory>>)[version] ?? builtIn[version];
  if (!factory) {
    throw new WireError({
      code: 'unsupported-version',
      side: 'local',
      message: `createSimulation: HTTP/${version} is not built in yet; pass protocols: { '${version}': factory } or use '0.9', '1.0' or '1.1'.`,
    });
  }
  return factory(env);
}

/** The fetches not settled yet, and the loop that moves the clock for them (see the header: drive 'auto'). */
interface Driver {
  readonly pending: Set<Exchange>;
  run(): Promise<void>;
  /** After a clock step: fails every pending request if the run is busy going nowhere (stall-guard.ts). */
  checkProgress(): string | undefined;
}

function createDriver(clock: VirtualClock, trace: Trace, host: HostWork): Driver {
  const settleHost = host.settle;
  const pending = new Set<Exchange>();
  let driving = false;

  const failStalled = (why = 'nothing left to happen on the virtual clock'): void => {
    for (const ex of [...pending]) {
      if (ex.settled) continue;
      ex.settled = true;
      const message = `${why}: ${ex.method} ${ex.url.href} can never complete`;
      trace.emit({ type: 'request-failed', requestId: ex.id, reason: 'stalled', message });
      ex.reject(new TypeError('Failed to fetch', { cause: new Error(message) }));
    }
  };

  const guard = new StallGuard();
  const checkProgress = (): string | undefined => {
    // A Set iterates in insertion order and requests are registered as time goes on: the first is the oldest.
    const oldest = pending.values().next().value?.startedAt;
    const stuck = guard.afterStep(clock.now(), trace.events.length, oldest);
    if (stuck !== undefined) failStalled(stuck);
    return stuck;
  };

  const run = async (): Promise<void> => {
    if (driving) return;
    driving = true;
    try {
      do {
        while (pending.size > 0) {
          await settleHost();
          if (pending.size === 0) break;
          if (!clock.step()) {
            await settleHost();
            if (pending.size > 0 && !host.busy() && clock.pending === 0) failStalled();
          } else if (checkProgress() !== undefined) {
            await settleHost();
          }
        }
        // Let callers' continuations (and redirect hops) run; they may start more fetches to drive.
        await settleHost();
      } while (pending.size > 0);
    } finally {
      driving = false;
    }
  };
  return { pending, run, checkProgress };
}

/** `sim.fetch`: a request registered with the client and the driver, redirects followed as fetch does. */
function createFetch(deps: {
  resolved: ResolvedSimulationOptions;
  base: URL;
  clock: VirtualClock;
  trace: Trace;
  nextId: (prefix: string) => string;
  client: ClientProtocol;
  driver: Driver;
}): (input: RequestInfo | URL, init: RequestInit | undefined) => Promise<Response> {
  const { resolved, base, clock, trace, nextId, client, driver } = deps;
  const { pending, run } = driver;
  const version = resolved.httpVersion;

  const register = (url: URL, method: string, headers: HeaderField[], body: Uint8Array, signal: AbortSignal | undefined): Promise<Response> => {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<Response>((resolve, reject) => {
      const exchange: Exchange = {
        id: nextId('r'),
        url,
        origin: client.keyFor(url),
        method,
        headers,
        body,
        signal,
        startedAt: clock.now(),
        attempts: 1,
        settled: false,
        queuedReported: false,
        resolve: (response) => {
          pending.delete(exchange);
          resolve(response);
        },
        reject: (error) => {
          pending.delete(exchange);
          reject(error);
        },
      };
      pending.add(exchange);
      // Every field is a string: the event needs no deep freeze (trace.ts emitPrebuilt).
      emitPrebuilt(trace, { type: 'request-started', requestId: exchange.id, method, url: url.href, httpVersion: `HTTP/${version}`, seq: 0, at: 0 });
      signal?.addEventListener('abort', () => client.abort(exchange), { once: true });
      client.submit(exchange);
      if (resolved.drive === 'auto') void run();
    });
  };

  /**
   * Redirects as fetch handles them (Fetch standard, "HTTP-redirect fetch"): 301/302/303/307/308 with a
   * Location are followed up to 20 times unless `redirect` is 'manual' (the 3xx is returned, as Node's
   * fetch does) or 'error' (TypeError). 303, and 301/302 after a POST, continue as GET without the body
   * (RFC 9110 §15.4.2-4). Every hop is a request of its own in the trace.
   */
  const follow = (response: Response, hop: RedirectHop): Promise<Response> | Response => {
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null || hop.redirect === 'manual') return response;
    if (hop.redirect === 'error') return Promise.reject(new TypeError(`Redirect to ${location} refused: redirect mode is "error".`));
    if (hop.count >= 20) return Promise.reject(new TypeError('Failed to fetch', { cause: new Error('more than 20 redirects') }));
    const next = new URL(location, hop.url);
    const toGet = response.status === 303 ? hop.method !== 'HEAD' : hop.method === 'POST' && response.status !== 307 && response.status !== 308;
    const method = toGet ? 'GET' : hop.method;
    const dropped = toGet ? /^(content-(type|length|encoding|language|location))$/i : /^$/;
    const crossOrigin = next.origin !== hop.url.origin;
    const headers = hop.headers.filter((h) => !dropped.test(h.name) && !(crossOrigin && /^authorization$/i.test(h.name)));
    const body = toGet ? new Uint8Array(0) : hop.body;
    return register(next, method, headers, body, hop.signal).then((final) => {
      const result = follow(final, { ...hop, url: next, method, headers, body, count: hop.count + 1 });
      return Promise.resolve(result).then((r) => {
        Object.defineProperty(r, 'redirected', { value: true });
        return r;
      });
    });
  };

  /**
   * Registers the request synchronously whenever its body is already bytes or text, so requests start
   * in call order at the current virtual instant; Blob, FormData and stream bodies are read first.
   */
  const start = (input: RequestInfo | URL, init: RequestInit | undefined): Promise<Response> => {
    try {
      const request = input instanceof Request ? input : undefined;
      const signal = init?.signal ?? request?.signal ?? undefined;
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      const url = new URL(request ? request.url : String(input), base);
      let method = init?.method ?? request?.method ?? 'GET';
      if (FETCH_NORMALIZED.has(method.toUpperCase())) method = method.toUpperCase();
      const headers = init?.headers !== undefined ? headerList(init.headers) : headerList(request?.headers);
      const rawBody: BodyInit | null | undefined = init?.body !== undefined ? init.body : request?.body ? request.clone().body : null;
      if ((method === 'GET' || method === 'HEAD') && rawBody !== null && rawBody !== undefined) {
        throw new TypeError('Request with GET/HEAD method cannot have body.');
      }
      if (version === '0.9' && method !== 'GET') {
        throw new TypeError(`HTTP/0.9 has only GET; ${method} cannot be sent.`);
      }
      const redirect = init?.redirect ?? request?.redirect ?? 'follow';
      const withBody = ({ bytes, type }: { bytes: Uint8Array; type?: string }): Promise<Response> => {
        if (type && header(headers, 'content-type') === undefined) headers.push({ name: 'Content-Type', value: type });
        return register(url, method, headers, bytes, signal).then((response) =>
          follow(response, { url, method, headers, body: bytes, signal, redirect, count: 0 }),
        );
      };
      const sync = syncBodyBytes(rawBody);
      return sync ? withBody(sync) : bodyBytes(rawBody).then(withBody);
    } catch (error) {
      return Promise.reject(error);
    }
  };

  return start;
}
