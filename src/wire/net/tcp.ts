/**
 * TCP as timed round trips: enough of RFC 9293 to show where the time goes, and no more.
 *
 * What is modelled:
 * - The three-way handshake (SYN, SYN-ACK, ACK; RFC 9293 §3.5): the client may send data after one RTT,
 *   the server sees the connection once the ACK arrives. This cost is paid once per connection and is
 *   visible per request in the trace and in HAR `connect`. Each side takes its first RTT sample from the
 *   handshake (SYN to SYN-ACK, SYN-ACK to ACK), as Linux does.
 * - Segments of at most 1448 bytes: an Ethernet MTU of 1500 minus 40 bytes of TCP/IPv4 headers and the 12
 *   bytes of the timestamp option (RFC 7323 §3: 10 bytes, padded with two NOPs to a 4-byte boundary), which
 *   Linux, macOS, iOS and Android offer in their SYN and then put on every segment. `timestamps: false`
 *   (TcpOptions) drops it: 1460-byte segments of 1500-byte packets, what a connection gets when either host
 *   leaves the option out, since RFC 7323 §3.2 uses it only when both SYNs carried it. Only the option's size is modelled (RTT samples come from
 *   the ACKs as before, RFC 7323 §4 would give the same ones here, ACKs are never lost).
 * - Loss recovery and congestion control are the rules QUIC runs too (congestion.ts, `LossRecovery`):
 *   an initial window of 10 segments (RFC 6928 §2: min(10 x MSS, max(2 x MSS, 14600)) = 14,480 bytes with
 *   timestamps, 14,600 without),
 *   slow start (+1 segment per ACK) left early by HyStart++ (RFC 9406), CUBIC congestion avoidance (RFC 9438,
 *   Linux's default; `congestionControl: 'newreno'` for RFC 5681's +1 segment per RTT), fast retransmit of
 *   every hole that three later segments have passed (RFC 5681 §3.2 generalised by SACK, RFC 6675), a
 *   time threshold for lost retransmissions and tail losses (RACK, RFC 8985), one window cut per loss event
 *   (RFC 6582's recovery point: no other cut until the cumulative ACK passes SND.NXT as it was at the loss),
 *   reduced to CUBIC's 0.7 x cwnd (NewReno: 1/2) over the recovery by Proportional Rate Reduction (RFC 6937,
 *   as Linux), which also paces the fast retransmit itself: nothing is sent outside the window. The
 *   retransmission timeout is Linux's, SRTT + max(4 x RTTVAR, 200 ms) (`minRto` is rto_min; `rtoFormula:
 *   'rfc6298'` gives RFC 6298 §2's max(minRto, SRTT + 4 x RTTVAR)), 1 s before any sample, doubling per expiry.
 *   On a timeout the window falls to one segment and the oldest unacknowledged data goes first.
 * - ACKs: cumulative, delayed as Linux delays them (`delayedAcks`, default on): the first 16 data segments
 *   at once (quick-ack mode), then every second full segment or 40 ms after the first unacknowledged one,
 *   and at once for a duplicate, a segment out of order or one filling a gap (RFC 5681 §4.2, RFC 9293
 *   §3.8.6.3), or when the receiver sends data (the ACK rides on it). An ACK for a
 *   segment that arrived out of order also names that segment, the first SACK block of RFC 2018 §4.
 *   Since ACKs are never lost here, one block per ACK tells the sender everything the receiver holds.
 * - In-order delivery: the receiver holds segments that arrive after a gap and hands bytes to the
 *   application only once the gap is filled. That stall is TCP head-of-line blocking, traced as
 *   'hol-blocked'.
 * - Close: FIN is delivered after all data (in stream order) and ends the connection for both sides (no
 *   half-close). `abort` sends RST, which discards what has not yet arrived.
 *
 * - Restart after idle (Linux's tcp_cwnd_restart, congestion.ts): after more than an RTO without sending, a
 *   sender halves its window per RTO of idle time, down to min(IW, cwnd); `restartAfterIdle: false` keeps it.
 * - TLS handshake bytes (written with kind 'handshake') go in segments of their own that are never lost,
 *   like QUIC's handshake packets; loss and the loss schedule count only application data (link.ts).
 *
 * - Lost segments are traced ('packet-lost') with the link's cause: the full bottleneck queue, random
 *   loss or the loss schedule (link.ts), at the moment they are sent, as QUIC's 'quic-datagram-dropped'.
 *
 * - Tail loss probes (RACK-TLP, RFC 8985 §7, congestion.ts): 2 x SRTT without an ACK sends the last segment
 *   (or a new one) past the window, so a lost tail is found by RACK instead of the RTO; `tailLossProbe: false`.
 *
 * - Pacing (`pacing`, default off as under Linux's usual fq_codel qdisc): segments leave at Linux's pacing
 *   rate, 2 x cwnd / SRTT in slow start and 1.2 x after, each moving the next departure on by its length.
 *
 * Not modelled: the receive window (the receiver always has room), Linux's adaptive delayed-ACK timeout (ato
 * grows with the gaps between segments; fixed at 40 ms here) and its re-entry into quick-ack mode, Nagle, and TCP options other than timestamps (SACK-permitted and window scale travel only on the SYN,
 * which costs no bandwidth here). Control segments (SYN, ACK, FIN, RST) are never lost and take no bandwidth (see link.ts).
 */
