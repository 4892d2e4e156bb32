/**
 * The Frames view and the QPACK stepper on /http/http3/: the page's HTTP/2-vs-HTTP/3 playground runs in the
 * sandbox, the Frames view lists its QUIC packets, a client STREAM frame on stream 0 shows the HTTP/3 HEADERS
 * inside it, pointing at that field lights its bytes in the hex dump, and the client's first Initial can be
 * shown protected as a capture has it. Desktop and a 390 px phone: no page-wide horizontal scroll.
 */
import { expect, test, type Page } from '@playwright/test';
import { collectPageErrors, playground } from './helpers';
import { vizPanel } from './viz-helpers';

async function runToEnd(page: Page, id: string, phone: boolean) {
  const pg = playground(page, id);
  await pg.run.click();
  // A phone shows the panel under its Timeline tab (Code / Output / Timeline); a run first switches to Output.
  if (phone) {
    await expect(pg.root.getByRole('tab', { name: 'Output', exact: true })).toHaveAttribute('aria-selected', 'true');
    await pg.root.getByRole('tab', { name: 'Timeline', exact: true }).click();
  }
  const viz = vizPanel(pg.root);
  await expect(viz.panel).toBeVisible({ timeout: 60_000 });
  if (await viz.pause.isVisible()) await viz.pause.click();
  await viz.slider.focus();
  await page.keyboard.press('End');
  return { pg, viz };
}

async function openTab(viz: ReturnType<typeof vizPanel>, name: string) {
  await viz.panel.getByRole('tab', { name, exact: true }).click();
  await expect(viz.tabpanel.locator('.rt-empty', { hasText: /^Loading/ })).toHaveCount(0);
}

for (const width of [1280, 390]) {
  test(`QUIC packets, a STREAM frame's HTTP/3 HEADERS and the lit hex on /http/http3/ (${width} px)`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    const errors = collectPageErrors(page);
    await page.goto('/http/http3/');
    const { viz } = await runToEnd(page, 'http3-loss', width < 800);
    await openTab(viz, 'Frames');
    const quic = viz.tabpanel.getByTestId('quic-inspector');
    const list = quic.getByRole('table', { name: 'QUIC packets' });
    await expect(list.locator('tr[data-packet="client-initial-0"]')).toBeVisible();
    await expect(list.locator('tr[data-packet^="server-handshake-"]').first()).toBeAttached();

    // A client packet with the start of stream 0: its tree names the HTTP/3 HEADERS inside the STREAM frame.
    await list
      .locator('tr.rt-qi-client', { hasText: /STREAM 0 @0\+/ })
      .first()
      .getByRole('button')
      .click();
    const headers = quic.getByRole('button', { name: /HTTP\/3 HEADERS/ }).first();
    await expect(headers).toBeVisible();
    await headers.hover();
    const lit = quic.locator('[role="gridcell"][aria-selected="true"]');
    expect(await lit.count()).toBeGreaterThan(2);
    // The HEADERS frame's type byte, 0x01 (RFC 9114 §7.2.2), is the first lit byte.
    await expect(lit.first()).toHaveText('01');

    // The client's first Initial, protected with the keys of its DCID (RFC 9001 §5).
    await list.locator('tr[data-packet="client-initial-0"]').getByRole('button').click();
    await quic.getByRole('radio', { name: /Protected/ }).check();
    await expect(quic.getByTestId('round-trip')).toContainText('byte for byte');

    await page.screenshot({ path: test.info().outputPath(`viz-quic-${width}.png`), fullPage: false });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await openTab(viz, 'QPACK');
    await expect(viz.tabpanel.getByTestId('qpack-stepper')).toBeVisible();
    await expect(viz.tabpanel.getByRole('list', { name: /Encoder instructions/ })).toContainText('Field section on stream 0');
    await viz.tabpanel
      .getByRole('list', { name: /Encoder instructions/ })
      .getByRole('button')
      .last()
      .click();
    await expect(viz.tabpanel.getByTestId('qpack-dynamic-table')).toBeVisible();
    await viz.tabpanel.getByTestId('qpack-stepper').scrollIntoViewIfNeeded();
    // Nothing in the stepper runs past its box (a grid item wider than the panel is cut off on a phone).
    expect(await viz.tabpanel.getByTestId('qpack-stepper').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: test.info().outputPath(`viz-qpack-${width}.png`), fullPage: false });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
  });
}
