/**
 * Issue #32 item 11: the Gilbert-Elliott loss model (link.ts) against its own arithmetic, over 200 seeds of
 * 5,000 packets (N = 1,000,000 draws). Mean loss 2 %, mean burst 3 packets: r = 1/3, p = 0.02 x r / 0.98 =
 * 0.0068027, and the chain is Bad p / (p + r) = 0.02 of the time.
 *
 * Tolerances, four standard deviations of the estimates:
 * - Mean loss. Successive states are correlated with coefficient lambda = 1 - p - r = 0.65986, so the
 *   variance of the mean is pi (1 - pi) / N x (1 + lambda) / (1 - lambda) = 0.0196 / 1e6 x 4.880 = 9.56e-8:
 *   sigma = 0.000309, tolerance 0.00124.
 * - Mean burst length. Bursts are geometric with mean 1/r = 3 and variance (1 - r) / r^2 = 6; there are about
 *   N pi r = 6,667 of them, so sigma = sqrt(6 / 6,667) = 0.030, tolerance 0.12.
 * - P(lost | the packet before was lost) is 1 - r = 2/3 (independent loss: 0.02); about 20,000 - 6,667 =
 *   13,333 of 20,000 losses follow a loss, sigma = sqrt(2/3 x 1/3 / 20,000) = 0.0033, tolerance 0.014.
 */
import { describe, expect, it } from 'vitest';
import { Link, type LossModel } from './link';
import { createRandom } from './random';

const SEEDS = 200;
const PACKETS = 5_000;
const fresh = (k: number) => ({ direction: 'down' as const, firstSent: [k * 1000, (k + 1) * 1000] as const });

function pattern(loss: number, lossModel: LossModel, seed: number | string, packets = PACKETS): boolean[] {
  const link = new Link({ rtt: 100, bandwidth: Infinity, loss, lossModel }, createRandom(seed));
  return Array.from({ length: packets }, (_, k) => link.drops(fresh(k)));
}

function statistics(loss: number, lossModel: LossModel) {
  let lost = 0;
  let bursts = 0;
  let afterLoss = 0;
  for (let seed = 1; seed <= SEEDS; seed++) {
    const drops = pattern(loss, lossModel, seed);
    for (const [k, dropped] of drops.entries()) {
      if (!dropped) continue;
      lost++;
      if (k > 0 && drops[k - 1]) afterLoss++;
      else bursts++;
    }
  }
  return { meanLoss: lost / (SEEDS * PACKETS), meanBurst: lost / bursts, lostAfterLoss: afterLoss / lost };
}

const GE = { kind: 'gilbert-elliott', burst: 3 } as const;

describe('Gilbert-Elliott loss, 200 seeds x 5,000 packets', () => {
  it('loses 2 % of the packets on average, as the independent model does, in bursts of 3', () => {
    const ge = statistics(0.02, GE);
    expect(Math.abs(ge.meanLoss - 0.02)).toBeLessThan(0.00124);
    expect(Math.abs(ge.meanBurst - 3)).toBeLessThan(0.12);
    expect(Math.abs(ge.lostAfterLoss - 2 / 3)).toBeLessThan(0.014);
  });

  it('where independent loss almost never loses two in a row: bursts of 1/(1 - 0.02) = 1.0204', () => {
    const independent = statistics(0.02, 'independent');
    expect(Math.abs(independent.meanLoss - 0.02)).toBeLessThan(0.00056); // 4 x sqrt(0.0196 / 1e6)
    expect(Math.abs(independent.meanBurst - 1 / 0.98)).toBeLessThan(0.01);
    expect(independent.lostAfterLoss).toBeLessThan(0.03);
  });

  it('one seed gives one pattern: the same bursts at the same packet positions in every run', () => {
    expect(pattern(0.05, GE, 'same')).toEqual(pattern(0.05, GE, 'same'));
    expect(pattern(0.05, GE, 'same')).not.toEqual(pattern(0.05, GE, 'other'));
  });

  it('loss 0 loses nothing and loss 1 everything, whatever the burst', () => {
    expect(pattern(0, GE, 1, 100).some(Boolean)).toBe(false);
    expect(pattern(1, GE, 1, 100).every(Boolean)).toBe(true);
  });

  it('refuses a burst shorter than one packet, or too short for the loss rate (p above 1), saying which', () => {
    const make = (loss: number, burst: number) => () =>
      new Link({ rtt: 1, bandwidth: Infinity, loss, lossModel: { kind: 'gilbert-elliott', burst } }, createRandom(1));
    expect(make(0.1, 0.5)).toThrow(/mean burst >= 1 packet, got .*"burst":0.5/);
    // At 60 % loss the chain must stay Bad 1.5 packets per burst: 0.6 / 0.4.
    expect(make(0.6, 1.2)).toThrow(/at least loss \/ \(1 - loss\) = 1.500 packets, got 1.2/);
    expect(make(0.6, 1.5)).not.toThrow();
  });
});

