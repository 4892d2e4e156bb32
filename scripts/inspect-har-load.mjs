// @ts-check
/**
 * Drops a generated 10 MB HAR (5,380 entries, the size issue #30 item 3 reported) on /inspect/ in headless
 * Chromium and prints how long the main thread was blocked while it loaded: every Long Animation Frame
 * (PerformanceObserver 'long-animation-frame'), the longest one, and the time from the drop to the waterfall
 * listing every entry. Goal (issue #30): no frame over 200 ms. A script, not a test: it prints numbers, because
 * a frame's length depends on the machine and on what else runs on it.
 *
 * The HAR is built here, deterministically, from the Chromium fixture's four entries: each copy gets its own
 * URL, start time, status (200, 304, 404, 500) and type (document, stylesheet, script, JSON, image, font), so
 * the waterfall's filters have something to sort. The file reaches the page the way a reader's does: a drop
 * event whose DataTransfer holds a File, on the page outside the text box.
 *
 * With --detail it prints each long frame's script attribution (Chromium's LoAF `scripts`: the function, its
 * source and how long it ran) and its style-and-layout time.
 *
 * Usage: build and preview the site (npm run build && npm run preview -- --port 4341), then
 *   E2E_PORT=4341 npx node scripts/inspect-har-load.mjs [--detail] [--entries N] [--before-waking] [--on-box] [--then Sequence,Messages]
 * --before-waking drops the file before the inspector's island has hydrated (the page must keep the drop);
 * --on-box drops it on the text box instead of the page's heading.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE, launch } from './viz-shared.mjs';

const BUDGET_MS = 200;
const DETAIL = process.argv.includes('--detail');
const EARLY = process.argv.includes('--before-waking');
const ON_BOX = process.argv.includes('--on-box');
const entriesArg = process.argv.indexOf('--entries');
const ENTRIES = entriesArg > 0 ? Number(process.argv[entriesArg + 1]) : 5380;
const viewArg = process.argv.indexOf('--then');
/** Views to open after the Waterfall (--then Sequence,Messages), each measured the same way. */
const VIEWS = viewArg > 0 ? (process.argv[viewArg + 1] ?? '').split(',').filter(Boolean) : [];

/** A HAR of `count` entries, about 2,000 bytes each, varied as a real page's are. @param {number} count */
export function bigHar(count) {
  const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '../src/playground/inspect/fixtures/chromium.har'), 'utf8'));
  const [doc, css, json] = fixture.log.entries;
  const kinds = [
    { base: doc, path: (/** @type {number} */ i) => `/page/${i}.html`, mime: 'text/html; charset=utf-8', dest: 'document' },
    { base: css, path: (/** @type {number} */ i) => `/static/style-${i}.css`, mime: 'text/css', dest: 'style' },
    { base: json, path: (/** @type {number} */ i) => `/static/app-${i}.js`, mime: 'text/javascript', dest: 'script' },
    { base: json, path: (/** @type {number} */ i) => `/api/todos/${i}`, mime: 'application/json', dest: 'empty' },
    { base: json, path: (/** @type {number} */ i) => `/img/photo-${i}.png`, mime: 'image/png', dest: 'image' },
    { base: json, path: (/** @type {number} */ i) => `/fonts/inter-${i}.woff2`, mime: 'font/woff2', dest: 'font' },
  ];
  const statuses = [200, 200, 200, 200, 200, 200, 304, 200, 404, 200, 200, 500];
  const t0 = Date.parse(doc.startedDateTime);
  const entries = [];
  for (let i = 0; i < count; i++) {
    const kind = /** @type {(typeof kinds)[number]} */ (kinds[i % kinds.length]);
    const e = structuredClone(kind.base);
    const url = new URL(e.request.url);
    url.pathname = kind.path(i);
    e.request.url = url.href;
    // Six requests at a time, 4 ms apart, on six connections: a page's worth of traffic.
    e.startedDateTime = new Date(t0 + Math.floor(i / 6) * 4 + (i % 6) / 2).toISOString();
    e.connection = String(1000 + (i % 6));
    e.response.status = statuses[i % statuses.length];
    e.response.content.mimeType = kind.mime;
    e.request.headers = e.request.headers.map((/** @type {{name: string, value: string}} */ h) =>
      /^sec-fetch-dest$/i.test(h.name) ? { ...h, value: kind.dest } : h,
    );
    e.response.headers = e.response.headers.map((/** @type {{name: string, value: string}} */ h) =>
      /^content-type$/i.test(h.name) ? { ...h, value: kind.mime } : h,
    );
    entries.push(e);
  }
  return JSON.stringify({ ...fixture, log: { ...fixture.log, entries } });
}

