/**
 * What a congestion-control algorithm decides, apart from loss detection (congestion.ts): how the window
 * grows per acknowledged byte, what a congestion event leaves, and what a retransmission timeout leaves.
 * Two algorithms implement it: CUBIC (cubic.ts, RFC 9438, the default of Linux, Chrome and most QUIC stacks)
 * and NewReno (newreno.ts, RFC 5681 / RFC 6582 / RFC 9002 §7.3, kept for teaching). Slow start's exit
 * (HyStart++, hystart.ts) and the reduction's pacing over a recovery (PRR, prr.ts) live beside them.
 *
 * Windows are in bytes; `cwnd` may hold a fraction of a byte, since the algorithms count in segments
 * (RFC 9438 §4: "window in segments with byte accounting"). Reports round it down.
 */

export type CongestionControl = 'cubic' | 'newreno';
export const CONGESTION_CONTROLS: readonly CongestionControl[] = ['cubic', 'newreno'];

/** The window the algorithm reads and writes. */
export interface CongestionWindow {
  cwnd: number;
  ssthresh: number;
  readonly maxSegmentSize: number;
  readonly minimumWindow: number;
}

export interface CongestionController {
  readonly algorithm: CongestionControl;
  /**
   * `bytes` newly acknowledged in congestion avoidance (cwnd >= ssthresh) at `now`; `smoothedRtt` in ms.
   * Never called during a recovery period.
   */
  increase(w: CongestionWindow, bytes: number, now: number, smoothedRtt: number): void;
  /** A congestion event (loss): set ssthresh and cwnd, the window the recovery reduces to. */
  reduce(w: CongestionWindow, now: number, flightSize: number): void;
  /** A retransmission timeout: the ssthresh it leaves (cwnd goes to one segment, congestion.ts). */
  timeoutSsthresh(w: CongestionWindow, flightSize: number): number;
  /** The sender was idle for `ms` with nothing in flight (CUBIC moves its epoch: Linux CA_EVENT_TX_START). */
  idle(ms: number): void;
  /** Slow start ended without a loss (HyStart++): congestion avoidance starts from the window as it is. */
  exitSlowStart(w: CongestionWindow): void;
}
