/**
 * Loss detection and congestion control, one rule set for both transports of the simulator: TCP (tcp.ts)
 * and QUIC (http3/recovery.ts, http3/connection.ts) both run this class, configured by `TransportRules`.
 * It is sans-I/O: the sender says what it sent and what was acknowledged, and gets back, as data, which
 * transmissions are now acknowledged or lost and what happened to the congestion window.
 *
 * Every transmission carries a number that grows with each send: QUIC's packet number (RFC 9000 §12.3),
 * and for TCP a transmission counter that a retransmitted segment gets afresh, the way RACK (RFC 8985 §6.1)
 * tells a retransmission from the original. The rules:
 *
 * - RTT estimation (RFC 6298 §2 and RFC 9002 §5.3 are the same filter): the first sample R gives
 *   SRTT = R and RTTVAR = R/2; later ones RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R|, SRTT = 7/8 SRTT + 1/8 R.
 *   Samples come from the newest newly acknowledged transmission, never from a retransmission (Karn's
 *   rule, RFC 6298 §3; QUIC needs no rule, a retransmission has a new packet number). ack_delay is 0:
 *   receivers acknowledge every packet at once.
 * - Loss detection (RFC 9002 §6.1): a transmission sent before one that was acknowledged is lost once
 *   3 later transmissions are acknowledged (packet threshold) or once it was sent more than
 *   9/8 x max(SRTT, latest RTT) ago (time threshold). For TCP these are fast retransmit's three duplicate
 *   ACKs (RFC 5681 §3.2), generalised to every hole at once by SACK (RFC 6675 §4, DupThresh = 3), and
 *   RACK's reordering window (RFC 8985 §6.2), which also finds a lost retransmission.
 * - Congestion response: at most one reduction per recovery period, which starts at the loss and ends
 *   with the acknowledgement of a transmission sent after it (RFC 9002 §7.3.2; TCP: RFC 6582 §3.2's
 *   recovery point, reached when everything outstanding at the loss is acknowledged). The new
 *   ssthresh is half the congestion window for both (RFC 9002 §7.3.2; for TCP NewReno's halving, what
 *   Linux's Reno module does in tcp_reno_ssthresh, while Linux's default, CUBIC, keeps 0.7 of cwnd, RFC 9438
 *   §4.6, and is not modelled), then cwnd = max(ssthresh, minimum window). RFC 5681 §3.1 eq. 4 halves TCP's
 *   FlightSize instead (`reductionBasis: 'flight-size'`), which with SACK counts every byte since the
 *   oldest hole, so a second loss a round trip after the first cut TCP's window less than QUIC's: over
 *   40 seeds at 1 % loss a 1 MiB download took 7 % longer over QUIC for that reason alone. In recovery the
 *   sender sends while the bytes in flight (acknowledged, SACKed and lost data excluded: RFC 6675's
 *   "pipe") stay below cwnd; there is no NewReno window inflation, which a SACK sender does without.
 * - Restart after idle (RFC 5681 §4.1, `restartAfterIdle`): a sender that has sent nothing for longer than its
 *   timeout (TCP's RTO, QUIC's PTO) and has nothing in flight starts again from the restart window
 *   min(initial window, cwnd), as Linux does by default (net.ipv4.tcp_slow_start_after_idle = 1). RFC 9002
 *   §7.8 leaves this to QUIC implementations; we apply the same rule to both so that a reused connection
 *   costs the same in either. ssthresh is kept, so slow start climbs back quickly to where it was.
 * - Growth: slow start adds the bytes acknowledged (RFC 5681 §3.1, at most one SMSS per ACK, which is
 *   what a per-segment ACK acknowledges; RFC 9002 §7.3.1), congestion avoidance SMSS x acked / cwnd,
 *   about one SMSS per RTT (RFC 5681 eq. 3; RFC 9002 §7.3.3). Nothing grows during recovery.
 * - Timeouts, where the two protocols really differ:
 *   - QUIC's probe timeout (RFC 9002 §6.2): SRTT + max(4 x RTTVAR, 1 ms), doubled per consecutive PTO,
 *     armed from the last ack-eliciting send; it sends a probe and declares nothing lost.
 *   - TCP's retransmission timeout (RFC 6298 §2): max(minRto, SRTT + max(1 ms, 4 x RTTVAR)) (Linux
 *     floors the variance term instead, SRTT + max(4 x RTTVAR, 200 ms)), at most 60 s, restarted whenever new data is acknowledged (§5.3), doubled per expiry (§5.5). On expiry
 *     ssthresh = max(FlightSize/2, 2 x SMSS), cwnd = one SMSS (RFC 5681 §3.1, the loss window) and
 *     everything outstanding is marked lost and resent from the oldest in slow start, as Linux does.
 *     A repeated expiry keeps ssthresh (RFC 5681 §3.1).
 *
 * Not modelled: persistent congestion (RFC 9002 §7.6), pacing, the app-limited rule (the window grows
 * even when the sender had nothing more to send), ECN, tail loss probes (RFC 8985 §7), F-RTO.
 */

