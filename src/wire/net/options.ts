/**
 * The simulation's options, declared once as a documented schema (CONTRIBUTING.md, 'Options are a documented
 * schema'): each entry has
 * a doc comment, a default and a check that says what was expected. The playground's options panel and
 * the share-link codec read `SIMULATION_OPTIONS`; `resolveOptions` fills defaults and validates.
 */
import { WireError } from '../errors';
import type { MessageCodec } from './codec';
import type { LossModel, LossSchedule, QueueSize } from './link';
import { TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES, TLS_DEFAULT_KEY_SHARE, TLS_MAX_CERTIFICATE_CHAIN_BYTES, type TlsKeyShare } from '../transport/tls-sizes';

export type SimHttpVersion = '0.9' | '1.0' | '1.1' | '2' | '3';
export type TlsOption = 'none' | '1.2' | '1.3';

export interface ProxyOptions {
  /** 'smart': an RFC 9110 proxy; 'dumb': a blind HTTP/1.0 relay (see net/proxy.ts). Default 'smart'. */
  readonly kind?: 'smart' | 'dumb';
  /** Whether the proxy copes with pipelined requests. Default true. */
  readonly pipelining?: boolean;
  /** RTT of the proxy-to-origin hop in virtual ms. Default: the same as `rtt`. */
  readonly rtt?: number;
  /** The client names keep-alive in Proxy-Connection instead of Connection (1.0 only). Default false. */
  readonly useProxyConnection?: boolean;
}

/**
 * HTTP/2 flow control of the simulated client (RFC 9113 §5.2): the receive windows it offers.
 * - 'browser' (default): what Chrome announces in its first flight, SETTINGS_INITIAL_WINDOW_SIZE = 6 MiB
 *   per stream and a WINDOW_UPDATE raising the connection window to 15 MiB, so a download is never held
 *   back by HTTP/2's own windows, only by TCP.
 * - 'rfc-defaults': the 65,535-byte windows of RFC 9113 §6.9.2 and nothing more, so the server stalls
 *   every 64 KiB until a WINDOW_UPDATE comes back: the flow-control lesson.
 * - explicit sizes in octets, from 65,535 to 2^31-1.
 */
export type Http2FlowControl = 'browser' | 'rfc-defaults' | { readonly streamWindow: number; readonly connectionWindow: number };

export interface Http2SimulationOptions {
  /** The receive windows the client offers. Default 'browser'. */
  readonly flowControl?: Http2FlowControl;
}

/** HTTP/3 settings both simulated endpoints announce. */
export interface Http3SimulationOptions {
  /**
   * QPACK (RFC 9204 §5): SETTINGS_QPACK_MAX_TABLE_CAPACITY and SETTINGS_QPACK_BLOCKED_STREAMS. Default
   * 4096 and 100 (ngtcp2's example client and server); `maxTableCapacity: 0` is QPACK without a dynamic
   * table, `maxBlockedStreams: 0` an encoder that never makes a stream wait for its encoder stream.
   */
  readonly qpack?: { readonly maxTableCapacity?: number; readonly maxBlockedStreams?: number };
}

