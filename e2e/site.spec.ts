import { expect, test } from '@playwright/test';
import { collectPageErrors } from './helpers';
import { sitemapPaths } from './sitemap';

test('every page in the sitemap renders without a console error', async ({ page, request }) => {
  const paths = await sitemapPaths(request);
  expect(paths).toContain('/');
  expect(paths).toContain('/http/overview/');
  expect(paths).toContain('/query/overview/');
  for (const path of paths) {
    const errors = collectPageErrors(page);
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.locator('h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(errors, path).toEqual([]);
    page.removeAllListeners('console');
    page.removeAllListeners('pageerror');
  }
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