import { roundTime } from './time';

export interface TransportRules {
  /** Largest payload one transmission carries: TCP's SMSS, QUIC's max_datagram_size. */
  readonly maxSegmentSize: number;
  /** Congestion window of a new connection, bytes. */
  readonly initialWindow: number;
  /** Smallest window a loss leaves, bytes. */
  readonly minimumWindow: number;
  /** What a loss halves: RFC 5681's FlightSize (TCP) or RFC 9002's congestion window (QUIC). */
  readonly reductionBasis: 'flight-size' | 'cwnd';
  /** RTT assumed before the first sample, ms. */
  readonly initialRtt: number;
  /** 'pto': QUIC's probe timeout; 'rto': TCP's retransmission timeout, floored at `minRto`. */
  readonly timeout: { readonly kind: 'pto' } | { readonly kind: 'rto'; readonly minRto: number };
  /** RFC 5681 §4.1: shrink cwnd to min(initialWindow, cwnd) after an idle period longer than the timeout. Default true. */
  readonly restartAfterIdle?: boolean;
}

export const PACKET_THRESHOLD = 3;
export const TIME_THRESHOLD = 9 / 8;
/** Timer granularity, ms (RFC 9002 §6.1.2 kGranularity; RFC 6298 §2's G). */
export const GRANULARITY = 1;
/** RFC 6298 §2.5: a maximum value may be placed on RTO provided it is at least 60 seconds. */
export const MAX_RTO = 60_000;

export interface SentPacketInfo<T> {
  readonly number: number;
  readonly sentAt: number;
  readonly size: number;
  readonly ackEliciting: boolean;
  /** A retransmission of data sent before: Karn's rule takes no RTT sample from it. Default false. */
  readonly retransmission?: boolean;
  /** What the transmission carried that must be re-sent if it is lost. */
  readonly payload: T;
}

export type CongestionPhase = 'slow-start' | 'recovery' | 'congestion-avoidance';
/** Which rule declared a transmission lost (RFC 9002 §6.1.1, §6.1.2). */
export type LossReason = 'packet-threshold' | 'time-threshold';

export interface CongestionChange {
  readonly cwnd: number;
  readonly ssthresh: number;
  readonly phase: CongestionPhase;
  readonly reason: 'ack' | 'loss';
}

export interface RecoveryOutcome<T> {
  readonly acked: readonly SentPacketInfo<T>[];
  readonly lost: readonly SentPacketInfo<T>[];
  readonly lostBy: LossReason | undefined;
  readonly congestion: CongestionChange | undefined;
}

/** What a TCP retransmission timeout did (`onRto`). */
export interface TimeoutOutcome<T> {
  readonly lost: readonly SentPacketInfo<T>[];
  readonly cwnd: number;
  readonly ssthresh: number;
}

