/**
 * The QPACK lesson on /http/http3/ in a browser: the playground runs in the sandbox, prints the blocked
 * streams behind the lost encoder-stream insert, and with SETTINGS_QPACK_BLOCKED_STREAMS 0 blocks none.
 */
import { expect, test } from '@playwright/test';
import { collectPageErrors, playground } from './helpers';

test('a lost encoder-stream insert blocks two streams; with SETTINGS_QPACK_BLOCKED_STREAMS 0 none is blocked', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('/http/http3/');
  const pg = playground(page, 'http3-qpack-blocking');
  await pg.run.click();
  await expect(pg.output).toContainText('blocked: stream 8 (needs 4 inserts, has 2), stream 12 (needs 5 inserts, has 2)', { timeout: 30_000 });
  await expect(pg.output).toContainText('/api/cart 225 ms, /app 225 ms, /api/status 225 ms');
  await pg.root.getByRole('button', { name: /^Options/ }).click();
  await pg.root.getByLabel('SETTINGS_QPACK_BLOCKED_STREAMS', { exact: true }).selectOption('0');
  await expect(pg.output).toContainText('/app 100 ms, /api/status 100 ms, /api/cart 200 ms', { timeout: 30_000 });
  await expect(pg.output).not.toContainText('blocked:');
  expect(errors).toEqual([]);
});
