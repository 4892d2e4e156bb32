// @ts-check
/**
 * Time from clicking Run to the first trace event drawn in the visualizer panel. Goal (issue #7): median at
 * most 150 ms. A script, not a test: it prints numbers.
 *
 * "Drawn": the panel shows a recorded step (its step line names an event) and the browser has rendered a frame
 * with it (the next requestAnimationFrame after the DOM change). Timed in the page from the click's own
 * timestamp, so Playwright's round trips do not count.
 *
 * Series on the HTTP overview's "Hello, wire" playground:
 * - cold click: a fresh page each time and the pointer jumps onto Run and clicks at once, so the click also
 *   wakes the island (client:interaction), whose directive opens the sandbox iframe at that moment and, on the
 *   press, starts the page's compiled snippet in it (the island takes that run over once hydrated), and loads
 *   the panel's code (from the HTTP cache after the first page). The worst case: nothing had a chance to warm up;
 * - hover, click: a fresh page where the pointer arrives on Run and clicks after a human-like pause (HOVER_MS);
 *   the pointer entering the playground is intent: the directive opens the sandbox (the page that loads the
 *   runtime core and the chunks the page's snippet imports, sandbox/chunks.mjs) while the island hydrates;
 * - after edit: a fresh page where the reader first clicked Edit (that wakes the island, which starts a sandbox
 *   in the background), then Run 2 s later;
 * - re-run: Run again, 2 s after the previous run, on a page that has run before (the host prepares the next
 *   sandbox after each run, so this measures what a reader who looked at the output gets);
 * - scrolled: a fresh page that the reader scrolls until the playground is in view (without the pointer going
 *   near it), reads for SCROLLED_WAIT_MS, then clicks Run: the directive warms the playground once it is in view
 *   and the main thread is idle (build/warm-on-view.ts). Goal (issue #22, item 12): median at most 150 ms.
 *
 * Each series prints its median and p95 (with few runs, p95 is the slowest run), and the machine's load average
 * is printed before and after: on a shared machine, compare numbers only from the same conditions. A run that
 * draws nothing within RUN_TIMEOUT_MS counts as that long rather than stalling the script.
 *
 * Usage: start a server (npm run preview -- --port 4341), then E2E_PORT=4341 npx node scripts/run-latency.mjs [runs]
 * [--only=scrolled,cold,hover,edit,rerun] (default 9 runs per series, every series; RT_BASE_URL overrides the
 * server address).
 */
import { loadavg } from 'node:os';
import { BASE, launch, PAGE, percentile, PLAYGROUND_ID } from './viz-shared.mjs';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log('Usage: E2E_PORT=<port of a running preview> npx node scripts/run-latency.mjs [runs per series, default 9]');
  process.exit(0);
}
const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const RUNS = Number(positional[0] ?? 9);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`run-latency: runs must be a positive integer, got "${positional[0]}"`);
const SERIES = ['scrolled', 'cold', 'hover', 'edit', 'rerun'];
const only =
  process.argv
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',') ?? SERIES;
for (const name of only) if (!SERIES.includes(name)) throw new Error(`run-latency: unknown series "${name}"; known: ${SERIES.join(', ')}`);
/** How long the reader who scrolled to the playground reads before pressing Run. */
const SCROLLED_WAIT_MS = 1000;
const GOAL_MS = 150;
const REREAD_MS = 2000;
/** How long a reader's pointer rests on Run before clicking (a deliberate click, not a reflex). */
const HOVER_MS = 300;
/** Longer than any run should take, even on a loaded machine; a run past it is reported, not waited for. */
const RUN_TIMEOUT_MS = 15_000;
/** @typedef {{ drawn: number, sandbox: number, hydrated: number }} Timing ms from the click: see PROBE */
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/**
 * Installs the probe: resolves with ms from the Run click to the first frame that shows a recorded step, and
 * to the load event of the first sandbox iframe created since the probe was installed (how much of the wait is
 * the sandbox realm starting; negative when it was ready before the click, NaN when none was created, as when a
 * spare prepared earlier ran), and to the island's hydration (Astro drops the island's `ssr` attribute once it
 * has hydrated; NaN when it had hydrated before the probe was installed). Frames are watched on the whole page
 * from the start: the directive opens the sandbox in a parking lot outside the playground, on the pointer's way
 * in, before the click. The first trace event can be drawn only once both the sandbox and the island are ready.
 */
