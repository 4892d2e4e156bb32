/**
 * The timeline views on real docs pages: the seven-way page load on "Connection management" (Compare,
 * Waterfall, Sequence), and HTTP/2 against HTTP/3 on a lossy link on the HTTP/3 page.
 */
import { expect, test, type Page } from '@playwright/test';
import { playground } from './helpers';
import { seriousViolations, vizPanel } from './viz-helpers';

async function runToEnd(page: Page, id: string) {
  const pg = playground(page, id);
  await pg.run.click();
  const viz = vizPanel(pg.root);
  await expect(viz.panel).toBeVisible();
  await expect(pg.output).toContainText('Finished in', { timeout: 60_000 });
  // A finished run shows its end, where every event is visible (Pause, in case a replay is running).
  if (await viz.pause.isVisible()) await viz.pause.click();
  await viz.slider.focus();
  await page.keyboard.press('End');
  return { pg, viz };
}

async function openTab(viz: ReturnType<typeof vizPanel>, name: string) {
  await viz.panel.getByRole('tab', { name, exact: true }).click();
  await expect(viz.tabpanel.locator('.rt-empty', { hasText: /^Loading/ })).toHaveCount(0);
}

/** "label: 1234 ms (...)" lines the snippet printed. */
async function printedRuns(output: import('@playwright/test').Locator): Promise<{ label: string; ms: number }[]> {
  const text = (await output.textContent()) ?? '';
  return [...text.matchAll(/(HTTP\/[^:\n]+?): (\d+) ms \(/g)].map((m) => ({ label: m[1]!, ms: Number(m[2]) }));
}

test('the page-load comparison: every run labelled with its numbers, the fastest marked, each run in detail', async ({ page }) => {
  await page.goto('/http/connections/');
  const id = 'compare-page-load';
  const { pg, viz } = await runToEnd(page, id);
  const runs = await printedRuns(pg.output);
  expect(runs).toHaveLength(7);

  await openTab(viz, 'Compare');
  const table = viz.tabpanel.getByRole('table', { name: 'Simulations compared' });
  const rows = table.locator('tbody tr[data-source-id]');
  await expect(rows).toHaveCount(7);
  for (const [i, run] of runs.entries()) {
    await expect(rows.nth(i).locator('th')).toContainText(run.label);
    // The view's load time is the time the snippet printed (it rounds; the view shows whole ms past 100).
    await expect(rows.nth(i).locator('[data-col="load"]')).toHaveText(`${run.ms.toLocaleString('en-US')} ms`);
  }
  const fastest = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  await expect(table.locator('tr[data-source-id].is-fastest th')).toHaveText(`${fastest.label}Fastest`);
  expect(await seriousViolations(page, `[data-playground-id="${id}"] [role="tabpanel"]`)).toEqual([]);

  // Waterfall of the six-connection run: nine requests over six connections, timing details by keyboard.
  await openTab(viz, 'Waterfall');
  await viz.tabpanel.getByRole('combobox', { name: 'Simulation' }).selectOption({ label: 'HTTP/1.1, 6 connections' });
  const requests = viz.tabpanel.locator('tbody tr[data-request-id]');
  await expect(requests).toHaveCount(9);
  const connections = new Set(await requests.locator('td:nth-child(5)').allTextContents());
  expect(connections.size).toBe(6);
  const first = viz.tabpanel.getByRole('button', { name: '/index.html' });
  await first.focus();
  await page.keyboard.press('Enter');
  const details = viz.tabpanel.getByRole('region', { name: /Timing of GET \/index\.html/ });
  await expect(details.getByRole('rowheader', { name: 'Initial connection' })).toBeVisible();
  await expect(details.locator('tr[data-phase="ssl"] td').last()).toHaveText(/^\d+(\.\d)? ms$/);
  expect(await seriousViolations(page, `[data-playground-id="${id}"] [role="tabpanel"]`)).toEqual([]);

  // Sequence of the short-lived run: clicking an arrow moves the player's cursor to it.
  await openTab(viz, 'Sequence');
  await viz.tabpanel.getByRole('combobox', { name: 'Simulation' }).selectOption({ label: 'HTTP/1.0, a new connection per request' });
  const arrows = viz.tabpanel.locator('.rt-tl-arrow');
  const all = await arrows.count();
  expect(all).toBeGreaterThan(50);
  // The hybrid key share makes the ClientHello two segments (1,448 + 57 bytes), sent together: the second,
  // "TLS ClientHello (continued)", is drawn over the first, so it is the one a pointer reaches.
  const request = viz.tabpanel.getByRole('button', { name: /c1 client to server, TLS ClientHello \(continued\)/ });
  const before = await viz.cursor();
  await request.click();
  await expect.poll(() => viz.cursor()).toBeLessThan(before);
  await expect(request).toHaveAttribute('aria-current', 'step');
  // At that step only what happened so far is drawn: the SYN, SYN-ACK, ACK and the ClientHello's two segments.
  await expect(arrows).toHaveCount(5);
  await viz.stepForward.click();
  await viz.slider.focus();
  await page.keyboard.press('End');
  await expect(arrows).toHaveCount(all);
  expect(await seriousViolations(page, `[data-playground-id="${id}"] [role="tabpanel"]`)).toEqual([]);

  // Enter on a focused arrow does the same as a click.
  await request.focus();
  await page.keyboard.press('ArrowDown');
  const next = viz.tabpanel.locator('[data-item]:focus');
  const target = await next.getAttribute('aria-label');
  await page.keyboard.press('Enter');
  await expect(viz.tabpanel.locator('[aria-current="step"]')).toHaveAttribute('aria-label', target!);
});

test('HTTP/2 and HTTP/3 on a lossy link: the lost packets counted in Compare are the ones Sequence draws', async ({ page }) => {
  await page.goto('/http/http3/');
  const id = 'http3-loss';
  const { viz } = await runToEnd(page, id);
  await openTab(viz, 'Compare');
  const rows = viz.tabpanel.locator('tbody tr[data-source-id]');
  await expect(rows.locator('th')).toHaveText(
    ['HTTP/2, no loss', 'HTTP/2, 10% loss', 'HTTP/3, no loss', 'HTTP/3, 10% loss'].map((l) => new RegExp(`^${l.replace('/', '\\/')}`)),
  );
  const lost = (await rows.locator('[data-col="lost"]').allTextContents()).map(Number);
  expect(lost[0]).toBe(0);
  expect(lost[2]).toBe(0);
  expect(lost[1]! + lost[3]!).toBeGreaterThan(0);

  await openTab(viz, 'Sequence');
  for (const [i, label] of [
    [1, 'HTTP/2, 10% loss'],
    [3, 'HTTP/3, 10% loss'],
  ] as const) {
    await viz.tabpanel.getByRole('combobox', { name: 'Simulation' }).selectOption({ label });
    await expect(viz.tabpanel.locator('.rt-tl-arrow.is-lost')).toHaveCount(lost[i]!);
    await expect(viz.tabpanel.locator('.rt-tl-arrow.is-lost .rt-tl-lost-mark')).toHaveCount(lost[i]!);
  }
  expect(await seriousViolations(page, `[data-playground-id="${id}"] [role="tabpanel"]`)).toEqual([]);
});
