/**
 * 10,000 requests over one simulated HTTP/2 connection, through the whole path: fetch -> HTTP/2 client
 * engine (HPACK, frame codec, stream table, flow control) -> simulated TCP on the virtual clock -> mock
 * server engine and handler -> back, with every frame traced (bytes, byte ranges, HPACK steps). Prints
 * the CPU time of one run; the goal is at most 1 s. No assertion on time: machines differ.
 * Where the time goes (Nov 2026, profiled): about a quarter is garbage collection (the trace keeps
 * ~200,000 frozen events alive, and the run holds 10,000 Responses), a sixth the Fetch objects (undici's
 * Request, Response, Headers and body streams, on the client and in the mock server), an eighth the
 * trace (the two ends of a connection share one parse and HPACK decode of each frame, sim-trace.ts);
 * the HTTP/2 engines, HPACK and TCP share the rest. Vitest 5 counts every read of an imported binding
 * in bench mode, so the modules on this path bind their imports locally.
 * Run: npx vitest bench --run src/wire/http2
 */
import { test } from 'vitest';
import { importBundled } from '../../testing/bench-build';

// Bundled, as it ships and as the peers load from their dist files (see src/testing/bench-build.ts).
const { createSimulation: create, http, createServer } = await importBundled<typeof import('../index')>('src/wire/index.ts');

// Local binding: module exports are getters in the test runner; a hot path should not pay for them.
const createSimulation = create;
const REQUESTS = 10_000;

async function run(): Promise<{ events: number; frames: number; virtualMs: number }> {
  const server = createServer({ routes: [http.get('/items/:id', (_r, { params }) => Response.json({ id: params.id }))] });
  const sim = createSimulation({ httpVersion: '2', server, rtt: 20, bandwidth: 100_000_000 });
  const responses = await Promise.all(Array.from({ length: REQUESTS }, (_, i) => sim.fetch(`/items/${i}`)));
  let ok = 0;
  for (const r of responses) if (r.status === 200) ok++;
  if (ok !== REQUESTS) throw new Error(`only ${ok} of ${REQUESTS} requests succeeded`);
  if (sim.trace.ofType('connection-opening').length !== 1) throw new Error('expected one connection');
  return { events: sim.trace.events.length, frames: sim.trace.ofType('h2-frame').length, virtualMs: sim.clock.now() };
}

test(`${REQUESTS} requests over one simulated HTTP/2 connection`, { timeout: 300_000 }, async ({ bench }) => {
  await run(); // warm up the JIT
  const before = process.cpuUsage();
  const stats = await run();
  const used = process.cpuUsage(before);
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `HTTP/2 simulation: ${REQUESTS} requests, one connection: ${cpuMs.toFixed(0)} ms CPU (goal <= 1000 ms); ` +
      `${stats.frames} frames and ${stats.events} trace events; ${stats.virtualMs.toFixed(1)} virtual ms`,
  );
  const result = await bench('10,000 requests over HTTP/2', async () => {
    await run();
  }).run({ iterations: 3, time: 0 });
  console.log(`HTTP/2 simulation: mean ${result.latency.mean.toFixed(0)} ms wall per 10,000 requests`);
});
