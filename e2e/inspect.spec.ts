/**
 * /inspect/: each format pasted is read and drawn by the playground's views, each kind of damage is reported
 * with where and why, a share link brings the same input back, the replay opens in the playground, and the
 * page passes axe and loads no inspector code before interaction.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measurePage } from '../scripts/page-weight.mjs';
import { collectPageErrors } from './helpers';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../src/playground/inspect/fixtures', name), 'utf8');
const DIST = process.env.RT_OUT_DIR ?? 'dist';

async function paste(page: Page, text: string) {
  const box = page.getByLabel(/Paste bytes, text or a HAR/);
  await box.fill(text);
  await page.getByRole('button', { name: 'Inspect', exact: true }).click();
  return page.getByTestId('inspect-result');
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });

/**
 * Opens the Sequence view and waits until its arrows, by their accessible names without the byte ranges and
 * times ("c1 client to server, GET /todos/1 HTTP/1.1"), are `expected` (those `keep` selects); the player may
 * still be drawing them when the view opens.
 */
async function expectArrows(page: Page, expected: string[], keep: (name: string) => boolean = () => true) {
  await tab(page, 'Sequence').click();
  const arrows = page.getByRole('tabpanel').locator('.rt-tl-arrow');
  const names = async () =>
    (await arrows.evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label') ?? ''))).map((n) => n.replace(/, bytes .*/, '')).filter(keep);
  await expect.poll(names).toEqual(expected);
}

test('the page says nothing leaves the browser and loads no inspector code before interaction', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await page.goto('/inspect/');
  await expect(page.getByText('Private by construction')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.join(' ')).not.toMatch(/Inspector|worker|react/i);
  const weight = await measurePage(DIST, '/inspect/');
  expect(weight.totalGzip).toBeLessThanOrEqual(50_000);
  await expect(page.getByRole('link', { name: 'Inspect your traffic' })).toBeVisible();
});

test('raw HTTP/1: the message inspector, both verdicts and the state machines', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('/inspect/');
  const result = await paste(page, fixture('http1-conversation.txt'));
  await expect(result).toHaveAttribute('data-format', 'http1');
  await expect(page.locator('[data-verdict="server-strict"]')).toContainText('2 whole messages read');
  await tab(page, 'Messages').click();
  await expect(page.getByRole('tabpanel')).toContainText('GET /notes/1 HTTP/1.1');
  await expect(tab(page, 'State machines')).toBeVisible();
  await expectArrows(page, [
    'c1 client to server, GET /todos/1 HTTP/1.1',
    'c1 client to server, GET /notes/1 HTTP/1.1',
    'c1 server to client, HTTP/1.1 200 OK',
    'c1 server to client, HTTP/1.1 404 Not Found',
  ]);
  expect(errors).toEqual([]);
});

test('a damaged HTTP/1 message is located by line and column, strict and lenient', async ({ page }) => {
  await page.goto('/inspect/');
  // Typed into the page before the island woke, then Inspect pressed: the press that woke it is performed.
  await page.evaluate(() => {
    document.querySelector<HTMLTextAreaElement>('#rt-inspect-input')!.value = 'GET / HTTP/1.1\nHost: a\nBad Header: x\n\n';
  });
  await page.getByRole('button', { name: 'Inspect', exact: true }).click();
  await expect(page.getByTestId('inspect-problem')).toContainText('At line 3, column 4');
  await expect(page.locator('[data-verdict="client-lenient"]')).toContainText('Rejected at line 3, column 4');
});

test('curl -v output becomes the conversation it printed', async ({ page }) => {
  await page.goto('/inspect/');
  const result = await paste(page, fixture('curl-v.txt'));
  await expect(result).toHaveAttribute('data-format', 'curl');
  await expect(page.locator('[data-verdict="server-strict"]')).toContainText('1 whole message read');
  await expectArrows(page, ['c1 client to server, GET /todos/1 HTTP/1.1', 'c1 server to client, HTTP/1.1 200 OK']);
});

