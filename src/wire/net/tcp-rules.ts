/**
 * TCP's numbers and knobs (tcp.ts tells the model): segment sizes with and without the timestamp option, the
 * initial window, Linux's timer floors and delayed-ACK constants, the pacing ratios, `TcpOptions` and `tcpRules`,
 * the rule set TCP hands the loss recovery it shares with QUIC (transport/congestion.ts).
 */
import type { CongestionControl, TransportRules } from '../transport/congestion';

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
