/**
 * Room to see (issue #27 item 4): the sequence diagram never merges away a connection opening or closing,
 * the Frames view scrolls sideways to the current frame's lane, and on a phone no diagram pushes the page
 * sideways after a run.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { playground } from './helpers';
import { sitemapPaths } from './sitemap';
import { vizPanel } from './viz-helpers';

/** Stops a replay, if one runs, and moves the cursor to the last step. */
async function toEnd(page: Page, viz: ReturnType<typeof vizPanel>) {
  if (await viz.pause.isVisible()) await viz.pause.click();
  await viz.slider.focus();
  await page.keyboard.press('End');
}

async function openTab(viz: ReturnType<typeof vizPanel>, name: string) {
  await viz.panel.getByRole('tab', { name, exact: true }).click();
  await expect(viz.tabpanel.locator('.rt-empty', { hasText: /^Loading/ })).toHaveCount(0);
}

/** Whether `inner`'s box lies within `outer`'s (to the pixel), and `left` px of the outer box are not covered. */
async function inside(inner: Locator, outer: Locator, left = 0): Promise<boolean> {
  const a = await inner.boundingBox();
  const b = await outer.boundingBox();
  if (!a || !b) return false;
  return a.x >= b.x + left - 1 && a.x + a.width <= b.x + b.width + 1 && a.y >= b.y - 1 && a.y + a.height <= b.y + b.height + 1;
}

test('Hello, wire over HTTP/1.0: the new connection SYN is drawn and labelled, never merged into the old FIN', async ({ page }) => {
  await page.goto('/http/overview/');
  const pg = playground(page, 'hello-wire');
  await pg.root.getByRole('button', { name: /^Options/ }).click();
  await pg.root.getByLabel('HTTP version', { exact: true }).selectOption('1.0');
  // The knob re-runs the snippet; HTTP/1.0 connects twice.
  await expect(pg.output).toContainText(/Finished in/, { timeout: 60_000 });
  await expect(pg.output).not.toContainText('reused the connection');
  const viz = vizPanel(pg.root);
  await toEnd(page, viz);
  await openTab(viz, 'Sequence');
  const svg = viz.tabpanel.locator('svg.rt-tl-svg');
  // c2's SYN is an arrow of its own, and it has a label of its own.
  await expect(viz.tabpanel.getByRole('button', { name: /^c2 client to server, TCP SYN, sent at/ })).toHaveCount(1);
  const labels = svg.locator('text.rt-tl-label');
  await expect(labels.filter({ hasText: /^c2 SYN$/ })).toHaveCount(1);
  await expect(labels.filter({ hasText: /^c1 FIN$/ }).first()).toBeVisible();
  // No label speaks for a SYN, FIN or RST it hides.
  for (const text of await labels.allTextContents()) expect(text).not.toMatch(/(SYN|FIN|RST).*\(\+\d+ more\)/);
  // 100 ms of time is at least 90 px by default; Fit squeezes the run into the box, and + zooms back in.
  const scale = viz.tabpanel.getByTestId('sequence-scale');
  expect(Number(await scale.getAttribute('data-px-per-ms')) * 100).toBeGreaterThanOrEqual(90);
  await viz.tabpanel.getByRole('button', { name: 'Fit' }).click();
  await expect(viz.tabpanel.getByRole('button', { name: 'Fit' })).toHaveAttribute('aria-pressed', 'true');
  const box = viz.tabpanel.locator('.rt-tl-scroll');
  await expect.poll(async () => (await svg.boundingBox())!.height).toBeLessThanOrEqual((await box.boundingBox())!.height + 1);
  const fitted = Number(await scale.getAttribute('data-px-per-ms'));
  await viz.tabpanel.getByRole('button', { name: 'Zoom in (more room per millisecond)' }).click();
  await expect.poll(async () => Number(await scale.getAttribute('data-px-per-ms'))).toBeGreaterThan(fitted);
  // And from the keyboard, inside the diagram: - zooms out, down to the minimum.
  await viz.tabpanel.getByRole('button', { name: /^c2 client to server, TCP SYN/ }).focus();
  for (let i = 0; i < 8; i++) await page.keyboard.press('-');
  await expect.poll(async () => Number(await scale.getAttribute('data-px-per-ms')) * 100).toBeCloseTo(90, 5);
  await expect(viz.tabpanel.getByRole('button', { name: 'Zoom out (more time in view)' })).toBeDisabled();
});

