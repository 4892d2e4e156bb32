/**
 * What LossRecovery (congestion.ts) is configured with and speaks in: the rule set a transport passes in
 * (`TransportRules`: TCP's `tcpRules`, QUIC's in http3/recovery.ts), the thresholds and timer bounds
 * the RFCs fix, and the records a sender hands over and gets back. The rules themselves are told in congestion.ts.
 */
import type { CongestionControl } from './controller';

export interface TransportRules {
  /** Largest payload one transmission carries: TCP's SMSS, QUIC's max_datagram_size. */
  readonly maxSegmentSize: number;
  /** Congestion window of a new connection, bytes. */
  readonly initialWindow: number;
  /** Smallest window a loss leaves, bytes. */
  readonly minimumWindow: number;
  /** What NewReno's loss response halves: RFC 5681's FlightSize or RFC 9002's congestion window. */
  readonly reductionBasis: 'flight-size' | 'cwnd';
  /** RTT assumed before the first sample, ms. */
  readonly initialRtt: number;
  /**
   * 'pto': QUIC's probe timeout, with the peer's max_ack_delay (ms); 'rto': TCP's retransmission timeout,
   * Linux's formula (default) or RFC 6298's, with its floor `minRto`.
   */
  readonly timeout:
    | { readonly kind: 'pto'; readonly maxAckDelay: number }
    | { readonly kind: 'rto'; readonly minRto: number; readonly formula?: 'linux' | 'rfc6298' };
  /** Shrink cwnd after an idle period longer than the timeout (Linux's tcp_cwnd_restart). Default true. */
  readonly restartAfterIdle?: boolean;
  /** The congestion-control algorithm. Default 'cubic' (with HyStart++). */
  readonly congestionControl?: CongestionControl;
  /** TCP only: RACK-TLP's tail loss probe (RFC 8985 §7), as Linux sends it (net.ipv4.tcp_early_retrans = 3). Default true. */
  readonly tailLossProbe?: boolean;
}

/** RFC 8985 §7.2 WCDelAckT: the worst-case delayed-ACK time a probe waits for when one segment is in flight, ms. */
export const WC_DEL_ACK_T = 200;
/** Linux adds TCP_TIMEOUT_MIN (2 jiffies, 2 ms at HZ = 1000) to the probe timeout when more is in flight. */
export const TLP_TIMEOUT_MIN = 2;

export const PACKET_THRESHOLD = 3;
export const TIME_THRESHOLD = 9 / 8;
/** Timer granularity, ms (RFC 9002 §6.1.2 kGranularity; RFC 6298 §2's G). */
export const GRANULARITY = 1;
/** Linux's TCP_RTO_MAX, ms. */
export const MAX_RTO = 120_000;
/** RFC 6298 §2.5: a maximum value may be placed on RTO provided it is at least 60 seconds. */
export const RFC6298_MAX_RTO = 60_000;

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

/** TCP's sequence space at an ACK or a timer: SND.UNA, SND.NXT, and whether this ACK moved SND.UNA. */
export interface SequenceState {
  readonly una: number;
  readonly nxt: number;
  readonly unaAdvanced?: boolean;
}

export type CongestionPhase = 'slow-start' | 'conservative-slow-start' | 'recovery' | 'congestion-avoidance';
/** Which rule declared a transmission lost (RFC 9002 §6.1.1, §6.1.2). */
export type LossReason = 'packet-threshold' | 'time-threshold';

export interface CongestionChange {
  /** Bytes, rounded down. */
  readonly cwnd: number;
  readonly ssthresh: number;
  readonly phase: CongestionPhase;
  readonly reason: 'ack' | 'loss';
  readonly algorithm: CongestionControl;
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
