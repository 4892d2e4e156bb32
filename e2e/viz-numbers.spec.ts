/**
 * Numbers that agree and runs compared (issue #27, items 3 and 5), on the real docs pages:
 * - "Retries, step by step" (/query/queries/) says it gave up after as many failed attempts as TanStack's
 *   fetchFailureCount counts (retry: 1 -> 2 attempts);
 * - the retry timeline (/query/errors/) keeps both retry delays (500 ms, then 1,000 ms) in the Timers view and
 *   draws both in the event timeline;
 * - on the HTTP/3 page's lossy-link playground, a second run with another loss keeps the first as a ghost in
 *   the Waterfall and Compare, labelled with the loss it had; Pin keeps it across a further run, Clear drops it.
 */
import { expect, test, type Page } from '@playwright/test';
import { collectPageErrors, playground } from './helpers';
import { seriousViolations, vizPanel } from './viz-helpers';

function open(page: Page, id: string) {
  const pg = playground(page, id);
  const viz = vizPanel(pg.root);
  const field = (name: string) => pg.root.locator(`[data-option="${name}"]`).locator('input, select');
  return {
    pg,
    viz,
    tab: (name: string) => viz.panel.getByRole('tab', { name, exact: true }),
    /** Changes a knob, which re-runs, and waits for that run's output to say `done`, then for its end. */
    async setOption(name: string, value: string, done: string | RegExp) {
      const toggle = pg.root.getByRole('button', { name: /^Options/ });
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
      await field(name).fill(value);
      await field(name).press('Enter');
      await expect(pg.output).toContainText(done);
      await expect(pg.output).toContainText(/Finished in/);
    },
    /** The player at the run's last step, whatever the panel did after the run. */
    async toEnd() {
      await viz.slider.focus();
      await page.keyboard.press('End');
      await expect(viz.slider).toHaveValue(String((await viz.total()) - 1));
    },
  };
}

test('with retry: 1 the event timeline says the query gave up after 2 failed attempts, as fetchFailureCount does', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('/query/queries/');
  const { pg, viz, tab, setOption, toEnd } = open(page, 'query-states');
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in/);
  // every attempt fails: 10 failures against at most 2 attempts
  await setOption('failures', '10', 'fetchFailureCount: 4');
  await setOption('retry', '1', 'fetchFailureCount: 2');
  await toEnd();
  await tab('Event timeline').click();
  const events = viz.tabpanel.getByRole('list', { name: 'Events of QueryClient 1' });
  await expect(events.getByRole('button', { name: /gave up after/ })).toHaveText(/\['flaky'\]: gave up after 2 failed attempts$/);
  await setOption('retry', '0', 'fetchFailureCount: 1');
  await toEnd();
  await expect(events.getByRole('button', { name: /gave up after/ })).toHaveText(/gave up after 1 failed attempt$/);
  expect(errors).toEqual([]);
});

test('both retry timers: the Timers view lists the 500 ms and the 1,000 ms delay, and the timeline draws both', async ({ page }) => {
  await page.goto('/query/errors/');
  const { pg, viz, tab, toEnd } = open(page, 'retry-timeline');
  await pg.run.click();
  await expect(pg.output).toContainText('still cached? false');
  await tab('Event timeline').click();
  await toEnd();
  const events = viz.tabpanel.getByRole('list', { name: 'Events of QueryClient 1' });
  const lanes = viz.tabpanel.getByRole('img', { name: /Timeline of QueryClient 1/ });
  await expect(lanes.locator('rect.rt-q-backoff-band')).toHaveCount(2);
  await expect(lanes.locator('.rt-q-backoff-label')).toHaveText(['500 ms', '1,000 ms']);

  // At the second retry: the 1,000 ms delay pending, the first one listed as waited out.
  await events.getByRole('button', { name: /retry 2 of 3 in 1,000 ms/ }).click();
  await tab('Timers').click();
  const delays = viz.tabpanel.getByRole('list', { name: 'Retry delays of QueryClient 1' });
  await expect(delays.getByRole('listitem')).toHaveText([/retry 1 of 3: 500 ms, waited out at \+800 ms/, /retry 2 of 3: 1,000 ms, 1,000 ms left/]);
  await expect(viz.tabpanel.getByRole('list', { name: /Pending timers/ })).toContainText('retry backoff');
  // At the end both are still there.
  await toEnd();
  await expect(delays.getByRole('listitem')).toHaveText([/retry 1 of 3: 500 ms, waited out at \+800 ms/, /retry 2 of 3: 1,000 ms, waited out at \+2,100 ms/]);
  expect(await seriousViolations(page, '[data-testid="viz-panel"]')).toEqual([]);
});

test('a second run with another loss keeps the first as a ghost in Waterfall and Compare; Pin keeps it, Clear drops it', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  await page.goto('/http/http3/');
  const { pg, viz, tab, setOption, toEnd } = open(page, 'http3-loss');
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in/);
  await tab('Waterfall').click();
  await expect(viz.panel.getByTestId('ghost-bar')).toHaveCount(0);

  await setOption('loss', '0.3', 'HTTP/3, loss 0.3:');
  await toEnd();
  await viz.tabpanel.getByRole('combobox', { name: 'Simulation' }).selectOption({ label: 'HTTP/2, 30% loss' });
  const bar = viz.panel.getByTestId('ghost-bar');
  await expect(bar).toContainText('ghost: loss 0.1');
  const rows = viz.tabpanel.locator('tbody tr[data-request-id]');
  await expect(rows).toHaveCount(6);
  await expect(rows.first().locator('.rt-tl-ghost-bar').first()).toBeVisible();
  // what moved: the last finish, against the ghost's
  await expect(viz.panel.getByTestId('waterfall-summary').locator('.rt-tl-delta')).toHaveText(/^[+−]\d/);
  expect(await seriousViolations(page, '[data-testid="viz-panel"]')).toEqual([]);

  await tab('Compare').click();
  await expect(bar).toContainText('ghost: loss 0.1');
  await expect(viz.tabpanel.locator('[data-col="load"] .rt-tl-delta')).toHaveCount(4);
  await expect(viz.tabpanel.locator('rect.is-ghost').first()).toBeAttached();

  // Pinned, it outlives a further run with yet another loss.
  await bar.getByRole('button', { name: 'Pin' }).click();
  await expect(bar.getByRole('button', { name: 'Pinned' })).toHaveAttribute('aria-pressed', 'true');
  await setOption('loss', '0.2', 'HTTP/3, loss 0.2:');
  await expect(viz.panel.getByTestId('ghost-bar')).toContainText('ghost: loss 0.1');

  await viz.panel.getByTestId('ghost-bar').getByRole('button', { name: 'Clear ghost' }).click();
  await expect(viz.panel.getByTestId('ghost-bar')).toHaveCount(0);
  await expect(viz.tabpanel.locator('rect.is-ghost, .rt-tl-delta')).toHaveCount(0);
  expect(errors).toEqual([]);
});