test('curl -v over HTTP/2 shows the fields of each HEADERS frame and an arrow per message', async ({ page }) => {
  await page.goto('/inspect/');
  const result = await paste(page, fixture('curl-h2-prior-knowledge.txt'));
  await expect(result).toHaveAttribute('data-format', 'curl');
  await expect(page.getByTestId('inspect-curl-fields')).toContainText(':authority');
  await expect(page.getByTestId('inspect-curl-fields')).toContainText(':status');
  await expectArrows(page, ['c1 client to server, GET /todos/1', 'c1 server to client, HTTP/2 200']);
});

test('HTTP/2 frames as xxd and od -x: frames, HPACK and flow control; a cut capture says where', async ({ page }) => {
  await page.goto('/inspect/');
  let result = await paste(page, fixture('h2-client.xxd.txt'));
  await expect(result).toHaveAttribute('data-format', 'h2');
  await expect(result).toContainText('frames from the client, 2 field blocks');
  await expect(tab(page, 'Frames')).toBeVisible();
  await tab(page, 'HPACK').click();
  await expect(page.getByRole('tabpanel')).toContainText(':path');
  await expectArrows(
    page,
    ['c1 client to server, preface', 'c1 client to server, SETTINGS', 'c1 client to server, PRIORITY s3', 'c1 client to server, HEADERS s13'],
    (a) => /, (preface|SETTINGS|PRIORITY s3|HEADERS s13)$/.test(a),
  );
  result = await paste(page, fixture('h2-server.od.txt'));
  await expect(result).toContainText('frames from the server');
  await expect(page.getByTestId('inspect-flow')).toContainText('connection');
  await expectArrows(page, ['c1 server to client, SETTINGS', 'c1 server to client, SETTINGS ACK', 'c1 server to client, HEADERS s13'], (a) =>
    /, (SETTINGS|SETTINGS ACK|HEADERS s13)$/.test(a),
  );
  const hex = fixture('h2-server.hexstream.txt').trim();
  await paste(page, hex.slice(0, hex.length - 20));
  await expect(page.getByTestId('inspect-problem')).toContainText(/cut short/);
});

test('an HPACK block alone, and one that breaks the table size', async ({ page }) => {
  await page.goto('/inspect/');
  await page.getByTestId('inspect-format').selectOption('hpack');
  await paste(page, '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d');
  await expect(page.getByTestId('inspect-fields')).toContainText('www.example.com');
  await expect(tab(page, 'HPACK')).toBeVisible();
  // Two 55-octet entries (RFC 7541 C.2.1's literal, twice): at a starting size of 64 the second evicts the first.
  const literal = '400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572';
  await page.getByLabel('HPACK table size').fill('64');
  await paste(page, `${literal} ${literal}`);
  await tab(page, 'HPACK').click();
  await expect(page.getByTestId('hpack-dynamic-table')).toContainText('55 of 64 octets, 1 entries');
  await expect(page.getByTestId('hpack-dynamic-table').locator('[data-entry="evicted"]')).toHaveCount(1);
  // A size update to 4,096 octets (RFC 7541 §6.3) when the table may hold only 256.
  await page.getByLabel('HPACK table size').fill('256');
  await paste(page, '3fe11f');
  await expect(page.getByTestId('inspect-problem')).toContainText('byte 0 of the block');
});

