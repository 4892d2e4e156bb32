import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import yauzl from 'yauzl';
import { decodeShareState, encodeShareState } from '../src/playground/share/codec';
import { formatShareHash, readShareHash } from '../src/playground/share/hash';
import { collectPageErrors, playground } from './helpers';
import { vizPanel } from './viz-helpers';

/** Every <Playground id="…"> embedded in the docs, read from the MDX sources the way a reader would count them. */
async function embeddedIds(): Promise<string[]> {
  const { globSync } = await import('node:fs');
  const ids: string[] = [];
  for (const file of globSync('content/docs/**/*.mdx')) {
    for (const m of (await readFile(file, 'utf8')).matchAll(/<Playground\b[^>]*\bid="([^"]+)"/g)) ids.push(m[1]!);
  }
  return ids.sort();
}

function unzip(bytes: Buffer): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files: Record<string, string> = {};
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files[entry.fileName] = Buffer.concat(chunks).toString('utf8');
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(files));
      zip.readEntry();
    });
  });
}

test('the gallery lists every docs playground, and an example loads into the big playground', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('/playground/');
  const gallery = page.getByRole('navigation', { name: 'Examples' });
  const links = gallery.getByRole('link');
  const listed = (await links.evaluateAll((as) => as.map((a) => (a as HTMLElement).dataset.example ?? ''))).sort();
  expect(listed).toEqual(await embeddedIds());
  await expect(gallery.getByRole('link', { name: 'Hello, wire' })).toHaveAttribute('aria-current', 'page');

  await gallery.getByRole('link', { name: 'Retries, step by step' }).click();
  await expect(page).toHaveURL(/\/playground\/query-states\/$/);
  const pg = playground(page, 'query-states');
  await expect(pg.staticCode).toContainText('failureCount');
  await expect(pg.root.locator('.rt-options')).toBeVisible(); // the full page opens its options
  await expect(page.getByRole('link', { name: 'Queries' }).first()).toBeVisible();
  await pg.run.click();
  await expect(pg.output).toContainText('final state:');
  expect(errors).toEqual([]);
});

test('a share link round-trips for every example in the gallery', async ({ page }) => {
  test.setTimeout(180_000);
  for (const id of await embeddedIds()) {
    const code = `// shared copy of ${id}\nconsole.log(${JSON.stringify(id)});\n`;
    await page.goto(`/playground/${id}/${formatShareHash({ id, encoded: await encodeShareState({ code }) })}`);
    const pg = playground(page, id);
    await expect.poll(() => pg.staticCode.innerText(), { message: id }).toBe(code);
    await expect(pg.root).toContainText('Opened from a shared link');
  }
});

