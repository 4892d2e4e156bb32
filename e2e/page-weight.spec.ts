import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { measurePage } from '../scripts/page-weight.mjs';

const DIST = process.env.RT_OUT_DIR ?? 'dist';
const KB = 1000;

/**
 * The JavaScript a page really downloads before the reader interacts: every script response until the network
 * is idle, each sized gzip -9 from the build output (what a compressing server would send).
 */
async function scriptsBeforeInteraction(page: Page, path: string) {
  const urls = new Set<string>();
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') urls.add(new URL(res.url()).pathname);
  });
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300); // idle callbacks get their chance to fire
  await page.waitForLoadState('networkidle');
  const sizes: Record<string, number> = {};
  for (const url of urls) sizes[url] = gzipSync(await readFile(join(DIST, url)), { level: 9 }).length;
  const inline = (await measurePage(DIST, path)).inlineGzip;
  const total = Object.values(sizes).reduce((a, b) => a + b, inline);
  return { sizes, total };
}

test('a page without a playground ships at most 20 KB of JS (gzip) before interaction', async ({ page }) => {
  for (const path of ['/', '/404.html']) {
    const { sizes, total } = await scriptsBeforeInteraction(page, path);
    expect(Object.keys(sizes).length, path).toBeGreaterThan(0);
    expect(total, `${path}: ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(20 * KB);
  }
});

test('a page with playgrounds loads no React, editor or sandbox before interaction', async ({ page }) => {
  const { sizes, total } = await scriptsBeforeInteraction(page, '/http/overview/');
  expect(Object.keys(sizes).join(' ')).not.toMatch(/monaco|editor\.api|runtime|Playground|client\.|react/i);
  expect(total, JSON.stringify(sizes)).toBeLessThanOrEqual(50 * KB);
});

test('search still works, loading its UI on first intent', async ({ page }) => {
  const urls: string[] = [];
  page.on('request', (req) => urls.push(req.url()));
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(urls.filter((u) => u.includes('ui-core'))).toEqual([]);
  await page.keyboard.press('ControlOrMeta+k');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill('query cache');
  await expect(dialog.getByRole('link', { name: /Query library overview/ }).first()).toBeVisible();
});

test('the static measurement script counts every script tag the page has', async ({ page }) => {
  const { sizes } = await scriptsBeforeInteraction(page, '/http/overview/');
  const measured = Object.keys((await measurePage(DIST, '/http/overview/')).files);
  for (const url of measured) expect(Object.keys(sizes)).toContain(url);
});