test('a HAR: waterfall, sequence and the HAR 1.2 checks; broken JSON is located', async ({ page }) => {
  await page.goto('/inspect/');
  const result = await paste(page, fixture('chromium.har'));
  await expect(result).toHaveAttribute('data-format', 'har');
  await expect(page.getByTestId('inspect-har-checks')).toContainText('no errors');
  await tab(page, 'Waterfall').click();
  await expect(page.getByRole('tabpanel')).toContainText('/todos/1');
  await expectArrows(page, [
    'c1 client to server, GET / HTTP/1.1',
    'c1 server to client, HTTP/1.1 200 OK',
    'c1 client to server, GET /style.css HTTP/1.1',
    'c1 server to client, HTTP/1.1 200 OK',
    'c1 client to server, GET /todos/1 HTTP/1.1',
    'c1 server to client, HTTP/1.1 200 OK',
    'c1 client to server, POST /todos HTTP/1.1',
    'c1 server to client, HTTP/1.1 201 Created',
  ]);
  // Waits for this reading, not the one before (whose checks said 'no errors' too): a Sequence tab pressed before
  // it lands would be replaced by the new reading's panel, which opens on the Waterfall.
  await expect(await paste(page, fixture('firefox.har'))).toContainText('recorded by Firefox');
  await expect(page.getByTestId('inspect-har-checks')).toContainText('no errors');
  await expectArrows(
    page,
    [
      'c1 client to server, GET /page.html HTTP/1.1',
      'c1 client to server, GET /style.css HTTP/1.1',
      'c1 client to server, GET /todos/1 HTTP/1.1',
      'c1 client to server, GET /favicon.ico HTTP/1.1',
      'c1 client to server, POST /todos HTTP/1.1',
      'c1 client to server, GET /missing HTTP/1.1',
    ],
    (a) => a.includes('client to server'),
  );
  const har = JSON.parse(fixture('chromium.har'));
  delete har.log.entries[0].timings;
  await paste(page, JSON.stringify(har));
  await expect(page.getByTestId('inspect-har-checks')).toContainText('log.entries[0].timings');
  await paste(page, '{"log": {"version": "1.2",, }}');
  await expect(page.getByTestId('inspect-problem')).toContainText(/line 1, column \d+/);
  await paste(page, 'just some words');
  await expect(page.getByTestId('inspect-problem')).toContainText('Not recognized');
});

