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
import { roundTime, type Clock, type TimerId } from './clock';
import { HEADER_OVERHEAD, type Direction, type Link } from './link';
import type { Trace } from '../trace/trace';
import type { Peer, Side } from '../trace/events';
import { binaryString } from '../trace/events';
import { Signal, type Unsubscribe } from '../trace/subscribable';
import { concatBytes, type ByteStream, type CloseInfo, type StreamState } from './stream';
import { LossRecovery, type CongestionControl, type LossReason, type SequenceState, type TransportRules } from '../transport/congestion';

/** The largest segment payload with the timestamp option on (the default): 1500 - 40 - 12. */
export const MSS = 1448;
/** The largest segment payload without TCP options: 1500 - 40 (`timestamps: false`). */
export const MSS_WITHOUT_TIMESTAMPS = 1460;
/** RFC 7323 §3: the timestamp option's 10 bytes and 2 NOPs that align it, carried by every segment. */
export const TIMESTAMP_OPTION_BYTES = 12;
/** Initial window in segments (RFC 6928 §2). */
export const INITIAL_CWND = 10;
/** Linux's TCP_RTO_MIN, ms: the least variance term of its RTO, so RTO >= SRTT + 200 ms (RFC 6298 §2.4 floors the RTO at 1 s). */
export const MIN_RTO = 200;
/**
 * Linux's delayed-ACK timeout at the start of a connection, ms (TCP_ATO_MIN = HZ/25 and TCP_DELACK_MIN, 40 ms);
 * RFC 9293 §3.8.6.3 and RFC 5681 §4.2 allow at most 500 ms and ask for an ACK at least every second full segment.
 */
export const DELAYED_ACK_MS = 40;
/** Segments a Linux receiver acknowledges at once at the start of a connection (quick-ack mode, TCP_MAX_QUICKACKS). */
export const QUICK_ACKS = 16;

export interface TcpOptions {
  /**
   * Linux's rto_min, virtual ms: the RTO is SRTT + max(4 x RTTVAR, minRto). Default 200 (TCP_RTO_MIN). With
   * `rtoFormula: 'rfc6298'` it is RFC 6298 §2.4's floor under the whole RTO instead (which asks for 1000).
   */
  readonly minRto?: number;
  /** 'linux' (default): SRTT + max(4 x RTTVAR, minRto), at most 120 s; 'rfc6298': max(minRto, SRTT + 4 x RTTVAR), at most 60 s. */
  readonly rtoFormula?: 'linux' | 'rfc6298';
  /** The congestion-control algorithm of every connection: 'cubic' (default, with HyStart++) or 'newreno'. */
  readonly congestionControl?: CongestionControl;
  /** RACK-TLP's tail loss probe (RFC 8985 §7), on in Linux by default. Default true. */
  readonly tailLossProbe?: boolean;
  /** Restart from min(IW, cwnd) after an idle period longer than the RTO (RFC 5681 §4.1). Default true. */
  readonly restartAfterIdle?: boolean;
  /**
   * The timestamp option (RFC 7323) on every segment: 12 bytes of each 1500-byte packet, so segments carry
   * 1448 bytes. Default true, as Linux, macOS, iOS and Android negotiate it; false: 1460, a connection where
   * either SYN left the option out (RFC 7323 §3.2).
   */
  readonly timestamps?: boolean;
  /**
   * Delayed ACKs as Linux's receiver runs them: the first 16 data segments are acknowledged at once (quick-ack
   * mode), then an ACK goes once more than one full segment is unacknowledged (every second full segment) or
   * 40 ms after the first unacknowledged one, and at once for a segment out of order, one that fills a gap, a
   * duplicate, or when the receiver sends data itself (the ACK rides on it). Default true; false acknowledges
   * every segment at once.
   */
  readonly delayedAcks?: boolean;
  /**
   * Pacing as Linux computes it (tcp_update_pacing_rate): segments leave at most at 200 % of cwnd / SRTT in
   * slow start and 120 % after (tcp_pacing_ss_ratio, tcp_pacing_ca_ratio), spread over the round trip instead
   * of in one burst. Linux enforces that rate only under the fq queueing discipline or for a congestion
   * control that asks for it (BBR); with fq_codel, the usual default, CUBIC sends unpaced. Default false.
   */
  readonly pacing?: boolean;
}

/** Linux's pacing rate as a share of cwnd / SRTT: tcp_pacing_ss_ratio (slow start) and tcp_pacing_ca_ratio. */
export const PACING_RATIO = { slowStart: 2, congestionAvoidance: 1.2 } as const;

