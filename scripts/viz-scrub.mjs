// @ts-check
/**
 * Scrubs a 1,000+ event trace through every step, in every visualizer view, and reports frame times from the
 * Performance API. Goal (issue #8): no frame over 50 ms. A script, not a test: it prints numbers.
 *
 * The snippet (BIG_TRACE_SNIPPET: 32 HTTP/2 requests with loss) goes into the HTTP overview's playground through
 * a share link; after Run the script pauses the player and, for each view tab, moves the step slider one step
 * per animation frame from the first step to the last, the way a drag does. Per view it reports:
 * - rAF deltas (time between consecutive frames while scrubbing): max, p50, p95, p99 and how many exceed 50 ms;
 * - Long Animation Frames (PerformanceObserver 'long-animation-frame', Chromium): count and the longest.
 *
 * With --detail it also splits the LoAF time: how much ran as script (and in which functions, by the
 * attribution Chromium gives: source function name and URL) and how much went to style and layout, which tells
 * React work apart from the browser's layout work without a profiler.
 *
 * With --profile it records a CPU profile (Chrome DevTools Protocol, Profiler domain) of each view's scrub and
 * prints the functions with the most self time. On a minified build the names are mangled; a build with
 * `vite.build.minify: false` names them.
 *
 * With --cpu it also traces the renderer's main thread (Chrome DevTools Protocol, Tracing domain) and reports
 * the CPU time of its longest tasks (trace events' thread time, `tdur`). A loaded machine stretches wall-clock
 * frame gaps and LoAFs with time the thread spent waiting for a core; thread time leaves that out, so it is the
 * number to compare before and after a change when other work shares the machine. CPU ms/frame is the main
 * thread's CPU time over the scrub divided by the frames scrubbed.
 *
 * With --query it does the same with BIG_QUERY_SNIPPET (twenty observed queries, 1,000+ query events) in the
 * query overview's playground, which measures the query views (devtools, event timeline, timers) and the query
 * state machines. A query-only run is not replayed, so the script waits for it to finish instead of pausing.
 *
 * Usage: start a server (npm run preview -- --port 4341, or npm run dev -- --port 4341), then
 *   E2E_PORT=4341 npx node scripts/viz-scrub.mjs [--query] [max steps] [view ids...]    (or RT_BASE_URL=http://host:port)
 * A view that takes longer than MAX_SECONDS_PER_VIEW is cut short (reported with the frames it got through).
 */
import {
  BASE,
  BIG_QUERY_SNIPPET,
  BIG_TRACE_SNIPPET,
  launch,
  PAGE,
  percentile,
  PLAYGROUND_ID,
  QUERY_PAGE,
  QUERY_PLAYGROUND_ID,
  shareHash,
} from './viz-shared.mjs';