test('a share link brings the input back and reads it; replay opens the playground', async ({ page }) => {
  await page.goto('/inspect/');
  await paste(page, fixture('http1-conversation.txt'));
  await page.getByRole('button', { name: 'Share link' }).click();
  const link = await page.getByTestId('inspect-share').getByRole('link').getAttribute('href');
  expect(link).toMatch(/#pg=inspect&s=1\./);
  await page.getByRole('button', { name: 'Replay in playground' }).click();
  const replay = await page.getByTestId('inspect-replay').getAttribute('href');
  expect(replay).toMatch(/^\/playground\/hello-wire\/#pg=hello-wire&s=1\./);

  const fresh = await page.context().newPage();
  await fresh.goto(link!);
  // A link addressed to the inspector wakes it at once (no interaction needed) and reads the input.
  await expect(fresh.getByTestId('inspect-result')).toHaveAttribute('data-format', 'http1');
  await expect(fresh.getByLabel(/Paste bytes, text or a HAR/)).toHaveValue(/GET \/notes\/1 HTTP\/1.1/);

  await fresh.goto(replay!);
  await expect(fresh.getByText('recorded: Record<string')).toBeVisible();
});

test("Inspect and then Share link, both pressed while the inspector's code is still loading, are both performed", async ({ page }) => {
  await page.goto('/inspect/');
  // Hold back every module the island's waking asks for, so both presses land before it hydrates.
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_astro/**', async (route) => {
    await gate;
    await route.continue();
  });
  await page.getByLabel(/Paste bytes, text or a HAR/).fill(fixture('http1-conversation.txt'));
  await page.getByRole('button', { name: 'Inspect', exact: true }).click();
  await page.getByRole('button', { name: 'Share link' }).click();
  await expect(page.locator('astro-island[data-wake-action="inspect share"]')).toHaveCount(1);
  release();
  await expect(page.getByTestId('inspect-share').getByRole('link')).toHaveAttribute('href', /#pg=inspect&s=1\./);
  await expect(page.getByTestId('inspect-result')).toHaveAttribute('data-format', 'http1');
  await expect(page.getByRole('button', { name: 'Replay in playground' })).toBeVisible();
  // Requests still held by the route end with the test instead of failing the worker after it.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('an input too large to share says so', async ({ page }) => {
  await page.goto('/inspect/');
  // Random bytes as hex compress only to about half (4 bits of information per digit): 100,000 digits make a
  // link well over the limit. xorshift32 (Marsaglia 2003) keeps the input the same on every run.
  let x = 2463534242;
  const digits = Array.from({ length: 100_000 }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) & 15).toString(16);
  }).join('');
  await page.getByLabel(/Paste bytes, text or a HAR/).fill(digits);
  await page.getByRole('button', { name: 'Share link' }).click();
  await expect(page.getByTestId('inspect-share')).toContainText('Too large to share');
});

test('no serious accessibility violation with a result on screen', async ({ page }) => {
  await page.goto('/inspect/');
  await paste(page, fixture('h2-client.xxd.txt'));
  await expect(tab(page, 'Frames')).toBeVisible();
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

/** Drops `files` (name and text) on the page's heading, far from the text box, as a reader's drag from a file manager does. */
async function drop(page: Page, files: { name: string; text: string }[]) {
  await page.evaluate((list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([f.text], f.name));
    const heading = document.querySelector('main h1')!;
    for (const type of ['dragenter', 'dragover', 'drop']) heading.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
  }, files);
}

test('a 10 MB HAR dropped on the page: read off the main thread, every entry listed, and a larger file refused with the limit named', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/inspect/');
  const har = JSON.parse(fixture('chromium.har'));
  const one = har.log.entries[3];
  const entries = [];
  const size = JSON.stringify(one).length + 12;
  for (let i = 0; entries.length * size < 9_900_000; i++)
    entries.push({
      ...one,
      request: { ...one.request, url: `${one.request.url}/${i}` },
      startedDateTime: new Date(Date.parse(one.startedDateTime) + i).toISOString(),
    });
  har.log.entries = entries;
  const text = JSON.stringify(har);
  expect(text.length).toBeGreaterThan(9_000_000);
  expect(text.length).toBeLessThan(10 * 1024 * 1024);
  await page.getByLabel(/Paste bytes, text or a HAR/).hover();
  await drop(page, [{ name: 'big.har', text }]);
  const button = page.getByRole('button', { name: /Inspect|Reading/ });
  // The page renders "Reading…" and then still runs script while the file is being read: the reading happens in
  // the worker. Read on the main thread, the evaluation below would wait until the result had replaced it.
  await expect(button).toHaveText('Reading…');
  expect(await page.evaluate(() => document.querySelector('.rt-inspect button[data-primary]')?.textContent)).toBe('Reading…');
  await expect(page.getByTestId('inspect-result')).toHaveAttribute('data-format', 'har', { timeout: 90_000 });
  // Every entry is listed (the count and the table's row count); only the rows in view are in the DOM.
  const count = entries.length.toLocaleString('en');
  await expect(page.getByTestId('waterfall-summary')).toContainText(`${count} requests`);
  await expect(page.getByRole('table', { name: /^Requests of/ })).toHaveAttribute('aria-rowcount', String(entries.length + 1));
  expect(await page.locator('.rt-tl-waterfall tbody tr[data-request-id]').count()).toBeLessThan(100);
  // The last entry is there: scrolled to the end of the list, its row is drawn.
  await page.locator('.rt-tl-waterfall .rt-tl-scroll-x').evaluate((box) => {
    box.scrollTop = box.scrollHeight;
  });
  await expect(page.locator(`tr[aria-rowindex="${entries.length + 1}"] .rt-tl-name`)).toHaveText(`/todos/${entries.length - 1}`);
  // The text is not copied into the box (laying out 10 MB of text froze the page for 1.8 s); the box says why.
  await expect(page.getByLabel(/Paste bytes, text or a HAR/)).toHaveValue('');
  await expect(page.getByLabel(/Paste bytes, text or a HAR/)).toHaveAttribute('placeholder', /big\.har \(\d+\.\d MB\) is read as a file/);
  // Over the limit: refused, and the page says what the limit is.
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(11_000_000)], 'huge.har'));
    document.querySelector('main h1')!.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data }));
  });
  await expect(page.getByTestId('inspect-problem')).toHaveText('huge.har is 11.0 MB; the inspector reads files up to 10 MB.');
});

