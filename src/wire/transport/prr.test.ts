import { describe, expect, it } from 'vitest';
import { ProportionalRateReduction } from './prr';

// Windows in segments (mss = 1) so the arithmetic reads as RFC 6937's examples do.
describe('Proportional Rate Reduction (RFC 6937, PRR-SSRB as Linux)', () => {
  it('one loss in a window of 20, ssthresh 10: the fast retransmit, then one segment per two ACKs', () => {
    const prr = new ProportionalRateReduction();
    prr.start(20, 10);
    // The third duplicate ACK: 3 delivered, 1 lost, pipe = 20 - 3 - 1 = 16. prr_delivered = 1;
    // sndcnt = ceil(1 x 10 / 20) - 0 = 1 (and the first transmission is forced anyway): cwnd = 17.
    expect(prr.onAck(1, 16, 1, false)).toBe(17);
    prr.onSent(1); // the retransmission: pipe 17
    const sent: number[] = [];
    let pipe = 17;
    for (let ack = 0; ack < 8; ack++) {
      pipe -= 1; // each ACK delivers one segment
      const cwnd = prr.onAck(1, pipe, 1, false);
      const n = Math.max(0, cwnd - pipe);
      for (let i = 0; i < n; i++) prr.onSent(1);
      pipe += n;
      sent.push(n);
    }
    // prr_delivered 2, 3, 4, ... 9: ceil(d x 10 / 20) - prr_out = 0, 1, 0, 1, ...: half a segment per ACK.
    expect(sent).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
    expect(prr.prrOut).toBe(5);
    expect(pipe).toBe(13);
  });

  it('below ssthresh the Slow-Start Reduction Bound lets the flight grow back by delivered + 1 per ACK', () => {
    const prr = new ProportionalRateReduction();
    prr.start(20, 10);
    prr.onSent(1);
    // A burst of losses drained the flight to pipe = 4. An ACK delivers 2 and moves SND.UNA with no new loss:
    // limit = max(prr_delivered - prr_out, DeliveredData) + 1 = max(2 - 1, 2) + 1 = 3; sndcnt = min(10 - 4, 3) = 3.
    expect(prr.onAck(2, 4, 1, true)).toBe(7);
    prr.onSent(3);
    // Without SND.UNA moving (or with a new loss): no +1. prr_delivered 4, prr_out 4: limit = max(0, 2) = 2.
    expect(prr.onAck(2, 5, 1, false)).toBe(7);
    // Near ssthresh the gap caps it: pipe 9, sndcnt = min(10 - 9, ...) = 1.
    expect(prr.onAck(3, 9, 1, true)).toBe(10);
  });
});
