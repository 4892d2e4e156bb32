/**
 * Issue #27, item 6: the small things a newcomer's walk through the site tripped on. One test each.
 */
import { expect, test, type Page } from '@playwright/test';
import { collectPageErrors, playground } from './helpers';
import { seriousViolations, vizPanel } from './viz-helpers';
import { formatShareHash } from '../src/playground/share/hash';
import { encodeShareState } from '../src/playground/share/codec';

test('/inspect/: the box is empty with a hint, Inspect on it says so, and the example is one press away', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('/inspect/');
  const box = page.getByLabel(/Paste bytes, text or a HAR/);
  await expect(box).toHaveValue('');
  // The hint reads as a hint, not as a request someone already typed.
  const hint = await box.getAttribute('placeholder');
  expect(hint).toMatch(/^Empty: paste /);
  expect(hint).not.toMatch(/HTTP\/1\.1\n|GET \//);
  await page.getByRole('button', { name: 'Inspect', exact: true }).click();
  await expect(page.getByTestId('inspect-problem')).toContainText('The input is empty');
  await page.getByRole('button', { name: 'Load the example', exact: true }).click();
  await expect(box).toHaveValue(/^GET \/todos\/1 HTTP\/1\.1\n/);
  // The example is one exchange: a request and its response, each read whole.
  await expect(page.locator('[data-verdict="server-strict"]')).toContainText('1 whole message read');
  await expect(page.getByTestId('inspect-problem')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a playground opened from a share link leaves "On this page" uncovered', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const hash = formatShareHash({ id: 'message-anatomy', encoded: await encodeShareState({ code: "console.log('from a link');\n" }) });
  await page.goto(`/http/messages/${hash}`);
  const pg = playground(page, 'message-anatomy');
  await expect(pg.root.getByText('Opened from a shared link')).toBeVisible();
  const toc = page.locator('.right-sidebar');
  const heading = toc.getByRole('heading', { name: 'On this page' });
  await expect(heading).toBeVisible();
  const [pgBox, tocBox] = [await pg.root.boundingBox(), await toc.boundingBox()];
  // Side by side: the playground ends where the contents column starts.
  expect(pgBox!.x + pgBox!.width).toBeLessThanOrEqual(tocBox!.x + 1);
  // And the heading is what a reader sees there, not the playground drawn over it.
  const box = (await heading.boundingBox())!;
  const onTop = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x!, y!)?.closest('.right-sidebar') !== null,
    [box.x + box.width / 2, box.y + box.height / 2],
  );
  expect(onTop).toBe(true);
});

test('every option is labelled in words, its name from the snippet beside its doc line', async ({ page }) => {
  await page.goto('/http/connections/');
  const pg = playground(page, 'compare-page-load');
  await pg.root.getByRole('button', { name: /^Options/ }).click();
  const rtt = pg.root.getByLabel('Round-trip time', { exact: true });
  await expect(rtt).toHaveValue('100');
  await expect(rtt).toHaveAccessibleDescription(/^rtt: Round-trip time, virtual ms/);
  await expect(pg.root.getByLabel('Subresources', { exact: true })).toHaveValue('8');
  await expect(pg.root.getByLabel('rtt', { exact: true })).toHaveCount(0);
});

test('a long code line can be scrolled to, with the scrollbar in sight', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/http/http2-attacks/');
  const pre = playground(page, 'http2-attack-rapid-reset').staticCode.locator('pre');
  await pre.scrollIntoViewIfNeeded();
  const size = await pre.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, height: el.getBoundingClientRect().height }));
  expect(size.scrollWidth).toBeGreaterThan(size.clientWidth); // the snippet has a line longer than the block
  // The block is at most about a window high, so its horizontal scrollbar is on screen with the lines.
  expect(size.height).toBeLessThanOrEqual(800 * 0.75 + 1);
  await pre.evaluate((el) => el.scrollBy({ left: 400 }));
  expect(await pre.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});

async function headerBottom(page: Page) {
  return page.evaluate(() => document.querySelector('header.header')!.getBoundingClientRect().bottom);
}

test('focus moving to the step slider scrolls the view tabs out from under the sticky header', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/http/overview/');
  const pg = playground(page, 'hello-wire');
  await pg.run.click();
  const viz = vizPanel(pg.root);
  const slider = viz.panel.getByRole('slider', { name: 'Step' });
  await expect(slider).toBeVisible();
  const tabs = viz.panel.getByRole('tablist');
  // Scroll so the slider sits just below the header and the tabs above it are under the header.
  const top = await headerBottom(page);
  const y = (await slider.boundingBox())!.y;
  await page.evaluate((dy) => window.scrollBy(0, dy), y - top - 4);
  expect((await tabs.boundingBox())!.y).toBeLessThan(top);
  // Tab onto the slider from the control before it, as a keyboard reader arrives.
  await slider.evaluate((el) => {
    const focusable = [...el.closest('[role="group"]')!.querySelectorAll<HTMLElement>('button:not(:disabled), input, select')];
    focusable[focusable.indexOf(el as HTMLElement) - 1]!.focus({ preventScroll: true });
  });
  await page.keyboard.press('Tab');
  await expect(slider).toBeFocused();
  await expect.poll(async () => (await tabs.boundingBox())!.y).toBeGreaterThanOrEqual(top);
});

test("the home page's two cards are links, reached and followed with the keyboard", async ({ page }) => {
  await page.goto('/');
  const http = page.getByRole('link', { name: /The HTTP protocol, 0\.9 to 3/ });
  const query = page.getByRole('link', { name: /A query library, from the inside/ });
  await expect(http).toHaveAttribute('href', '/http/overview/');
  await expect(query).toHaveAttribute('href', '/query/overview/');
  await query.focus();
  await expect(query).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/query\/overview\/$/);
});

test('a skip link per playground puts the keyboard on its Run in a few presses; axe finds nothing serious', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('/http/messages/');
  const anatomy = playground(page, 'message-anatomy');
  const malformed = playground(page, 'malformed-message');
  // From the top of the page: Starlight's "Skip to content", then one link per playground, in page order.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  const first = page.getByRole('link', { name: 'Skip to playground: A message, byte by byte' });
  await expect(first).toBeFocused();
  await expect(first).toBeInViewport();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to playground: A request the server rejects' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(anatomy.run).toBeFocused();
  await expect(anatomy.run).toBeInViewport();
  // Four presses from the top of the page, and Enter runs it.
  await page.keyboard.press('Enter');
  await expect(anatomy.output).toContainText('Finished in');
  expect(await malformed.root.isVisible()).toBe(true);
  expect(await seriousViolations(page, '.sl-skip-link, .rt-skip-playground')).toEqual([]);
  expect(errors).toEqual([]);
});

test('a page without a playground has no playground skip links', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('a[data-skip-playground]')).toHaveCount(0);
});