import { roundTime, type Clock } from './clock';
import { HEADER_OVERHEAD, type Link } from './link';
import type { Trace } from '../trace/trace';
import type { Peer } from '../trace/events';
import type { TransportRules } from '../transport/congestion';
import { TIMESTAMP_OPTION_BYTES, tcpRules, type TcpOptions } from './tcp-rules';
import { type Connection, TcpSocket } from './tcp-socket';

// The model's parts, exported from here as before: its numbers and options (tcp-rules.ts), and one end of a
// connection (tcp-socket.ts).
export {
  DELAYED_ACK_MS,
  INITIAL_CWND,
  MIN_RTO,
  MSS,
  MSS_WITHOUT_TIMESTAMPS,
  PACING_RATIO,
  QUICK_ACKS,
  TIMESTAMP_OPTION_BYTES,
  tcpRules,
} from './tcp-rules';
export type { TcpOptions } from './tcp-rules';
export { isRefused, refusedReason, TcpSocket } from './tcp-socket';

export interface NetContext {
  readonly clock: Clock;
  readonly trace: Trace;
  /** Deterministic ids: nextId('c') -> 'c1', 'c2', ... */
  readonly nextId: (prefix: string) => string;
}

interface Listener {
  readonly peer: Peer;
  readonly accept: (socket: TcpSocket) => void;
}

/** The set of listening addresses on a simulated network, and the way to open connections to them. */
export class TcpNetwork {
  readonly ctx: NetContext;
  /** The loss-recovery rules every connection on this network runs (tcpRules). */
  readonly rules: TransportRules;
  /** TCP/IP header bytes of each segment on the wire (HEADER_OVERHEAD, plus the timestamp option). */
  readonly headers: number;
  /** Whether receivers delay their ACKs (TcpOptions.delayedAcks). */
  readonly delayedAcks: boolean;
  /** Whether senders pace (TcpOptions.pacing). */
  readonly pacing: boolean;
  readonly #listeners = new Map<string, Listener>();

  constructor(ctx: NetContext, options: TcpOptions = {}) {
    this.ctx = ctx;
    const timestamps = options.timestamps ?? true;
    this.rules = tcpRules(options.minRto, options.restartAfterIdle, timestamps, options.congestionControl, options.rtoFormula, options.tailLossProbe);
    this.headers = HEADER_OVERHEAD + (timestamps ? TIMESTAMP_OPTION_BYTES : 0);
    this.delayedAcks = options.delayedAcks ?? true;
    this.pacing = options.pacing ?? false;
  }

  /** Accepts connections to `address` ("host:port"). Returns a function that stops listening. */
  listen(address: string, peer: Peer, accept: (socket: TcpSocket) => void): () => void {
    if (this.#listeners.has(address)) throw new Error(`Something already listens on ${address}.`);
    this.#listeners.set(address, { peer, accept });
    return () => this.#listeners.delete(address);
  }

  /** Starts a three-way handshake to `address` over `link`. The socket is usable at once (writes queue). */
  connect(address: string, options: { readonly from: Peer; readonly link: Link }): TcpSocket {
    const { ctx } = this;
    const { clock, trace } = ctx;
    const conn: Connection = {
      id: ctx.nextId('c'),
      link: options.link,
      ctx,
      rules: this.rules,
      headers: this.headers,
      delayedAcks: this.delayedAcks,
      pacing: this.pacing,
      closed: false,
    };
    const client = new TcpSocket(conn, 'client');
    const listener = this.#listeners.get(address);
    const start = clock.now();
    const oneWay = options.link.oneWay;
    trace.emit({
      type: 'connection-opening',
      connectionId: conn.id,
      from: options.from,
      to: listener?.peer ?? 'server',
      address,
      rtt: options.link.rtt,
      congestionControl: this.rules.congestionControl ?? 'cubic',
    });
    trace.emit({ type: 'handshake', connectionId: conn.id, protocol: 'tcp', step: 'SYN', from: 'client' });
    clock.setTimeout(() => {
      if (client.state === 'closed') return;
      if (!listener || !this.#listeners.has(address)) {
        // RFC 9293 §3.10.7.1: a SYN to a port nobody listens on is answered with RST.
        trace.emit({ type: 'handshake', connectionId: conn.id, protocol: 'tcp', step: 'RST', from: 'server' });
        clock.setTimeout(() => client.refused(address), oneWay);
        return;
      }
      const server = new TcpSocket(conn, 'server');
      TcpSocket.pair(client, server);
      trace.emit({ type: 'handshake', connectionId: conn.id, protocol: 'tcp', step: 'SYN-ACK', from: 'server' });
      const synAckAt = clock.now();
      clock.setTimeout(() => {
        if (client.state === 'closed') return;
        trace.emit({ type: 'handshake', connectionId: conn.id, protocol: 'tcp', step: 'ACK', from: 'client' });
        // Schedule the ACK's arrival before the client can write, so the server is accepted first.
        clock.setTimeout(() => {
          if (conn.closed) return;
          listener.accept(server);
          server.establish(clock.now() - synAckAt);
        }, oneWay);
        trace.emit({ type: 'connection-opened', connectionId: conn.id, tcpMs: roundTime(clock.now() - start) });
        client.establish(clock.now() - start);
      }, oneWay);
    }, oneWay);
    return client;
  }
}