describe('lossModel as a simulation option', () => {
  it('HTTP/2 and HTTP/3 with one seed lose the same packet positions of their data in bursts', async () => {
    const { createSimulation } = await import('../sim/simulation');
    const { createServer } = await import('../server/index');
    const lostPositions = async (httpVersion: '2' | '3') => {
      const server = createServer({ resources: { '/f': { body: 'b'.repeat(400_000), contentType: 'application/octet-stream' } } });
      const sim = createSimulation({ httpVersion, tls: '1.3', server, loss: 0.05, lossModel: GE, seed: 7, queue: 'unlimited' });
      expect((await (await sim.fetch('/f')).arrayBuffer()).byteLength).toBe(400_000);
      // Positions of the dropped first transmissions among the server's full data packets, in send order.
      const sent =
        httpVersion === '2'
          ? sim.trace
              .ofType('segment-sent')
              .filter((e) => e.from === 'server' && !e.retransmission && e.length >= 1000)
              .map((e) => `${e.offset}`)
          : sim.trace
              .ofType('quic-packet-sent')
              .filter((e) => e.from === 'server' && e.size >= 1000 && !e.probe)
              .map((e) => `${e.packetNumber}`);
      const dropped = new Set(
        httpVersion === '2'
          ? sim.trace.ofType('packet-lost').map((e) => `${e.offset}`)
          : sim.trace.ofType('quic-datagram-dropped').flatMap((e) => e.packetNumbers.map(String)),
      );
      return sent.flatMap((key, i) => (dropped.has(key) ? [i] : []));
    };
    const h2 = await lostPositions('2');
    const h3 = await lostPositions('3');
    expect(h2.length).toBeGreaterThan(5);
    // The draws count every packet of new data, small ones too (HTTP/2's and HTTP/3's SETTINGS go in packets
    // of their own, which the filter above leaves out), so the positions may be shifted by such a packet; the
    // bursts themselves, their lengths and the gaps between them, are the same for as long as the two stacks'
    // packets line up (after the first recoveries their packet counts drift apart: seed 7 meets a burst of
    // five and, 79 packets later, a single loss in both).
    const shape = (positions: number[]) => positions.slice(0, 6).map((p) => p - positions[0]!);
    expect(shape(h2)).toEqual(shape(h3));
    expect(Math.abs(h2[0]! - h3[0]!)).toBeLessThanOrEqual(1);
    // At least one run of two or more consecutive losses.
    expect(h2.some((p, i) => h2[i + 1] === p + 1)).toBe(true);
  });

  it('refuses a bad lossModel with a located message', async () => {
    const { createSimulation } = await import('../sim/simulation');
    expect(() => createSimulation({ lossModel: { kind: 'gilbert-elliott', burst: 0 } })).toThrow(/option "lossModel" must be 'independent' or/);
    expect(() => createSimulation({ loss: 0.8, lossModel: { kind: 'gilbert-elliott', burst: 2 } })).toThrow(
      /burst must be at least .* = 4.000 packets at loss 0.8/,
    );
  });
});