/** TCP's rule set for the shared loss recovery (congestion.ts). */
export const tcpRules = (
  minRto = MIN_RTO,
  restartAfterIdle = true,
  timestamps = true,
  congestionControl: CongestionControl = 'cubic',
  rtoFormula: 'linux' | 'rfc6298' = 'linux',
  tailLossProbe = true,
): TransportRules => {
  const mss = timestamps ? MSS : MSS_WITHOUT_TIMESTAMPS;
  return {
    restartAfterIdle,
    maxSegmentSize: mss,
    initialWindow: Math.min(INITIAL_CWND * mss, Math.max(2 * mss, 14600)),
    minimumWindow: 2 * mss,
    congestionControl,
    tailLossProbe,
    // NewReno halves cwnd as Linux's reno module does (tcp_reno_ssthresh) and QUIC (RFC 9002 §7.3.2); CUBIC keeps 0.7 (RFC 9438 §4.6).
    reductionBasis: 'cwnd',
    // RFC 6298 §2.1: RTO = 1 s before any sample, i.e. SRTT + 4 x SRTT/2 = 1000. The handshake's sample
    // replaces it before the first data segment leaves.
    initialRtt: 1000 / 3,
    timeout: { kind: 'rto', minRto, formula: rtoFormula },
  };
};

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

interface Segment {
  readonly offset: number;
  readonly data: Uint8Array;
  /** Number of its latest transmission (congestion.ts numbers every send, retransmissions afresh). */
  tx: number;
  retransmits: number;
  /** Cumulatively acknowledged or SACKed. */
  delivered: boolean;
  /** Declared lost and waiting to be sent again; why. */
  lostBy: LossReason | 'timeout' | undefined;
}

/** One shared record per connection, so both ends agree on whether it is over. */
interface Connection {
  readonly id: string;
  readonly link: Link;
  readonly ctx: NetContext;
  readonly rules: TransportRules;
  /** TCP/IP header bytes per segment: 40, plus the timestamp option's 12 when it is on. */
  readonly headers: number;
  /** Whether receivers delay their ACKs (TcpOptions.delayedAcks). */
  readonly delayedAcks: boolean;
  /** Whether senders pace (TcpOptions.pacing). */
  readonly pacing: boolean;
  closed: boolean;
}

export class TcpSocket implements ByteStream {
  readonly side: Side;
  readonly #conn: Connection;
  readonly #direction: Direction;
  #peer: TcpSocket | undefined;
  #state: StreamState = 'connecting';
  #closeReason = '';
  // Sending.
  readonly #queue: Uint8Array[] = [];
  #queuedBytes = 0;
  #nextOffset = 0;
  /** Highest cumulative ACK received. */
  #una = 0;
  /** Segments sent and neither acknowledged nor SACKed, in stream order. */
  readonly #outstanding = new Map<number, Segment>();
  /** Segments declared lost, in stream order: sent again before any new data (RFC 6675 §5 NextSeg). */
  #resend: Segment[] = [];
  readonly #recovery: LossRecovery<Segment>;
  #nextTx = 0;
  #timer: TimerId | undefined;
  #timerAt: number | undefined;
  #finRequested = false;
  #finSent = false;
  /** Stream offset where the TLS handshake's bytes end and application data begins (0 without TLS). */
  #handshakeEnd = 0;
  // Receiving.
  #expected = 0;
  readonly #held = new Map<number, Uint8Array>();
  /** Data segments still to acknowledge at once (Linux's quick-ack mode at the start of a connection). */
  #quickAcks = QUICK_ACKS;
  /** Bytes received in order and not yet acknowledged (a delayed ACK is owed). */
  #unacked = 0;
  #delayedAck: TimerId | undefined;
  /** Pacing: the earliest time the next segment may leave, and the timer that sends it then. */
  #pacedAt = 0;
  #paceTimer: TimerId | undefined;
  #peerFinAt: number | undefined;
  // Signals.
  readonly #opened = new Signal<void>();
  readonly #data = new Signal<Uint8Array>();
  readonly #closed = new Signal<CloseInfo>();

  constructor(conn: Connection, side: Side) {
    this.#conn = conn;
    this.side = side;
    this.#direction = side === 'client' ? 'up' : 'down';
    this.#recovery = new LossRecovery(conn.rules);
  }

