/**
 * QUIC loss detection and congestion control (RFC 9002) for one packet number space, without I/O:
 * the connection tells it what was sent and what was acknowledged, and gets back, as data, which packets
 * are now acknowledged or lost and what happened to the congestion window. The rules are the ones TCP
 * runs too (net/congestion.ts, `LossRecovery`); this file gives them QUIC's constants and its probe timeout.
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
 * - Probe timeout (§6.2.1): PTO = smoothed_rtt + max(4 x rttvar, kGranularity) + max_ack_delay, doubled per
 *   consecutive PTO, armed from the last ack-eliciting packet sent. max_ack_delay is the peer's, 25 ms when
 *   its transport parameters name none (RFC 9000 §18.2), whether or not the receiver delays its ACKs. When
 *   the PTO fires, the connection sends up to two probe packets (§6.2.4) with the oldest unacknowledged data
 *   (RFC 9002 allows new or old data; we use old), and only probes may exceed the congestion window (§7.5).
 *   PTO never declares packets lost by itself.
 * - Datagrams of 1,452 bytes (max_datagram_size): what a stack that has probed the path (DPLPMTUD, RFC 9000
 *   §14.3, RFC 8899) sends over 1500-byte Ethernet whether it runs on IPv4 or IPv6 (1500 - 40 - 8; quic-go's
 *   and Chromium's largest). A new path starts at 1,200 (§14.1), and we once kept 1,200 throughout: then a
 *   download needed 27 % more packets than TCP's 1,460-byte segments, met 27 % more losses at a given loss
 *   rate, and grew its window by fewer bytes per round trip in congestion avoidance, so over 40 seeds at 1 %
 *   loss a 1 MiB download took 40 % longer over QUIC than over TCP: a model asymmetry, not a QUIC trait.
 * - Congestion control: CUBIC (RFC 9438) with HyStart++ (RFC 9406) by default, as Chrome, quiche, msquic
 *   and the Linux kernel run, or RFC 9002 §7.3's own NewReno (`congestionControl: 'newreno'`); the algorithms
 *   are in transport/ (congestion.ts, cubic.ts, hystart.ts, newreno.ts). Initial window 10 x
 *   max_datagram_size (§7.2: min(10 x 1452, max(14720, 2 x 1452)) = 14520 bytes), slow start (cwnd grows by
 *   the bytes acknowledged), a recovery period on loss (CUBIC: ssthresh = 0.7 x cwnd; NewReno: cwnd x
 *   kLossReductionFactor (1/2); cwnd = max(ssthresh, kMinimumWindow = 2 x max_datagram_size)), reduced at
 *   once with one packet allowed before the reduction (§7.3.2), at most one reduction per loss event
 *   (Appendix B.8's congestion_recovery_start_time, kept for the life of the connection).
 *   Bytes in flight count ack-eliciting packets only; ACK-only packets are not congestion controlled.
 * - One congestion controller for all packet number spaces (§7, Appendix B.2): the Initial and Handshake
 *   packets count in bytes in flight, and their acknowledged bytes grow the window in slow start like any
 *   others (packet-spaces.ts), as TCP's window grows when its TLS handshake segments are acknowledged; when
 *   their keys are discarded, what is left of them leaves the flight (§6.4).
 *
 * Pacing (§7.7) is an option of the connection (connection.ts, `pacing`), off by default as TCP's is.
 * Not modelled: persistent congestion (§7.6), the app-limited rule (§7.8: the window
 * grows even when the sender had nothing more to send), ECN, and loss detection in the Initial and Handshake
 * spaces (handshake packets are never lost in this simulator, see packet-spaces.ts, so only the application data
 * space needs recovery). Their ACKs are RTT samples, as in every space (§5.1): the first comes from the
 * peer's Initial, as TCP's comes from its handshake.
 */

import { GRANULARITY, LossRecovery, PACKET_THRESHOLD, TIME_THRESHOLD, type CongestionControl, type TransportRules } from '../transport/congestion';

export const QUIC_MAX_DATAGRAM_SIZE = 1452;
/** RFC 9000 §14.1: the smallest datagram a client's Initial may travel in (it pads to this). */
export const QUIC_MIN_INITIAL_DATAGRAM = 1200;
/** RFC 9002 §7.2. */
export const QUIC_INITIAL_WINDOW = Math.min(10 * QUIC_MAX_DATAGRAM_SIZE, Math.max(14720, 2 * QUIC_MAX_DATAGRAM_SIZE));
export const QUIC_MINIMUM_WINDOW = 2 * QUIC_MAX_DATAGRAM_SIZE;
/** RFC 9002 §6.1.1, §6.1.2, §6.2.1 and Appendix B.2. */
export const QUIC_PACKET_THRESHOLD = PACKET_THRESHOLD;
export const QUIC_TIME_THRESHOLD = TIME_THRESHOLD;
export const QUIC_GRANULARITY = GRANULARITY;
/** RFC 9002 §6.2.2: before any RTT sample, assume 333 ms. */
export const QUIC_INITIAL_RTT = 333;
export const QUIC_LOSS_REDUCTION_FACTOR = 0.5;
/** RFC 9000 §18.2: max_ack_delay when the peer sends no transport parameter for it, ms. */
export const QUIC_DEFAULT_MAX_ACK_DELAY = 25;

/** RFC 9002's rules for the application data space, with CUBIC and HyStart++ (or NewReno, `congestionControl`). */
export const QUIC_RULES: TransportRules = {
  maxSegmentSize: QUIC_MAX_DATAGRAM_SIZE,
  initialWindow: QUIC_INITIAL_WINDOW,
  minimumWindow: QUIC_MINIMUM_WINDOW,
  reductionBasis: 'cwnd',
  initialRtt: QUIC_INITIAL_RTT,
  timeout: { kind: 'pto', maxAckDelay: QUIC_DEFAULT_MAX_ACK_DELAY },
  congestionControl: 'cubic',
};

export type { CongestionChange, CongestionPhase, RecoveryOutcome, SentPacketInfo } from '../transport/congestion';

export class QuicRecovery<T> extends LossRecovery<T> {
  /**
   * `restartAfterIdle`: shrink the window after an idle period, as TCP does (congestion.ts). Default true.
   * `congestionControl`: 'cubic' (default, with HyStart++) or 'newreno' (RFC 9002 §7.3's own).
   */
  constructor(options: { readonly restartAfterIdle?: boolean; readonly congestionControl?: CongestionControl } = {}) {
    super({
      ...QUIC_RULES,
      ...(options.restartAfterIdle === false ? { restartAfterIdle: false } : {}),
      congestionControl: options.congestionControl ?? 'cubic',
    });
  }

  /** Consecutive probe timeouts (RFC 9002 §6.2.1 pto_count). */
  get ptoCount(): number {
    return this.timeoutCount;
  }

  /** The current probe timeout, with exponential backoff (§6.2.1). */
  get pto(): number {
    return this.timeout;
  }
}
