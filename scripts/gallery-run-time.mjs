// @ts-check
/**
 * Wall time of every gallery example's run in the browser (issue #22, item 9: each within 2 s). A script, not a
 * test: it prints numbers. The check that cannot flake is src/playground/gallery/virtual-clock.test.ts (every
 * example completes on the virtual clock with no real timer); this says what a reader waits, per example.
 *
 * For each example listed at /playground/ it opens /playground/<id>/, presses Run and reads the run's own
 * "Finished in N ms." line (the island's clock, from Run to the sandbox's 'done'). A cold page each time, so the
 * figure includes starting the sandbox.
 *
 * Usage: start a preview, then E2E_PORT=<port> npx node scripts/gallery-run-time.mjs
 */
import { loadavg } from 'node:os';
import { BASE, launch } from './viz-shared.mjs';

const GOAL_MS = 2000;
const TIMEOUT_MS = 30_000;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

console.log(`load average before: ${load()}`);
const browser = await launch();
let over = 0;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${BASE}/playground/`);
  const ids = await page.locator('[data-example]').evaluateAll((links) => links.map((a) => /** @type {HTMLElement} */ (a).dataset.example ?? ''));
  await page.close();
  console.log(`${ids.length} examples; ms from Run to the run's end, as the playground reports it (goal: <= ${GOAL_MS} ms)`);
  for (const id of ids) {
    const tab = await context.newPage();
    await tab.goto(`${BASE}/playground/${id}/`);
    const root = tab.locator(`[data-playground-id="${id}"]`);
    await root.getByRole('button', { name: 'Run', exact: true }).click();
    const line = await root
      .getByRole('log')
      .locator('.rt-status, .rt-failure')
      .first()
      .textContent({ timeout: TIMEOUT_MS })
      .catch(() => null);
    const ms = Number(/Finished in (\d+) ms/.exec(line ?? '')?.[1] ?? NaN);
    if (!(ms <= GOAL_MS)) over++;
    console.log(
      `  ${id.padEnd(28)} ${Number.isNaN(ms) ? `no "Finished" line: ${line ?? 'nothing within 30 s'}` : `${String(ms).padStart(6)} ms${ms > GOAL_MS ? '  OVER' : ''}`}`,
    );
    await tab.close();
  }
} finally {
  await browser.close();
  console.log(`load average after: ${load()}`);
}
console.log(over === 0 ? `Every example finished within ${GOAL_MS} ms.` : `${over} example(s) did not finish within ${GOAL_MS} ms.`);
process.exitCode = over === 0 ? 0 : 1;