  get connectionId(): string {
    return this.#conn.id;
  }
  get state(): StreamState {
    return this.#state;
  }
  /** Current congestion window in whole segments. */
  get cwnd(): number {
    return Math.floor(this.#recovery.cwnd / this.#conn.rules.maxSegmentSize);
  }
  /** The sender's loss recovery and congestion state (RTT estimate, cwnd and ssthresh in bytes). */
  get recovery(): LossRecovery<unknown> {
    return this.#recovery;
  }
  get link(): Link {
    return this.#conn.link;
  }

  onOpen(listener: () => void): Unsubscribe {
    return this.#opened.subscribe(listener);
  }
  onData(listener: (bytes: Uint8Array) => void): Unsubscribe {
    return this.#data.subscribe(listener);
  }
  onClose(listener: (info: CloseInfo) => void): Unsubscribe {
    return this.#closed.subscribe(listener);
  }

  write(bytes: Uint8Array, kind?: 'handshake'): void {
    if (this.#state === 'closing' || this.#state === 'closed' || this.#finRequested) return;
    if (bytes.length === 0) return;
    // TLS writes its whole handshake before any application data, so one boundary separates the two.
    if (kind === 'handshake') this.#handshakeEnd = this.#nextOffset + this.#queuedBytes + bytes.length;
    const copy = bytes.slice();
    this.#conn.ctx.trace.emit({
      type: 'bytes-sent',
      connectionId: this.#conn.id,
      from: this.side,
      data: binaryString(copy),
    });
    this.#queue.push(copy);
    this.#queuedBytes += copy.length;
    if (this.#state === 'open') this.#pump();
  }

  close(reason = 'closed by application'): void {
    if (this.#state === 'closed' || this.#finRequested) return;
    this.#finRequested = true;
    this.#closeReason = reason;
    if (this.#state === 'open') {
      this.#state = 'closing';
      this.#pump();
    }
  }

  abort(reason = 'aborted by application'): void {
    if (this.#state === 'closed') return;
    const { ctx, link } = this.#conn;
    this.#conn.closed = true;
    this.#handshake('RST');
    ctx.trace.emit({ type: 'connection-closed', connectionId: this.#conn.id, by: this.side, how: 'reset', reason });
    const peer = this.#peer;
    this.#shutdown({ how: 'reset', by: this.side, reason });
    if (peer) ctx.clock.setTimeout(() => peer.#shutdown({ how: 'reset', by: this.side, reason }), link.oneWay);
  }

  // --- internals, called by TcpNetwork and the peer ----------------------------------------------

  static pair(client: TcpSocket, server: TcpSocket): void {
    client.#peer = server;
    server.#peer = client;
  }

  /**
   * The peer answered our SYN with RST (nobody listens on `address`): the connection fails before it opens.
   * The reason names the address, as curl's "Failed to connect to host port N" does: a fetch that fails this
   * way is most often a typo in the host, or a host the simulation does not serve.
   */
  refused(address: string): void {
    this.#conn.closed = true;
    const reason = refusedReason(address);
    this.#conn.ctx.trace.emit({ type: 'connection-closed', connectionId: this.#conn.id, by: 'server', how: 'reset', reason });
    this.#shutdown({ how: 'reset', by: 'server', reason });
  }

  /**
   * Marks the socket established and sends anything written while connecting. `handshakeRtt` is the
   * round trip the handshake measured (SYN to SYN-ACK for the client, SYN-ACK to ACK for the server).
   */
  establish(handshakeRtt?: number): void {
    if (this.#state !== 'connecting') return;
    if (handshakeRtt !== undefined) this.#recovery.sampleRtt(handshakeRtt);
    this.#state = this.#finRequested ? 'closing' : 'open';
    this.#opened.emit();
    this.#pump();
  }

  #handshake(step: string): void {
    this.#conn.ctx.trace.emit({ type: 'handshake', connectionId: this.#conn.id, protocol: 'tcp', step, from: this.side });
  }

  /**
   * Sends what the window allows: lost segments first, then new data. The fast retransmit that begins a
   * recovery is inside the window too: Proportional Rate Reduction allows one segment for it (prr.ts).
   */
  #pump(): void {
    if (this.#state !== 'open' && this.#state !== 'closing') return;
    const recovery = this.#recovery;
    const mss = this.#conn.rules.maxSegmentSize;
    for (;;) {
      while (this.#resend.length > 0 && this.#resend[0]!.delivered) this.#resend.shift();
      const lost = this.#resend[0];
      if ((lost || this.#queuedBytes > 0) && this.#paced()) break;
      if (lost) {
        if (!recovery.canSend(lost.data.length)) break;
        this.#resend.shift();
        this.#retransmit(lost);
        continue;
      }
      if (this.#queuedBytes === 0 || !recovery.canSend(Math.min(mss, this.#queuedBytes))) break;
      // Handshake bytes travel in segments of their own, so a segment is all handshake or all application.
      const data = this.#take(this.#nextOffset < this.#handshakeEnd ? Math.min(mss, this.#handshakeEnd - this.#nextOffset) : mss);
      const segment: Segment = { offset: this.#nextOffset, data, tx: -1, retransmits: 0, delivered: false, lostBy: undefined };
      this.#nextOffset += data.length;
      this.#outstanding.set(segment.offset, segment);
      this.#transmit(segment, false);
    }
    if (this.#finRequested && !this.#finSent && this.#queuedBytes === 0) this.#sendFin();
    this.#armTimer();
  }

  /**
   * With pacing on, whether the next segment must wait: if so, a timer pumps again when it may leave. Each
   * segment sent moves that time on by its length at the pacing rate (`#transmit`).
   */
  #paced(): boolean {
    if (!this.#conn.pacing) return false;
    const { clock } = this.#conn.ctx;
    const now = clock.now();
    if (now >= this.#pacedAt) return false;
    this.#paceTimer ??= clock.setTimeout(() => {
      this.#paceTimer = undefined;
      this.#pump();
    }, this.#pacedAt - now);
    return true;
  }

  /** Linux's pacing rate, bytes per ms: cwnd / SRTT times 2 in slow start, 1.2 after. */
  get pacingRate(): number {
    const r = this.#recovery;
    const ratio = r.cwnd < r.ssthresh ? PACING_RATIO.slowStart : PACING_RATIO.congestionAvoidance;
    return (ratio * r.cwnd) / r.smoothedRtt;
  }

  #take(max: number): Uint8Array {
    const parts: Uint8Array[] = [];
    let size = 0;
    while (size < max && this.#queue.length > 0) {
      const head = this.#queue[0]!;
      const room = max - size;
      if (head.length <= room) {
        parts.push(head);
        size += head.length;
        this.#queue.shift();
      } else {
        parts.push(head.subarray(0, room));
        this.#queue[0] = head.subarray(room);
        size += room;
      }
    }
    this.#queuedBytes -= size;
    return parts.length === 1 ? parts[0]! : concatBytes(parts);
  }

  /**
   * RACK-TLP's tail loss probe (RFC 8985 §7.3): one segment past the window, new data if any is waiting,
   * else the highest-sequence segment in flight again, so that its ACK (with SACK) reveals a lost tail
   * without waiting for the RTO.
   */
  #probe(now: number): void {
    this.#recovery.onTlp(now);
    if (this.#queuedBytes === 0) {
      let last: Segment | undefined;
      for (const segment of this.#outstanding.values()) if (segment.lostBy === undefined) last = segment;
      if (last) {
        this.#recovery.supersede(last.tx);
        this.#retransmit(last, 'tail-loss-probe');
      }
    }
    this.#pump();
  }

  #retransmit(segment: Segment, probe?: 'tail-loss-probe'): void {
    const reason = probe ?? segment.lostBy ?? 'timeout';
    segment.lostBy = undefined;
    segment.retransmits++;
    this.#conn.ctx.trace.emit({
      type: 'retransmit',
      connectionId: this.#conn.id,
      from: this.side,
      offset: segment.offset,
      length: segment.data.length,
      reason,
      rto: reason === 'timeout' ? this.#expiredRto : this.#recovery.timeout,
      attempt: segment.retransmits,
    });
    this.#transmit(segment, true);
  }

  #transmit(segment: Segment, retransmission: boolean): void {
    const { ctx, link, id, headers } = this.#conn;
    const now = ctx.clock.now();
    // An owed ACK leaves with the data (every segment carries one); here it is its own event, sent now.
    if (this.#unacked > 0) this.#sendAck(undefined);
    if (this.#conn.pacing) this.#pacedAt = roundTime(Math.max(this.#pacedAt, now) + segment.data.length / this.pacingRate);
    segment.tx = this.#nextTx++;
    this.#recovery.onSent({ number: segment.tx, sentAt: now, size: segment.data.length, ackEliciting: true, retransmission, payload: segment });
    const arrival = link.transmit(this.#direction, segment.data.length, now, headers);
    ctx.trace.emit({
      type: 'segment-sent',
      connectionId: id,
      from: this.side,
      offset: segment.offset,
      length: segment.data.length,
      cwnd: this.cwnd,
      retransmission,
    });
    const peer = this.#peer!;
    const start = segment.offset - this.#handshakeEnd;
    const handshake = start < 0;
    const firstSent = retransmission ? undefined : ([start, start + segment.data.length] as const);
    const cause = handshake ? undefined : link.dropCause({ direction: this.#direction, firstSent });
    if (cause !== undefined) {
      // Stamped when the packet meets the bottleneck, which this model puts at the sender's side of the link:
      // a drop-tail queue refuses it on entry, and QUIC's 'quic-datagram-dropped' is stamped at the same
      // moment, so one drop shows at one time in both stacks (issue #32 item 5).
      ctx.trace.emit({ type: 'packet-lost', connectionId: id, from: this.side, offset: segment.offset, length: segment.data.length, cause });
    } else {
      const { offset, data } = segment;
      ctx.clock.setTimeout(() => peer.#receive(offset, data), arrival - now);
    }
  }

  /** SND.UNA and SND.NXT (their difference is RFC 5681's FlightSize), for the recovery point and PRR. */
  #sequence(unaAdvanced = false): SequenceState {
    return { una: this.#una, nxt: this.#nextOffset, unaAdvanced };
  }

  /** Queues segments the recovery declared lost for retransmission, keeping stream order. */
  #markLost(lost: readonly { readonly payload: Segment }[], why: LossReason | 'timeout'): void {
    if (lost.length === 0) return;
    for (const { payload } of lost) {
      payload.lostBy = why;
      this.#resend.push(payload);
    }
    this.#resend.sort((a, b) => a.offset - b.offset);
  }

  #expiredRto = 0;

  /** One timer for the time-threshold loss deadline or the RTO, whichever the recovery names. */
  #armTimer(): void {
    const { clock } = this.#conn.ctx;
    const next = this.#state === 'closed' ? undefined : this.#recovery.nextTimer();
    if (next?.at === this.#timerAt) return;
    clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = next?.at;
    if (!next) return;
    this.#timer = clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = undefined;
        if (this.#state === 'closed') return;
        const now = clock.now();
        if (next.kind === 'loss') {
          const found = this.#recovery.detectLost(now, this.#sequence());
          this.#markLost(found.lost, found.lostBy ?? 'time-threshold');
          this.#pump();
          return;
        }
        if (next.kind === 'tlp') {
          this.#probe(now);
          return;
        }
        this.#expiredRto = this.#recovery.timeout;
        this.#markLost(this.#recovery.onRto(now, this.#sequence()).lost, 'timeout');
        this.#pump();
      },
      Math.max(0, next.at - clock.now()),
    );
  }

  #receive(offset: number, data: Uint8Array): void {
    if (this.#state === 'closed') return;
    const { ctx, id } = this.#conn;
    const end = offset + data.length;
    if (end <= this.#expected || this.#held.has(offset)) {
      this.#sendAck(undefined); // duplicate (a retransmission of something we already have)
      return;
    }
    const inOrder = offset === this.#expected;
    ctx.trace.emit({ type: 'segment-arrived', connectionId: id, by: this.side, offset, length: data.length, inOrder });
    if (!inOrder) {
      this.#held.set(offset, data);
      let heldBytes = 0;
      for (const d of this.#held.values()) heldBytes += d.length;
      ctx.trace.emit({ type: 'hol-blocked', connectionId: id, by: this.side, waitingFor: this.#expected, heldBytes });
      this.#sendAck(offset);
      return;
    }
    const ready = [data];
    // RFC 5681 §4.2: a segment that fills all or part of a gap is acknowledged at once.
    const fillsGap = this.#held.size > 0;
    this.#expected = end;
    for (let next = this.#held.get(this.#expected); next; next = this.#held.get(this.#expected)) {
      this.#held.delete(this.#expected);
      ready.push(next);
      this.#expected += next.length;
    }
    this.#ackInOrder(data.length, fillsGap);
    const bytes = ready.length === 1 ? ready[0]! : concatBytes(ready);
    ctx.trace.emit({ type: 'bytes-received', connectionId: id, by: this.side, data: binaryString(bytes) });
    this.#data.emit(bytes);
    this.#maybeFinished();
  }

  /**
   * Acknowledges in-order data now or later (TcpOptions.delayedAcks): at once in quick-ack mode, for a segment
   * that fills a gap, or once more than one full segment is owed (Linux's __tcp_ack_snd_check: RFC 5681 §4.2's
   * "at least every second full-sized segment"); otherwise after DELAYED_ACK_MS.
   */
  #ackInOrder(bytes: number, fillsGap: boolean): void {
    const { delayedAcks, rules, ctx } = this.#conn;
    this.#unacked += bytes;
    if (!delayedAcks || fillsGap || this.#quickAcks > 0 || this.#unacked > rules.maxSegmentSize) {
      if (this.#quickAcks > 0) this.#quickAcks--;
      this.#sendAck(undefined);
      return;
    }
    this.#delayedAck ??= ctx.clock.setTimeout(() => {
      this.#delayedAck = undefined;
      if (this.#state !== 'closed' && this.#unacked > 0) this.#sendAck(undefined);
    }, DELAYED_ACK_MS);
  }

  /** A cumulative ACK; `sack` names the out-of-order segment that caused it (RFC 2018's first block). */
  #sendAck(sack: number | undefined): void {
    this.#unacked = 0;
    if (this.#delayedAck !== undefined) {
      this.#conn.ctx.clock.clearTimeout(this.#delayedAck);
      this.#delayedAck = undefined;
    }
    const ack = this.#expected;
    const peer = this.#peer!;
    this.#conn.ctx.trace.emit({ type: 'ack', connectionId: this.#conn.id, from: this.side, ack });
    this.#conn.ctx.clock.setTimeout(() => peer.#onAck(ack, sack), this.#conn.link.oneWay);
  }

  /** Transmission numbers an ACK delivers; one set, cleared per ACK, as ACKs are the hottest path here. */
  readonly #delivered = new Set<number>();

  #deliver(segment: Segment): void {
    segment.delivered = true;
    this.#outstanding.delete(segment.offset);
    if (segment.lostBy === undefined) this.#delivered.add(segment.tx); // a segment waiting to be resent is not in flight
  }

  #onAck(ack: number, sack: number | undefined): void {
    if (this.#state === 'closed') return;
    const delivered = this.#delivered;
    delivered.clear();
    const unaAdvanced = ack > this.#una;
    if (unaAdvanced) {
      for (const segment of this.#outstanding.values()) {
        if (segment.offset + segment.data.length > ack) break;
        this.#deliver(segment);
      }
      this.#una = ack;
    }
    if (sack !== undefined) {
      const segment = this.#outstanding.get(sack);
      if (segment) this.#deliver(segment);
    }
    if (delivered.size === 0) return;
    const outcome = this.#recovery.onAck(delivered, this.#conn.ctx.clock.now(), this.#sequence(unaAdvanced));
    this.#markLost(outcome.lost, outcome.lostBy ?? 'packet-threshold');
    this.#pump();
  }

  #sendFin(): void {
    this.#finSent = true;
    this.#handshake('FIN');
    const at = this.#nextOffset;
    const peer = this.#peer!;
    this.#conn.ctx.clock.setTimeout(() => {
      if (peer.#state === 'closed') return;
      peer.#peerFinAt = at;
      peer.#maybeFinished();
    }, this.#conn.link.oneWay);
  }

  /** Once the peer's FIN is in order, the connection ends for both sides. */
  #maybeFinished(): void {
    if (this.#peerFinAt === undefined || this.#expected < this.#peerFinAt || this.#conn.closed) return;
    const closer = this.#peer!;
    this.#conn.closed = true;
    const info: CloseInfo = { how: 'fin', by: closer.side, reason: closer.#closeReason };
    this.#conn.ctx.trace.emit({ type: 'connection-closed', connectionId: this.#conn.id, by: closer.side, how: 'fin', reason: info.reason });
    this.#shutdown(info);
    closer.#shutdown(info);
  }

  #shutdown(info: CloseInfo): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#conn.ctx.clock.clearTimeout(this.#timer);
    this.#conn.ctx.clock.clearTimeout(this.#delayedAck);
    this.#delayedAck = undefined;
    this.#conn.ctx.clock.clearTimeout(this.#paceTimer);
    this.#paceTimer = undefined;
    this.#timer = undefined;
    this.#timerAt = undefined;
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    this.#outstanding.clear();
    this.#resend = [];
    this.#held.clear();
    this.#closed.emit(info);
  }
}

/** The close reason of a connection refused at `address` ("host:port"); proxies test for it (isRefused). */
export const refusedReason = (address: string): string => `connection refused: nothing listens on ${address}`;

/** Whether a close reason says the connection was refused (see refusedReason). */
export const isRefused = (reason: string): boolean => reason.startsWith('connection refused');

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
