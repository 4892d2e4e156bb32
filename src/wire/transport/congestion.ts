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
 *   ACKs (RFC 5681 §3.2), generalised to every hole at once by SACK (RFC 6675 §4, DupThresh = 3), and RACK
 *   (RFC 8985 §6.2, as Linux): lost once sent more than RACK.rtt + reo_wnd ago, reo_wnd = min_RTT / 4 (0 in
 *   recovery: these links never reorder), which also finds a lost retransmission.
 * - TCP's tail loss probe (RFC 8985 §7, Linux's default): with no ACK for PTO = 2 x SRTT (+ WCDelAckT 200 ms
 *   when one segment is in flight, else Linux's 2 ms TCP_TIMEOUT_MIN), counted from the last new data or ACK,
 *   the sender sends one segment past the window (new data, or the last segment again) so that its ACK lets
 *   RACK find a lost tail without the RTO; at most one probe per tail, and a probe that repeated a lost
 *   segment costs one congestion response (§7.4).
 * - The algorithm (`congestionControl`, per connection): CUBIC (cubic.ts, RFC 9438) with HyStart++
 *   (hystart.ts, RFC 9406) by default, as Linux, Chrome and most QUIC stacks run; or NewReno (newreno.ts,
 *   RFC 5681 / 6582 / RFC 9002 §7.3) for teaching. Slow start adds the bytes acknowledged, at most one SMSS
 *   per ACK (RFC 5681 §3.1; RFC 9002 §7.3.1), a quarter of that in HyStart++'s conservative slow start.
 * - One congestion response per loss event. QUIC (RFC 9002 §7.3.2, Appendix B.5-B.8): the time the last
 *   recovery began (congestion_recovery_start_time) is kept for the life of the connection, and the loss of
 *   a packet sent at or before it does not reduce the window again; the recovery period, in which the window
 *   does not grow, ends when a packet sent after it is acknowledged. TCP (RFC 6582 §3.2, RFC 6675 §5): the
 *   recovery point is the highest sequence sent when the loss was found (SND.NXT); the sender stays in
 *   recovery, and no other loss cuts the window, until the cumulative ACK reaches it.
 * - The reduction: the algorithm's (CUBIC: ssthresh = 0.7 x cwnd; NewReno: cwnd / 2). QUIC applies it at
 *   once and may send one packet before it (RFC 9002 §7.3.2, "a single packet can be sent prior to
 *   reduction"); TCP spreads it over the recovery with Proportional Rate Reduction (prr.ts, RFC 6937, as
 *   Linux), whose allowance also covers the fast retransmit: TCP never sends outside the window. In recovery
 *   the bytes in flight exclude acknowledged, SACKed and lost data (RFC 6675's "pipe").
 * - Restart after idle (`restartAfterIdle`), as Linux's tcp_cwnd_restart: when a sender with nothing in
 *   flight sends after more than one timeout (TCP's RTO, QUIC's PTO) of silence, ssthresh becomes
 *   max(ssthresh, 3/4 cwnd) (tcp_current_ssthresh, outside recovery) and cwnd is halved once per timeout of
 *   idle time, never below the restart window min(initial window, cwnd) (RFC 5681 §4.1 would go straight to
 *   the restart window; RFC 9002 §7.8 leaves QUIC to the implementation, and we apply the same rule to both).
 * - Timeouts, where the two protocols really differ:
 *   - QUIC's probe timeout (RFC 9002 §6.2.1): smoothed_rtt + max(4 x rttvar, kGranularity) + max_ack_delay
 *     (the peer's, 25 ms by default, RFC 9000 §18.2), doubled per consecutive PTO, armed from the last
 *     ack-eliciting send; it sends up to two probes (§6.2.4), which alone may exceed the window (§7.5), and
 *     declares nothing lost.
 *   - TCP's retransmission timeout as Linux computes it (tcp_rtt_estimator, __tcp_set_rto): RTO = SRTT +
 *     max(4 x RTTVAR, rto_min), rto_min = 200 ms (TCP_RTO_MIN; Linux keeps its variance term, rttvar_us, at
 *     least rto_min), at most 120 s (TCP_RTO_MAX), 1 s before any sample (RFC 6298 §2.1); `formula: 'rfc6298'`
 *     gives RFC 6298 §2's max(minRto, SRTT + max(G, 4 x RTTVAR)), at most 60 s, instead. Restarted whenever
 *     new data is acknowledged (§5.3), doubled per expiry (§5.5). On expiry ssthresh is the algorithm's
 *     (CUBIC: 0.7 x cwnd, RFC 9438 §4.8; NewReno: max(FlightSize/2, 2 x SMSS), RFC 5681 §3.1), cwnd = one
 *     SMSS, everything outstanding is marked lost and resent from the oldest in slow start, as Linux does;
 *     a repeated expiry keeps ssthresh. Losses of data sent before the timeout cut no more.
 *
 * Simplified: Linux's RTO variance term is the largest 4 x mdev of the last round trip, decaying by a quarter
 * per round, and its mdev moves more slowly when the RTT falls; we use 4 x RTTVAR. Not modelled: persistent
 * congestion (RFC 9002 §7.6), the app-limited rule (the window grows even when the sender had nothing more to
 * send), ECN, F-RTO and undo, DSACK (a probe's own ACK is told from the original's by its timing).
 */

import { roundTime } from './time';
import type { CongestionControl, CongestionController, CongestionWindow } from './controller';
import { Cubic } from './cubic';
import { HyStartPlusPlus } from './hystart';
import { NewReno } from './newreno';
import { ProportionalRateReduction } from './prr';
import {
  GRANULARITY,
  MAX_RTO,
  PACKET_THRESHOLD,
  RFC6298_MAX_RTO,
  TIME_THRESHOLD,
  TLP_TIMEOUT_MIN,
  WC_DEL_ACK_T,
  type CongestionChange,
  type CongestionPhase,
  type LossReason,
  type RecoveryOutcome,
  type SentPacketInfo,
  type SequenceState,
  type TimeoutOutcome,
  type TransportRules,
} from './rules';

export type { CongestionControl } from './controller';
// The rule set, constants and records live in rules.ts; they are exported here too, where the transports take them.
export { GRANULARITY, MAX_RTO, PACKET_THRESHOLD, RFC6298_MAX_RTO, TIME_THRESHOLD, TLP_TIMEOUT_MIN, WC_DEL_ACK_T } from './rules';
export type {
  CongestionChange,
  CongestionPhase,
  LossReason,
  RecoveryOutcome,
  SentPacketInfo,
  SequenceState,
  TimeoutOutcome,
  TransportRules,
} from './rules';

const newController = (rules: TransportRules): CongestionController =>
  (rules.congestionControl ?? 'cubic') === 'cubic' ? new Cubic() : new NewReno(rules.reductionBasis);

export class LossRecovery<T> implements CongestionWindow {
  readonly rules: TransportRules;
  readonly controller: CongestionController;
  /** HyStart++ (RFC 9406) with CUBIC; NewReno runs classic slow start. */
  readonly hystart: HyStartPlusPlus | undefined;
  /** TCP's Proportional Rate Reduction (RFC 6937); QUIC reduces at once. */
  readonly prr: ProportionalRateReduction | undefined;
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
  /** How many congestion responses (window reductions on loss) the connection made. */
  reductions = 0;
  /** RFC 9002 Appendix B congestion_recovery_start_time: kept, so older losses never cut again. */
  #recoveryStartTime: number | undefined;
  /** In a recovery period: the window does not grow (TCP: PRR sets it). */
  #inRecovery = false;
  /** TCP: SND.NXT when the last loss response or timeout began (RFC 6582's "recover"). */
  #recoveryPoint: number | undefined;
  /** Bytes it may send past the window: QUIC's one packet as the recovery begins (RFC 9002 §7.3.2), TCP's probe. */
  #allowance = 0;
  /** TCP: when the tail loss probe timer counts from (the last new data sent or ACK received). */
  #tlpBase: number | undefined;
  /** TCP: the probe in flight (RFC 8985 TLP.end_seq): at most one per tail. */
  #tlp: { readonly at: number; readonly firstNumber: number; retransmission: boolean } | undefined;
  /** How many tail loss probes were sent. */
  tailLossProbes = 0;
  #largestAcked = -1;
  #nextNumber = 0;
  /** When the timeout counts from: the last ack-eliciting send (PTO) or the last (re)start (RTO). */
  #timerBase: number | undefined;
  /** When the last ack-eliciting transmission left, for the restart after idle. */
  #lastSentAt: number | undefined;
  /** How many times the window was reset after an idle period (restartAfterIdle). */
  idleRestarts = 0;
  readonly #sent = new Map<number, SentPacketInfo<T>>();

  constructor(rules: TransportRules) {
    this.rules = rules;
    this.controller = newController(rules);
    this.hystart = this.controller.algorithm === 'cubic' ? new HyStartPlusPlus() : undefined;
    this.prr = rules.timeout.kind === 'rto' ? new ProportionalRateReduction() : undefined;
    this.cwnd = rules.initialWindow;
    this.smoothedRtt = rules.initialRtt;
    this.rttVar = rules.initialRtt / 2;
  }

  get maxSegmentSize(): number {
    return this.rules.maxSegmentSize;
  }
  get minimumWindow(): number {
    return this.rules.minimumWindow;
  }
  get algorithm(): CongestionControl {
    return this.controller.algorithm;
  }

  get phase(): CongestionPhase {
    if (this.#inRecovery) return 'recovery';
    if (this.cwnd >= this.ssthresh) return 'congestion-avoidance';
    return this.hystart?.state === 'css' ? 'conservative-slow-start' : 'slow-start';
  }

  /** Whether a transmission of `size` bytes fits in the congestion window now. */
  canSend(size: number): boolean {
    return this.bytesInFlight + size <= this.cwnd || this.#allowance > 0;
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
    this.#nextNumber = Math.max(this.#nextNumber, packet.number + 1);
    if (!packet.ackEliciting) return;
    this.#beforeSend(packet.sentAt);
    if (this.#allowance > 0) this.#allowance = Math.max(0, this.#allowance - packet.size);
    if (this.#inRecovery) this.prr?.onSent(packet.size);
    if (!packet.retransmission) this.#tlpBase = packet.sentAt; // RFC 8985 §7.2: armed after new data
    if (this.rules.timeout.kind === 'pto' || this.bytesInFlight === 0) this.#timerBase = packet.sentAt; // RFC 6298 §5.1
    this.#sent.set(packet.number, packet);
    this.bytesInFlight += packet.size;
  }

  /**
   * An acknowledgement arrived covering `numbers` (every number the peer has seen, or at least those newly
   * seen). TCP passes its sequence space (`seq`): the recovery point and FlightSize come from it.
   */
  onAck(numbers: ReadonlySet<number>, now: number, seq?: SequenceState, ackDelay = 0): RecoveryOutcome<T> {
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
    let rtt: number | undefined;
    if (largest.number > this.#largestAcked) {
      this.#largestAcked = largest.number;
      if (largest.ackEliciting && !largest.retransmission) this.#sample((rtt = now - largest.sentAt), ackDelay);
    }
    let delivered = 0;
    for (const p of acked) {
      this.#sent.delete(p.number);
      this.bytesInFlight -= p.size;
      delivered += p.size;
    }
    this.timeoutCount = 0; // RFC 9002 §6.2.1; RFC 6298 §5.7 lets the backed-off RTO go once an ACK arrives
    if (this.rules.timeout.kind === 'rto') this.#timerBase = this.#tlpBase = now; // RFC 6298 §5.3; RFC 8985 §7.2
    const probeCut = this.#tlpAcked(acked, now, seq);
    const wasInRecovery = this.#inRecovery;
    this.#maybeEndRecovery(acked, seq);
    let congestion = probeCut ?? this.#grow(acked, now, rtt) ?? (wasInRecovery && !this.#inRecovery ? this.#change('ack') : undefined);
    const detection = this.detectLost(now, seq, delivered);
    if (detection.congestion) congestion = detection.congestion;
    else if (this.#inRecovery && this.prr && seq) {
      const ssrb = (seq.unaAdvanced ?? false) && detection.lost.length === 0;
      this.cwnd = this.prr.onAck(delivered, this.bytesInFlight, this.rules.maxSegmentSize, ssrb);
    }
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
    this.#beforeSend(sentAt);
    this.bytesInFlight += size;
  }

  /**
   * Untracked ack-eliciting transmissions (`onUntrackedSent`) were acknowledged: they leave the flight and,
   * as RFC 9002 §7.3.1 says of every acknowledged byte whatever its space, grow the window.
   */
  onUntrackedAcked(packets: readonly { readonly size: number; readonly sentAt: number }[], now = 0): CongestionChange | undefined {
    if (packets.length === 0) return undefined;
    for (const p of packets) this.bytesInFlight -= p.size;
    return this.#grow(packets, now, undefined, false);
  }

  /** RFC 9002 §6.4: keys discarded, so these untracked bytes leave the flight unacknowledged (no growth). */
  onUntrackedDiscarded(bytes: number): void {
    this.bytesInFlight -= bytes;
  }

  /**
   * RFC 9002 §6.1: transmissions now deemed lost (also called when the loss timer fires). `delivered` is
   * what the ACK that prompted the check delivered (PRR's first step); a timer delivers nothing, and Linux's
   * RACK timer then counts one segment (tcp_rack_reo_timeout), as we do.
   */
  detectLost(now: number, seq?: SequenceState, delivered?: number): Omit<RecoveryOutcome<T>, 'acked'> {
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
    const flight = seq ? seq.nxt - seq.una : this.bytesInFlight;
    for (const p of lost) {
      this.#sent.delete(p.number);
      this.bytesInFlight -= p.size;
    }
    const congestion = lost.length > 0 ? this.#onCongestion(lost, now, flight, seq, delivered ?? this.rules.maxSegmentSize) : undefined;
    return { lost, lostBy, congestion };
  }

  /** When the time-threshold loss timer or the timeout fires next, and which. */
  nextTimer(): { at: number; kind: 'loss' | 'pto' | 'rto' | 'tlp' } | undefined {
    const delay = this.#lossDelay();
    let loss: number | undefined;
    for (const p of this.#sent.values()) {
      if (p.number >= this.#largestAcked) break;
      loss = Math.min(loss ?? Infinity, roundTime(p.sentAt + delay));
    }
    if (loss !== undefined) return { at: loss, kind: 'loss' };
    if (this.#sent.size === 0 || this.#timerBase === undefined) return undefined;
    const timeout = roundTime(this.#timerBase + this.timeout);
    const probe = this.#tlpAt();
    if (probe !== undefined && probe < timeout) return { at: probe, kind: 'tlp' };
    return { at: timeout, kind: this.rules.timeout.kind };
  }

  /**
   * RFC 8985 §7.2: when TCP's tail loss probe is due, if one may be sent: outside a recovery or a timeout's
   * backoff, with no probe already out for this tail; PTO = 2 x SRTT, plus WCDelAckT when a single segment is
   * in flight (its ACK may be delayed), counted from the last new data sent or ACK received. Linux
   * (tcp_schedule_loss_probe) adds its TCP_TIMEOUT_MIN, 2 ms, otherwise; the RTO, if sooner, fires instead.
   */
  #tlpAt(): number | undefined {
    if (this.rules.timeout.kind !== 'rto' || this.rules.tailLossProbe === false) return undefined;
    if (this.#inRecovery || this.#tlp || this.timeoutCount > 0 || this.#tlpBase === undefined || !this.#hasSample) return undefined;
    const pto = 2 * this.smoothedRtt + (this.bytesInFlight <= this.rules.maxSegmentSize ? WC_DEL_ACK_T : TLP_TIMEOUT_MIN);
    return roundTime(this.#tlpBase + pto);
  }

  /**
   * TCP's tail loss probe timer fired (RFC 8985 §7.3): the sender may now send one segment past the window,
   * new data if it has any, else the highest-sequence segment again (`supersede` its old transmission first).
   * The RTO is re-armed from now.
   */
  onTlp(now: number): void {
    this.tailLossProbes++;
    this.#tlp = { at: now, firstNumber: this.#nextNumber, retransmission: false };
    this.#allowance = this.rules.maxSegmentSize;
    this.#timerBase = now;
  }

  /**
   * A transmission is sent again before anything declared it lost (TCP's tail loss probe): the old one leaves
   * the books without counting as a loss, so the bytes are in flight once.
   */
  supersede(number: number): void {
    const p = this.#sent.get(number);
    if (!p) return;
    this.#sent.delete(number);
    this.bytesInFlight -= p.size;
    if (this.#tlp) this.#tlp.retransmission = true;
  }

  /**
   * RFC 8985 §7.4: the ACK of a probe ends the episode. A probe that repeated the tail segment and is itself
   * acknowledged means the original was lost, which calls for one congestion response (Linux: a CWR
   * reduction to ssthresh, tcp_process_tlp_ack). Linux tells from a DSACK that the original had arrived after
   * all; we tell the same from the time the ACK took, which for the probe's own ACK is at least min_rtt.
   */
  #tlpAcked(acked: readonly SentPacketInfo<T>[], now: number, seq: SequenceState | undefined): CongestionChange | undefined {
    const tlp = this.#tlp;
    if (!tlp || !acked.some((p) => p.number >= tlp.firstNumber)) return undefined;
    this.#tlp = undefined;
    if (!tlp.retransmission || this.#inRecovery || now - tlp.at < this.minRtt) return undefined;
    this.#recoveryStartTime = now;
    this.#recoveryPoint = seq?.nxt;
    this.reductions++;
    this.hystart?.onLoss();
    this.controller.reduce(this, now, seq ? seq.nxt - seq.una : this.bytesInFlight);
    return this.#change('loss');
  }

  /** The current PTO or RTO, backoff included, rounded to microseconds. */
  get timeout(): number {
    const { timeout } = this.rules;
    const backoff = 2 ** this.timeoutCount;
    if (timeout.kind === 'pto') {
      // RFC 9002 §6.2.1: smoothed_rtt + max(4 x rttvar, kGranularity) + max_ack_delay.
      return roundTime((this.smoothedRtt + Math.max(4 * this.rttVar, GRANULARITY) + timeout.maxAckDelay) * backoff);
    }
    if (timeout.formula === 'rfc6298') {
      const base = Math.max(timeout.minRto, this.smoothedRtt + Math.max(4 * this.rttVar, GRANULARITY));
      return roundTime(Math.min(RFC6298_MAX_RTO, base * backoff));
    }
    // Linux: srtt + rttvar_us, where rttvar_us >= tcp_rto_min; tcp_bound_rto caps it at TCP_RTO_MAX.
    return roundTime(Math.min(MAX_RTO, (this.smoothedRtt + Math.max(4 * this.rttVar, timeout.minRto)) * backoff));
  }

  /** QUIC's PTO fired: back off, and return the oldest unacknowledged transmissions (at most two) to probe with. */
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
  onRto(now: number, seq: SequenceState): TimeoutOutcome<T> {
    const lost = [...this.#sent.values()].sort((a, b) => a.number - b.number);
    this.#sent.clear();
    this.bytesInFlight = 0;
    if (this.timeoutCount === 0) this.ssthresh = this.controller.timeoutSsthresh(this, seq.nxt - seq.una);
    this.timeoutCount++;
    this.cwnd = this.rules.maxSegmentSize;
    this.hystart?.onLoss();
    // Linux's Loss state: the window grows again in slow start at once, but no loss of data sent before the
    // timeout cuts it again (high_seq = SND.NXT).
    this.#recoveryStartTime = now;
    this.#recoveryPoint = seq.nxt;
    this.#inRecovery = false;
    this.#timerBase = undefined;
    this.#tlp = undefined;
    return { lost, cwnd: this.cwnd, ssthresh: this.ssthresh };
  }

  /**
   * Before an ack-eliciting transmission: Linux's restart after idle (tcp_slow_start_after_idle_check and
   * tcp_cwnd_restart) and CUBIC's epoch shift (CA_EVENT_TX_START) when nothing is in flight.
   */
  #beforeSend(now: number): void {
    const last = this.#lastSentAt;
    this.#lastSentAt = now;
    if (last === undefined || this.bytesInFlight > 0) return;
    const idle = now - last;
    if (idle > 0) this.controller.idle(idle);
    const rto = this.timeout;
    if (this.rules.restartAfterIdle === false || idle <= rto) return;
    // tcp_current_ssthresh: outside recovery, max(ssthresh, 3/4 cwnd).
    if (!this.#inRecovery) this.ssthresh = Math.max(this.ssthresh, Math.floor((this.cwnd * 3) / 4));
    const restart = Math.min(this.rules.initialWindow, this.cwnd);
    let cwnd = this.cwnd;
    for (let left = idle - rto; left > 0 && cwnd > restart; left -= rto) cwnd = Math.floor(cwnd / 2);
    cwnd = Math.max(cwnd, restart);
    if (cwnd < this.cwnd) this.idleRestarts++;
    this.cwnd = cwnd;
  }

  #lossDelay(): number {
    if (this.rules.timeout.kind === 'rto' && this.#hasSample) {
      // RFC 8985 §6.2 (RACK, as Linux): RACK.rtt + RACK.reo_wnd, reo_wnd = min_RTT / 4, or 0 in recovery
      // (the sender has seen no reordering: this simulator's links keep packets in order).
      return roundTime(Math.max(this.latestRtt + (this.#inRecovery ? 0 : this.minRtt / 4), GRANULARITY));
    }
    // RFC 9002 §6.1.2: max(kTimeThreshold x max(smoothed_rtt, latest_rtt), kGranularity).
    return roundTime(Math.max(TIME_THRESHOLD * Math.max(this.smoothedRtt, this.latestRtt), GRANULARITY));
  }

  /**
   * RFC 9002 §5.3 (RFC 6298 §2 for TCP, whose `ackDelay` is 0): min_rtt takes the raw sample; the smoothed RTT and
   * its variance take it less the peer's reported ACK delay, unless that would go below min_rtt. The first sample
   * is taken whole.
   */
  #sample(rtt: number, ackDelay = 0): void {
    this.latestRtt = rtt;
    this.minRtt = Math.min(this.minRtt, rtt);
    if (!this.#hasSample) {
      this.#hasSample = true;
      this.smoothedRtt = rtt;
      this.rttVar = rtt / 2;
      return;
    }
    const adjusted = rtt >= this.minRtt + ackDelay ? rtt - ackDelay : rtt;
    this.rttVar = 0.75 * this.rttVar + 0.25 * Math.abs(this.smoothedRtt - adjusted);
    this.smoothedRtt = 0.875 * this.smoothedRtt + 0.125 * adjusted;
  }

  /** RFC 9002 §7.3.2: a packet sent after recovery began ends it; RFC 6582: SND.UNA reaching the recovery point. */
  #maybeEndRecovery(acked: readonly SentPacketInfo<T>[], seq: SequenceState | undefined): void {
    if (!this.#inRecovery) return;
    const start = this.#recoveryStartTime ?? -Infinity;
    const over = seq && this.#recoveryPoint !== undefined ? seq.una >= this.#recoveryPoint : acked.some((p) => p.ackEliciting && p.sentAt > start);
    if (!over) return;
    this.#inRecovery = false;
    this.#allowance = 0;
    // Linux's tcp_end_cwnd_reduction: PRR hands over at ssthresh.
    if (this.prr) this.cwnd = this.ssthresh;
  }

  #grow(
    acked: readonly { readonly size: number; readonly sentAt: number; readonly ackEliciting?: boolean }[],
    now: number,
    rtt: number | undefined,
    tracked = true,
  ): CongestionChange | undefined {
    if (this.#inRecovery) return undefined;
    const mss = this.rules.maxSegmentSize;
    const start = this.#recoveryStartTime ?? -Infinity;
    let grew = false;
    let avoidance = 0;
    for (const p of acked) {
      // RFC 9002 Appendix B.5: a packet sent before the last recovery began does not grow the window.
      if (p.ackEliciting === false || p.sentAt <= start) continue;
      grew = true;
      if (this.cwnd < this.ssthresh) this.cwnd += this.hystart ? this.hystart.growth(Math.min(p.size, mss)) : Math.min(p.size, mss);
      else avoidance += p.size;
    }
    if (avoidance > 0) this.controller.increase(this, avoidance, now, this.smoothedRtt);
    if (tracked && this.hystart && this.cwnd < this.ssthresh && this.hystart.onAck(this.#largestAcked, this.#nextNumber, rtt)) {
      // RFC 9406 §4.2: after CSS_ROUNDS rounds of conservative slow start, ssthresh = cwnd.
      this.ssthresh = this.cwnd;
      this.controller.exitSlowStart(this);
    }
    return grew ? this.#change('ack') : undefined;
  }

  #change(reason: 'ack' | 'loss'): CongestionChange {
    return { cwnd: Math.floor(this.cwnd), ssthresh: this.ssthresh, phase: this.phase, reason, algorithm: this.controller.algorithm };
  }

  #onCongestion(
    lost: readonly SentPacketInfo<T>[],
    now: number,
    flightSize: number,
    seq: SequenceState | undefined,
    delivered: number,
  ): CongestionChange | undefined {
    let newest = -Infinity;
    for (const p of lost) newest = Math.max(newest, p.sentAt);
    // One reduction per loss event: not while a TCP recovery (or the Loss state after a timeout) lasts, and
    // never for a packet sent at or before the last recovery began (RFC 9002 Appendix B.8).
    if (this.#recoveryStartTime !== undefined && newest <= this.#recoveryStartTime) return undefined;
    if (seq && this.#recoveryPoint !== undefined && seq.una < this.#recoveryPoint) return undefined;
    this.#recoveryStartTime = now;
    this.#recoveryPoint = seq?.nxt;
    this.#inRecovery = true;
    this.reductions++;
    this.hystart?.onLoss();
    const prior = this.cwnd;
    this.controller.reduce(this, now, flightSize);
    if (this.prr && seq) {
      this.prr.start(prior, this.ssthresh);
      this.cwnd = this.prr.onAck(delivered, this.bytesInFlight, this.rules.maxSegmentSize, false);
    } else {
      // RFC 9002 §7.3.2: "a single packet can be sent prior to reduction".
      this.#allowance = this.rules.maxSegmentSize;
    }
    return this.#change('loss');
  }
}
