/**
 * Results at once, replay on demand (issue #27 items 2, 3 and 4): a finished run shows its final state with the
 * scrubber at the end, Play replays it from the start, a share link of a finished run reopens at its end, a
 * devtools action moves the view to the live end, and the controls bar stays compact at phone width.
 */
import { expect, test, type Page } from '@playwright/test';
import { decodeShareState } from '../src/playground/share/codec';
import { readShareHash } from '../src/playground/share/hash';
import { playground } from './helpers';
import { seriousViolations, settledCursor, vizPanel } from './viz-helpers';

async function runToFinish(page: Page, id: string) {
  const pg = playground(page, id);
  await pg.run.click();
  await expect(pg.output).toContainText('Finished in', { timeout: 60_000 });
  // A phone shows one of Code / Output / Timeline at a time; a run opens Output.
  const timeline = pg.root.getByRole('tab', { name: 'Timeline', exact: true });
  if (await timeline.isVisible()) await timeline.click();
  const viz = vizPanel(pg.root);
  await expect(viz.panel).toBeVisible();
  return { pg, viz };
}

test('"Seven ways to load one page": Compare shows the final result at once, scrubber at the end; Play replays from the start', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/http/connections/');
  const { viz } = await runToFinish(page, 'compare-page-load');
  await viz.panel.getByRole('tab', { name: 'Compare', exact: true }).click();
  const total = await viz.total();
  expect(total).toBeGreaterThan(1000);
  // Nothing plays by itself: the scrubber is at the end and every simulation has its page-load time.
  await expect.poll(() => viz.cursor()).toBe(total - 1);
  await expect(viz.play).toBeVisible();
  await expect(viz.pause).toHaveCount(0);
  await expect(viz.panel.getByText(`${total} / ${total}`)).toBeVisible();
  const verdict = viz.tabpanel.getByTestId('compare-verdict');
  await expect(verdict).toContainText(/^Fastest: .+ \([\d.,]+ (ms|s)\)$/);
  const loads = viz.tabpanel.locator('td[data-col="load"]');
  expect(await loads.count()).toBe(7);
  for (const text of await loads.allTextContents()) expect(text).toMatch(/^[\d.,]+ (ms|s)$/);
  const finalVerdict = await verdict.textContent();

  // Play starts over from step 0, and the replay ends on the same final result.
  await viz.play.click();
  await expect(viz.pause).toBeVisible();
  expect(await viz.cursor()).toBeLessThan(total - 1);
  expect(await settledCursor(viz)).toBe(total - 1);
  await expect(verdict).toHaveText(finalVerdict!);
  // Step still goes one step at a time.
  await viz.stepBack.click();
  expect(await viz.cursor()).toBe(total - 2);
});

test('a share link of a finished run names no step, and Run from it opens at the end', async ({ page, context }) => {
  await page.goto('/http/overview/');
  const { pg, viz } = await runToFinish(page, 'hello-wire');
  const total = await viz.total();
  await expect.poll(() => viz.cursor()).toBe(total - 1);
  await pg.share.click();
  await expect(pg.root.getByRole('status').last()).toContainText(/characters/);
  const url = await page.evaluate(() => navigator.clipboard.readText());
  const decoded = await decodeShareState(readShareHash(new URL(url).hash)!.encoded);
  expect(decoded.ok && decoded.state.step).toBeUndefined();

  const other = await context.newPage();
  await other.goto(url);
  const again = playground(other, 'hello-wire');
  await expect(again.root.getByRole('status').first()).not.toContainText('step');
  const { viz: viz2 } = await runToFinish(other, 'hello-wire');
  await expect.poll(() => viz2.cursor()).toBe(total - 1);
  await expect(viz2.play).toBeVisible();
});

test('devtools: Refetch moves the view to the live end and the new call shows; Offline shows its state', async ({ page }) => {
  await page.goto('/query/queries/');
  const { viz } = await runToFinish(page, 'query-states');
  await viz.panel.getByRole('tab', { name: 'Query devtools' }).click();
  await viz.tabpanel.getByRole('button', { name: /'flaky'/ }).click();
  const details = viz.tabpanel.getByRole('region', { name: 'Query details' });
  await expect(details).toContainText('calls: 3');
  // Scrubbed back into the past, as a reader looking around would be: the query is there, its data not yet.
  const before = await viz.total();
  const middle = Math.floor(before / 2);
  await viz.slider.fill(String(middle));
  expect(await viz.cursor()).toBe(middle);
  await expect(details).not.toContainText('calls: 3');

  await details.getByRole('button', { name: 'Refetch' }).click();
  // The action's events arrive and the view follows them: at the live end, with the fourth call's data.
  await expect.poll(() => viz.total()).toBeGreaterThan(before);
  await expect(details).toContainText('calls: 4');
  await expect.poll(async () => (await viz.cursor()) === (await viz.total()) - 1).toBe(true);

  const offline = viz.tabpanel.getByRole('checkbox', { name: 'Offline' });
  await expect(offline).not.toBeChecked();
  await viz.slider.fill(String(middle));
  await offline.check();
  await expect(offline).toBeChecked();
  await expect.poll(async () => (await viz.cursor()) === (await viz.total()) - 1).toBe(true);
  // Scrubbed back to before it went offline: the toggle still shows the live client, and the step's own state is said.
  await viz.slider.fill(String(middle));
  await expect(offline).toBeChecked();
  await expect(viz.tabpanel.getByTestId('devtools-then')).toHaveText('At the step shown: online, window focused.');
  // Play replays to the end; the toggle still says offline, and unchecking brings the client back online.
  await viz.play.click();
  await settledCursor(viz);
  await expect(offline).toBeChecked();
  await offline.uncheck();
  await expect(offline).not.toBeChecked();
  await expect(viz.tabpanel.getByTestId('devtools-then')).toHaveCount(0);
});

for (const width of [1280, 390]) {
  test(`the controls bar at ${width} px: compact, every target at least 24 px, axe clean`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/http/overview/');
    const { viz } = await runToFinish(page, 'hello-wire');
    const bar = viz.panel.getByRole('group', { name: 'Playback' });
    await expect(bar).toBeVisible();
    const box = (await bar.boundingBox())!;
    const rows = new Set<number>();
    const controls = {
      play: viz.play,
      stepBack: viz.stepBack,
      stepForward: viz.stepForward,
      slider: viz.slider,
      speed: viz.speed,
      exportJson: viz.exportJson,
      exportHar: viz.exportHar,
    };
    for (const [name, control] of Object.entries(controls)) {
      const b = (await control.boundingBox())!;
      expect(b.width, name).toBeGreaterThanOrEqual(24);
      expect(b.height).toBeGreaterThanOrEqual(24);
      expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
      rows.add(Math.round(b.y + b.height / 2));
    }
    // One row on a desktop, two short ones on a phone (rows that differ by a few px are one row).
    const distinct = [...rows].sort((a, b) => a - b).filter((y, i, all) => i === 0 || y - all[i - 1]! > 8);
    expect(distinct.length).toBe(width >= 1024 ? 1 : 2);
    expect(box.height).toBeLessThanOrEqual(width >= 1024 ? 56 : 104);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // Keyboard: Tab reaches the transport buttons in order, and Space plays.
    await viz.play.focus();
    await page.keyboard.press('Tab');
    await expect(viz.stepBack).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Space');
    await expect(viz.pause).toBeVisible();
    await page.keyboard.press('Space');
    await expect(viz.play).toBeVisible();
    expect(await seriousViolations(page, `[data-playground-id="hello-wire"] [role="group"][aria-label="Playback"]`)).toEqual([]);
  });
}
