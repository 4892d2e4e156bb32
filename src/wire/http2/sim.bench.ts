/**
 * 10,000 requests over one simulated HTTP/2 connection, through the whole path: fetch -> HTTP/2 client
 * engine (HPACK, frame codec, stream table, flow control) -> simulated TCP on the virtual clock -> mock
 * server engine and handler -> back, with every frame traced (bytes, byte ranges, HPACK steps). The goal
 * (issue #4) is at most 1 s of CPU, judged on the median of the measured runs. No assertion on time:
 * machines differ.
 *
 * How it measures: two warm-up runs (the first leaves the JIT half done), then RUNS measured runs, each
 * timed with process.cpuUsage (user + system, so GC helper threads count too) and wall time. It prints
 * every run, the medians, and GC pause time as a share of CPU (PerformanceObserver 'gc' entries: pauses
 * on the main thread; concurrent marking on helper threads is in the CPU time but not in that share).
 *
 * Where the time goes (Nov 2026, Node 24, on a 2-core machine shared with other jobs: load average 5-10
 * throughout, so single runs moved by +-20%). Before this round the median was 1165 ms CPU (runs 1380, 1121,
 * 1481, 1165, 1045, at a quieter moment); after it, 1050-1170 ms under that load (e.g. 1385, 1050, 1254,
 * 1030, 992). The old and new bundles run alternately under the same load gave medians of 1218 / 1235 / 1097
 * ms before and 1162 / 1129 / 1129 ms after: about 7% less, not yet the goal.
 *
 * About a quarter of the CPU is garbage collection: a run allocates ~480 MB and keeps ~105 MB alive to the
 * end, 70 MB of it the 204,000 trace events (7 KB per request: 20 events, the HPACK steps and decoded
 * fields, the frames' bytes) and 30 MB the 10,000 Responses, each with its undici body stream. A fifth is
 * undici itself: building the mock server's Request, the handler's Response.json, reading its body, and the
 * Response the client hands back (its body stream alone is ~7%). The HTTP/2 tracer (sim/http2/trace.ts) is under a
 * tenth: parsing each direction once, decoding each field block once more to annotate it (~2%, plus ~2%
 * freezing the steps), building the events; HPACK encoding ~5%; the engines, TCP and the simulation's
 * driving loop share the rest in small pieces.
 *
 * What this round cut: the tracer's events are built whole and frozen shallowly (emitPrebuilt in
 * trace/trace.ts; what they point to is frozen once, shared), its per-frame field records and flag/layout
 * lookups are shared or keyed by numbers, frames are parsed as views instead of copies, a trace with no
 * listener no longer copies its listener set per event, and the mock server builds GET Requests without the
 * method member. Allocation per run went from 537 MB to 483 MB.
 *
 * The round after (Nov 22): the tracer takes the sending encoder's HPACK steps instead of decoding each
 * block again (checked byte for byte; HpackDecoder.follow keeps its table in step), and the field lists
 * are shared: the request's list is one frozen array for request-sent, both ends' HEADERS events,
 * message-parsed and request-finished, and the response's entries likewise (Http2Tracer.receivedBlock).
 * The per-request events go through emitPrebuilt with their parts frozen by a loop instead of the generic
 * deep freeze; the client's request queue shifts in O(1) (Array.shift copied the 10,000-entry queue
 * whenever the GC was marking); the mock server appends the request's fields to its Request instead of
 * passing a list of pairs through WebIDL, and reads the handler's body with bytes(); header lookups and
 * path parameters stop allocating; DATA frames are views; layout keys are small integers; binaryString
 * copies frame-sized inputs to a plain array before String.fromCharCode.apply. Traces are
 * byte-identical to before (GET, POST, flow-control stall, push, errors, loss, odd header text and table
 * sizes, and HTTP/1.1 and HTTP/3 runs, which share the server and header code). Allocation per run:
 * 477 -> 457 MB; live at the end: 105 -> 96 MB. Old and new bundles run alternately in one process, 14-20
 * pairs at a time, load average 5-13: medians 1023 -> 972, 1049 -> 991, 1070 -> 984, 1167 -> 1059 and
 * one noisy 1044 -> 1066 ms (medians of paired ratios 0.93, 0.93, 0.93, 0.92, 0.99); the bench itself
 * read 984 ms (runs 883-1230) in a quiet moment, 1035 ms at load 10. About 7% less: at the goal on a
 * quiet machine, not reliably under it.
 *
 * The third round (Nov 22): the HTTP/2 engine hands out received payloads (DATA, field block fragments)
 * as views of its receive buffer instead of copying each into an ArrayBuffer of its own (the buffer now
 * never writes over bytes it has shown, so the views stay valid: receive-buffer.ts); the driver waits for
 * the server's handlers with a count and one promise instead of Promise.allSettled over a copy of their
 * set after every clock step; the flat per-request events (request-started, -queued, -dispatched,
 * response-started, server-handled) skip the deep freeze; both ends drop pseudo-headers with a loop
 * instead of a filter closure; the mock server builds its handlers' base URL once per origin and Host.
 * Traces byte-identical to before on the same 11 scenarios; allocation per run 456 -> 447 MB. Old and
 * new bundles alternately, load 4-8: 16 pairs 0.951 (median of paired ratios; the loop, the base URL
 * and the driver only), 14 rounds 0.926 (adding the views), then all of it twice, 18 pairs
 * each: 0.905 and 0.903 (medians 1014 -> 910 and 1033 -> 921 ms, load up to 10), about 10% less. The
 * bench read 966 ms (runs 862-1098) at load 6-7, with wall times showing the contention.
 *
 * What is left is hard to cut without changing what the run must produce. --trace-gc shows why GC is a
 * quarter of the CPU: every ~60 MB of allocation a scavenge keeps 15-20 MB, because nearly everything a
 * request leaves behind is retained to the end (its 20 trace events with their frame strings and HPACK
 * steps, and the Response the bench holds), and each scavenge of that costs 15-70 ms; the churn itself is
 * cheap. A heap snapshot after a run finds nothing else of size alive: of ~106 MB, the trace and the
 * Responses' undici state (streams, controllers, per-instance closures). The HPACK handover measured
 * ~6 ms per run (encode + decodeAnnotated 32 ms vs encodeAnnotated + follow 27 ms for 20,000 blocks),
 * not the 3% hoped: the engine's own decode stays. undici's body streams
 * are ~20% (a byte ReadableStream for the handler's Response.json, reading it, another for the Response
 * fetch returns; a Response without a body costs a twentieth of one with), and the Fetch contract fixes
 * them. Next candidates, each around 1%: Object.freeze (still ~5% in all: every event, step and field
 * entry; sharing more entries between events is what helps), the stream-state table's nested Map
 * lookups, and the driver's 16 microtask turns per clock step (the awaits themselves now: they are what
 * lets a caller's continuation start its next fetch at the same instant). validateFieldBlock is ~2% on
 * its own: every character of every field, on both ends, sending and receiving, as RFC 9113 §8.2.1 asks.
 * Run: npx vitest bench --run src/wire/http2/sim.bench.ts
 */