export class LossRecovery<T> {
  readonly rules: TransportRules;
  latestRtt = 0;
  smoothedRtt: number;
  rttVar: number;
  minRtt = Infinity;
  #hasSample = false;
  cwnd: number;
  ssthresh = Infinity;
  bytesInFlight = 0;
  /** Consecutive timeouts without an acknowledgement in between (PTO count, RTO backoff). */
  timeoutCount = 0;
  #recoveryStart: number | undefined;
  #largestAcked = -1;
  /** When the timeout counts from: the last ack-eliciting send (PTO) or the last (re)start (RTO). */
  #timerBase: number | undefined;
  /** When the last ack-eliciting transmission left, for the restart after idle. */
  #lastSentAt: number | undefined;
  /** How many times the window was reset after an idle period (restartAfterIdle). */
  idleRestarts = 0;
  readonly #sent = new Map<number, SentPacketInfo<T>>();

  constructor(rules: TransportRules) {
    this.rules = rules;
    this.cwnd = rules.initialWindow;
    this.smoothedRtt = rules.initialRtt;
    this.rttVar = rules.initialRtt / 2;
  }

  get phase(): CongestionPhase {
    if (this.#recoveryStart !== undefined) return 'recovery';
    return this.cwnd < this.ssthresh ? 'slow-start' : 'congestion-avoidance';
  }

  /** Whether a transmission of `size` bytes fits in the congestion window now. */
  canSend(size: number): boolean {
    return this.bytesInFlight + size <= this.cwnd;
  }

  /** Transmissions neither acknowledged nor declared lost, oldest first. */
  get unacked(): readonly SentPacketInfo<T>[] {
    return [...this.#sent.values()].filter((p) => p.ackEliciting);
  }

  /** An RTT measured outside data transmissions (TCP: the SYN and its SYN-ACK, as Linux samples it). */
  sampleRtt(rtt: number): void {
    this.#sample(rtt);
  }

  /** Numbers must grow from one call to the next (packet numbers, transmission counters). */
  onSent(packet: SentPacketInfo<T>): void {
    if (!packet.ackEliciting) return;
    this.#restartIfIdle(packet.sentAt);
    this.#lastSentAt = packet.sentAt;
    if (this.rules.timeout.kind === 'pto' || this.bytesInFlight === 0) this.#timerBase = packet.sentAt; // RFC 6298 §5.1
    this.#sent.set(packet.number, packet);
    this.bytesInFlight += packet.size;
  }

  /**
   * An acknowledgement arrived covering `numbers` (every number the peer has seen, or at least those newly
   * seen). `flightSize` is TCP's FlightSize (sent, not cumulatively acknowledged) for the loss response.
   */
  onAck(numbers: ReadonlySet<number>, now: number, flightSize?: number): RecoveryOutcome<T> {
    const acked: SentPacketInfo<T>[] = [];
    // Visit the smaller side: a QUIC ACK lists every number ever received, a TCP ACK a few new ones.
    if (numbers.size < this.#sent.size) {
      for (const n of numbers) {
        const p = this.#sent.get(n);
        if (p) acked.push(p);
      }
    } else {
      for (const p of this.#sent.values()) if (numbers.has(p.number)) acked.push(p);
    }
    if (acked.length === 0) return { acked, lost: [], lostBy: undefined, congestion: undefined };
    let ordered = true;
    for (let i = 1; i < acked.length && ordered; i++) ordered = acked[i - 1]!.number < acked[i]!.number;
    if (!ordered) acked.sort((x, y) => x.number - y.number);
    const largest = acked[acked.length - 1]!;
    if (largest.number > this.#largestAcked) {
      this.#largestAcked = largest.number;
      if (largest.ackEliciting && !largest.retransmission) this.#sample(now - largest.sentAt);
    }
    for (const p of acked) {
      this.#sent.delete(p.number);
      this.bytesInFlight -= p.size;
    }
    this.timeoutCount = 0; // RFC 9002 §6.2.1; RFC 6298 §5.7 lets the backed-off RTO go once an ACK arrives
    if (this.rules.timeout.kind === 'rto') this.#timerBase = now; // RFC 6298 §5.3
    let congestion = this.#grow(acked);
    const detection = this.detectLost(now, flightSize);
    if (detection.congestion) congestion = detection.congestion;
    return { acked, lost: detection.lost, lostBy: detection.lostBy, congestion };
  }

  /**
   * A transmission that counts toward bytes in flight and the window but that loss detection does not track:
   * QUIC's Initial and Handshake packets, which this simulator never loses. RFC 9002 keeps loss detection per
   * packet number space (§6) but one congestion controller and one bytes_in_flight for all of them (§7, B.2),
   * so these take room in the window like TCP's handshake segments do, until `onUntrackedAcked` (their ACK)
   * or `onUntrackedDiscarded` (their keys are dropped, §6.4).
   */
  onUntrackedSent(size: number, sentAt: number): void {
    this.#restartIfIdle(sentAt);
    this.#lastSentAt = sentAt;
    this.bytesInFlight += size;
  }

  /**
   * Untracked ack-eliciting transmissions (`onUntrackedSent`) were acknowledged: they leave the flight and,
   * as RFC 9002 §7.3.1 says of every acknowledged byte whatever its space, grow the window.
   */
  onUntrackedAcked(packets: readonly { readonly size: number; readonly sentAt: number }[]): CongestionChange | undefined {
    if (packets.length === 0) return undefined;
    for (const p of packets) this.bytesInFlight -= p.size;
    return this.#grow(packets);
  }

  /** RFC 9002 §6.4: keys discarded, so these untracked bytes leave the flight unacknowledged (no growth). */
  onUntrackedDiscarded(bytes: number): void {
    this.bytesInFlight -= bytes;
  }

  /** RFC 9002 §6.1: transmissions now deemed lost (also called when the loss timer fires). */
  detectLost(now: number, flightSize?: number): Omit<RecoveryOutcome<T>, 'acked'> {
    const delay = this.#lossDelay();
    const lost: SentPacketInfo<T>[] = [];
    let lostBy: LossReason | undefined;
    // #sent holds numbers in the order they were sent, so nothing after the largest acknowledged can be lost.
    for (const p of this.#sent.values()) {
      if (p.number > this.#largestAcked) break;
      const byCount = this.#largestAcked >= p.number + PACKET_THRESHOLD;
      // The same rounded sum nextTimer() arms the loss timer with, so the timer finds what it was set for.
      const byTime = roundTime(p.sentAt + delay) <= now;
      if (byCount || byTime) {
        lost.push(p);
        lostBy ??= byCount ? 'packet-threshold' : 'time-threshold';
      }
    }
    const flight = flightSize ?? this.bytesInFlight;
    for (const p of lost) {
      this.#sent.delete(p.number);
      this.bytesInFlight -= p.size;
    }
    return { lost, lostBy, congestion: lost.length > 0 ? this.#onCongestion(lost, now, flight) : undefined };
  }

  /** When the time-threshold loss timer or the timeout fires next, and which. */
  nextTimer(): { at: number; kind: 'loss' | 'pto' | 'rto' } | undefined {
    const delay = this.#lossDelay();
    let loss: number | undefined;
    for (const p of this.#sent.values()) {
      if (p.number >= this.#largestAcked) break;
      loss = Math.min(loss ?? Infinity, roundTime(p.sentAt + delay));
    }
    if (loss !== undefined) return { at: loss, kind: 'loss' };
    if (this.#sent.size === 0 || this.#timerBase === undefined) return undefined;
    return { at: roundTime(this.#timerBase + this.timeout), kind: this.rules.timeout.kind };
  }

  /** The current PTO or RTO, backoff included, rounded to microseconds. */
  get timeout(): number {
    const base = this.smoothedRtt + Math.max(4 * this.rttVar, GRANULARITY);
    const backedOff = base * 2 ** this.timeoutCount;
    if (this.rules.timeout.kind === 'pto') return roundTime(backedOff);
    return roundTime(Math.min(MAX_RTO, Math.max(this.rules.timeout.minRto, base) * 2 ** this.timeoutCount));
  }

  /** QUIC's PTO fired: back off, and return the oldest unacknowledged transmission to probe with. */
  onPto(): SentPacketInfo<T> | undefined {
    this.timeoutCount++;
    let oldest: SentPacketInfo<T> | undefined;
    for (const p of this.#sent.values()) if (!oldest || p.number < oldest.number) oldest = p;
    return oldest;
  }

  /**
   * TCP's RTO fired at `now`: everything outstanding is lost (returned, oldest first), the window falls to
   * one segment, and the timer backs off. ssthresh is cut only by the first expiry of a series.
   */
  onRto(now: number, flightSize: number): TimeoutOutcome<T> {
    const lost = [...this.#sent.values()].sort((a, b) => a.number - b.number);
    this.#sent.clear();
    this.bytesInFlight = 0;
    if (this.timeoutCount === 0) this.ssthresh = Math.max(Math.floor(flightSize / 2), 2 * this.rules.maxSegmentSize);
    this.timeoutCount++;
    this.cwnd = this.rules.maxSegmentSize;
    // Data sent before the timeout no longer ends a recovery period, and its losses cut the window no more.
    this.#recoveryStart = now;
    this.#timerBase = undefined;
    return { lost, cwnd: this.cwnd, ssthresh: this.ssthresh };
  }

  /**
   * RFC 5681 §4.1: "a TCP SHOULD set cwnd to no more than RW before beginning transmission if the TCP has not
   * sent data in an interval exceeding the retransmission timeout", RW = min(IW, cwnd). Checked as the first
   * transmission after the pause leaves, which it always may: it fits in RW.
   */
  #restartIfIdle(now: number): void {
    if (this.rules.restartAfterIdle === false || this.#lastSentAt === undefined || this.bytesInFlight > 0) return;
    if (now - this.#lastSentAt <= this.timeout) return;
    const restart = Math.min(this.rules.initialWindow, this.cwnd);
    if (restart < this.cwnd) this.idleRestarts++;
    this.cwnd = restart;
  }

  #lossDelay(): number {
    // RFC 9002 §6.1.2: max(kTimeThreshold x max(smoothed_rtt, latest_rtt), kGranularity).
    return roundTime(Math.max(TIME_THRESHOLD * Math.max(this.smoothedRtt, this.latestRtt), GRANULARITY));
  }

  #sample(rtt: number): void {
    this.latestRtt = rtt;
    this.minRtt = Math.min(this.minRtt, rtt);
    if (!this.#hasSample) {
      this.#hasSample = true;
      this.smoothedRtt = rtt;
      this.rttVar = rtt / 2;
      return;
    }
    this.rttVar = 0.75 * this.rttVar + 0.25 * Math.abs(this.smoothedRtt - rtt);
    this.smoothedRtt = 0.875 * this.smoothedRtt + 0.125 * rtt;
  }

  #grow(acked: readonly { readonly size: number; readonly sentAt: number; readonly ackEliciting?: boolean }[]): CongestionChange | undefined {
    let grew = false;
    const mss = this.rules.maxSegmentSize;
    for (const p of acked) {
      if (p.ackEliciting === false) continue;
      // A transmission sent after recovery started ends the recovery period (RFC 9002 §7.3.2).
      if (this.#recoveryStart !== undefined) {
        if (p.sentAt <= this.#recoveryStart) continue;
        this.#recoveryStart = undefined;
      }
      if (this.cwnd < this.ssthresh) this.cwnd += Math.min(p.size, mss);
      else this.cwnd += Math.floor((mss * p.size) / this.cwnd);
      grew = true;
    }
    return grew ? { cwnd: this.cwnd, ssthresh: this.ssthresh, phase: this.phase, reason: 'ack' } : undefined;
  }

  #onCongestion(lost: readonly SentPacketInfo<T>[], now: number, flightSize: number): CongestionChange | undefined {
    let newest = -Infinity;
    for (const p of lost) newest = Math.max(newest, p.sentAt);
    // One reduction per recovery period: losses of transmissions sent before it began do not count.
    if (this.#recoveryStart !== undefined && newest <= this.#recoveryStart) return undefined;
    this.#recoveryStart = now;
    const { reductionBasis, maxSegmentSize, minimumWindow } = this.rules;
    this.ssthresh = reductionBasis === 'cwnd' ? Math.floor(this.cwnd / 2) : Math.max(Math.floor(flightSize / 2), 2 * maxSegmentSize);
    this.cwnd = Math.max(this.ssthresh, minimumWindow);
    return { cwnd: this.cwnd, ssthresh: this.ssthresh, phase: 'recovery', reason: 'loss' };
  }
}