export interface SimulationOptions {
  /** HTTP version the client speaks. '2' is built in (HTTP/2 over TCP); '3' needs a `protocols` entry. */
  readonly httpVersion?: SimHttpVersion;
  /** Round-trip time of the client's first hop, virtual ms. */
  readonly rtt?: number;
  /** Link bandwidth in bits per second, each direction; Infinity for none. */
  readonly bandwidth?: number;
  /** Probability that a data segment is lost, 0-1. */
  readonly loss?: number;
  /**
   * How the `loss` rate falls (net/link.ts): 'independent' (default), each data packet lost on its own draw,
   * or `{ kind: 'gilbert-elliott', burst }`, a two-state Markov chain with the same mean loss whose losses come
   * in runs of `burst` packets on average, as on real paths (a queue overflowing, a radio fading). Both
   * stacks meet the same bursts at the same packet positions for one seed.
   */
  readonly lossModel?: LossModel;
  /**
   * TCP's rto_min, virtual ms. Default 200, Linux's TCP_RTO_MIN, which floors the variance term: RTO = SRTT +
   * max(4 x RTTVAR, minRto), about 300 ms at a 100 ms RTT. With `rtoFormula: 'rfc6298'` it floors the whole
   * timeout instead, max(minRto, SRTT + 4 x RTTVAR); RFC 6298 §2.4 asks for 1000, which makes every tail
   * loss cost at least a second.
   */
  readonly minRto?: number;
  /** How TCP computes its RTO from minRto: 'linux' (default, tcp_rtt_estimator) or 'rfc6298' (§2). */
  readonly rtoFormula?: 'linux' | 'rfc6298';
  /**
   * The congestion-control algorithm of every TCP and QUIC connection: 'cubic' (default; RFC 9438 with
   * HyStart++, RFC 9406), what Linux, Windows, macOS and Chrome's QUIC run, or 'newreno' (RFC 5681, RFC 6582,
   * RFC 9002 §7.3), the textbook algorithm.
   */
  readonly congestionControl?: 'cubic' | 'newreno';
  /**
   * TCP's tail loss probe (RACK-TLP, RFC 8985 §7), on in Linux by default: after 2 x SRTT without an ACK the
   * last segment goes again, so a lost tail is found without the retransmission timeout. Default true.
   */
  readonly tailLossProbe?: boolean;
  /**
   * TCP's delayed ACKs as a Linux receiver sends them: the first 16 data segments at once (quick-ack mode), then
   * every second full segment or 40 ms after the first unacknowledged one, and at once for a segment out of
   * order, one filling a gap, or when the receiver has data to send (RFC 5681 §4.2, RFC 9293 §3.8.6.3).
   * Default true; false acknowledges every segment at once.
   */
  readonly delayedAcks?: boolean;
  /**
   * Pacing, so a window leaves spread over the round trip rather than in one burst: TCP at Linux's rate (200 %
   * of cwnd / SRTT in slow start, 120 % after), QUIC at RFC 9002 §7.7's 1.25 x cwnd / smoothed_rtt. Linux
   * enforces its rate only under the fq qdisc or with BBR; under fq_codel, the usual default, CUBIC is not
   * paced, hence the default false (for both stacks, so they stay comparable).
   */
  readonly pacing?: boolean;
  /**
   * The bottleneck queue in front of each direction of the client's link (net/link.ts), drop-tail: 'bdp'
   * (default: one bandwidth-delay product, rtt x bandwidth, at least ten 1,500-byte packets), `{ packets }`
   * (of 1,500 bytes), `{ bytes }`, or 'unlimited' (packets only wait, never overflow).
   */
  readonly queue?: QueueSize;
  /**
   * After an idle period longer than the retransmission timeout (QUIC: the probe timeout), a sender halves
   * its window once per timeout of idle time, down to min(initial window, cwnd), and keeps ssthresh at least
   * 3/4 of the old window, as Linux's tcp_cwnd_restart (net.ipv4.tcp_slow_start_after_idle = 1, the default;
   * RFC 5681 §4.1 goes straight to min(IW, cwnd)). Default true; false keeps the window.
   */
  readonly restartAfterIdle?: boolean;
  /**
   * The TCP timestamp option (RFC 7323 §3) on every segment, 12 bytes, as Linux, macOS, iOS and Android
   * offer it: segments carry 1,448 bytes of a 1,500-byte packet. Default true; false gives 1,460-byte
   * segments (and an initial window of 14,600 bytes instead of 14,480), what a connection gets when either
   * host leaves the option out: RFC 7323 §3.2 uses it only when both SYNs carried it.
   */
  readonly tcpTimestamps?: boolean;
  /**
   * Application bytes to lose, the same in every protocol: `{ server: [offsets], client: [offsets] }` loses
   * the first transmission of the packet that carries each offset of that side's application data on each
   * connection (what follows the handshakes: TLS records over TCP, STREAM bytes over QUIC). Default none.
   * Over HTTP/3 each 'qpack-instructions' trace event carries the `offset` of its encoder- or decoder-stream
   * bytes, so a run without loss tells which offset loses a given QPACK insert.
   */
  readonly lossSchedule?: LossSchedule;
  /** Seed for every random choice (loss); same seed, same trace. */
  readonly seed?: number | string;
  /** TLS for https: URLs; with anything but 'none' the default base URL is https. */
  readonly tls?: TlsOption;
  /**
   * Size of the server's Certificate message (RFC 8446 §4.4.2), bytes, in TLS over TCP and in QUIC alike.
   * Default 2,800: a leaf and an intermediate certificate with 2,048-bit RSA keys (an ECDSA chain is about
   * 2,000), which makes the server's TLS messages 4,318 bytes with the default hybrid key share (3,230 with
   * 'x25519'). A QUIC server may send three times what it received before the client's address is validated
   * (RFC 9000 §8.1, not enforced here): 7,956 bytes after the hybrid ClientHello's two padded Initial
   * datagrams, 3,600 after the X25519 one's single datagram (tls-sizes.ts). At most 15,000, so the flight
   * stays one TLS record.
   */
  readonly certificateChainBytes?: number;
  /**
   * The TLS 1.3 key exchange, over TCP and in QUIC: 'x25519mlkem768' (default), the post-quantum hybrid Chrome,
   * Firefox and Safari offer, whose shares make the ClientHello 1,500 bytes (two QUIC Initial packets) and
   * the ServerHello 1,178; or 'x25519', the 280-byte ClientHello and 90-byte ServerHello of before
   * (transport/tls-sizes.ts).
   */
  readonly tlsKeyShare?: TlsKeyShare;
  /**
   * TLS 1.2 False Start (RFC 7918): the client sends its request right after its Finished, without waiting
   * for the server's, as browsers do with ECDHE and an AEAD cipher: one round trip of TLS instead of two.
   * Default true; false gives the full two-round-trip handshake of RFC 5246 §7.3. TLS 1.3 needs none.
   */
  readonly tlsFalseStart?: boolean;
  /** HTTP/2 client behaviour: `{ flowControl: 'browser' | 'rfc-defaults' | { streamWindow, connectionWindow } }`. */
  readonly http2?: Http2SimulationOptions;
  /** HTTP/3 endpoints: `{ qpack: { maxTableCapacity, maxBlockedStreams } }` (RFC 9204 §5). */
  readonly http3?: Http3SimulationOptions;
  /** Parallel connections per origin (browsers: 6). */
  readonly maxConnectionsPerOrigin?: number;
  /** Reuse connections: opt-in Keep-Alive for 1.0, the default for 1.1 (false sends Connection: close). */
  readonly keepAlive?: boolean;
  /** Client closes an idle connection after this many virtual ms. */
  readonly idleTimeout?: number;
  /** Pipeline requests on persistent connections: true (depth 6) or the max depth. 1.1 only. */
  readonly pipelining?: boolean | number;
  /** Put a proxy between client and server. */
  readonly proxy?: false | ProxyOptions;
  /**
   * The origin server: a MockServer, or options to build one. Typed in sim/options.ts, which narrows this to
   * `MockServer | ServerOptions`: net/ does not import the mock server.
   */
  readonly server?: unknown;
  /** Base for relative URLs given to sim.fetch; its host is where the server listens. */
  readonly baseUrl?: string;
  /** More host names the same server answers for (e.g. to show domain sharding). */
  readonly hosts?: readonly string[];
  /** 'auto': awaiting sim.fetch moves virtual time; 'manual': the caller steps the clock. */
  readonly drive?: 'auto' | 'manual';
  /** Unix ms that virtual time 0 maps to (Date headers, HAR startedDateTime). */
  readonly epoch?: number;
  /** The HTTP/1 message engine; defaults to src/wire/http1. */
  readonly codec?: MessageCodec;
  /**
   * Client implementations of other versions, e.g. `{ '2': createHttp2Client }` (see simulation.ts).
   * Typed loosely here to keep this schema free of the simulation's types.
   */
  readonly protocols?: Readonly<Partial<Record<SimHttpVersion, (env: never) => unknown>>>;
  /** A name for this simulation in the playground's visualizers, e.g. 'HTTP/1.1, 6 connections'. */
  readonly label?: string;
}

