import { describe, expect, it } from 'vitest';
import { createSimulation } from '../sim/simulation';
import type { SimulationOptions } from '../sim/options';
import { createServer } from '../server/index';
import { VirtualClock } from './clock';

/** Exactly a whole number of microseconds: what `roundTime` gives, with no float noise left over. */
const whole = (ms: number): boolean => Math.round(ms * 1000) / 1000 === ms;

/** Every number in an event: `at`, HAR-style timings, handshake durations, RTOs... */
function numbers(value: unknown, path: string, out: [string, number][]): void {
  if (typeof value === 'number') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => numbers(v, `${path}[${i}]`, out));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) numbers(v, `${path}.${k}`, out);
}

describe('time resolution', () => {
  it('the clock keeps whole microseconds: 1500 bytes at 3 Mbit/s is 4 ms, a third of a millisecond is 0.333', () => {
    const clock = new VirtualClock();
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 1 / 3);
    clock.setTimeout(() => fired.push(clock.now()), 0.1 + 0.2);
    clock.runUntilIdle();
    expect(fired).toEqual([0.3, 0.333]);
    clock.advance(2 / 3);
    expect(clock.now()).toBe(1);
  });

  for (const httpVersion of ['1.1', '2', '3'] as const) {
    it(`HTTP/${httpVersion}: every time and duration in a lossy multi-request trace is a whole microsecond`, async () => {
      const resources = Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [`/r/${i}`, { body: 'y'.repeat(3_000 + 7_919 * i), contentType: 'text/plain' }]),
      );
      // 3 Mbit/s and 37 ms: per-segment serialization times like 4.0106666... ms, RTTs that are not even.
      const options: SimulationOptions = { httpVersion, tls: '1.3', rtt: 37, bandwidth: 3_000_000, loss: 0.1, seed: 11, server: createServer({ resources }) };
      const sim = createSimulation(options);
      await Promise.all(Object.keys(resources).map(async (path) => (await sim.fetch(path)).text()));
      const lost = sim.trace.events.filter((e) => e.type === 'packet-lost' || e.type === 'quic-datagram-dropped');
      expect(lost.length).toBeGreaterThan(0); // the seed keeps the test meaningful
      const all: [string, number][] = [];
      for (const e of sim.trace.events) numbers(e, `${e.type}#${e.seq}`, all);
      const noisy = all.filter(([path, n]) => !path.endsWith('.seq') && !whole(n));
      expect(noisy).toEqual([]);
      for (const e of sim.trace.events) expect(whole(e.at)).toBe(true);
      const har = sim.har();
      const harNumbers: [string, number][] = [];
      numbers(
        har.log.entries.map((e) => ({ time: e.time, timings: e.timings })),
        'har',
        harNumbers,
      );
      expect(harNumbers.filter(([, n]) => !whole(n))).toEqual([]);
    });
  }
});
