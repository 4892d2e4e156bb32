/**
 * QUIC loss detection and congestion control (RFC 9002) for one packet number space, without I/O:
 * the connection tells it what was sent and what was acknowledged, and gets back, as data, which packets
 * are now acknowledged or lost and what happened to the congestion window.
 *
 * QUIC is NOT free of slow start. Our spec document (HTTP/3 and QUIC section) says otherwise; RFC 9002
 * decides: a new connection starts with a small window and grows it per acknowledgment (§7.3.1), exactly
 * the ramp TCP has. What QUIC saves is the handshake round trip, not the congestion ramp.
 *
 * Modelled:
 * - RTT estimation (§5): latest_rtt, min_rtt, smoothed_rtt and rttvar, with the first-sample rule
 *   (smoothed = sample, rttvar = sample / 2) and the 1/8 and 1/4 gains afterwards. A sample is taken only
 *   when the largest acknowledged packet is newly acknowledged and ack-eliciting (§5.1).
 * - Loss detection (§6.1): an unacknowledged packet sent before an acknowledged one is lost when
 *   kPacketThreshold (3) later packets are acknowledged, or when it was sent more than
 *   kTimeThreshold (9/8) x max(smoothed_rtt, latest_rtt) ago; the earliest such deadline is the loss timer.
 * - Probe timeout (§6.2), SIMPLIFIED: PTO = smoothed_rtt + max(4 x rttvar, kGranularity), doubled per
 *   consecutive PTO, armed from the last ack-eliciting packet sent. max_ack_delay is 0 because our
 *   receivers acknowledge every packet at once. When the PTO fires, the connection re-sends the oldest
 *   unacknowledged data as one probe (RFC 9002 allows new or old data; we always use old), and the
 *   probe is not limited by the congestion window (§7.5). PTO never declares packets lost by itself.
 * - NewReno congestion control (§7.3, Appendix B): initial window 10 x max_datagram_size (§7.2:
 *   min(10 x 1200, max(14720, 2 x 1200)) = 12000 bytes), slow start (cwnd grows by the bytes acknowledged),
 *   a recovery period on loss (ssthresh = cwnd x kLossReductionFactor (1/2), cwnd = max(ssthresh,
 *   kMinimumWindow = 2 x max_datagram_size)), at most one reduction per recovery period (§7.3.2), then
 *   congestion avoidance (cwnd grows by max_datagram_size x acked / cwnd, about one datagram per RTT).
 *   Bytes in flight count ack-eliciting packets only; ACK-only packets are not congestion controlled.
 *
 * Not modelled: persistent congestion (§7.6), pacing (§7.7), the app-limited rule (§7.8: the window
 * grows even when the sender had nothing more to send), ECN, and separate Initial/Handshake spaces
 * (handshake packets are never lost in this simulator, see connection.ts, so only the application data
 * space needs recovery).
 */

export const QUIC_MAX_DATAGRAM_SIZE = 1200;
/** RFC 9002 §7.2. */
export const QUIC_INITIAL_WINDOW = Math.min(10 * QUIC_MAX_DATAGRAM_SIZE, Math.max(14720, 2 * QUIC_MAX_DATAGRAM_SIZE));
export const QUIC_MINIMUM_WINDOW = 2 * QUIC_MAX_DATAGRAM_SIZE;
/** RFC 9002 §6.1.1, §6.1.2, §6.2.1 and Appendix B.2. */
export const QUIC_PACKET_THRESHOLD = 3;
export const QUIC_TIME_THRESHOLD = 9 / 8;
export const QUIC_GRANULARITY = 1;
/** RFC 9002 §6.2.2: before any RTT sample, assume 333 ms. */
export const QUIC_INITIAL_RTT = 333;
export const QUIC_LOSS_REDUCTION_FACTOR = 0.5;

export interface SentPacketInfo<T> {
  readonly number: number;
  readonly sentAt: number;
  readonly size: number;
  readonly ackEliciting: boolean;
  /** What the packet carried that must be re-sent if it is lost (stream chunks). */
  readonly payload: T;
}

export type CongestionPhase = 'slow-start' | 'recovery' | 'congestion-avoidance';

export interface CongestionChange {
  readonly cwnd: number;
  readonly ssthresh: number;
  readonly phase: CongestionPhase;
  readonly reason: 'ack' | 'loss';
}

export interface RecoveryOutcome<T> {
  readonly acked: readonly SentPacketInfo<T>[];
  readonly lost: readonly SentPacketInfo<T>[];
  readonly lostBy: 'packet-threshold' | 'time-threshold' | undefined;
  readonly congestion: CongestionChange | undefined;
}

export class QuicRecovery<T> {
  latestRtt = 0;
  smoothedRtt = QUIC_INITIAL_RTT;
  rttVar = QUIC_INITIAL_RTT / 2;
  minRtt = Infinity;
  #hasSample = false;
  cwnd = QUIC_INITIAL_WINDOW;
  ssthresh = Infinity;
  bytesInFlight = 0;
  ptoCount = 0;
  #recoveryStart: number | undefined;
  #largestAcked = -1;
  #lastAckElicitingAt: number | undefined;
  readonly #sent = new Map<number, SentPacketInfo<T>>();

