import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { decodeShareState, encodeShareState } from '../src/playground/share/codec';
import { formatShareHash, readShareHash } from '../src/playground/share/hash';
import { collectPageErrors, playground } from './helpers';

const PAGE = '/http/http3/';
const ID = 'http3-loss';
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

function options(page: Page, id = ID) {
  const pg = playground(page, id);
  return {
    ...pg,
    toggle: pg.root.getByRole('button', { name: /^Options/ }),
    panel: pg.root.getByRole('group', { name: /options$/ }),
    // By the option's name in the snippet (its label is words: "rtt" is labelled "Round-trip time").
    field: (name: string) => pg.root.locator(`[data-option="${name}"]`).locator('input, select'),
  };
}

async function seriousViolations(page: Page, include: string) {
  const results = await new AxeBuilder({ page }).include(include).withTags(WCAG_22_AA).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the options panel is generated from the schema before anything runs', async ({ page, request }) => {
  // Read at build time: the schema is in the page's HTML, in the island's props, before any script runs.
  const html = await (await request.get(PAGE)).text();
  expect(html).toContain('Probability that a data packet is lost');
  await page.goto(PAGE);
  const pg = options(page);
  await pg.toggle.click();
  await expect(pg.toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(pg.panel).toBeVisible();
  await expect(pg.field('loss')).toHaveValue('0.1');
  await expect(pg.field('rtt')).toHaveValue('100');
  await expect(pg.field('seed')).toHaveValue('2');
  await expect(pg.field('loss')).toHaveAccessibleDescription(/Probability that a data packet is lost/);
  // Labelled in words, the name beside the doc line (issue #27: the knob was labelled "rtt").
  await expect(pg.root.getByLabel('Round-trip time', { exact: true })).toHaveValue('100');
  await expect(pg.field('rtt')).toHaveAccessibleDescription(/^rtt: Round-trip time, virtual ms/);
  // Nothing ran to draw it.
  await expect(pg.output).toHaveText('Console output appears here.');
  expect(await seriousViolations(page, `[data-playground-id="${ID}"]`)).toEqual([]);
});

test('changing a knob re-runs with the new value; a bad entry says what was expected', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto(PAGE);
  const pg = options(page);
  await pg.toggle.click();
  await pg.field('loss').fill('0');
  await pg.field('loss').press('Enter');
  await expect(pg.output).toContainText('HTTP/3, loss 0: ');
  await expect(pg.output).toContainText(/Finished in/);
  await expect(pg.output).not.toContainText('loss 0.1');
  await pg.field('rtt').fill('5000');
  await expect(pg.field('rtt')).toHaveAttribute('aria-invalid', 'true');
  await expect(pg.root.getByRole('alert')).toHaveText('Expected a number from 1 to 1000.');
  await pg.field('rtt').fill('200');
  await pg.field('rtt').blur();
  await expect(pg.field('rtt')).not.toHaveAttribute('aria-invalid');
  await expect(pg.output).toContainText(/HTTP\/2, loss 0: 400 ms to connect/);
  expect(errors).toEqual([]);
});

test('a share link stores only non-default options and the seed, and restores them', async ({ page, browser, baseURL }) => {
  await page.goto(PAGE);
  const pg = options(page);
  await pg.toggle.click();
  await pg.field('rtt').fill('250');
  await pg.field('rtt').press('Enter');
  await pg.field('seed').fill('9');
  await pg.field('seed').press('Enter');
  // Run once more after both changes, so the output compared below is certainly from rtt 250 and seed 9.
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in/);
  await expect(pg.run).toHaveText('Run');
  await pg.share.click();
  await expect(page).toHaveURL(/#pg=http3-loss&s=1\./);
  const shared = readShareHash(new URL(page.url()).hash);
  const decoded = await decodeShareState(shared!.encoded);
  expect(decoded.ok && decoded.state.options).toEqual({ rtt: 250 });
  expect(decoded.ok && decoded.state.seed).toBe(9);
  const expected = await pg.output.innerText();

  const fresh = await browser.newContext({ baseURL });
  const other = await fresh.newPage();
  await other.goto(page.url());
  const opened = options(other);
  await expect(opened.panel).toBeVisible();
  await expect(opened.field('rtt')).toHaveValue('250');
  await expect(opened.field('seed')).toHaveValue('9');
  await expect(opened.field('loss')).toHaveValue('0.1');
  // Not run until asked; then the same seed replays the same losses.
  await expect(opened.output).toContainText('Console output appears here.');
  await opened.run.click();
  await expect(opened.output).toContainText(/Finished in/);
  const replayed = await opened.output.innerText();
  const withoutTiming = (t: string) => t.replace(/Finished in \d+ ms\./, '');
  expect(withoutTiming(replayed)).toBe(withoutTiming(expected));
  await fresh.close();
});

