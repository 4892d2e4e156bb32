/**
 * 2,000 requests over one simulated HTTP/3 connection, the HTTP/3 counterpart of
 * src/wire/http2/sim.bench.ts: fetch -> HTTP/3 client (QPACK, HTTP/3 frames, QUIC streams, recovery)
 * -> simulated UDP on the virtual clock -> mock server -> back, every packet and stream transition traced.
 * The issue sets no goal for it; it prints the CPU time per run and the median, measured as the HTTP/2
 * bench does (two warm-up runs, then RUNS runs timed with process.cpuUsage). No assertion on time.
 * Measured (Nov 2026, Node 24, shared 2-core machine): median 565-591 ms CPU per 2,000 requests, down
 * from 690-717 ms, once the QUIC sender stopped scanning every stream the connection ever had for each
 * packet it packs (connection.ts #maybeReady): that scan made a long connection quadratic.
 * Serialising every datagram to bytes (quic-codec.ts) cost nothing measurable: two paired runs before and
 * after, 385 / 387 ms and 398 / 381 ms median CPU.
 * QPACK's dynamic table with its encoder and decoder streams (#31 item 5) against the static-only QPACK before
 * it, six paired runs (median ms CPU, after / before): 353 / 296, 462 / 315, 393 / 359, 441 / 361, 363 / 369,
 * 359 / 298: 1.0-1.5x, about 1.2x typically, on a machine other work shared.
 * Run: npx vitest bench --run src/wire/http3/sim.bench.ts
 */
import { test } from 'vitest';
import { importBundled } from '../../testing/bench-build';
import { describeCpuRuns, measureCpuRuns } from '../../testing/cpu-runs';

// Bundled, as it ships (see src/testing/bench-build.ts).
const { createSimulation: create, http, createServer } = await importBundled<typeof import('../index')>('src/wire/index.ts');

// Local binding: module exports are getters in the test runner; a hot path should not pay for them.
const createSimulation = create;
const REQUESTS = 2_000;
const WARMUP = 2;
const RUNS = 5;

async function run(): Promise<{ events: number; virtualMs: number }> {
  const server = createServer({ routes: [http.get('/items/:id', (_r, { params }) => Response.json({ id: params.id }))] });
  const sim = createSimulation({ httpVersion: '3', server, rtt: 20, bandwidth: 100_000_000 });
  const responses = await Promise.all(Array.from({ length: REQUESTS }, (_, i) => sim.fetch(`/items/${i}`)));
  let ok = 0;
  for (const r of responses) if (r.status === 200) ok++;
  if (ok !== REQUESTS) throw new Error(`only ${ok} of ${REQUESTS} requests succeeded`);
  if (sim.trace.ofType('quic-connection-opening').length !== 1) throw new Error('expected one connection');
  return { events: sim.trace.events.length, virtualMs: sim.clock.now() };
}

test(`${REQUESTS} requests over one simulated HTTP/3 connection`, { timeout: 600_000 }, async () => {
  const result = await measureCpuRuns(run, { warmup: WARMUP, runs: RUNS });
  const stats = result.last;
  console.log(
    `HTTP/3 simulation, ${REQUESTS} requests over one connection (${stats.events} trace events, ${stats.virtualMs.toFixed(1)} virtual ms):\n` +
      describeCpuRuns(result, 'no goal'),
  );
});