const PROBE = (/** @type {[string, number]} */ [id, timeoutMs]) => {
  const root = /** @type {HTMLElement} */ (document.querySelector(`[data-playground-id="${id}"]`));
  /** @type {Promise<Timing>} */
  const done = new Promise((resolve) => {
    setTimeout(() => resolve({ drawn: timeoutMs, sandbox: NaN, hydrated: NaN }), timeoutMs);
    const island = root.closest('astro-island');
    /** performance.now() when the island hydrated; NaN when it had before the probe was installed. */
    let hydratedAt = NaN;
    if (island?.hasAttribute('ssr')) {
      new MutationObserver((_, self) => {
        if (island.hasAttribute('ssr')) return;
        hydratedAt = performance.now();
        self.disconnect();
      }).observe(island, { attributes: true, attributeFilter: ['ssr'] });
    }
    /** performance.now() at the load of the first sandbox frame created since the probe was installed. */
    let sandboxLoadedAt = NaN;
    let sandboxSeen = false;
    const existing = new Set(document.querySelectorAll('iframe'));
    new MutationObserver(() => {
      if (sandboxSeen) return;
      const frame = [...document.querySelectorAll('iframe')].find((f) => !existing.has(f));
      if (!frame) return;
      sandboxSeen = true;
      frame.addEventListener('load', () => (sandboxLoadedAt = performance.now()), { once: true });
    }).observe(document.body, { subtree: true, childList: true });
    let clickedAt = 0;
    /** A re-run replaces the panel: only the new run's step line counts. */
    let previous = /** @type {Element | null} */ (null);
    const drawn = () => {
      const now = root.querySelector('[data-testid="viz-panel"] .rt-viz-now');
      return !!now && now !== previous && !!now.textContent && !/^Nothing recorded|^Before the first/.test(now.textContent);
    };
    const observer = new MutationObserver(() => {
      if (!clickedAt || !drawn()) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve({ drawn: performance.now() - clickedAt, sandbox: sandboxLoadedAt - clickedAt, hydrated: hydratedAt - clickedAt }));
    });
    root.addEventListener(
      'click',
      (event) => {
        if (!clickedAt && /** @type {Element} */ (event.target).closest('[data-action="run"]')) {
          clickedAt = event.timeStamp;
          previous = root.querySelector('[data-testid="viz-panel"] .rt-viz-now');
          observer.observe(root, { subtree: true, childList: true, characterData: true });
        }
      },
      { capture: true },
    );
  });
  /** @type {any} */ (window).__rtFirstEvent = done;
};

/**
 * What a page that drew nothing within RUN_TIMEOUT_MS shows, printed so that a rare stall can be told apart:
 * a run that never started, one still running, one stopped by the watchdog, or a draw the probe did not see.
 * @param {import('@playwright/test').Page} page
 * @param {string} series
 */