const text = bigHar(ENTRIES);
console.log(`HAR: ${ENTRIES.toLocaleString('en')} entries, ${(text.length / 1e6).toFixed(1)} MB`);

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  await page.addInitScript(() => {
    /** @type {any[]} */
    const loafs = [];
    Object.assign(window, { __loafs: loafs });
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          const f = /** @type {any} */ (e);
          loafs.push({
            start: f.startTime,
            duration: f.duration,
            blocking: f.blockingDuration,
            layout: f.styleAndLayoutStart > 0 ? f.startTime + f.duration - f.styleAndLayoutStart : 0,
            scripts: (f.scripts ?? []).map((/** @type {any} */ s) => ({
              duration: Math.round(s.duration),
              what: `${s.invoker || s.invokerType} ${s.sourceFunctionName || ''} ${(s.sourceURL || '').split('/').pop()}:${s.sourceCharPosition}`,
            })),
          });
        }
      }).observe({ type: 'long-animation-frame', buffered: true });
    } catch {
      console.log('no long-animation-frame entries in this browser');
    }
  });
  await page.goto(`${BASE}/inspect/`);
  await page.waitForLoadState('networkidle');
  if (!EARLY) {
    // Wake the island the way a reader's pointer does, and wait until it is awake (React owns the text box).
    await page.locator('#rt-inspect-input').hover();
    await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'), undefined, { timeout: 60_000 });
  }
  // The 10 MB string crosses into the page before the clock starts: that copy is the test's, not the page's.
  await page.evaluate((t) => Object.assign(window, { __har: new File([t], 'big.har', { type: 'application/json' }) }), text);
  await page.waitForTimeout(500);
  const t0 = await page.evaluate((onBox) => {
    const file = /** @type {File} */ (/** @type {any} */ (window).__har);
    const data = new DataTransfer();
    data.items.add(file);
    const target = (onBox ? document.querySelector('#rt-inspect-input') : document.querySelector('main h1')) ?? document.body;
    const now = performance.now();
    for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
    return now;
  }, ON_BOX);
  const expected = `${ENTRIES.toLocaleString('en')} requests`;
  const done = await page.waitForFunction(
    (want) => {
      const s = document.querySelector('[data-testid="waterfall-summary"]')?.textContent ?? '';
      return s.replace(/,/g, '').includes(want.replace(/,/g, '')) ? performance.now() : false;
    },
    expected,
    { timeout: 180_000, polling: 'raf' },
  );
  const t1 = /** @type {number} */ (await done.jsonValue());
  // Whatever the page does right after the result (the panel settling) counts too.
  await page.waitForTimeout(1500);
  const summary = await page.getByTestId('waterfall-summary').textContent();
  const rows = await page.locator('.rt-tl-waterfall tbody tr[data-request-id]').count();
  /** @type {{start: number, duration: number, blocking: number, layout: number, scripts: {duration: number, what: string}[]}[]} */
  const loafs = (await page.evaluate(() => /** @type {any} */ (window).__loafs)).filter((/** @type {{start: number}} */ l) => l.start >= t0 - 50);
  const longest = loafs.reduce((m, l) => Math.max(m, l.duration), 0);
  console.log(`time to result: ${Math.round(t1 - t0)} ms (drop to "${expected}" in the waterfall)`);
  console.log(`waterfall: "${summary?.trim()}", ${rows} rows in the DOM`);
  console.log(
    `long animation frames: ${loafs.length} (over ${BUDGET_MS} ms: ${loafs.filter((l) => l.duration > BUDGET_MS).length}), longest ${Math.round(longest)} ms`,
  );
  if (DETAIL) {
    for (const l of loafs.sort((a, b) => b.duration - a.duration).slice(0, 12)) {
      console.log(`  ${Math.round(l.duration)} ms at +${Math.round(l.start - t0)} ms (style and layout ${Math.round(l.layout)} ms)`);
      for (const s of l.scripts.sort((a, b) => b.duration - a.duration).slice(0, 4)) console.log(`    ${s.duration} ms ${s.what}`);
    }
  }
  console.log(longest > BUDGET_MS ? `over the ${BUDGET_MS} ms budget` : `within the ${BUDGET_MS} ms budget`);
  for (const view of VIEWS) {
    // Another view of the same reading: the tab pressed, then the longest frame until it has settled.
    const t2 = await page.evaluate(() => performance.now());
    await page.getByRole('tab', { name: view, exact: true }).click();
    await page.getByRole('tabpanel', { name: view }).waitFor({ timeout: 120_000 });
    await page.waitForTimeout(1500);
    const after = (await page.evaluate(() => /** @type {any} */ (window).__loafs)).filter((/** @type {{start: number}} */ l) => l.start >= t2 - 50);
    const worst = after.reduce((/** @type {number} */ m, /** @type {{duration: number}} */ l) => Math.max(m, l.duration), 0);
    console.log(`${view} view opened: ${after.length} long animation frames, longest ${Math.round(worst)} ms`);
  }
} finally {
  await browser.close();
}
