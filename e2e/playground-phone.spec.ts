import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { collectPageErrors, playground } from './helpers';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

// A phone: 360 px wide, touch, coarse pointer.
test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

const PAGE = '/http/overview/';

test('a phone shows Code / Output / Timeline tabs, Code first, can edit, and a run switches to Output', async ({ page }) => {
  const errors = collectPageErrors(page);
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  const tab = (name: string) => pg.root.getByRole('button', { name, exact: true }).or(pg.root.getByRole('tab', { name, exact: true }));
  await expect(tab('Code')).toBeVisible();
  await expect(tab('Output')).toBeVisible();
  await expect(tab('Timeline')).toBeVisible();
  // Code first, before any interaction (the layout is CSS, right before hydration): the page says "edit the
  // snippet", so the snippet is what shows.
  await expect(pg.staticCode).toBeVisible();
  await expect(pg.output).toBeHidden();

  await tab('Output').tap();
  await expect(pg.root.getByRole('tab', { name: 'Output' })).toHaveAttribute('aria-selected', 'true');
  await expect(pg.output).toBeVisible();
  await tab('Code').tap();
  await expect(pg.root.getByRole('tab', { name: 'Code' })).toHaveAttribute('aria-selected', 'true');
  await expect(pg.staticCode).toBeVisible();
  await expect(pg.output).toBeHidden();

  await pg.edit.tap();
  const editor = pg.root.getByRole('textbox', { name: /code editor/ });
  await expect(editor).toBeFocused();
  // Enter keeps the indentation (one more after a brace) and Tab indents instead of leaving the field.
  await editor.fill('if (true) {');
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('ok();');
  await page.keyboard.press('Tab');
  await expect(editor).toHaveValue('if (true) {\n  ok();  ');
  await expect(editor).toBeFocused();
  await editor.fill("const n = 6 * 7;\nconsole.log('from a phone', n);\n");
  await expect(pg.root.locator('.rt-lite-gutter')).toHaveText(/^1\n2\n3\n?$/);
  // No Monaco on a phone.
  expect(requested.filter((u) => /monaco|editor\.api|ts\.worker|editor\.worker/i.test(u))).toEqual([]);

  await pg.run.tap();
  await expect(pg.root.getByRole('tab', { name: 'Output' })).toHaveAttribute('aria-selected', 'true');
  await expect(pg.output).toContainText('from a phone 42');
  await expect(pg.output).toContainText(/Finished in/);

  // The page does not scroll sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(errors).toEqual([]);
});

test('phone tabs follow the tabs pattern: arrows move, the Timeline has its slot', async ({ page }) => {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.run.tap();
  await expect(pg.output).toContainText(/Finished in/);
  const output = pg.root.getByRole('tab', { name: 'Output' });
  await output.focus();
  await page.keyboard.press('ArrowRight');
  const timeline = pg.root.getByRole('tab', { name: 'Timeline' });
  await expect(timeline).toBeFocused();
  await expect(timeline).toHaveAttribute('aria-selected', 'true');
  await expect(pg.root.locator('[role="tabpanel"][data-active]')).toHaveAttribute('data-panel', 'timeline');
  await page.keyboard.press('Home');
  await expect(pg.root.getByRole('tab', { name: 'Code' })).toHaveAttribute('aria-selected', 'true');
});

test('axe: the phone layout has no serious or critical WCAG 2.2 AA violation', async ({ page }) => {
  test.setTimeout(150_000); // axe's contrast rule is slow on a busy machine
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  const scope = '[data-playground-id="hello-wire"]';
  const check = async () => {
    const results = await new AxeBuilder({ page }).include(scope).withTags(WCAG_22_AA).analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };
  expect(await check()).toEqual([]);
  await pg.run.tap();
  await expect(pg.output).toContainText(/Finished in/);
  expect(await check()).toEqual([]);
  await pg.root.getByRole('tab', { name: 'Code' }).tap();
  await pg.edit.tap();
  await expect(pg.root.getByRole('textbox', { name: /code editor/ })).toBeFocused();
  expect(await check()).toEqual([]);
});
