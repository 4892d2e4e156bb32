/**
 * Every request completes, with the right body, over a lossy link: HTTP/3 (QUIC recovery, RFC 9002) and
 * HTTP/2 and HTTP/1.1 (the TCP model) across seeds and loss rates. Regression for an HTTP/3 run that never
 * finished at loss 0.02 and 0.1: the QUIC loss timer fired at exactly sent time + loss delay, but loss
 * detection compared `sentAt <= now - delay`, which floating-point rounding can make false at that instant,
 * so the timer re-armed at the same virtual time forever (recovery.ts now uses one sum for both).
 */
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../sim/index';
import type { SimHttpVersion } from './index';
import { createServer, http } from '../server/index';

const body = (id: number, size: number): string => `${id}:`.padEnd(size, String.fromCharCode(97 + (id % 26)));

/** A small mix: JSON, a 30 KB body, and a POST echo with a 5 KB request body. */
const server = () =>
  createServer({
    routes: [
      http.get('/json/:id', (_r, { params }) => Response.json({ id: Number(params.id) })),
      http.get('/big/:id', (_r, { params }) => new Response(body(Number(params.id), 30_000))),
      http.post('/echo', async (req) => new Response(await req.text())),
    ],
  });

async function runMix(httpVersion: SimHttpVersion, loss: number, seed: number): Promise<void> {
  const sim = createSimulation({ httpVersion, server: server(), loss, seed, rtt: 20 });
  const where = `HTTP/${httpVersion}, loss ${loss}, seed ${seed}`;
  const jobs = [0, 1, 2, 3, 4, 5].map(async (i) => {
    if (i === 2 || i === 5) {
      const text = await (await sim.fetch(`/big/${i}`)).text();
      expect(text, `${where}: /big/${i}`).toBe(body(i, 30_000));
    } else if (i === 4) {
      const sent = body(i, 5_000);
      const text = await (await sim.fetch('/echo', { method: 'POST', body: sent })).text();
      expect(text, `${where}: POST /echo`).toBe(sent);
    } else {
      expect(await (await sim.fetch(`/json/${i}`)).json(), `${where}: /json/${i}`).toEqual({ id: i });
    }
  });
  await Promise.all(jobs);
  expect(sim.trace.ofType('request-finished'), where).toHaveLength(6);
}

/** Each row takes well under a second; the margin is for a machine shared with builds (no speed is tested). */
const LOADED_MACHINE_TIMEOUT = 30_000;
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const LOSSES = [0.02, 0.05, 0.1, 0.2];

describe.each(['3', '2', '1.1'] as const)('HTTP/%s over a lossy link', (version) => {
  it.each(LOSSES)(
    'completes every request at loss %s, seeds 1-20',
    async (loss) => {
      for (const seed of SEEDS) await runMix(version, loss, seed);
    },
    LOADED_MACHINE_TIMEOUT,
  );
});

describe('the reported HTTP/3 stall', () => {
  // The stall was reported at seed 3 for both rates. Since QUIC delays its ACKs (issue #32 item 10) seed 3 at
  // 0.02 finds all 27 of its losses by packet threshold, so the time-threshold path is reached with seed 1 (5 of
  // its 19 detections); at 0.1, seed 3 still takes it (16 of 28).
  it.each([
    [0.02, 1],
    [0.1, 3],
  ])(
    '100 requests (one in ten 30 KB) at loss %s, seed %s, all complete',
    async (loss, seed) => {
      const big = (id: string) => ({ id, pad: 'x'.repeat(30_000) });
      const sim = createSimulation({
        httpVersion: '3',
        loss,
        seed,
        rtt: 20,
        server: createServer({
          routes: [http.get('/items/:id', (_r, { params }) => Response.json(Number(params.id) % 10 === 0 ? big(params.id!) : { id: params.id }))],
        }),
      });
      const bodies = await Promise.all(Array.from({ length: 100 }, async (_, i) => (await sim.fetch(`/items/${i}`)).json()));
      for (const [i, b] of bodies.entries()) expect(b).toEqual(i % 10 === 0 ? big(String(i)) : { id: String(i) });
      // Before the fix the server's loss timer spun at one instant (466.09 ms at loss 0.02): it was the time-threshold path.
      expect(sim.trace.ofType('quic-packets-lost').some((e) => e.reason === 'time-threshold')).toBe(true);
    },
    LOADED_MACHINE_TIMEOUT,
  );
});

describe('the loss matrix is not vacuous', () => {
  it('drops data and recovers by both time and packet threshold (HTTP/3, loss 0.1, seed 3)', async () => {
    const sim = createSimulation({ httpVersion: '3', server: server(), loss: 0.1, seed: 3, rtt: 20 });
    await Promise.all([1, 2, 3].map(async (i) => (await sim.fetch(`/big/${i}`)).text()));
    expect(sim.trace.ofType('quic-datagram-dropped').length).toBeGreaterThan(0);
    const reasons = new Set(sim.trace.ofType('quic-packets-lost').map((e) => e.reason));
    expect(reasons).toEqual(new Set(['packet-threshold', 'time-threshold']));
  });
});
