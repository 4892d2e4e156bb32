/**
 * Challenges in the browser (src/playground/challenges/): a "Try it" block checks each run and says what it
 * measured, the hints and the solution diff open on request, progress survives a reload and shows on
 * /challenges/, and an attempt's share link opens in a fresh browser without running.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { encodeShareState } from '../src/playground/share/codec';
import { formatShareHash } from '../src/playground/share/hash';
import { collectPageErrors, playground } from './helpers';

const solution = (id: string) => readFileSync(`content/challenges/${id}.solution.ts`, 'utf8');
const attemptLink = async (page: string, id: string, code: string) =>
  `${page}${formatShareHash({ id: `challenge-${id}`, encoded: await encodeShareState({ code }) })}`;

function challenge(page: Page, id: string) {
  const pg = playground(page, `challenge-${id}`);
  return {
    ...pg,
    block: page.locator(`[data-challenge="${id}"]`),
    result: pg.root.getByTestId('challenge-result'),
    state: pg.root.getByTestId('challenge-state'),
  };
}

test('the starting snippet runs and fails with what it measured; the reader types the fix and solves it', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('/http/overview/');
  const c = challenge(page, 'overview-one-connection');
  await expect(c.block.getByRole('heading', { name: 'Try it: Two requests, one connection' })).toBeVisible();
  await c.run.click();
  await expect(c.result).toContainText('Not yet. 2 requests opened 2 connections; goal: 1.');
  await expect(c.state).toHaveText('Tried');

  await c.replaceCode(solution('overview-one-connection'));
  await c.run.click();
  await expect(c.result).toContainText('Solved. 2 requests on 1 connection');
  await expect(c.result).toHaveAttribute('role', 'status'); // announced to screen readers
  await expect(c.state).toHaveText('Solved');
  expect(errors).toEqual([]);
});

test('hints come one at a time; the solution is a diff against the code on screen', async ({ page }) => {
  await page.goto('/query/errors/');
  const c = challenge(page, 'query-retry-twice');
  const hint = c.root.getByRole('button', { name: /hint/ });
  await expect(hint).toHaveText('Show a hint (0 of 3)');
  await hint.click();
  await expect(c.root.locator('.rt-challenge-hints li')).toHaveCount(1);
  await hint.click();
  await hint.click();
  await expect(c.root.locator('.rt-challenge-hints li')).toHaveCount(3);
  await expect(hint).toBeDisabled();
  await c.root.getByRole('button', { name: 'Show a solution' }).click();
  const diff = c.root.locator('.rt-challenge-solution');
  await expect(diff.locator('.rt-diff-added')).toHaveCount(2); // retry and retryDelay
  await expect(diff.locator('.rt-diff-removed')).toHaveCount(1); // the goal comment they replace
  await expect(diff.locator('.rt-diff-added').first()).toContainText('+ ');
  const violations = await new AxeBuilder({ page })
    .include('[data-challenge="query-retry-twice"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(violations.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});

test('two more typed and solved; progress is kept across a reload and listed on /challenges/; an attempt link opens without running in a fresh browser', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000); // two editors to load on a busy machine
  // Two more solved by typing the fix, as a reader would.
  for (const [path, id] of [
    ['/query/errors/', 'query-retry-twice'],
    ['/http/proxies/', 'proxy-remove-hop'],
  ] as const) {
    await page.goto(path);
    const c = challenge(page, id);
    await c.replaceCode(solution(id));
    await c.run.click();
    await expect(c.result).toContainText('Solved.');
  }
  await page.reload();
  await expect(challenge(page, 'proxy-remove-hop').state).toHaveText('Solved');

  await page.goto('/challenges/');
  const item = (id: string) => page.locator(`li[data-challenge="${id}"] .rt-challenge-index-state`);
  await expect(item('query-retry-twice')).toHaveText('Solved');
  await expect(item('proxy-remove-hop')).toHaveText('Solved');
  await expect(item('http-seven-under-600')).toHaveText('Not tried');
  await expect(page.locator('.rt-challenge-summary')).toContainText('2 solved in this browser');

  // A fresh context: no progress, and the link's code is on screen but not run.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const code = solution('http-seven-under-600');
  await other.goto(await attemptLink('/http/connections/', 'http-seven-under-600', code));
  const c = challenge(other, 'http-seven-under-600');
  await expect(c.root.getByRole('status').first()).toContainText('Opened from a shared link');
  await expect(c.root.locator('.rt-code')).toContainText('maxConnectionsPerOrigin: 6');
  await expect(c.state).toHaveText('Not tried');
  await expect(c.result).toContainText('Run your code');
  await c.run.click();
  await expect(c.result).toContainText(/Solved\. All 7 resources loaded in \d+ ms/);
  await fresh.close();
});
