import { describe, expect, it } from 'vitest';
import { Cubic, CUBIC_ALPHA, cubicK, wCubic } from './cubic';
import { HyStartPlusPlus } from './hystart';
import type { CongestionWindow } from './controller';

const window = (cwnd: number): CongestionWindow => ({ cwnd, ssthresh: Infinity, maxSegmentSize: 1000, minimumWindow: 2000 });

describe('CUBIC (RFC 9438)', () => {
  it("K and W_cubic(t) follow RFC 9438's Figures 1 and 2", () => {
    // K = cbrt(W_max x (1 - beta) / C) = cbrt(100 x 0.3 / 0.4) = cbrt(75) = 4.2172 s.
    expect(cubicK(100, 70)).toBeCloseTo(4.2172, 4);
    const k = cubicK(100, 70);
    // W_cubic(0) = 0.4 x (-K)^3 + 100 = 0.4 x -75 + 100 = 70: the curve starts at the reduced window...
    expect(wCubic(0, k, 100)).toBeCloseTo(70, 9);
    // ...W_cubic(2) = 0.4 x (2 - 4.2172)^3 + 100 = 0.4 x -10.899 + 100 = 95.640 (concave)...
    expect(wCubic(2, k, 100)).toBeCloseTo(95.64, 2);
    // ...reaches W_max at t = K and passes it (convex): W_cubic(6) = 0.4 x 1.7828^3 + 100 = 102.267.
    expect(wCubic(k, k, 100)).toBeCloseTo(100, 9);
    expect(wCubic(6, k, 100)).toBeCloseTo(102.267, 3);
    // Already above W_max: K = 0.
    expect(cubicK(80, 90)).toBe(0);
  });

  it('a loss keeps 0.7 of the window; growth is Reno-friendly at first, then follows W_cubic(t + RTT)', () => {
    const cubic = new Cubic();
    const w = window(100_000); // 100 segments of 1,000 bytes
    cubic.reduce(w, 0);
    expect(w.ssthresh).toBe(70_000);
    expect(w.cwnd).toBe(70_000);
    expect(cubic.wMax).toBe(100);
    // First ACK of the stage, t = 0: W_est = 70 + alpha x 1 / 70, alpha = 3 x 0.3 / 1.7 = 0.52941, so
    // W_est = 70.007563 > W_cubic(0) = 70: the Reno-friendly region, cwnd = W_est = 70,007.563 bytes.
    expect(CUBIC_ALPHA).toBeCloseTo(0.52941, 5);
    cubic.increase(w, 1000, 0, 100);
    expect(cubic.k).toBeCloseTo(4.2172, 4);
    expect(w.cwnd).toBeCloseTo(70_007.563, 2);
    // At t = 2 s: W_est = 70.015125 < W_cubic(2) = 95.640, so the target is W_cubic(2 + 0.1) = 96.2040
    // (within [cwnd, 1.5 cwnd]) and cwnd grows by (96.2040 - 70.00756) / 70.00756 = 0.37419 segments: 70,381.75.
    cubic.increase(w, 1000, 2000, 100);
    expect(w.cwnd).toBeCloseTo(70_381.75, 1);
  });

  it('fast convergence: a loss below the last W_max remembers cwnd x (1 + beta) / 2', () => {
    const cubic = new Cubic();
    const w = window(100_000);
    cubic.reduce(w, 0);
    w.cwnd = 90_000;
    cubic.reduce(w, 1000);
    // 90 < W_max = 100: W_max = 90 x 1.7 / 2 = 76.5; ssthresh = 0.7 x 90,000 = 63,000.
    expect(cubic.wMax).toBeCloseTo(76.5, 9);
    expect(w.ssthresh).toBe(63_000);
    const plain = new Cubic({ fastConvergence: false });
    const v = window(100_000);
    plain.reduce(v, 0);
    v.cwnd = 90_000;
    plain.reduce(v, 1000);
    expect(plain.wMax).toBe(90);
  });

  it('a timeout keeps 0.7 of the window as ssthresh and starts the next stage with K = 0', () => {
    const cubic = new Cubic();
    const w = window(100_000);
    expect(cubic.timeoutSsthresh(w)).toBe(70_000);
    w.cwnd = 50_000;
    cubic.increase(w, 1000, 0, 100);
    expect(cubic.k).toBe(0);
  });

  it('an idle period moves the epoch, so the pause does not count as time on the curve', () => {
    const cubic = new Cubic();
    const w = window(100_000);
    cubic.reduce(w, 0);
    cubic.increase(w, 1000, 0, 100);
    cubic.idle(3000);
    expect(cubic.epochStart).toBe(3000);
  });
});

