import { expect, test } from '@playwright/test';
import { collectPageErrors, playground } from './helpers';

const PAGE = '/http/overview/';

test('a docs page loads no Monaco, React island code or sandbox before interaction', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (req) => requested.push(req.url()));
  await page.goto(PAGE);
  await expect(playground(page, 'hello-wire').staticCode).toContainText("from 'roundtrip/wire'");
  await page.waitForLoadState('networkidle');
  expect(requested.filter((u) => /monaco|editor\.api|ts\.worker|editor\.worker/i.test(u))).toEqual([]);
  expect(requested.filter((u) => u.includes('/sandbox/'))).toEqual([]);
  await expect(page.locator('iframe')).toHaveCount(0);
});

test('edit, run and see the console output', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.replaceCode("import { WIRE_VERSION } from 'roundtrip/wire';\nconst n: number = 6 * 7;\nconsole.log('answer', n, WIRE_VERSION.length > 0);\n");
  await pg.run.click();
  await expect(pg.output).toContainText('answer 42 true');
  await expect(pg.output).toContainText(/Finished in \d+ ms/);
  expect(errors).toEqual([]);
});

test('Clear console empties the output', async ({ page }) => {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.run.click();
  await expect(pg.output).toContainText('reused the connection');
  await pg.root.getByRole('button', { name: 'Clear console' }).click();
  await expect(pg.output).toHaveText('Console output appears here.');
});

test('Ctrl+Enter in the editor runs the snippet', async ({ page }) => {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.replaceCode("console.log('from the keyboard')");
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(pg.output).toContainText('from the keyboard');
});

test('Esc with several cursors collapses them to one and stays in the editor; the next Esc leaves for Run', async ({ page }) => {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.replaceCode('const a = 1;\nconst b = 2;\n');
  // Alt+click adds a cursor (Monaco's default multi-cursor modifier).
  await pg.root
    .locator('.rt-editor .view-line')
    .nth(1)
    .click({ modifiers: ['Alt'] });
  await expect(pg.root.locator('.monaco-editor .cursor')).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(pg.root.locator('.monaco-editor .cursor')).toHaveCount(1);
  await expect(pg.run).not.toBeFocused();
  await page.keyboard.press('Escape');
  await expect(pg.run).toBeFocused();
});

test('keyboard: Enter on Run runs, and focus stays on Run through the run, so Enter runs again', async ({ page }) => {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.run.focus();
  await page.keyboard.press('Enter');
  await expect(pg.output).toContainText(/Finished in \d+ ms/);
  // A disabled button drops focus to the page's start: a keyboard or screen reader user would lose their place.
  await expect(pg.run).toBeFocused();
  await pg.root.getByRole('button', { name: 'Clear console' }).click();
  await pg.run.focus();
  await page.keyboard.press('Enter');
  await expect(pg.output).toContainText(/Finished in \d+ ms/);
  await expect(pg.run).toBeFocused();
});

test('the first click on Run both wakes the playground and runs it', async ({ page }) => {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.run.click();
  await expect(pg.output).toContainText('reused the connection');
});

test('runtime and syntax errors point at the snippet line', async ({ page }) => {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.replaceCode('const a = 1;\nconst b: any = undefined;\nb.crash();\n');
  await pg.run.click();
  await expect(pg.output).toContainText(/Error \(line 3, column \d+\): TypeError/);
  // The editor marks the line too.
  const mark = await pg.root.locator('.squiggly-error').first().boundingBox();
  const lineThree = await pg.root.locator('.line-numbers', { hasText: /^3$/ }).boundingBox();
  expect(mark!.y + mark!.height / 2).toBeGreaterThanOrEqual(lineThree!.y);
  expect(mark!.y + mark!.height / 2).toBeLessThanOrEqual(lineThree!.y + lineThree!.height);
  await pg.typeInEditor('const x = ;');
  await pg.run.click();
  await expect(pg.output).toContainText('Syntax error (line 1, column 11)');
});

test('share, then open the link in a fresh browser context: same code, not run until asked', async ({ page, browser, baseURL }) => {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  const code = "// shared ✓\nconsole.log('shared run', 1 + 1);\n";
  await pg.replaceCode(code);
  await pg.share.click();
  await expect(pg.root.getByRole('status').last()).toContainText(/(Link copied|address bar).*\(\d+ characters\)/);
  const url = page.url();
  expect(url).toContain('#pg=hello-wire&s=1.');

  const fresh = await browser.newContext({ baseURL });
  const other = await fresh.newPage();
  const errors = collectPageErrors(other);
  await other.goto(url);
  const opened = playground(other, 'hello-wire');
  await expect.poll(() => opened.staticCode.innerText()).toBe(code);
  await expect(opened.root).toContainText('Opened from a shared link');
  await expect(opened.output).toContainText('Console output appears here.');
  await opened.run.click();
  await expect(opened.output).toContainText('shared run 2');
  expect(errors).toEqual([]);
  await fresh.close();
});

