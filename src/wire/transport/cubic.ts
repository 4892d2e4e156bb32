/**
 * CUBIC (RFC 9438), the congestion avoidance Linux runs by default (net/ipv4/tcp_cubic.c) and most QUIC
 * stacks copy. The window is counted in segments (W, RFC 9438 §4.1) and kept in bytes by the caller.
 *
 * - After a congestion event the window follows W_cubic(t) = C x (t - K)^3 + W_max (§4.2, Figure 1), with
 *   C = 0.4 and t the seconds since the current congestion-avoidance stage began; K = cbrt((W_max - cwnd_epoch)
 *   / C) (Figure 2), which is cbrt(W_max x (1 - beta) / C) right after a reduction to beta x W_max.
 * - Per ACK the target is W_cubic(t + RTT), kept within [cwnd, 1.5 x cwnd] (§4.2), and cwnd grows by
 *   (target - cwnd) / cwnd per acknowledged segment: concave below W_max, convex past it.
 * - The Reno-friendly estimate W_est (§4.3) starts at cwnd with each stage and grows by alpha x acked / cwnd,
 *   alpha = 3 x (1 - beta) / (1 + beta) while W_est < cwnd_prior, then 1; where W_cubic(t) < W_est, cwnd = W_est.
 * - A congestion event (§4.6): ssthresh = cwnd x beta, beta = 0.7 (Linux: 717/1024), cwnd = max(ssthresh,
 *   2 segments); W_max = cwnd before the cut, or cwnd x (1 + beta) / 2 if that is below the W_max before it
 *   (fast convergence, §4.7). Linux bases ssthresh on cwnd, RFC 9438 on FlightSize; we follow Linux.
 * - A timeout (§4.8): ssthresh = cwnd x beta too, and the next stage starts with K = 0 and W_max = its cwnd,
 *   as does a stage reached without any loss (HyStart++'s exit, §4.10).
 * - An idle sender's epoch moves by the idle time (Linux's CA_EVENT_TX_START), so a pause does not count as
 *   time on the curve.
 */
import type { CongestionController, CongestionWindow } from './controller';

/** RFC 9438 §5: C = 0.4, in segments per second cubed. */
export const CUBIC_C = 0.4;
/** RFC 9438 §4.6: the multiplicative decrease factor. */
export const CUBIC_BETA = 0.7;
/** RFC 9438 §4.3: alpha_cubic = 3 x (1 - beta) / (1 + beta), the AIMD gain that makes W_est fair to Reno. */
export const CUBIC_ALPHA = (3 * (1 - CUBIC_BETA)) / (1 + CUBIC_BETA);

/** floor(cwnd x beta) in whole bytes, computed as cwnd x 7 / 10 so that 90,000 gives 63,000, not 62,999.99. */
const reduced = (cwnd: number): number => Math.floor((cwnd * 7) / 10);

/** RFC 9438 Figure 2: seconds to reach W_max from `cwndEpoch` (both in segments); 0 at or above it. */
export const cubicK = (wMax: number, cwndEpoch: number): number => (wMax > cwndEpoch ? Math.cbrt((wMax - cwndEpoch) / CUBIC_C) : 0);

/** RFC 9438 Figure 1: W_cubic(t) in segments, t in seconds. */
export const wCubic = (t: number, k: number, wMax: number): number => CUBIC_C * (t - k) ** 3 + wMax;

export class Cubic implements CongestionController {
  readonly algorithm = 'cubic';
  /** W_max, segments; undefined before the first congestion event (then each stage starts with K = 0). */
  wMax: number | undefined;
  /** cwnd_prior, segments: the window before the last reduction, for W_est's alpha. */
  cwndPrior: number | undefined;
  /** When the current congestion-avoidance stage began, ms (t_epoch); undefined until its first ACK. */
  epochStart: number | undefined;
  /** K of the current stage, seconds. */
  k = 0;
  /** W_max of the current stage (the one W_cubic uses), segments. */
  #stageWMax = 0;
  /** W_est, segments. */
  wEst = 0;
  readonly fastConvergence: boolean;

  constructor(options: { readonly fastConvergence?: boolean } = {}) {
    this.fastConvergence = options.fastConvergence ?? true;
  }

  increase(w: CongestionWindow, bytes: number, now: number, smoothedRtt: number): void {
    const mss = w.maxSegmentSize;
    const cwnd = w.cwnd / mss;
    if (this.epochStart === undefined) {
      // §4.2: a new stage. Without a W_max above the window (first stage, after a timeout or HyStart++), K = 0.
      this.epochStart = now;
      this.#stageWMax = this.wMax !== undefined && this.wMax > cwnd ? this.wMax : cwnd;
      this.k = cubicK(this.#stageWMax, cwnd);
      this.wEst = cwnd;
    }
    const acked = bytes / mss;
    const t = (now - this.epochStart) / 1000;
    // §4.3: the Reno-friendly estimate.
    const alpha = this.cwndPrior !== undefined && this.wEst < this.cwndPrior ? CUBIC_ALPHA : 1;
    this.wEst += (alpha * acked) / cwnd;
    if (wCubic(t, this.k, this.#stageWMax) < this.wEst) {
      w.cwnd = Math.max(w.cwnd, this.wEst * mss);
      return;
    }
    // §4.4 / §4.5: concave and convex regions, towards W_cubic(t + RTT) within [cwnd, 1.5 cwnd].
    const target = Math.min(Math.max(wCubic(t + smoothedRtt / 1000, this.k, this.#stageWMax), cwnd), 1.5 * cwnd);
    w.cwnd += ((target - cwnd) / cwnd) * acked * mss;
  }

  reduce(w: CongestionWindow, _now: number): void {
    const mss = w.maxSegmentSize;
    const cwnd = w.cwnd / mss;
    // §4.7 fast convergence: a window that stopped short of the last W_max releases bandwidth sooner.
    this.wMax = this.fastConvergence && this.wMax !== undefined && cwnd < this.wMax ? (cwnd * (1 + CUBIC_BETA)) / 2 : cwnd;
    this.cwndPrior = cwnd;
    w.ssthresh = Math.max(reduced(w.cwnd), w.minimumWindow);
    w.cwnd = w.ssthresh;
    this.epochStart = undefined;
  }

  timeoutSsthresh(w: CongestionWindow): number {
    // §4.8: beta_cubic as for a loss; the next stage starts afresh (K = 0, W_max = its cwnd).
    const ssthresh = Math.max(reduced(w.cwnd), 2 * w.maxSegmentSize);
    this.wMax = undefined;
    this.cwndPrior = undefined;
    this.epochStart = undefined;
    return ssthresh;
  }

  idle(ms: number): void {
    if (this.epochStart !== undefined) this.epochStart += ms;
  }

  exitSlowStart(): void {
    // §4.10: HyStart++ left slow start without a loss; W_max is undefined, so K = 0 from the current window.
    this.wMax = undefined;
    this.epochStart = undefined;
  }
}
