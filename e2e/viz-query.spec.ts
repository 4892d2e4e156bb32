/**
 * The query views on a real docs page: the "Errors and retries" page's retry-timeline playground runs a query
 * that fails twice, then succeeds, with short staleTime, gcTime and refetchInterval.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { encodeShareState } from '../src/playground/share/codec';
import { formatShareHash } from '../src/playground/share/hash';
import { playground } from './helpers';
import { seriousViolations, vizPanel } from './viz-helpers';

const PAGE = '/query/errors/';
const ID = 'retry-timeline';
const SNIPPET = readFileSync('content/snippets/query-retry-timeline.ts', 'utf8');

async function open(page: Page, code?: string) {
  if (code) {
    const hash = formatShareHash({ id: ID, encoded: await encodeShareState({ code }) });
    await page.goto(`${PAGE}${hash}`);
  } else {
    await page.goto(PAGE);
  }
  const pg = playground(page, ID);
  await pg.run.click();
  const viz = vizPanel(pg.root);
  await expect(viz.panel).toBeVisible();
  const tab = (name: string) => viz.panel.getByRole('tab', { name, exact: true });
  return { pg, viz, tab };
}

test('the event timeline shows each retry with its delay; timers count down; axe is clean', async ({ page }) => {
  // Three axe scans of a long docs page take 5-15 s each on a loaded 2-core machine.
  test.setTimeout(150_000);
  const { viz, tab } = await open(page);
  await tab('Event timeline').click();
  const events = viz.tabpanel.getByRole('list', { name: 'Events of QueryClient 1' });
  // Both retries, in words, once the third attempt is under way (about 2.1 s into the run).
  await expect(events.getByRole('button', { name: /retry 2 of 3 in 1,000 ms/ })).toBeVisible();
  await expect(events.getByRole('button', { name: /retry 1 of 3 in 500 ms/ })).toBeVisible();
  const lanes = viz.tabpanel.getByRole('img', { name: /Timeline of QueryClient 1/ });
  // One gap per retry; its tooltip names the delay (the label inside shows only where the gap is wide enough).
  await expect(lanes.locator('line.rt-q-backoff')).toHaveCount(2);
  await expect(lanes.locator('g.rt-q-item:has(line.rt-q-backoff) > title')).toHaveText([
    "['todos']: retry 1 of 3 in 500 ms",
    "['todos']: retry 2 of 3 in 1,000 ms",
  ]);
  expect(await seriousViolations(page, '[data-testid="viz-panel"]')).toEqual([]);

  // Clicking an event moves the player's cursor to it.
  await events.getByRole('button', { name: /retry 1 of 3/ }).click();
  await expect(events.locator('[aria-current="step"]')).toContainText('retry 1 of 3 in 500 ms');

  await tab('Timers').click();
  await expect(viz.tabpanel.getByRole('progressbar').first()).toBeVisible();
  expect(await seriousViolations(page, '[data-testid="viz-panel"]')).toEqual([]);

  await tab('Query devtools').click();
  await expect(viz.tabpanel.getByRole('list', { name: 'Queries' }).getByRole('button', { name: /\['todos'\]/ })).toBeVisible();
  expect(await seriousViolations(page, '[data-testid="viz-panel"]')).toEqual([]);
});

test('devtools: Invalidate and Refetch act on the live client and the state follows', async ({ page }) => {
  // The same snippet, observed for a minute instead of 7 s so a slow machine has time for the clicks, and
  // without the refetch interval, so every data update after the first comes from a button.
  // It opts into real time: on the virtual clock the minute would pass at once, and the clicks need a live client.
  const code = `// @playground real-time\n${SNIPPET.replace('await sleep(7_000);', 'await sleep(60_000);').replace(/\n\s*refetchInterval: 3_000,[^\n]*/, '')}`;
  expect(code).not.toContain('refetchInterval');
  expect(code).toContain('await sleep(60_000);');
  const { viz, tab } = await open(page, code);
  await tab('Query devtools').click();
  const row = viz.tabpanel.getByRole('list', { name: 'Queries' }).getByRole('button', { name: /\['todos'\]/ });
  await row.click();
  const details = viz.tabpanel.getByRole('region', { name: 'Query details' });
  const dataUpdates = details.locator('dt:text-is("Data updates") + dd');
  // The first success lands after two failed attempts.
  await expect(dataUpdates).toHaveText('1', { timeout: 20_000 });
  await expect(row.locator('.rt-q-chip')).toHaveText(/fresh|stale/);

  await details.getByRole('button', { name: 'Refetch' }).click();
  await expect(dataUpdates).toHaveText('2');

  await details.getByRole('button', { name: 'Invalidate' }).click();
  // An observed query refetches when invalidated: another data update, and the timeline has the invalidation.
  await expect(dataUpdates).toHaveText('3');
  await tab('Event timeline').click();
  await expect(viz.tabpanel.getByRole('list', { name: 'Events of QueryClient 1' }).getByRole('button', { name: /\['todos'\]: invalidated/ })).toHaveCount(1);

  // Offline: the toggle reaches the sandbox's onlineManager and comes back as a recorded event.
  await tab('Query devtools').click();
  // (the box turns at once; it stays on because the sandbox's event confirms it)
  await viz.tabpanel.getByRole('checkbox', { name: 'Offline' }).click();
  await expect(viz.tabpanel.getByRole('checkbox', { name: 'Offline' })).toBeChecked();
});