test('a file dropped, and one chosen, while the inspector is still asleep are both read once it wakes', async ({ page }) => {
  await page.goto('/inspect/');
  // Hold back every module the island's waking asks for, so the drop lands before it hydrates.
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_astro/**', async (route) => {
    await gate;
    await route.continue();
  });
  await drop(page, [{ name: 'chromium.har', text: fixture('chromium.har') }]);
  // Asleep: the island has not hydrated, and the drop is kept.
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { __rtInspectFiles: { queue: File[][] } }).__rtInspectFiles.queue.map((f) => f[0]!.name))).toEqual([
    'chromium.har',
  ]);
  // A file chosen in the input, still asleep: kept after the drop.
  await page
    .getByTestId('inspect-file')
    .setInputFiles({ name: 'conversation.txt', mimeType: 'text/plain', buffer: Buffer.from(fixture('http1-conversation.txt')) });
  expect(await page.evaluate(() => (window as unknown as { __rtInspectFiles: { queue: File[][] } }).__rtInspectFiles.queue.length)).toBe(2);
  release();
  // Both are read, in order: the HAR, then the conversation, which is what the page shows last.
  await expect(page.getByTestId('inspect-result')).toHaveAttribute('data-format', 'http1');
  await expect(page.getByTestId('inspect-result')).toContainText('from conversation.txt');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  // Awake, a drop anywhere on the page is read too.
  await drop(page, [{ name: 'chromium.har', text: fixture('chromium.har') }]);
  await expect(page.getByTestId('inspect-result')).toHaveAttribute('data-format', 'har');
  await expect(page.getByTestId('inspect-result')).toContainText('from chromium.har');
});

test('the waterfall filters and sorts as DevTools does, from the keyboard too', async ({ page }) => {
  await page.goto('/inspect/');
  await paste(page, fixture('chromium.har'));
  await tab(page, 'Waterfall').click();
  const summary = page.getByTestId('waterfall-summary');
  await expect(summary).toContainText('4 requests');
  const filter = page.getByRole('searchbox', { name: 'Filter requests' });
  await filter.fill('todos');
  await expect(summary).toContainText('2 of 4 requests');
  await filter.fill('method:POST');
  await expect(summary).toContainText('1 of 4 requests');
  await filter.fill('');
  await page.getByRole('group', { name: 'Resource type' }).getByRole('button', { name: 'CSS' }).click();
  await expect(summary).toContainText('1 of 4 requests');
  await expect(page.locator('.rt-tl-waterfall tbody .rt-tl-name')).toHaveText(['/style.css']);
  await page.getByRole('group', { name: 'Resource type' }).getByRole('button', { name: 'All' }).click();
  // Sorted by size, largest first, with the keyboard: Tab to the header's button, Enter twice.
  const size = page.getByRole('button', { name: /^Size/ });
  await size.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('columnheader', { name: /^Size/ })).toHaveAttribute('aria-sort', 'descending');
  // Chromium's _transferSize: / 264, /todos 204, /todos/1 193, /style.css 158.
  await expect(page.locator('.rt-tl-waterfall tbody .rt-tl-name')).toHaveText(['/', '/todos', '/todos/1', '/style.css']);
  await page.locator('.rt-tl-waterfall tbody .rt-tl-name').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('.rt-tl-waterfall tbody .rt-tl-name').nth(1)).toBeFocused();
  // The filter bar, the sortable headers and the type toggles pass axe.
  const results = await new AxeBuilder({ page }).include('.rt-tl-waterfall').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});

test('a phone, 390 px: the page does not scroll sideways and the waterfall pans under its Name column to the bars', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/inspect/');
  await expect(await paste(page, fixture('chromium.har'))).toBeVisible();
  await expect(page.getByTestId('waterfall-summary')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The table's box is its sideways scroller and is wider than the phone: panned to its end, the bars are on
  // screen beside the names, which stay put.
  const pane = page.locator('.rt-tl-waterfall .rt-tl-scroll-x').first();
  expect(await pane.evaluate((e) => getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth)).toBe(true);
  await pane.evaluate((e) => {
    e.scrollLeft = e.scrollWidth;
  });
  const row = pane.locator('tbody tr').first();
  const name = await row.locator('td').first().boundingBox();
  const bars = await row.locator('td.rt-tl-wf-cell').boundingBox();
  const paneBox = await pane.boundingBox();
  expect(Math.abs(name!.x - paneBox!.x)).toBeLessThanOrEqual(1);
  expect(bars!.x).toBeGreaterThanOrEqual(name!.x + name!.width - 1);
  expect(bars!.x + bars!.width).toBeLessThanOrEqual(paneBox!.x + paneBox!.width + 1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