async function explainTimeout(page, series) {
  const state = await page.evaluate((id) => {
    const root = document.querySelector(`[data-playground-id="${id}"]`);
    const text = (/** @type {string} */ sel) => root?.querySelector(sel)?.textContent?.trim().slice(0, 300) ?? '(none)';
    return {
      hydrated: !root?.closest('astro-island')?.hasAttribute('ssr'),
      wakeAction: /** @type {HTMLElement | null} */ (root)?.dataset.wakeAction ?? null,
      run: text('[data-action="run"]'),
      output: text('.rt-output'),
      panel: text('.rt-panel-timeline'),
      frames: document.querySelectorAll('iframe').length,
    };
  }, PLAYGROUND_ID);
  console.log(`  ${series}: nothing drawn within ${RUN_TIMEOUT_MS} ms; the page shows ${JSON.stringify(state)}`);
}
/** @param {import('@playwright/test').Page} page @param {string} series @param {Timing} timing */
const noteTimeout = async (page, series, timing) => {
  if (timing.drawn >= RUN_TIMEOUT_MS) await explainTimeout(page, series);
  return timing;
};

console.log(`load average before: ${load()}`);
const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  /** @type {Timing[]} */
  const scrolled = [];
  for (let i = 0; i < (only.includes('scrolled') ? RUNS : 0); i++) {
    const page = await context.newPage();
    await page.goto(`${BASE}${PAGE}`);
    await page.evaluate(PROBE, /** @type {[string, number]} */ ([PLAYGROUND_ID, RUN_TIMEOUT_MS]));
    // Scrolled by the page, not the wheel: the pointer stays where it was, away from the playground.
    await page.evaluate((id) => document.querySelector(`[data-playground-id="${id}"]`)?.scrollIntoView({ block: 'center' }), PLAYGROUND_ID);
    await page.waitForTimeout(SCROLLED_WAIT_MS);
    await page.locator(`[data-playground-id="${PLAYGROUND_ID}"] [data-action="run"]`).first().click();
    scrolled.push(await noteTimeout(page, 'scrolled', await page.evaluate(() => /** @type {any} */ (window).__rtFirstEvent)));
    await page.close();
  }
  /** @type {Timing[]} */
  const first = [];
  for (let i = 0; i < (only.includes('cold') ? RUNS : 0); i++) {
    const page = await context.newPage();
    await page.goto(`${BASE}${PAGE}`);
    await page.evaluate(PROBE, /** @type {[string, number]} */ ([PLAYGROUND_ID, RUN_TIMEOUT_MS]));
    await page.locator(`[data-playground-id="${PLAYGROUND_ID}"] [data-action="run"]`).first().click();
    first.push(await noteTimeout(page, 'cold click', await page.evaluate(() => /** @type {any} */ (window).__rtFirstEvent)));
    await page.close();
  }
  /** @type {Timing[]} */
  const hovered = [];
  for (let i = 0; i < (only.includes('hover') ? RUNS : 0); i++) {
    const page = await context.newPage();
    await page.goto(`${BASE}${PAGE}`);
    await page.evaluate(PROBE, /** @type {[string, number]} */ ([PLAYGROUND_ID, RUN_TIMEOUT_MS]));
    const runButton = page.locator(`[data-playground-id="${PLAYGROUND_ID}"] [data-action="run"]`).first();
    await runButton.hover();
    await page.waitForTimeout(HOVER_MS);
    await runButton.click();
    hovered.push(await noteTimeout(page, 'hover', await page.evaluate(() => /** @type {any} */ (window).__rtFirstEvent)));
    await page.close();
  }
  /** @type {Timing[]} */
  const afterEdit = [];
  for (let i = 0; i < (only.includes('edit') ? RUNS : 0); i++) {
    const page = await context.newPage();
    await page.goto(`${BASE}${PAGE}`);
    await page.locator(`[data-playground-id="${PLAYGROUND_ID}"] [data-action="edit"]`).first().click();
    await page.waitForTimeout(REREAD_MS);
    await page.evaluate(PROBE, /** @type {[string, number]} */ ([PLAYGROUND_ID, RUN_TIMEOUT_MS]));
    await page.locator(`[data-playground-id="${PLAYGROUND_ID}"] [data-action="run"]`).first().click();
    afterEdit.push(await noteTimeout(page, 'after edit', await page.evaluate(() => /** @type {any} */ (window).__rtFirstEvent)));
    await page.close();
  }
  /** @type {Timing[]} */
  const rerun = [];
  const page = await context.newPage();
  await page.goto(`${BASE}${PAGE}`);
  const run = page.locator(`[data-playground-id="${PLAYGROUND_ID}"] [data-action="run"]`).first();
  if (only.includes('rerun')) {
    await run.click();
    await page.getByTestId('viz-panel').waitFor();
  }
  for (let i = 0; i < (only.includes('rerun') ? RUNS : 0); i++) {
    await page.getByRole('button', { name: 'Run', exact: true }).waitFor();
    // A reader reads the output before running again; meanwhile the next sandbox gets ready (host.ts prewarm).
    await page.waitForTimeout(REREAD_MS);
    await page.evaluate(PROBE, /** @type {[string, number]} */ ([PLAYGROUND_ID, RUN_TIMEOUT_MS]));
    await run.click();
    rerun.push(await noteTimeout(page, 're-run', await page.evaluate(() => /** @type {any} */ (window).__rtFirstEvent)));
  }
  const show = (/** @type {string} */ name, /** @type {Timing[]} */ runs) => {
    if (runs.length === 0) return;
    const xs = runs.map((r) => r.drawn);
    const hydrations = runs.map((r) => r.hydrated).filter((x) => !Number.isNaN(x));
    const hydrated = percentile(hydrations, 50);
    const island =
      hydrations.length <= runs.length / 2
        ? ''
        : `; island hydrated ${Math.abs(hydrated).toFixed(0)} ms ${hydrated >= 0 ? 'after' : 'before'} the click (median)`;
    const loads = runs.map((r) => r.sandbox).filter((x) => !Number.isNaN(x));
    const loaded = percentile(loads, 50);
    const sandbox =
      loads.length <= runs.length / 2
        ? 'a sandbox prepared before the measurement started ran it (opened at an earlier intent, or the spare after a run)'
        : loaded >= 0
          ? `sandbox opened on the way in, loaded ${loaded.toFixed(0)} ms after the click (median)`
          : `sandbox opened on the way in, loaded ${(-loaded).toFixed(0)} ms before the click (median)`;
    console.log(
      `${name.padEnd(12)} median ${percentile(xs, 50).toFixed(0).padStart(4)} ms   p95 ${percentile(xs, 95).toFixed(0).padStart(4)}   min ${Math.min(...xs)
        .toFixed(0)
        .padStart(4)}   max ${Math.max(...xs)
        .toFixed(0)
        .padStart(4)}   ${sandbox}${island}   (${xs.map((x) => x.toFixed(0)).join(', ')})`,
    );
  };
  console.log(`${BASE}${PAGE} ${PLAYGROUND_ID}: Run -> first trace event drawn, ${RUNS} runs each`);
  show(`scrolled ${SCROLLED_WAIT_MS / 1000}s`, scrolled);
  show('cold click', first);
  show(`hover ${HOVER_MS}ms`, hovered);
  show('after edit', afterEdit);
  show('re-run', rerun);
  const median = (/** @type {{ drawn: number }[]} */ runs) =>
    percentile(
      runs.map((r) => r.drawn),
      50,
    );
  const verdict = (/** @type {{ drawn: number }[]} */ runs) => (median(runs) <= GOAL_MS ? 'met' : 'NOT met');
  const verdicts = /** @type {[string, Timing[]][]} */ ([
    ['scrolled, waited, clicked', scrolled],
    ['cold click', first],
    ['hover then click', hovered],
    ['after edit', afterEdit],
    ['re-run', rerun],
  ])
    .filter(([, runs]) => runs.length > 0)
    .map(([name, runs]) => `${name} ${verdict(runs)}`);
  console.log(`goal: median <= ${GOAL_MS} ms -> ${verdicts.join(', ')}`);
} finally {
  await browser.close();
  console.log(`load average after: ${load()}`);
}