const BUDGET_MS = 50;
const MAX_SECONDS_PER_VIEW = 60;
const QUERY = process.argv.includes('--query');
const DETAIL = process.argv.includes('--detail');
const PROFILE = process.argv.includes('--profile');
const CPU = process.argv.includes('--cpu');
const ARGS = process.argv.slice(2).filter((a) => !['--query', '--detail', '--profile', '--cpu'].includes(a));
const MAX_STEPS = Number(ARGS[0] ?? Infinity);
const ONLY = ARGS.slice(1);
const TARGET = QUERY
  ? { page: QUERY_PAGE, id: QUERY_PLAYGROUND_ID, snippet: BIG_QUERY_SNIPPET }
  : { page: PAGE, id: PLAYGROUND_ID, snippet: BIG_TRACE_SNIPPET };

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('crash', () => console.log('the page crashed'));
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  await page.goto(`${BASE}${TARGET.page}${await shareHash(TARGET.id, TARGET.snippet)}`);
  const root = page.locator(`[data-playground-id="${TARGET.id}"]`);
  await root.getByRole('button', { name: 'Run', exact: true }).click();
  const panel = root.getByTestId('viz-panel');
  await panel.waitFor({ timeout: 60_000 });
  const slider = panel.getByRole('slider', { name: 'Step' });
  if (QUERY) {
    // Finished when the snippet's last line is printed and the step count stops growing.
    await root
      .getByText(/\d+ fetches/)
      .first()
      .waitFor({ timeout: 60_000 });
    let max = -1;
    for (let same = 0; same < 4; ) {
      await page.waitForTimeout(500);
      const now = Number(await slider.getAttribute('max'));
      same = now === max ? same + 1 : 0;
      max = now;
    }
  } else {
    const pause = panel.getByRole('button', { name: 'Pause', exact: true });
    await pause.waitFor({ timeout: 60_000 });
    await pause.click();
  }
  const steps = Number(await slider.getAttribute('max')) + 1;
  console.log(`${TARGET.page} ${TARGET.id}: ${steps} steps recorded`);
  if (steps < 1000) console.log(`warning: fewer than 1,000 steps; the goal is about a 1,000-event trace`);

  const tabs = panel.getByRole('tab');
  const tabCount = await tabs.count();
  /** @type {{ view: string, frames: number, max: number, p50: number, p95: number, p99: number, over: number, loafs: number, loafMax: number, cpuMax: number, cpuOver: number, cpuPerFrame: number }[]} */
  const rows = [];
  for (let t = 0; t < Math.max(tabCount, 1); t++) {
    let view = '(no view)';
    if (tabCount > 0) {
      if (ONLY.length > 0 && !ONLY.includes((await tabs.nth(t).getAttribute('data-view')) ?? '')) continue;
      await tabs.nth(t).click();
      view = (await tabs.nth(t).textContent()) ?? `tab ${t}`;
      // Let the view's chunk load and draw once before measuring.
      await page.waitForFunction(() => !document.querySelector('[role="tabpanel"] .rt-empty')?.textContent?.startsWith('Loading'));
    }
    const cdp = PROFILE || CPU ? await page.context().newCDPSession(page) : undefined;
    /** @type {TraceEvent[]} */
    const trace = [];
    if (cdp && CPU) {
      cdp.on('Tracing.dataCollected', (d) => trace.push(.../** @type {TraceEvent[]} */ (/** @type {unknown} */ (d.value))));
      await cdp.send('Tracing.start', { categories: 'toplevel,__metadata', transferMode: 'ReportEvents' });
    }
    if (cdp && PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const result = await page.evaluate(
      async ({ id, steps, seconds }) => {
        const input = /** @type {HTMLInputElement} */ (document.querySelector(`[data-playground-id="${id}"] [data-testid="viz-panel"] input[type="range"]`));
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        /** @type {number[]} */
        const loafs = [];
        // Where the LoAF time went: script (by function) against style and layout (renderStart onwards).
        const split = { script: 0, layout: 0, /** @type {Record<string, number>} */ by: /** @type {Record<string, number>} */ ({}) };
        /** @type {PerformanceObserver | undefined} */
        let observer;
        try {
          observer = new PerformanceObserver((list) =>
            list.getEntries().forEach((entry) => {
              loafs.push(entry.duration);
              const e = /** @type {any} */ (entry);
              if (e.styleAndLayoutStart > 0) split.layout += e.startTime + e.duration - e.styleAndLayoutStart;
              for (const s of e.scripts ?? []) {
                split.script += s.duration;
                const name = `${s.invoker ?? ''} ${s.sourceFunctionName || '(anonymous)'} @${String(s.sourceURL ?? '')
                  .split('/')
                  .pop()}:${s.sourceCharPosition ?? ''}`;
                split.by[name] = (split.by[name] ?? 0) + s.duration;
              }
            }),
          );
          observer.observe({ type: 'long-animation-frame', buffered: false });
        } catch {
          // No LoAF in this browser: rAF deltas still tell.
        }
        const set = (/** @type {number} */ v) => {
          setValue?.call(input, String(v));
          input.dispatchEvent(new Event('input', { bubbles: true }));
        };
        set(0);
        await frame();
        /** @type {number[]} */
        const deltas = [];
        let last = /** @type {number} */ (await frame());
        const deadline = performance.now() + seconds * 1000;
        for (let step = 1; step < steps && performance.now() < deadline; step++) {
          set(step);
          const now = /** @type {number} */ (await frame());
          deltas.push(now - last);
          last = now;
        }
        await frame();
        observer?.disconnect();
        return { deltas, loafs, split, end: Number(input.value) };
      },
      { id: TARGET.id, steps: Math.min(steps, MAX_STEPS), seconds: MAX_SECONDS_PER_VIEW },
    );
    if (cdp && PROFILE) printProfile(view, (await cdp.send('Profiler.stop')).profile);
    const cpu = cdp && CPU ? await mainThreadTasks(cdp, trace) : [];
    const target = Math.min(steps, MAX_STEPS) - 1;
    if (result.end !== target) console.log(`warning: ${view}: cut short after ${MAX_SECONDS_PER_VIEW} s at step ${result.end} of ${target}`);
    rows.push({
      view,
      frames: result.deltas.length,
      max: Math.max(...result.deltas),
      p50: percentile(result.deltas, 50),
      p95: percentile(result.deltas, 95),
      p99: percentile(result.deltas, 99),
      over: result.deltas.filter((d) => d > BUDGET_MS).length,
      loafs: result.loafs.length,
      loafMax: result.loafs.length ? Math.max(...result.loafs) : 0,
      cpuMax: cpu.length ? Math.max(...cpu) : NaN,
      cpuOver: cpu.filter((ms) => ms > BUDGET_MS).length,
      cpuPerFrame: cpu.reduce((a, b) => a + b, 0) / Math.max(result.deltas.length, 1),
    });
    if (DETAIL && result.loafs.length > 0) {
      const top = Object.entries(result.split.by)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6);
      console.log(
        `${view}: LoAF time ${result.loafs.reduce((a, b) => a + b, 0).toFixed(0)} ms = script ${result.split.script.toFixed(0)} ms + style/layout ${result.split.layout.toFixed(0)} ms (+ the rest: paint, idle)`,
      );
      for (const [name, ms] of top) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
    }
  }
  const f = (/** @type {number} */ x) => x.toFixed(1).padStart(7);
  const cpuHead = CPU ? `  max task CPU ms  tasks >${BUDGET_MS}ms CPU  CPU ms/frame` : '';
  console.log(`\nview              frames   p50 ms   p95 ms   p99 ms   max ms  >${BUDGET_MS}ms  LoAFs  longest LoAF ms${cpuHead}`);
  for (const r of rows) {
    const cpuCols = CPU ? `  ${f(r.cpuMax).padStart(15)}  ${String(r.cpuOver).padStart(17)}  ${f(r.cpuPerFrame).padStart(12)}` : '';
    console.log(
      `${r.view.padEnd(16)} ${String(r.frames).padStart(7)} ${f(r.p50)}  ${f(r.p95)}  ${f(r.p99)}  ${f(r.max)} ${String(r.over).padStart(6)} ${String(r.loafs).padStart(6)} ${f(r.loafMax).padStart(16)}${cpuCols}`,
    );
  }
  const worst = Math.max(...rows.map((r) => r.max));
  console.log(`\nworst frame: ${worst.toFixed(1)} ms (goal: none over ${BUDGET_MS} ms) -> ${worst <= BUDGET_MS ? 'met' : 'NOT met'}`);
} finally {
  await browser.close();
}