interface OptionSpec<T> {
  readonly doc: string;
  readonly default: T | ((o: SimulationOptions) => T);
  /** Returns a description of what was expected, or undefined when the value is fine. */
  readonly check: (value: unknown) => string | undefined;
}

const oneOf =
  (...values: readonly unknown[]) =>
  (v: unknown) =>
    values.includes(v) ? undefined : `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;
const number =
  (min: number, max = Infinity, integer = false) =>
  (v: unknown) =>
    typeof v === 'number' && !Number.isNaN(v) && v >= min && v <= max && (!integer || Number.isInteger(v))
      ? undefined
      : `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`;
const either =
  (...checks: ((v: unknown) => string | undefined)[]) =>
  (v: unknown) => {
    const errors = checks.map((c) => c(v));
    return errors.some((e) => e === undefined) ? undefined : errors.join(' or ');
  };
const anything = () => undefined;
const windowSize = number(65_535, 2_147_483_647, true);
function checkHttp2(v: unknown): string | undefined {
  const expected = "{ flowControl: 'browser' | 'rfc-defaults' | { streamWindow, connectionWindow } } with windows from 65535 to 2147483647";
  if (typeof v !== 'object' || v === null) return expected;
  const flow = (v as Http2SimulationOptions).flowControl;
  if (flow === undefined || flow === 'browser' || flow === 'rfc-defaults') return undefined;
  if (typeof flow !== 'object' || flow === null) return expected;
  return windowSize(flow.streamWindow) === undefined && windowSize(flow.connectionWindow) === undefined ? undefined : expected;
}

function checkQueue(v: unknown): string | undefined {
  const expected = "'bdp', 'unlimited', { packets: n } or { bytes: n } with n >= 1";
  if (v === 'bdp' || v === 'unlimited') return undefined;
  if (typeof v !== 'object' || v === null) return expected;
  const size = 'packets' in v ? v.packets : 'bytes' in v ? v.bytes : undefined;
  return typeof size === 'number' && size >= 1 && Number.isFinite(size) ? undefined : expected;
}
function checkHttp3(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return '{ qpack: { maxTableCapacity, maxBlockedStreams } }';
  const qpack = (v as Http3SimulationOptions).qpack;
  if (qpack === undefined) return undefined;
  if (typeof qpack !== 'object' || qpack === null) return 'qpack must be { maxTableCapacity, maxBlockedStreams }';
  for (const key of ['maxTableCapacity', 'maxBlockedStreams'] as const) {
    const n = qpack[key];
    if (n !== undefined && !(Number.isSafeInteger(n) && n >= 0 && n <= 1 << 30)) return `qpack.${key} must be a whole number of at least 0, got ${String(n)}`;
  }
  return undefined;
}

function checkLossModel(v: unknown): string | undefined {
  if (v === 'independent') return undefined;
  const expected = "'independent' or { kind: 'gilbert-elliott', burst } with a mean burst of at least 1 packet";
  if (typeof v !== 'object' || v === null) return expected;
  const { kind, burst } = v as { kind?: unknown; burst?: unknown };
  return kind === 'gilbert-elliott' && typeof burst === 'number' && burst >= 1 && Number.isFinite(burst) && Object.keys(v).length === 2 ? undefined : expected;
}
function checkLossSchedule(v: unknown): string | undefined {
  const expected = '{ server?: number[], client?: number[] } with byte offsets >= 0';
  if (typeof v !== 'object' || v === null) return expected;
  const offsets = (x: unknown) => x === undefined || (Array.isArray(x) && x.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0));
  const { server, client } = v as LossSchedule;
  return offsets(server) && offsets(client) && Object.keys(v).every((k) => k === 'server' || k === 'client') ? undefined : expected;
}

export const SIMULATION_OPTIONS = {
  httpVersion: { doc: 'HTTP version the client speaks', default: '1.1', check: oneOf('0.9', '1.0', '1.1', '2', '3') },
  rtt: { doc: 'Round-trip time, virtual ms', default: 100, check: number(0, 60_000) },
  bandwidth: { doc: 'Bits per second each way', default: 10_000_000, check: either(oneOf(Infinity), number(1_000)) },
  loss: { doc: 'Data segment loss probability', default: 0, check: number(0, 1) },
  lossModel: {
    doc: "How loss falls: 'independent' per packet, or { kind: 'gilbert-elliott', burst } (bursts of that mean length)",
    default: 'independent' as LossModel,
    check: checkLossModel,
  },
  minRto: { doc: "TCP's rto_min, virtual ms: RTO = SRTT + max(4 x RTTVAR, minRto) (Linux's TCP_RTO_MIN: 200)", default: 200, check: number(1, 60_000) },
  rtoFormula: {
    doc: "TCP's RTO: 'linux' SRTT + max(4 x RTTVAR, minRto), or 'rfc6298' max(minRto, SRTT + 4 x RTTVAR)",
    default: 'linux',
    check: oneOf('linux', 'rfc6298'),
  },
  congestionControl: {
    doc: "Congestion control of TCP and QUIC: 'cubic' (RFC 9438 with HyStart++, Linux's default) or 'newreno'",
    default: 'cubic',
    check: oneOf('cubic', 'newreno'),
  },
  tailLossProbe: { doc: "TCP's tail loss probe after 2 x SRTT without an ACK (RACK-TLP, RFC 8985 §7)", default: true, check: oneOf(true, false) },
  delayedAcks: {
    doc: "TCP's delayed ACKs as Linux: 16 at once, then every second full segment or after 40 ms (RFC 5681 §4.2)",
    default: true,
    check: oneOf(true, false),
  },
  pacing: {
    doc: "Pacing: TCP at Linux's 2 x cwnd / SRTT in slow start (1.2 x after), QUIC at 1.25 x cwnd / SRTT (RFC 9002 §7.7)",
    default: false,
    check: oneOf(true, false),
  },
  queue: {
    doc: "Bottleneck queue per direction: 'bdp' (rtt x bandwidth, at least 10 packets), { packets }, { bytes } or 'unlimited'",
    default: 'bdp' as QueueSize,
    check: checkQueue,
  },
  restartAfterIdle: { doc: 'Halve the window per idle RTO, down to min(IW, cwnd), as Linux (tcp_cwnd_restart)', default: true, check: oneOf(true, false) },
  tcpTimestamps: {
    doc: 'TCP timestamp option on every segment, 12 bytes (RFC 7323): 1,448-byte segments, 1,460 without',
    default: true,
    check: oneOf(true, false),
  },
  lossSchedule: {
    doc: 'Application-data byte offsets lost on first transmission, per side: { server: [...], client: [...] }',
    default: {} as LossSchedule,
    check: checkLossSchedule,
  },
  seed: { doc: 'Random seed', default: 1, check: (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? undefined : 'a number or a string') },
  tls: { doc: 'TLS version for https URLs', default: 'none', check: oneOf('none', '1.2', '1.3') },
  certificateChainBytes: {
    doc: "Size of the server's TLS certificate chain, bytes (two RSA certificates: 2,800; RFC 8446 §4.4.2)",
    default: TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES,
    check: number(0, TLS_MAX_CERTIFICATE_CHAIN_BYTES, true),
  },
  tlsKeyShare: {
    doc: "TLS 1.3 key exchange: 'x25519mlkem768' (browsers today: 1,500-byte ClientHello) or 'x25519' (280 bytes)",
    default: TLS_DEFAULT_KEY_SHARE as TlsKeyShare,
    check: oneOf('x25519mlkem768', 'x25519'),
  },
  tlsFalseStart: {
    doc: 'TLS 1.2 False Start (RFC 7918): the request leaves after 1 RTT of TLS, as in browsers (false: 2 RTT)',
    default: true,
    check: oneOf(true, false),
  },
  http2: {
    doc: "HTTP/2 client: flow-control windows ('browser' 6 MiB / 15 MiB, 'rfc-defaults' 65,535 bytes, or sizes)",
    default: { flowControl: 'browser' } as Http2SimulationOptions,
    check: checkHttp2,
  },
  http3: {
    doc: 'HTTP/3 endpoints: { qpack: { maxTableCapacity, maxBlockedStreams } }, QPACK SETTINGS (RFC 9204 §5; default 4096, 100)',
    default: {} as Http3SimulationOptions,
    check: checkHttp3,
  },
  maxConnectionsPerOrigin: { doc: 'Parallel connections per origin', default: 6, check: number(1, 64, true) },
  keepAlive: {
    doc: 'Reuse connections',
    default: (o: SimulationOptions) => (o.httpVersion ?? '1.1') !== '1.0' && o.httpVersion !== '0.9',
    check: oneOf(true, false),
  },
  idleTimeout: { doc: 'Client idle timeout, virtual ms', default: 60_000, check: number(1) },
  pipelining: { doc: 'Pipelining: false, true (depth 6) or a depth', default: false, check: either(oneOf(true, false), number(1, 100, true)) },
  proxy: {
    doc: 'Proxy between client and server',
    default: false,
    check: (v: unknown) => (v === false || (typeof v === 'object' && v !== null) ? undefined : 'false or { kind, pipelining, rtt, useProxyConnection }'),
  },
  server: { doc: 'The mock origin server', default: undefined, check: anything },
  baseUrl: {
    doc: 'Base URL for relative fetches',
    default: (o: SimulationOptions) => ((o.tls ?? 'none') === 'none' ? 'http://api.example' : 'https://api.example'),
    check: (v: unknown) => (typeof v === 'string' && URL.canParse(v) && /^https?:$/.test(new URL(v).protocol) ? undefined : 'an absolute http: or https: URL'),
  },
  hosts: {
    doc: 'Extra host names of the server',
    default: [] as readonly string[],
    check: (v: unknown) => (Array.isArray(v) && v.every((h) => typeof h === 'string') ? undefined : 'an array of host names'),
  },
  drive: { doc: 'Who moves virtual time', default: 'auto', check: oneOf('auto', 'manual') },
  epoch: { doc: 'Unix ms at virtual time 0', default: Date.UTC(2026, 0, 1), check: number(0) },
  codec: { doc: 'HTTP/1 message engine', default: undefined, check: anything },
  protocols: {
    doc: 'Client implementations of other HTTP versions',
    default: {},
    check: (v: unknown) => (typeof v === 'object' && v !== null ? undefined : 'an object mapping versions to factories'),
  },
  label: {
    doc: 'Name shown by the visualizers',
    default: '',
    check: (v: unknown) => (typeof v === 'string' && v.length <= 80 ? undefined : 'a string of at most 80 characters'),
  },
} satisfies { readonly [K in keyof SimulationOptions]-?: OptionSpec<unknown> };

export type ResolvedSimulationOptions = Readonly<Required<Omit<SimulationOptions, 'server' | 'codec'>>> & Pick<SimulationOptions, 'server' | 'codec'>;

export function resolveOptions(options: SimulationOptions = {}): ResolvedSimulationOptions {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(SIMULATION_OPTIONS) as [keyof SimulationOptions, OptionSpec<unknown>][]) {
    const given = options[key];
    const value =
      given === undefined ? (typeof spec.default === 'function' ? (spec.default as (o: SimulationOptions) => unknown)(options) : spec.default) : given;
    const problem = given === undefined ? undefined : spec.check(given);
    if (problem) {
      throw new WireError({
        code: 'invalid-option',
        side: 'local',
        message: `createSimulation: option "${key}" must be ${problem}; got ${JSON.stringify(given) ?? String(given)}.`,
      });
    }
    out[key] = value;
  }
  const resolved = out as ResolvedSimulationOptions;
  const model = resolved.lossModel;
  if (model !== 'independent' && resolved.loss < 1 && model.burst < resolved.loss / (1 - resolved.loss)) {
    throw new WireError({
      code: 'invalid-option',
      side: 'local',
      message: `createSimulation: lossModel's burst must be at least loss / (1 - loss) = ${(resolved.loss / (1 - resolved.loss)).toFixed(3)} packets at loss ${resolved.loss} (the chain cannot enter its lossy state more than once per packet); got ${model.burst}.`,
    });
  }
  if (resolved.pipelining !== false && resolved.httpVersion !== '1.1') {
    throw new WireError({
      code: 'invalid-option',
      side: 'local',
      message: `createSimulation: pipelining needs httpVersion "1.1" (RFC 9112 §9.3.2), got "${resolved.httpVersion}".`,
    });
  }
  return resolved;
}