test('a damaged or future-version link shows a message and the original snippet', async ({ page }) => {
  // The last one: a link cut off right after the playground's id.
  for (const hash of ['#pg=hello-wire&s=1.AAAA-not-deflate', '#pg=hello-wire&s=7.abc', '#pg=hello-wire']) {
    await page.goto(`${PAGE}${hash}`);
    const pg = playground(page, 'hello-wire');
    await expect(pg.root.getByRole('status').first()).toContainText(/damaged|newer Roundtrip/);
    await expect(pg.staticCode).toContainText("from 'roundtrip/wire'");
    await pg.run.click();
    await expect(pg.output).toContainText('reused the connection');
  }
});

test('a link to a playground this page does not have says so, and the page keeps working', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto(`${PAGE}#pg=hello-wir&s=1.q1YqzsjPS0nMSVWyUirJLy1R`);
  await expect(page.getByRole('status').filter({ hasText: 'not on this page' })).toContainText(
    'The shared link is for a playground named "hello-wir", which is not on this page. This page\'s playgrounds are "hello-wire"',
  );
  const pg = playground(page, 'hello-wire');
  await pg.run.click();
  await expect(pg.output).toContainText('reused the connection');
  expect(errors).toEqual([]);
});

test("the snippet cannot read the parent page's cookies, storage or DOM", async ({ page }) => {
  await page.goto(PAGE);
  await page.evaluate(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plants a cookie to prove the sandbox cannot read it
    document.cookie = 'secret=cookie-value; path=/';
    localStorage.setItem('secret', 'storage-value');
  });
  const pg = playground(page, 'hello-wire');
  await pg.replaceCode(
    [
      'const attempt = (name: string, read: () => unknown) => {',
      '  try { console.log(name, "read:", String(read())); } catch (e) { console.log(name, "blocked:", (e as Error).name); }',
      '};',
      'attempt("cookie", () => document.cookie);',
      'attempt("localStorage", () => localStorage.getItem("secret"));',
      'attempt("parent DOM", () => window.parent.document.title);',
      'attempt("top location", () => window.top!.location.href);',
    ].join('\n'),
  );
  await pg.run.click();
  await expect(pg.output).toContainText('top location');
  const text = await pg.output.innerText();
  expect(text).not.toContain('cookie-value');
  expect(text).not.toContain('storage-value');
  expect(text).toContain('localStorage blocked: SecurityError');
  expect(text).toContain('parent DOM blocked: SecurityError');
  expect(text).toContain('top location blocked: SecurityError');
  // Every frame the playground made (the run's sandbox and the spare prepared for the next run) is sandboxed.
  for (const frame of await page.locator('iframe').all()) expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
});

test('an infinite loop is stopped, the page stays responsive and the next run works', async ({ page }) => {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.replaceCode('while (true) {}');
  await pg.run.click();
  await expect(pg.output).toContainText('Stopped: the snippet blocked', { timeout: 10_000 });
  await pg.typeInEditor("console.log('alive again')");
  await pg.run.click();
  await expect(pg.output).toContainText('alive again');
});

test('the editor knows the real types of roundtrip/wire', async ({ page }) => {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.replaceCode(
    "import { WIRE_VERSION, WireError } from 'roundtrip/wire';\nconst n: number = WIRE_VERSION;\nconst e = new WireError({ code: 'X', message: 'm' });\n",
  );
  // Exactly one problem, on line 2: the import resolved (no "Cannot find module" on line 1) and the constant
  // has its declared type.
  const squiggles = pg.root.locator('.squiggly-error');
  await expect(squiggles).toHaveCount(1, { timeout: 30_000 });
  const squiggle = await squiggles.first().boundingBox();
  const lineTwo = await pg.root.locator('.line-numbers', { hasText: /^2$/ }).boundingBox();
  expect(squiggle && lineTwo).toBeTruthy();
  const middle = squiggle!.y + squiggle!.height / 2;
  expect(middle).toBeGreaterThanOrEqual(lineTwo!.y);
  expect(middle).toBeLessThanOrEqual(lineTwo!.y + lineTwo!.height);
});
