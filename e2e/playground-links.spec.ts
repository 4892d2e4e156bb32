import { expect, test } from '@playwright/test';
import { encodeShareState } from '../src/playground/share/codec';
import { formatShareHash } from '../src/playground/share/hash';
import { collectPageErrors, playground } from './helpers';

// hello-wire sits thousands of pixels down this page: a link to it must not leave the reader at the top.
const PAGE = '/http/overview/';
const linkTo = async (code: string) => formatShareHash({ id: 'hello-wire', encoded: await encodeShareState({ code }) });

test('a share link scrolls its playground into view and focuses its title before the island hydrates', async ({ page }) => {
  // No module script loads, so the island never hydrates: what happens is the inline directive's doing.
  await page.route(/\/_astro\/.*\.js$/, (route) => route.abort());
  await page.goto(`${PAGE}${await linkTo("console.log('linked');\n")}`);
  const pg = playground(page, 'hello-wire');
  await expect(pg.root.locator('.rt-title')).toBeFocused();
  await expect(pg.root.locator('.rt-toolbar')).toBeInViewport();
  expect(await page.evaluate(() => scrollY)).toBeGreaterThan(1000);
  await expect(page.locator('astro-island:has([data-playground-id="hello-wire"])')).toHaveAttribute('ssr', '');
});

test('a good link and a damaged one both land on the playground, with the notice in view', async ({ page }) => {
  const errors = collectPageErrors(page);
  const pg = playground(page, 'hello-wire');
  await page.goto(`${PAGE}${await linkTo("console.log('linked');\n")}`);
  await expect(pg.root.getByRole('status').first()).toContainText('Opened from a shared link');
  await expect(pg.root.getByRole('status').first()).toBeInViewport();
  await expect(pg.root.locator('.rt-title')).toBeFocused();

  await page.goto('about:blank');
  await page.goto(`${PAGE}#pg=hello-wire&s=1.AAAA-not-deflate`);
  await expect(pg.root.getByRole('status').first()).toContainText('damaged');
  await expect(pg.root.getByRole('status').first()).toBeInViewport();
  await expect(pg.root.locator('.rt-title')).toBeFocused();
  expect(errors).toEqual([]);
});

test('a link that changes only the fragment after the playground woke up loads its code, says so, scrolls to it and does not run it', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  // Wake the island by intent and wait until it has hydrated (Astro drops the ssr attribute then).
  await pg.run.hover();
  await expect(page.locator('astro-island:has([data-playground-id="hello-wire"])')).not.toHaveAttribute('ssr', '');
  await page.evaluate(() => scrollTo(0, 0));
  const code = "console.log('arrived by hashchange');\n";
  const hash = await linkTo(code);
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
  await expect.poll(() => pg.staticCode.innerText()).toBe(code);
  await expect(pg.root.getByRole('status').first()).toContainText('Opened from a shared link. Read the code, then press Run');
  await expect(pg.root.getByRole('status').first()).toBeInViewport();
  await expect(pg.root.locator('.rt-title')).toBeFocused();
  await expect(pg.output).toContainText('Console output appears here.');
  await pg.run.click();
  await expect(pg.output).toContainText('arrived by hashchange');

  // A damaged link that arrives the same way explains itself and keeps the code.
  await page.evaluate(() => {
    location.hash = '#pg=hello-wire&s=1.AAAA-not-deflate';
  });
  await expect(pg.root.getByRole('status').first()).toContainText(/damaged.*The code here is unchanged/);
  await expect.poll(() => pg.staticCode.innerText()).toBe(code);
  expect(errors).toEqual([]);
});