import { test } from 'vitest';
import { importBundled } from '../../testing/bench-build';
import { describeCpuRuns, measureCpuRuns } from '../../testing/cpu-runs';

// Bundled, as it ships and as the peers load from their dist files (see src/testing/bench-build.ts).
const { createSimulation: create, http, createServer } = await importBundled<typeof import('../index')>('src/wire/index.ts');

// Local binding: module exports are getters in the test runner; a hot path should not pay for them.
const createSimulation = create;
const REQUESTS = 10_000;
const WARMUP = 2;
const RUNS = 5;

interface RunStats {
  readonly events: number;
  readonly frames: number;
  readonly virtualMs: number;
}

async function run(): Promise<RunStats> {
  const server = createServer({ routes: [http.get('/items/:id', (_r, { params }) => Response.json({ id: params.id }))] });
  const sim = createSimulation({ httpVersion: '2', server, rtt: 20, bandwidth: 100_000_000 });
  const responses = await Promise.all(Array.from({ length: REQUESTS }, (_, i) => sim.fetch(`/items/${i}`)));
  let ok = 0;
  for (const r of responses) if (r.status === 200) ok++;
  if (ok !== REQUESTS) throw new Error(`only ${ok} of ${REQUESTS} requests succeeded`);
  if (sim.trace.ofType('connection-opening').length !== 1) throw new Error('expected one connection');
  return { events: sim.trace.events.length, frames: sim.trace.ofType('h2-frame').length, virtualMs: sim.clock.now() };
}

test(`${REQUESTS} requests over one simulated HTTP/2 connection`, { timeout: 600_000 }, async () => {
  const result = await measureCpuRuns(run, { warmup: WARMUP, runs: RUNS });
  const stats = result.last;
  console.log(
    `HTTP/2 simulation, ${REQUESTS} requests over one connection (${stats.frames} frames, ${stats.events} trace events, ` +
      `${stats.virtualMs.toFixed(1)} virtual ms):\n` +
      describeCpuRuns(result, 'goal <= 1000 ms'),
  );
});
