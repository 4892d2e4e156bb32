/**
 * NewReno's window arithmetic (RFC 5681 §3.1, RFC 6582, RFC 9002 §7.3), kept as an option for teaching:
 * congestion avoidance adds SMSS x acked / cwnd per ACK, about one segment per round trip (RFC 5681 eq. 3;
 * RFC 9002 §7.3.3); a loss halves cwnd (RFC 9002 §7.3.2 kLossReductionFactor; Linux's reno module,
 * tcp_reno_ssthresh, halves cwnd too, where RFC 5681 §3.1 eq. 4 names FlightSize, `reductionBasis`).
 */
import type { CongestionController, CongestionWindow } from './controller';

export class NewReno implements CongestionController {
  readonly algorithm = 'newreno';
  readonly #basis: 'flight-size' | 'cwnd';

  constructor(reductionBasis: 'flight-size' | 'cwnd' = 'cwnd') {
    this.#basis = reductionBasis;
  }

  increase(w: CongestionWindow, bytes: number): void {
    w.cwnd += Math.floor((w.maxSegmentSize * bytes) / w.cwnd);
  }

  reduce(w: CongestionWindow, _now: number, flightSize: number): void {
    const basis = this.#basis === 'cwnd' ? w.cwnd : flightSize;
    w.ssthresh = Math.max(Math.floor(basis / 2), this.#basis === 'cwnd' ? 0 : 2 * w.maxSegmentSize);
    w.cwnd = Math.max(w.ssthresh, w.minimumWindow);
  }

  /** RFC 5681 §3.1 eq. 4: ssthresh = max(FlightSize / 2, 2 x SMSS). */
  timeoutSsthresh(w: CongestionWindow, flightSize: number): number {
    return Math.max(Math.floor(flightSize / 2), 2 * w.maxSegmentSize);
  }

  idle(): void {}
  exitSlowStart(): void {}
}
