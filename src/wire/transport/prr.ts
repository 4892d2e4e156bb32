/**
 * Proportional Rate Reduction (RFC 6937), as Linux runs it in TCP fast recovery (tcp_cwnd_reduction): instead
 * of cutting cwnd to ssthresh at once and then sending nothing until the flight drains below it (or, with
 * RFC 6675's pipe rule alone, sending in bursts), the sender spreads the reduction over the recovery's round
 * trip, sending about ssthresh / RecoverFS bytes per byte delivered, and once the flight has fallen below
 * ssthresh grows it back towards ssthresh by at most what was delivered plus one segment per ACK (the
 * Slow-Start Reduction Bound, PRR-SSRB).
 *
 * Per ACK in recovery, with DeliveredData the bytes newly acknowledged or SACKed and pipe the bytes in flight:
 *   prr_delivered += DeliveredData
 *   if pipe > ssthresh: sndcnt = ceil(prr_delivered x ssthresh / RecoverFS) - prr_out
 *   else:               sndcnt = min(ssthresh - pipe, max(prr_delivered - prr_out, DeliveredData) + SSRB)
 * where SSRB is one SMSS when the ACK advanced the cumulative point and reported no new loss (Linux's
 * condition; RFC 6937 always adds it). Linux then forces sndcnt >= 1 segment until the first transmission of
 * the recovery (the fast retransmit itself) and sets cwnd = pipe + sndcnt, which is how we apply it too.
 * RecoverFS is the window before the reduction (Linux's prior_cwnd; RFC 6937 uses the FlightSize, the same
 * when the window was full). prr_out counts every byte sent during the recovery.
 */

export class ProportionalRateReduction {
  recoverFs = 0;
  ssthresh = 0;
  prrDelivered = 0;
  prrOut = 0;

  /** Recovery begins: the window before the cut and the ssthresh the algorithm chose. */
  start(priorCwnd: number, ssthresh: number): void {
    this.recoverFs = priorCwnd;
    this.ssthresh = ssthresh;
    this.prrDelivered = 0;
    this.prrOut = 0;
  }

  onSent(bytes: number): void {
    this.prrOut += bytes;
  }

  /** The congestion window after this ACK: pipe + sndcnt (bytes). */
  onAck(delivered: number, pipe: number, mss: number, ssrb: boolean): number {
    if (delivered <= 0) return pipe + (this.prrOut > 0 ? 0 : mss);
    this.prrDelivered += delivered;
    let sndcnt: number;
    if (pipe > this.ssthresh) {
      sndcnt = Math.ceil((this.prrDelivered * this.ssthresh) / this.recoverFs) - this.prrOut;
    } else {
      const limit = Math.max(this.prrDelivered - this.prrOut, delivered) + (ssrb ? mss : 0);
      sndcnt = Math.min(this.ssthresh - pipe, limit);
    }
    // Force the fast retransmit: the first transmission of the recovery always goes.
    sndcnt = Math.max(sndcnt, this.prrOut > 0 ? 0 : mss);
    return pipe + Math.max(0, sndcnt);
  }
}
