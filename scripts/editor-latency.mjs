// @ts-check
/**
 * How soon a reader who clicks into a playground's code can type, and how soon the editor completes after a `.`
 * (issue #22, item 11). A script, not a test: it prints numbers.
 *
 * Each run is a cold page in a fresh browser context (empty HTTP cache, nothing hydrated): the reader clicks on
 * a line of the "Hello, wire" snippet, and the script notes, in the page's own clock from the click's timestamp,
 * the first frame in which
 * - editable: focus is in something that takes typing inside the code panel (a textarea, or a contenteditable
 *   element), so a key pressed now is not lost;
 * - light editor: the light editor's textarea (editor/lite.ts) has focus;
 * - coloured: the light editor's colour layer (editor/paint.ts) shows tokens;
 * - Monaco: the Monaco editor's lines are on screen.
 * Once Monaco shows, the script types `sim` on a new last line and then `.`, and notes
 * - completion: ms from the `.` key's own timestamp to the first frame showing the suggestion list with rows
 *   (goal: at most 500 ms), measured from the moment Monaco appeared, as a reader who starts typing there would.
 * From the editor's own User Timing marks (editor/upgrade.ts), when the page has them:
 * - worker warm: ms from the click until the TypeScript worker had checked the snippet once;
 * - and per run whether Monaco replaced the light editor before that ("cold": it hit the safety cap), which is
 *   what splits the completion times into two groups.
 *
 * Prints median and p95 (with few runs, p95 is the slowest) per series, and the load average before and after.
 *
 * With --phone: a 390 x 844 touch screen (no Monaco there): a tap on the line, and only the light editor's times.
 *
 * Usage: start a preview, then E2E_PORT=<port> npx node scripts/editor-latency.mjs [runs, default 9] [--phone]
 */