describe('HyStart++ (RFC 9406)', () => {
  /** ACKs numbers from..to, each with an RTT sample `rtt`; `next` is the next number to send. */
  const acks = (h: HyStartPlusPlus, from: number, to: number, rtt: number, next: number): boolean[] => {
    const out: boolean[] = [];
    for (let n = from; n <= to; n++) out.push(h.onAck(n, next, rtt));
    return out;
  };

  it("leaves slow start when a round's minimum RTT rises by RttThresh, and returns when it falls back", () => {
    const h = new HyStartPlusPlus();
    // Round 0 ends with the first ACK (windowEnd 0); round 1 is numbers 1-10, all at 100 ms.
    acks(h, 0, 0, 100, 10);
    acks(h, 1, 10, 100, 30);
    expect(h.lastRoundMinRtt).toBe(100);
    expect(h.state).toBe('slow-start');
    // RttThresh = max(4, min(100 / 8, 16)) = 12.5 ms. Round 2 at 112 ms: 112 < 112.5, still slow start.
    acks(h, 11, 30, 112, 60);
    expect(h.state).toBe('slow-start');
    expect(h.lastRoundMinRtt).toBe(112);
    // Round 3: RttThresh = max(4, min(112 / 8 = 14, 16)) = 14; seven samples at 127 are not enough (N_RTT_SAMPLE
    // = 8), the eighth is: 127 >= 112 + 14 = 126, conservative slow start with cssBaselineMinRtt = 127.
    acks(h, 31, 37, 127, 90);
    expect(h.state).toBe('slow-start');
    acks(h, 38, 38, 127, 90);
    expect(h.state).toBe('css');
    expect(h.cssBaselineMinRtt).toBe(127);
    // CSS grows a quarter as fast (CSS_GROWTH_DIVISOR = 4).
    expect(h.growth(1448)).toBe(362);
    acks(h, 39, 60, 127, 100);
    // Round 4: the minimum falls to 110 < 127 after 8 samples: the rise was spurious, back to slow start.
    acks(h, 61, 68, 110, 100);
    expect(h.state).toBe('slow-start');
    expect(h.growth(1448)).toBe(1448);
  });

  it('after CSS_ROUNDS (5) rounds of CSS it ends slow start (the caller sets ssthresh = cwnd)', () => {
    const h = new HyStartPlusPlus();
    acks(h, 0, 0, 100, 10);
    acks(h, 1, 10, 100, 20);
    const ended: number[] = [];
    let next = 20;
    // Round 2 rises to 120 (>= 100 + 12.5): CSS. Then each round keeps 120, never below the baseline.
    for (let round = 0; round < 6; round++) {
      const from = next - 10 + 1;
      const result = acks(h, from, next, 120, next + 10);
      if (result.includes(true)) ended.push(round);
      next += 10;
    }
    // CSS began in round 0 (the 8th sample); rounds 0-4 end at their last ACK: the fifth returns true.
    expect(ended).toEqual([4]);
    expect(h.state).toBe('done');
  });

  it('a loss ends HyStart++ for good', () => {
    const h = new HyStartPlusPlus();
    h.onLoss();
    expect(h.state).toBe('done');
    expect(h.onAck(5, 10, 500)).toBe(false);
  });
});
