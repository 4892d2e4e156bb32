import { expect, test } from '@playwright/test';
import { sitemapPaths } from './sitemap';

// Every sitemap page is loaded, checked for status, a heading and console errors by docs-quality.spec.ts
// (sharded: there are too many pages for one test's time). Here: the sitemap holds the entry pages.
test('the sitemap lists the landing page and both halves of the docs', async ({ request }) => {
  const paths = await sitemapPaths(request);
  expect(paths).toContain('/');
  expect(paths).toContain('/http/overview/');
  expect(paths).toContain('/query/overview/');
  expect(paths).toContain('/playground/');
});

test('the landing page links into both halves of the docs', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Roundtrip');
  await page.getByRole('link', { name: 'Start with HTTP' }).click();
  await expect(page).toHaveURL(/\/http\/overview\/$/);
  const sidebar = page.getByRole('navigation', { name: 'Main' });
  await expect(sidebar.getByText('HTTP', { exact: true })).toBeVisible();
  await expect(sidebar.getByText('Query library', { exact: true })).toBeVisible();
});

test('search finds a page', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Search' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill('request response protocol');
  await expect(dialog.getByRole('link', { name: /HTTP overview/ }).first()).toBeVisible({ timeout: 10_000 });
});

test('unknown URLs get the 404 page', async ({ page }) => {
  const response = await page.goto('/no/such/page/');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('/favicon.ico is an icon, for clients that ask for it without reading the page', async ({ request }) => {
  const response = await request.get('/favicon.ico');
  expect(response.status()).toBe(200);
  const bytes = await response.body();
  // ICONDIR: reserved 0, type 1 (icon), at least one image.
  expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).toEqual([0, 1]);
  expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
});

test('light and dark themes both render the playground code', async ({ page }) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/http/overview/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    const color = await page
      .locator('.rt-code .astro-code span')
      .first()
      .evaluate((el) => getComputedStyle(el).color);
    expect(color).not.toBe('rgba(0, 0, 0, 0)');
  }
});

test('the playground gallery is reachable from the home page and the sidebar, and leads back on a phone', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Browse the playgrounds' }).click();
  await expect(page).toHaveURL(/\/playground\/$/);

  await page.goto('/http/overview/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Playground gallery' }).click();
  await expect(page).toHaveURL(/\/playground\/$/);

  // A splash page has no sidebar or menu on a phone: its own links lead home and down to the examples.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/playground/status-codes/');
  const back = page.getByRole('navigation', { name: 'Leave the playground' });
  await back.getByRole('link', { name: /^All \d+ examples$/ }).click();
  await expect(page.getByRole('heading', { name: 'Examples' })).toBeInViewport();
  await back.getByRole('link', { name: 'Docs home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a docs page offers itself as Markdown: a link to read it and a button that copies it', async ({ page }) => {
  await page.goto('/http/methods/');
  const link = page.getByRole('link', { name: 'View as Markdown' });
  await expect(link).toHaveAttribute('href', '/http/methods.md');
  await page.getByRole('button', { name: 'Copy page' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied the page as Markdown.' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^# Methods/m);
  await link.click();
  expect(await page.content()).toContain('# Methods');
});