import { loadavg } from 'node:os';
import { BASE, launch, PAGE, percentile, PLAYGROUND_ID } from './viz-shared.mjs';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log('Usage: E2E_PORT=<port of a running preview> npx node scripts/editor-latency.mjs [runs, default 9] [--phone]');
  process.exit(0);
}
const PHONE = process.argv.includes('--phone');
const runsArg = process.argv.slice(2).find((a) => !a.startsWith('--'));
const RUNS = Number(runsArg ?? 9);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`editor-latency: runs must be a positive integer, got "${runsArg}"`);
const COMPLETION_GOAL_MS = 500;
/** Longer than anything here should take on a loaded machine; a run past it counts as this long. */
const TIMEOUT_MS = 20_000;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** In the page: a rAF loop that stamps the first frame at which each condition holds, from the click on the code. */
const CLICK_PROBE = (/** @type {string} */ id) => {
  const root = /** @type {HTMLElement} */ (document.querySelector(`[data-playground-id="${id}"]`));
  const w = /** @type {any} */ (window);
  w.__rtEditor = { clickedAt: 0, editable: NaN, lite: NaN, coloured: NaN, monaco: NaN };
  root.addEventListener(
    'click',
    (event) => {
      if (w.__rtEditor.clickedAt || !(/** @type {Element} */ (event.target).closest('.rt-code'))) return;
      w.__rtEditor.clickedAt = event.timeStamp;
    },
    { capture: true },
  );
  const frame = () => {
    const r = w.__rtEditor;
    if (r.clickedAt) {
      const active = document.activeElement;
      const takesTyping = active instanceof HTMLTextAreaElement || (active instanceof HTMLElement && active.isContentEditable);
      if (Number.isNaN(r.editable) && takesTyping && root.contains(active) && active.getClientRects().length > 0) r.editable = performance.now() - r.clickedAt;
      if (Number.isNaN(r.lite) && active instanceof HTMLTextAreaElement && active.classList.contains('rt-lite-input')) r.lite = performance.now() - r.clickedAt;
      if (Number.isNaN(r.coloured) && root.querySelector('.rt-lite-paint span')) r.coloured = performance.now() - r.clickedAt;
      const lines = root.querySelector('.rt-editor .monaco-editor .view-lines');
      if (Number.isNaN(r.monaco) && lines && lines.getClientRects().length > 0 && lines.textContent) r.monaco = performance.now() - r.clickedAt;
      if (!Number.isNaN(r.editable) && !Number.isNaN(r.monaco)) return;
      if (w.__rtPhone && !Number.isNaN(r.editable) && !Number.isNaN(r.coloured)) return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
};

/** In the page: the editor's User Timing marks (editor/upgrade.ts), in ms from the click; NaN where absent. */
const MARKS_PROBE = () => {
  const r = /** @type {any} */ (window).__rtEditor;
  const at = (/** @type {string} */ name) => performance.getEntriesByName(name, 'mark')[0];
  const warm = /** @type {PerformanceMark | undefined} */ (at('roundtrip:editor-warm'));
  const upgrade = /** @type {PerformanceMark | undefined} */ (at('roundtrip:editor-upgrade'));
  return {
    // A worker the editor gave up on (detail.failed) never got warm.
    warm: warm && !warm.detail?.failed ? warm.startTime - r.clickedAt : NaN,
    warmAtUpgrade: upgrade ? Boolean(upgrade.detail?.warm) : undefined,
  };
};

/** In the page: ms from the `.` keydown to the first frame showing the suggestion list with rows. */
const DOT_PROBE = (/** @type {[string, number]} */ [id, timeoutMs]) => {
  const root = /** @type {HTMLElement} */ (document.querySelector(`[data-playground-id="${id}"]`));
  /** @type {any} */ (window).__rtSuggest = new Promise((resolve) => {
    setTimeout(() => resolve(timeoutMs), timeoutMs);
    let typedAt = 0;
    document.addEventListener('keydown', (event) => void (event.key === '.' && !typedAt && (typedAt = event.timeStamp)), { capture: true });
    const frame = () => {
      if (typedAt && root.querySelector('.suggest-widget.visible .monaco-list-row')) return resolve(performance.now() - typedAt);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
};

console.log(`load average before: ${load()}`);
const browser = await launch();
/** @type {{ editable: number, lite: number, coloured: number, monaco: number, completion: number, warm: number, warmAtUpgrade: boolean | undefined }[]} */
const runs = [];
/** The times present in every run's `key`, and how many runs lacked it. */
const present = (/** @type {'lite' | 'coloured'} */ key) => runs.map((r) => r[key]).filter((x) => !Number.isNaN(x));
const show = (/** @type {string} */ name, /** @type {number[]} */ xs) =>
  console.log(
    `${name.padEnd(34)} median ${percentile(xs, 50).toFixed(0).padStart(5)} ms   p95 ${percentile(xs, 95).toFixed(0).padStart(5)}   (${xs.map((x) => x.toFixed(0)).join(', ')})`,
  );
try {
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext(
      PHONE ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } },
    );
    const page = await context.newPage();
    await page.goto(`${BASE}${PAGE}`);
    await page.evaluate(CLICK_PROBE, PLAYGROUND_ID);
    const root = page.locator(`[data-playground-id="${PLAYGROUND_ID}"]`);
    // A click on a line of the code, as a reader who wants to change it would.
    const line = root.locator('.rt-code .line', { hasText: 'const sim = createSimulation' });
    if (PHONE) {
      await page.evaluate(() => {
        /** @type {any} */ (window).__rtPhone = true;
      });
      await line.tap();
      const done = await page
        .waitForFunction(
          () => {
            const r = /** @type {any} */ (window).__rtEditor;
            return !Number.isNaN(r.lite) && !Number.isNaN(r.coloured) && r;
          },
          undefined,
          { timeout: TIMEOUT_MS, polling: 50 },
        )
        .then((handle) => handle.jsonValue())
        .catch(() => ({ editable: TIMEOUT_MS, lite: TIMEOUT_MS, coloured: TIMEOUT_MS }));
      runs.push({ editable: done.editable, lite: done.lite, coloured: done.coloured, monaco: NaN, completion: NaN, warm: NaN, warmAtUpgrade: undefined });
      await context.close();
      continue;
    }
    await line.click();
    const ready = await page
      .waitForFunction(
        () => {
          const r = /** @type {any} */ (window).__rtEditor;
          return !Number.isNaN(r.monaco) && r;
        },
        undefined,
        { timeout: TIMEOUT_MS, polling: 50 },
      )
      .then((handle) => handle.jsonValue())
      .catch(() => ({ editable: TIMEOUT_MS, monaco: TIMEOUT_MS }));
    await page.evaluate(DOT_PROBE, /** @type {[string, number]} */ ([PLAYGROUND_ID, TIMEOUT_MS]));
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('\nsim');
    await page.keyboard.press('.');
    const completion = await page.evaluate(() => /** @type {any} */ (window).__rtSuggest);
    const marks = await page.evaluate(MARKS_PROBE);
    const editable = Number.isNaN(ready.editable) ? ready.monaco : ready.editable;
    runs.push({ editable, lite: ready.lite ?? NaN, coloured: ready.coloured ?? NaN, monaco: ready.monaco, completion, ...marks });
    await context.close();
  }
  console.log(`${BASE}${PAGE} ${PLAYGROUND_ID}: cold page, fresh browser context each run, ${RUNS} runs${PHONE ? ', phone (390 x 844, touch)' : ''}`);
  show(
    'click into code -> editable',
    runs.map((r) => r.editable),
  );
  for (const [key, name] of /** @type {const} */ ([
    ['lite', 'click into code -> light editor'],
    ['coloured', 'click into code -> light editor coloured'],
  ])) {
    const xs = present(key);
    if (xs.length > 0) show(name, xs);
    if (xs.length < RUNS) console.log(`  (${RUNS - xs.length} of ${RUNS} runs had no ${key === 'lite' ? 'light editor' : 'colours'} before Monaco)`);
  }
  // No Monaco on a phone: nothing more to time there.
  if (!PHONE) {
    show(
      'click into code -> Monaco visible',
      runs.map((r) => r.monaco),
    );
    show(
      "'.' typed in Monaco -> suggestions",
      runs.map((r) => r.completion),
    );
    const warms = runs.map((r) => r.warm).filter((x) => !Number.isNaN(x));
    if (warms.length > 0) show('click into code -> worker warm', warms);
    if (runs.some((r) => r.warmAtUpgrade !== undefined)) {
      const group = (/** @type {boolean} */ warm) => runs.filter((r) => r.warmAtUpgrade === warm).map((r) => r.completion.toFixed(0));
      console.log(
        `Monaco shown with the worker warm in ${group(true).length} of ${RUNS} runs (completions ${group(true).join(', ') || '-'} ms); before it was warm in ${group(false).length} (completions ${group(false).join(', ') || '-'} ms)`,
      );
    }
    const median = percentile(
      runs.map((r) => r.completion),
      50,
    );
    console.log(`goal: first completion within ${COMPLETION_GOAL_MS} ms of Monaco appearing -> ${median <= COMPLETION_GOAL_MS ? 'met' : 'NOT met'} (median)`);
  }
} finally {
  await browser.close();
  console.log(`load average after: ${load()}`);
}