  get phase(): CongestionPhase {
    if (this.#recoveryStart !== undefined) return 'recovery';
    return this.cwnd < this.ssthresh ? 'slow-start' : 'congestion-avoidance';
  }

  /** Whether a packet of `size` bytes fits in the congestion window now. */
  canSend(size: number): boolean {
    return this.bytesInFlight + size <= this.cwnd;
  }

  get unacked(): readonly SentPacketInfo<T>[] {
    return [...this.#sent.values()].filter((p) => p.ackEliciting);
  }

  onSent(packet: SentPacketInfo<T>): void {
    if (!packet.ackEliciting) return;
    this.#sent.set(packet.number, packet);
    this.bytesInFlight += packet.size;
    this.#lastAckElicitingAt = packet.sentAt;
  }

  /** An ACK arrived acknowledging `numbers` (every packet number the peer has seen). */
  onAck(numbers: ReadonlySet<number>, now: number): RecoveryOutcome<T> {
    const acked = [...this.#sent.values()].filter((p) => numbers.has(p.number)).sort((a, b) => a.number - b.number);
    if (acked.length === 0) return { acked, lost: [], lostBy: undefined, congestion: undefined };
    const largest = acked[acked.length - 1]!;
    if (largest.number > this.#largestAcked) {
      this.#largestAcked = largest.number;
      if (largest.ackEliciting) this.#sample(now - largest.sentAt);
    }
    for (const p of acked) {
      this.#sent.delete(p.number);
      this.bytesInFlight -= p.size;
    }
    this.ptoCount = 0; // §6.2.1: reset on receiving an acknowledgment
    let congestion = this.#grow(acked);
    const detection = this.detectLost(now);
    if (detection.congestion) congestion = detection.congestion;
    return { acked, lost: detection.lost, lostBy: detection.lostBy, congestion };
  }

  /** §6.1: packets now deemed lost (also called when the loss timer fires). */
  detectLost(now: number): Omit<RecoveryOutcome<T>, 'acked'> {
    const delay = this.#lossDelay();
    const lost: SentPacketInfo<T>[] = [];
    let lostBy: 'packet-threshold' | 'time-threshold' | undefined;
    for (const p of this.#sent.values()) {
      if (p.number > this.#largestAcked) continue;
      const byCount = this.#largestAcked >= p.number + QUIC_PACKET_THRESHOLD;
      // The same sum nextTimer() arms the loss timer with: `sentAt <= now - delay` can be false when the
      // timer fires at exactly sentAt + delay (floating-point rounding), which left the timer re-arming at
      // the same instant forever.
      const byTime = p.sentAt + delay <= now;
      if (byCount || byTime) {
        lost.push(p);
        lostBy ??= byCount ? 'packet-threshold' : 'time-threshold';
      }
    }
    for (const p of lost) {
      this.#sent.delete(p.number);
      this.bytesInFlight -= p.size;
    }
    return { lost, lostBy, congestion: lost.length > 0 ? this.#onCongestion(lost, now) : undefined };
  }

  /** When the time-threshold loss timer or the PTO fires next, and which. */
  nextTimer(): { at: number; kind: 'loss' | 'pto' } | undefined {
    const delay = this.#lossDelay();
    let loss: number | undefined;
    for (const p of this.#sent.values()) {
      if (p.number < this.#largestAcked) loss = Math.min(loss ?? Infinity, p.sentAt + delay);
    }
    if (loss !== undefined) return { at: loss, kind: 'loss' };
    if (this.#sent.size === 0 || this.#lastAckElicitingAt === undefined) return undefined;
    return { at: this.#lastAckElicitingAt + this.pto, kind: 'pto' };
  }

  /** The current probe timeout, with exponential backoff (§6.2.1). */
  get pto(): number {
    return (this.smoothedRtt + Math.max(4 * this.rttVar, QUIC_GRANULARITY)) * 2 ** this.ptoCount;
  }

  /** The PTO fired: back off, and return the oldest unacknowledged packet to probe with. */
  onPto(): SentPacketInfo<T> | undefined {
    this.ptoCount++;
    return [...this.#sent.values()].sort((a, b) => a.number - b.number)[0];
  }

  #lossDelay(): number {
    // §6.1.2: max(kTimeThreshold x max(smoothed_rtt, latest_rtt), kGranularity).
    return Math.max(QUIC_TIME_THRESHOLD * Math.max(this.smoothedRtt, this.latestRtt), QUIC_GRANULARITY);
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
    // §5.3 with ack_delay 0.
    this.rttVar = 0.75 * this.rttVar + 0.25 * Math.abs(this.smoothedRtt - rtt);
    this.smoothedRtt = 0.875 * this.smoothedRtt + 0.125 * rtt;
  }

  #grow(acked: readonly SentPacketInfo<T>[]): CongestionChange | undefined {
    let grew = false;
    for (const p of acked) {
      if (!p.ackEliciting) continue;
      // §7.3.2: a packet sent after recovery started ends the recovery period.
      if (this.#recoveryStart !== undefined) {
        if (p.sentAt <= this.#recoveryStart) continue;
        this.#recoveryStart = undefined;
      }
      if (this.cwnd < this.ssthresh) this.cwnd += p.size; // §7.3.1 slow start
      else this.cwnd += Math.floor((QUIC_MAX_DATAGRAM_SIZE * p.size) / this.cwnd); // §7.3.3
      grew = true;
    }
    return grew ? { cwnd: this.cwnd, ssthresh: this.ssthresh, phase: this.phase, reason: 'ack' } : undefined;
  }

  #onCongestion(lost: readonly SentPacketInfo<T>[], now: number): CongestionChange | undefined {
    const newest = Math.max(...lost.map((p) => p.sentAt));
    // §7.3.2: one reduction per round trip; losses of packets sent before recovery began do not count.
    if (this.#recoveryStart !== undefined && newest <= this.#recoveryStart) return undefined;
    this.#recoveryStart = now;
    this.ssthresh = Math.floor(this.cwnd * QUIC_LOSS_REDUCTION_FACTOR);
    this.cwnd = Math.max(this.ssthresh, QUIC_MINIMUM_WINDOW);
    return { cwnd: this.cwnd, ssthresh: this.ssthresh, phase: 'recovery', reason: 'loss' };
  }
}
