import { expect, test, type Page } from '@playwright/test';
import { collectPageErrors, playground } from './helpers';

// The light editor (src/playground/editor/lite.ts): what a reader types in during a desktop's first seconds and
// always on a phone. It must look like the code they clicked on: monospace, coloured, and the cursor where they
// clicked, with the page left where it was.
const PAGE = '/http/overview/';
const LINE = 'const sim = createSimulation';

/** On a desktop Monaco would replace the light editor; kept from arriving, the light editor stays to be checked. */
async function withoutMonaco(page: Page) {
  await page.route(/monaco|editor\.api|ts\.worker|editor\.worker/i, (route) => route.abort());
}

/** True when the textarea's font draws a run of i's as wide as a run of M's. */
const isMonospace = (page: Page) =>
  page.locator('.rt-lite-input').evaluate((area) => {
    const style = getComputedStyle(area);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontSize} ${style.fontFamily}`;
    return context.measureText('iiiiiiiiii').width === context.measureText('MMMMMMMMMM').width;
  });

/** The computed colour of the first painted token whose text is `text`. */
const colourOf = (page: Page, text: string) =>
  page
    .locator('.rt-lite-paint span', { hasText: text })
    .first()
    .evaluate((el, t) => (el.textContent === t ? getComputedStyle(el).color : 'no such token'), text);

test('a click in the code opens a monospace, coloured light editor with the cursor at the clicked character', async ({ page }) => {
  const errors = collectPageErrors(page);
  await withoutMonaco(page);
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  const code = pg.root.locator('.rt-code');
  await code.locator('.line', { hasText: LINE }).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  // The point at the left edge of the "c" of createSimulation, on the static code.
  const point = await code.evaluate((root, line) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let text = '';
    const nodes: { node: Text; start: number }[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      nodes.push({ node: n as Text, start: text.length });
      text += n.textContent;
    }
    const at = text.indexOf(line) + 'const sim = '.length;
    const hit = nodes.findLast((n) => n.start <= at)!;
    const range = document.createRange();
    range.setStart(hit.node, at - hit.start);
    range.setEnd(hit.node, at - hit.start + 1);
    const box = range.getBoundingClientRect();
    return { x: box.left + 1, y: box.top + box.height / 2, at };
  }, LINE);
  const scrolled = await page.evaluate(() => scrollY);
  await page.mouse.click(point.x, point.y);
  const area = pg.root.locator('.rt-lite-input');
  await expect(area).toBeFocused();
  const value = await area.inputValue();
  expect(value.indexOf(LINE) + 'const sim = '.length).toBe(point.at);
  expect(await area.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd])).toEqual([point.at, point.at]);
  // The page did not move.
  expect(await page.evaluate(() => scrollY)).toBe(scrolled);

  expect(await isMonospace(page)).toBe(true);
  // Coloured as the build coloured the static code: keywords, strings and comments each their own colour.
  await expect(pg.root.locator('.rt-lite-paint span').first()).toBeAttached();
  const [keyword, string, comment] = [
    await colourOf(page, 'const'),
    await colourOf(page, "'/todos'"),
    await colourOf(page, '// sim.fetch has the signature of fetch and returns a real Response.'),
  ];
  expect(new Set([keyword, string, comment]).size).toBe(3);
  // The coloured layer sits under the textarea's (transparent) glyphs: the same text, the same first glyph position.
  expect(await pg.root.locator('.rt-lite-paint').textContent()).toBe(value);
  // Typing goes in at the cursor and the colours follow at once.
  await page.keyboard.type('await ');
  await expect(area).toHaveValue(value.slice(0, point.at) + 'await ' + value.slice(point.at));
  await expect(pg.root.locator('.rt-lite-paint')).toHaveText(await area.inputValue(), { useInnerText: false });
  expect(await colourOf(page, 'await')).toBe(keyword);
  // Only the requests this test blocked failed.
  expect(errors.filter((e) => !/ERR_FAILED .*(monaco|editor\.api|worker)/.test(e))).toEqual([]);
});

test('Edit opens the light editor at the start of the code without scrolling the page', async ({ page }) => {
  await withoutMonaco(page);
  await page.goto(PAGE);
  const pg = playground(page, 'hello-wire');
  await pg.edit.scrollIntoViewIfNeeded();
  // Hydrate first, so Edit's click is the island's own.
  await pg.root.hover();
  await expect(page.locator('astro-island:has([data-playground-id="hello-wire"])')).not.toHaveAttribute('ssr', '');
  const scrolled = await page.evaluate(() => scrollY);
  await pg.edit.click();
  const area = pg.root.locator('.rt-lite-input');
  await expect(area).toBeFocused();
  expect(await area.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd, el.scrollTop])).toEqual([0, 0, 0]);
  expect(await page.evaluate(() => scrollY)).toBe(scrolled);
  // The first line is on screen, where the reader's eyes are.
  await expect(pg.root.locator('.rt-lite-gutter')).toBeInViewport();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the light editor is monospace and coloured, and a tap on a line puts the cursor on that line', async ({ page }) => {
    await page.goto(PAGE);
    const pg = playground(page, 'hello-wire');
    const line = pg.root.locator('.rt-code .line', { hasText: LINE });
    await line.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = (await line.boundingBox())!;
    await page.touchscreen.tap(box.x + 2, box.y + box.height / 2);
    const area = pg.root.getByRole('textbox', { name: /code editor/ });
    await expect(area).toBeFocused();
    const value = await area.inputValue();
    const start = value.indexOf(LINE);
    const caret = await area.evaluate((el: HTMLTextAreaElement) => el.selectionStart);
    expect(caret).toBeGreaterThanOrEqual(start);
    expect(caret).toBeLessThanOrEqual(start + 1);
    expect(await isMonospace(page)).toBe(true);
    await expect(pg.root.locator('.rt-lite-paint span').first()).toBeAttached();
    expect(await colourOf(page, 'const')).not.toBe(await colourOf(page, "'/todos'"));
  });
});
