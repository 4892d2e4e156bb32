/**
 * The "HTTP/2 attacks and defences" page in a browser: each playground runs its attack in the sandbox, and
 * with the defence on the server's answer is in the output and in the Frames view; the rapid-reset knob
 * set to none lets every reset stream reach the handler, with no GOAWAY.
 */
import { expect, test, type Page } from '@playwright/test';
import { collectPageErrors, playground } from './helpers';
import { vizPanel } from './viz-helpers';

async function runToEnd(page: Page, id: string) {
  const pg = playground(page, id);
  await pg.run.click();
  const viz = vizPanel(pg.root);
  await expect(viz.panel).toBeVisible();
  if (await viz.pause.isVisible()) await viz.pause.click();
  await viz.slider.focus();
  await page.keyboard.press('End');
  return { pg, viz };
}

test('each attack ends in its answer with the defence on', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('/http/http2-attacks/');
  const expected: [string, string][] = [
    ['http2-attack-rapid-reset', 'GOAWAY INTERNAL_ERROR'],
    ['http2-attack-continuation', 'GOAWAY ENHANCE_YOUR_CALM'],
    ['http2-attack-hpack-bomb', 'RST_STREAM ENHANCE_YOUR_CALM'],
    ['http2-attack-ping-flood', 'GOAWAY ENHANCE_YOUR_CALM'],
    ['http2-attack-slowloris', '408 Request Timeout'],
  ];
  for (const [id, answer] of expected) {
    const { pg } = await runToEnd(page, id);
    await expect(pg.output).toContainText(answer, { timeout: 15_000 });
  }
  expect(errors).toEqual([]);
});

test('rapid reset: no request started and the Frames view shows the GOAWAY; with the defence off, no GOAWAY and every stream is handled', async ({ page }) => {
  await page.goto('/http/http2-attacks/');
  const { pg, viz } = await runToEnd(page, 'http2-attack-rapid-reset');
  await expect(pg.output).toContainText('handler started 0 times');
  await viz.panel.getByRole('tab', { name: 'Frames', exact: true }).click();
  await expect(viz.tabpanel).toContainText('GOAWAY');
  await expect(viz.tabpanel).toContainText('RST_STREAM');
  await pg.root.getByRole('button', { name: /^Options/ }).click();
  await pg.root.getByLabel('Defence', { exact: true }).selectOption('none');
  await expect(pg.output).toContainText('handler started 200 times', { timeout: 15_000 });
  await expect(pg.output).toContainText('no GOAWAY');
});