test('Frames on rapid reset: the current frame lane is scrolled into the lanes box, at the end and mid-run', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/http/http2-attacks/');
  const pg = playground(page, 'http2-attack-rapid-reset');
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in/, { timeout: 60_000 });
  const viz = vizPanel(pg.root);
  await toEnd(page, viz);
  await openTab(viz, 'Frames');
  const wrap = viz.tabpanel.locator('.rt-fi-lanes-wrap');
  const heads = viz.tabpanel.locator('thead th.rt-fi-lane');
  const compact = viz.tabpanel.getByRole('checkbox', { name: 'Compact lanes' });
  // Compact to begin with: stream 0, the finished streams' lane and the few still open.
  await expect(compact).toBeChecked();
  await expect(heads.nth(1)).toHaveAttribute('data-stream', 'finished');
  expect(await heads.count()).toBeLessThan(12);
  // A lane per stream: dozens, far wider than the box, which must scroll sideways to show the current one.
  await compact.uncheck();
  await expect.poll(() => heads.count()).toBeGreaterThan(40);
  expect(await wrap.evaluate((el) => el.scrollWidth > el.clientWidth * 2)).toBe(true);
  // The # and ms columns stay at the left edge, so the lane must be clear of them.
  const fixed = await viz.tabpanel
    .locator('thead th')
    .nth(1)
    .evaluate((th) => th.getBoundingClientRect().right - th.closest('.rt-fi-lanes-wrap')!.getBoundingClientRect().left);
  const current = wrap.locator('button[aria-pressed="true"]');
  const where = viz.tabpanel.getByTestId('frames-where');
  const max = Number(await viz.slider.getAttribute('max'));
  for (const at of [1, 0.5, 0.2, 0.8]) {
    if (at < 1) await viz.slider.fill(String(Math.round(max * at)));
    await expect(current).toHaveCount(1);
    await expect
      .poll(async () => (await inside(current, wrap, fixed)) || JSON.stringify([await current.boundingBox(), await wrap.boundingBox(), fixed]), {
        message: `current frame in view at ${at}`,
      })
      .toBe(true);
    // The bar names the stream whose lane holds the current frame.
    const stream = /^Stream (\d+)/.exec((await where.textContent()) ?? '')?.[1];
    const col = await current.evaluate((b) => {
      const cell = b.closest('td')!;
      let c = 0;
      for (const td of cell.parentElement!.children) {
        if (td === cell) break;
        c += (td as HTMLTableCellElement).colSpan;
      }
      return c;
    });
    await expect(viz.tabpanel.locator('thead th').nth(col)).toHaveAttribute('data-stream', stream!);
  }
  // Compact again: still in view.
  await compact.check();
  await viz.slider.fill(String(Math.round(max * 0.6)));
  await expect.poll(() => inside(current, wrap, fixed), { message: 'current frame in view, compact' }).toBe(true);
});

test.describe('a phone, 390 px wide', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the State machines diagram says it pans sideways, and keeps the current state in view', async ({ page }) => {
    await page.goto('/http/connections/');
    const pg = playground(page, 'connections');
    await pg.run.tap();
    await expect(pg.output).toContainText(/Finished in/, { timeout: 60_000 });
    await pg.root.getByRole('tab', { name: 'Timeline', exact: true }).tap();
    const viz = vizPanel(pg.root);
    await toEnd(page, viz);
    await openTab(viz, 'State machines');
    const diagram = viz.tabpanel.getByRole('region', { name: 'State diagram' });
    expect(await diagram.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await expect(viz.tabpanel.getByTestId('machine-pan-hint')).toBeVisible();
    await expect.poll(() => inside(diagram.locator('.rt-sm-state.is-current'), diagram)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('no docs page with a Sequence, Waterfall or State machines view scrolls sideways after Run', async ({ page, request }) => {
    test.setTimeout(600_000);
    const pages = (await sitemapPaths(request)).filter((p) => /^\/(http|query)\//.test(p));
    const problems: string[] = [];
    let checked = 0;
    for (const path of pages) {
      await page.goto(path);
      const ids = await page.locator('[data-playground-id]').evaluateAll((els) => els.map((el) => el.getAttribute('data-playground-id')!));
      for (const id of ids) {
        const pg = playground(page, id);
        await pg.run.scrollIntoViewIfNeeded();
        await pg.run.tap();
        await expect(pg.output).toContainText(/Finished in|Error/, { timeout: 90_000 });
        await pg.root.getByRole('tab', { name: 'Timeline', exact: true }).tap();
        const viz = vizPanel(pg.root);
        if ((await viz.panel.count()) === 0) continue;
        await expect(viz.tabs.first()).toBeVisible();
        if (await viz.pause.isVisible()) await viz.pause.tap();
        for (const name of ['Sequence', 'Waterfall', 'State machines']) {
          const tab = viz.panel.getByRole('tab', { name, exact: true });
          if ((await tab.count()) === 0) continue;
          await tab.tap();
          await expect(viz.tabpanel.locator('.rt-empty', { hasText: /^Loading/ })).toHaveCount(0);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          if (width > 390) problems.push(`${path} ${id} ${name}: the page is ${width} px wide`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  });
});