/** @typedef {{ name: string, ph: string, pid: number, tid: number, dur?: number, tdur?: number, args?: { name?: string } }} TraceEvent */

/**
 * Ends the trace and returns the thread (CPU) time, in ms, of each task the page's main thread ran: the busiest
 * renderer main thread (the sandbox's iframe, when it is out of process, has its own and idles while scrubbing).
 * @param {import('@playwright/test').CDPSession} cdp @param {TraceEvent[]} trace
 */
async function mainThreadTasks(cdp, trace) {
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await complete;
  const mains = new Set(trace.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  /** @type {Map<string, number[]>} */
  const tasks = new Map();
  for (const e of trace) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' || !mains.has(thread)) continue;
    tasks.set(thread, [...(tasks.get(thread) ?? []), (e.tdur ?? 0) / 1000]);
  }
  const sum = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0);
  return [...tasks.values()].sort((a, b) => sum(b) - sum(a))[0] ?? [];
}

/**
 * Self time per function over a whole profile (each sample charged to the node on top of the stack), the
 * heaviest first; `(idle)` and `(program)` show how much of the scrub was not our script.
 * @param {string} view @param {{ nodes: { id: number, callFrame: { functionName: string, url: string, lineNumber: number } }[], samples?: number[], timeDeltas?: number[] }} profile
 */
function printProfile(view, profile) {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  /** @type {Map<string, number>} */
  const self = new Map();
  let total = 0;
  (profile.samples ?? []).forEach((id, i) => {
    const f = frames.get(id);
    const ms = (profile.timeDeltas?.[i] ?? 0) / 1000;
    total += ms;
    const name = f ? `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}` : '?';
    self.set(name, (self.get(name) ?? 0) + ms);
  });
  console.log(`${view}: CPU profile, ${total.toFixed(0)} ms sampled; most self time:`);
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
}
