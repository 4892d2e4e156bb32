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
  await expect(page.locator('h1').first()).toBeVisible();
});

test('light and dark themes both render the playground code', async ({ page }) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/http/overview/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    const color = await page.locator('.rt-code .astro-code span').first().evaluate((el) => getComputedStyle(el).color);
    expect(color).not.toBe('rgba(0, 0, 0, 0)');
  }
});