test('a link with a value that does not fit the option gets an error naming it', async ({ page }) => {
  const code =
    "import { defineOptions } from 'roundtrip/playground';\nconst { rtt } = defineOptions({ rtt: { type: 'number', default: 100, min: 1, max: 1000, doc: 'Round-trip time' } });\nconsole.log('rtt', rtt);\n";
  const hash = formatShareHash({ id: ID, encoded: await encodeShareState({ code, options: { rtt: 'fast' } }) });
  await page.goto(`${PAGE}${hash}`);
  const pg = options(page);
  await pg.run.click();
  await expect(pg.output).toContainText('OptionsError: Option "rtt" must be a number from 1 to 1000; got "fast".');
  await expect(pg.output).toContainText(/line 2/);
});

test('editing the schema in the code redraws the panel after the next run', async ({ page }) => {
  await page.goto(PAGE);
  const pg = options(page);
  await pg.replaceCode(
    "import { defineOptions } from 'roundtrip/playground';\nconst { greeting, loud } = defineOptions({\n  greeting: { type: 'select', choices: ['hello', 'bonjour'], default: 'hello', doc: 'What to say' },\n  loud: { type: 'boolean', default: false, doc: 'Shout it' },\n});\nconsole.log(loud ? greeting.toUpperCase() : greeting);\n",
  );
  await pg.run.click();
  await expect(pg.output).toContainText('hello');
  if ((await pg.toggle.getAttribute('aria-expanded')) !== 'true') await pg.toggle.click();
  await expect(pg.field('loss')).toHaveCount(0);
  await pg.field('greeting').selectOption('bonjour');
  await expect(pg.output).toContainText('bonjour');
  await pg.field('loud').check();
  await expect(pg.output).toContainText('BONJOUR');
  await pg.root.getByRole('button', { name: 'Reset options to defaults' }).click();
  await expect(pg.field('loud')).not.toBeChecked();
  await expect(pg.output).toContainText(/^hello/m);
});

test('axe: no serious violation with the editor focused and the console open', async ({ page }) => {
  test.setTimeout(150_000); // axe's contrast rule is slow on a busy machine
  await page.goto(PAGE);
  const pg = options(page);
  await pg.edit.click();
  await expect(pg.editor).toBeVisible();
  await pg.root.locator('.rt-editor .view-lines').click();
  await expect(pg.editor).toHaveClass(/\bfocused\b/);
  expect(await seriousViolations(page, `[data-playground-id="${ID}"]`)).toEqual([]);
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in/);
  await expect(pg.root.getByRole('button', { name: 'Clear console' })).toBeVisible();
  expect(await seriousViolations(page, `[data-playground-id="${ID}"]`)).toEqual([]);
});

test('an option changed before the playground woke up is the one the run uses (the full page panel is in the HTML)', async ({ page }) => {
  // The panel's controls are server-rendered: a click on a switch, or a select changed without focusing it
  // first, can land before the island hydrates. What the control shows is what must run.
  await page.goto('/playground/offline/');
  const pg = options(page, 'offline');
  await pg.field('startOnline').click();
  await pg.field('networkMode').selectOption('offlineFirst');
  await expect(pg.field('startOnline')).toBeChecked();
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in/);
  // Started online: nothing waits for the network, and the panel still shows what was chosen.
  await expect(pg.output).toContainText('mutation paused? false');
  await expect(pg.output).not.toContainText('pending paused');
  await expect(pg.field('startOnline')).toBeChecked();
  await expect(pg.field('networkMode')).toHaveValue('offlineFirst');
  // And it is what Share puts in the link.
  await pg.share.click();
  await expect
    .poll(async () => {
      const decoded = await decodeShareState(readShareHash(new URL(page.url()).hash)?.encoded ?? '');
      return decoded.ok ? decoded.state.options : decoded;
    })
    .toEqual({ startOnline: true, networkMode: 'offlineFirst' });
});
