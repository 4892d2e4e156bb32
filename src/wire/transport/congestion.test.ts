import { describe, expect, it } from 'vitest';
import { LossRecovery, type TransportRules } from './congestion';

const MSS = 1000;
const rules = (timeout: TransportRules['timeout'], congestionControl: 'cubic' | 'newreno' = 'cubic'): TransportRules => ({
  maxSegmentSize: MSS,
  initialWindow: 10 * MSS,
  minimumWindow: 2 * MSS,
  reductionBasis: 'cwnd',
  initialRtt: 100,
  timeout,
  congestionControl,
});
const range = (from: number, to: number): Set<number> => new Set(Array.from({ length: to - from + 1 }, (_, i) => from + i));
const send = (r: LossRecovery<null>, from: number, to: number, at: number) => {
  for (let n = from; n <= to; n++) r.onSent({ number: n, sentAt: at, size: MSS, ackEliciting: true, payload: null });
};

describe('one congestion response per loss event (issue #32 item 1)', () => {
  it('QUIC: a loss found after the recovery ended, of a packet sent before it began, does not cut again (RFC 9002 B.8)', () => {
    const r = new LossRecovery<null>(rules({ kind: 'pto', maxAckDelay: 25 }));
    r.cwnd = 30 * MSS;
    send(r, 0, 29, 0); // one burst: 5 and 20 are dropped
    r.onAck(new Set([...range(0, 4), ...range(6, 19)]), 100);
    expect(r.reductions).toBe(1);
    // 0-4 and 6-19 grew 30,000 by 19,000 in slow start; 5's loss cuts it to floor(0.7 x 49,000) = 34,300.
    expect(r.ssthresh).toBe(34_300);
    const after = r.cwnd;
    const ssthresh = r.ssthresh;
    send(r, 30, 30, 100); // sent after the recovery began
    // Its ACK ends the recovery; the same ACK makes 20 lost (21-30 acknowledged): sent at 0, before the
    // recovery began at 100, so no second cut. (The old rule forgot the recovery here and cut 0.7 again.)
    const out = r.onAck(new Set([...range(0, 4), ...range(6, 19), ...range(21, 30)]), 200);
    expect(out.lost.map((p) => p.number)).toEqual([20]);
    expect(r.reductions).toBe(1);
    expect(r.ssthresh).toBe(ssthresh);
    expect(r.cwnd).toBeGreaterThanOrEqual(after);
  });

  it('TCP: no second cut until the cumulative ACK passes the recovery point (RFC 6582 §3.2)', () => {
    const r = new LossRecovery<null>(rules({ kind: 'rto', minRto: 200 }, 'newreno'));
    r.cwnd = 30 * MSS;
    send(r, 0, 29, 0);
    // 5 lost: the recovery point is SND.NXT = 30,000.
    r.onAck(new Set([...range(0, 4), ...range(6, 19)]), 100, { una: 5 * MSS, nxt: 30 * MSS, unaAdvanced: true });
    expect(r.reductions).toBe(1);
    expect(r.phase).toBe('recovery');
    // 20 found lost later while SND.UNA (21,000 after 5's copy arrived) is still below 30,000: no new cut.
    send(r, 30, 30, 100); // 5's retransmission
    r.onAck(new Set([...range(21, 29), 30]), 200, { una: 20 * MSS, nxt: 30 * MSS, unaAdvanced: true });
    expect(r.reductions).toBe(1);
    expect(r.phase).toBe('recovery');
    // 20's copy acknowledged: SND.UNA = 30,000 reaches the point, the recovery ends at ssthresh (0-4 and 6-19 grew 30,000 by 19,000 to 49,000 in slow start; halved: 24,500),
    // and this ACK of a segment sent after the recovery began grows it as congestion avoidance: + 1,000^2 / 24,500.
    send(r, 31, 31, 200);
    r.onAck(new Set([31]), 300, { una: 30 * MSS, nxt: 30 * MSS, unaAdvanced: true });
    expect(r.phase).toBe('congestion-avoidance');
    expect(r.ssthresh).toBe(24_500);
    expect(r.cwnd).toBe(24_540);
    // A loss of data sent after that is a new event: a second cut.
    send(r, 32, 40, 300);
    r.onAck(range(33, 40), 400, { una: 30 * MSS, nxt: 39 * MSS, unaAdvanced: false });
    expect(r.reductions).toBe(2);
  });

  it('TCP sends nothing outside the window: the fast retransmit is inside what PRR allows', () => {
    const r = new LossRecovery<null>(rules({ kind: 'rto', minRto: 200 }));
    send(r, 0, 9, 0);
    // 0 lost, 1-9 SACKed: slow start grows 10 -> 19 segments first, then CUBIC: ssthresh = floor(0.7 x 19,000)
    // = 13,300. pipe = 0 (everything else delivered) <= ssthresh, so PRR-SSRB: sndcnt = min(13,300 - 0,
    // max(9,000 - 0, 9,000)) = 9,000 (no +1 segment: SND.UNA did not move): cwnd = 9,000.
    r.onAck(range(1, 9), 100, { una: 0, nxt: 10 * MSS, unaAdvanced: false });
    expect(r.ssthresh).toBe(13_300);
    expect(r.cwnd).toBe(9_000);
    expect(r.canSend(MSS)).toBe(true);
  });
});

describe("TCP's retransmission timeout as Linux computes it", () => {
  const tcp = (formula?: 'linux' | 'rfc6298') => new LossRecovery<null>({ ...rules({ kind: 'rto', minRto: 200, formula }), initialRtt: 1000 / 3 });

  it('is 1 s before any sample (RFC 6298 §2.1), SRTT + max(4 x RTTVAR, 200 ms) after, and backs off to at most 120 s', () => {
    const r = tcp();
    // No sample: SRTT = 333.3, RTTVAR = 166.7: 333.3 + max(666.7, 200) = 1,000.
    expect(r.timeout).toBe(1000);
    r.sampleRtt(100);
    // 100 + max(4 x 50, 200) = 300 (RFC 6298 would say max(200, 300) = 300 too)...
    expect(r.timeout).toBe(300);
    r.sampleRtt(100);
    // ...but with RTTVAR = 37.5: Linux 100 + max(150, 200) = 300, where RFC 6298 gives max(200, 250) = 250.
    expect(r.timeout).toBe(300);
    const rfc = tcp('rfc6298');
    rfc.sampleRtt(100);
    rfc.sampleRtt(100);
    expect(rfc.timeout).toBe(250);
    // Backoff doubles per expiry, capped at Linux's TCP_RTO_MAX = 120 s (RFC 6298's mode: 60 s).
    r.timeoutCount = 8; // 300 x 256 = 76,800
    expect(r.timeout).toBe(76_800);
    r.timeoutCount = 9; // 153,600 -> 120,000
    expect(r.timeout).toBe(120_000);
    rfc.timeoutCount = 9;
    expect(rfc.timeout).toBe(60_000);
  });
});