test('"Open in playground" carries the edited code and options to /playground', async ({ page }) => {
  await page.goto('/http/http3/');
  const pg = playground(page, 'http3-loss');
  await pg.root.getByRole('button', { name: /^Options/ }).click();
  await pg.root.getByLabel('Round-trip time', { exact: true }).fill('300');
  await pg.root.getByLabel('Round-trip time', { exact: true }).press('Enter');
  await pg.replaceCode(
    "import { defineOptions } from 'roundtrip/playground';\nconst { rtt } = defineOptions({ rtt: { type: 'number', default: 100, min: 1, max: 1000, doc: 'Round-trip time' } });\nconsole.log('carried', rtt);\n",
  );
  await pg.root.getByRole('link', { name: 'Open in playground' }).click();
  await expect(page).toHaveURL(/\/playground\/http3-loss\/#pg=http3-loss&s=1\./);
  const state = await decodeShareState(readShareHash(new URL(page.url()).hash)!.encoded);
  expect(state.ok && state.state.options).toEqual({ rtt: 300 });
  const big = playground(page, 'http3-loss');
  // It says where the code came from, not that someone shared it.
  await expect(big.root.getByRole('status').first()).toContainText('Opened from “HTTP/3 and QUIC”. Read the code');
  // The page's name has done its job and leaves the address; the code stays in it.
  await expect.poll(() => new URL(page.url()).hash).not.toContain('from=');
  expect(new URL(page.url()).hash).toMatch(/^#pg=http3-loss&s=1\./);
  // The carried code is coloured as the page's own snippets are, without being edited first.
  await expect(big.staticCode.locator('.astro-code span[style*="--shiki-light"]', { hasText: 'defineOptions' }).first()).toBeVisible();
  await expect(big.root.getByLabel('Round-trip time', { exact: true })).toHaveValue('300');
  await big.run.click();
  await expect(big.output).toContainText('carried 300');
});

test('"Open in playground" also carries the visualizer view and step the reader was on', async ({ page }) => {
  await page.goto('/query/queries/');
  const pg = playground(page, 'query-states');
  await pg.run.click();
  const viz = vizPanel(pg.root);
  await expect(pg.output).toContainText('final state');
  await viz.panel.getByRole('tab', { name: 'Event timeline', exact: true }).click();
  // A finished run shows its final state at once; the reader goes back to the start and steps.
  await expect.poll(async () => (await viz.cursor()) === (await viz.total()) - 1).toBe(true);
  await viz.slider.focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await viz.stepForward.click();
  const said = await viz.log.textContent();
  await pg.root.getByRole('link', { name: 'Open in playground' }).click();
  await expect(page).toHaveURL(/\/playground\/query-states\/#pg=query-states&s=1\./);
  const decoded = await decodeShareState(readShareHash(new URL(page.url()).hash)!.encoded);
  expect(decoded.ok && { view: decoded.state.view, step: decoded.state.step }).toEqual({ view: 'events', step: 3 });
  const big = playground(page, 'query-states');
  await expect(big.root.getByRole('status').first()).toContainText('Run will open at step 4');
  await big.run.click();
  const bigViz = vizPanel(big.root);
  await expect.poll(() => bigViz.cursor()).toBe(3);
  await expect(bigViz.panel.getByRole('tab', { name: 'Event timeline', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(bigViz.log).toHaveText(said!);
});

test('Reset asks before discarding edits and restores the original example', async ({ page }) => {
  await page.goto('/playground/hello-wire/');
  const pg = playground(page, 'hello-wire');
  await pg.replaceCode("console.log('my edit')");
  const reset = pg.root.getByRole('button', { name: 'Reset', exact: true });
  page.once('dialog', (d) => void d.dismiss());
  await reset.click();
  await expect(pg.root.locator('.rt-editor .view-lines')).toContainText('my edit');
  page.once('dialog', (d) => {
    expect(d.message()).toContain('Discard your changes');
    void d.accept();
  });
  await reset.click();
  await expect(pg.root.locator('.rt-editor .view-lines')).toContainText('roundtrip/wire');
  await expect(reset).toHaveCount(0);
});

test('Reset after opening a share link drops the link from the address, so a reload shows the original', async ({ page }) => {
  const code = "console.log('from a link')\n";
  await page.goto(`/playground/hello-wire/${formatShareHash({ id: 'hello-wire', encoded: await encodeShareState({ code }) })}`);
  const pg = playground(page, 'hello-wire');
  await expect.poll(() => pg.staticCode.innerText()).toBe(code);
  page.once('dialog', (d) => void d.accept());
  await pg.root.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(pg.staticCode).toContainText("from 'roundtrip/wire'");
  expect(new URL(page.url()).hash).toBe('');
  await page.reload();
  await expect(pg.staticCode).toContainText("from 'roundtrip/wire'");
  await expect(pg.root).not.toContainText('Opened from a shared link');
});

test('Download project gives a zip with package.json, tsconfig, the snippet, a README and the libraries', async ({ page }) => {
  await page.goto('/playground/http3-loss/');
  const pg = playground(page, 'http3-loss');
  const [download] = await Promise.all([page.waitForEvent('download'), pg.root.getByRole('button', { name: 'Download project' }).click()]);
  expect(download.suggestedFilename()).toBe('http3-loss.zip');
  const files = await unzip(await readFile((await download.path())!));
  const pkg = JSON.parse(files['package.json']!);
  expect(pkg.dependencies.roundtrip).toBe('file:./vendor/roundtrip');
  expect(pkg.scripts.start).toBe('tsx src/main.ts');
  expect(files['src/main.ts']).toContain("from 'roundtrip/wire'");
  expect(files['tsconfig.json']).toContain('"strict": true');
  expect(files['README.md']).toContain('not published to npm');
  expect(Object.keys(files)).toContain('vendor/roundtrip/dist/wire.js');
  expect(Object.keys(files)).toContain('vendor/roundtrip/wire/index.d.ts');
  await expect(pg.root.getByRole('status').last()).toContainText('Downloaded http3-loss.zip');
});

test("the downloaded project runs with the options the reader chose: they become defineOptions' defaults", async ({ page }) => {
  await page.goto('/playground/query-states/');
  const pg = playground(page, 'query-states');
  const retry = pg.root.getByLabel('Retries', { exact: true });
  await retry.fill('1');
  await retry.press('Enter');
  await expect(pg.root.getByText('(default 3)')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), pg.root.getByRole('button', { name: 'Download project' }).click()]);
  const files = await unzip(await readFile((await download.path())!));
  expect(files['src/main.ts']).toMatch(/retry: \{\s*type: 'number',\s*default: 1,/);
  expect(files['src/main.ts']).toMatch(/retryDelay: \{ type: 'number', default: 10, /);
  expect(files['README.md']).toContain('- `retry`: `1`');
});
