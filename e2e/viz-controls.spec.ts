/**
 * The visualizer panel's controls on a real docs page: the HTTP overview's "Hello, wire" playground runs a
 * simulation (two fetches over HTTP/1.1), which records a few dozen trace events.
 */
import { expect, test, type Page } from '@playwright/test';
import { har as validateHar } from 'har-validator';
import { encodeShareState } from '../src/playground/share/codec';
import { formatShareHash } from '../src/playground/share/hash';
import { playground } from './helpers';
import { downloadText, seriousViolations, settledCursor, vizPanel } from './viz-helpers';
import { describeStep } from '../src/playground/viz/describe';
import { recordingFromJson, type RecordingJson } from '../src/playground/viz/export';

const PAGE = '/http/overview/';
const ID = 'hello-wire';

async function runHelloWire(page: Page) {
  const pg = playground(page, ID);
  await pg.run.click();
  const viz = vizPanel(pg.root);
  await expect(viz.panel).toBeVisible();
  // The recording is complete once the snippet's top level has finished.
  await expect(pg.output).toContainText('Finished in');
  return { pg, viz };
}

test('Run opens the panel; play, pause, step and scrub move the cursor', async ({ page }) => {
  await page.goto(PAGE);
  const { viz } = await runHelloWire(page);
  // A finished run shows its final state at once: nothing plays, the scrubber is at the end.
  await expect(viz.play).toBeVisible();
  await expect(viz.pause).toHaveCount(0);
  const total = await viz.total();
  expect(total).toBeGreaterThan(20);
  await expect.poll(() => viz.cursor()).toBe(total - 1);
  await page.waitForTimeout(500);
  expect(await viz.cursor()).toBe(total - 1);

  await viz.slider.focus();
  await page.keyboard.press('Home');
  expect(await viz.cursor()).toBe(0);
  await expect(viz.stepBack).toBeDisabled();
  await viz.stepForward.click();
  await viz.stepForward.click();
  expect(await viz.cursor()).toBe(2);
  await viz.stepBack.click();
  expect(await viz.cursor()).toBe(1);
  await expect(viz.slider).toHaveAttribute('aria-valuetext', new RegExp(`^step 2 of ${total}, [\\d.,]+ ms$`));

  await viz.slider.focus();
  await page.keyboard.press('End');
  expect(await viz.cursor()).toBe(total - 1);
  await expect(viz.stepForward).toBeDisabled();
  await page.keyboard.press('ArrowLeft');
  expect(await viz.cursor()).toBe(total - 2);

  // Play from the end starts over; faster, it reaches the end again and stops by itself.
  await page.keyboard.press('End');
  await viz.speed.selectOption('2');
  await viz.play.click();
  await expect(viz.pause).toBeVisible();
  expect(await viz.cursor()).toBeLessThan(total - 1);
  expect(await settledCursor(viz)).toBe(total - 1);
});

test('the text log says in words what the trace holds at each step', async ({ page }) => {
  await page.goto(PAGE);
  const { viz } = await runHelloWire(page);
  const { text } = await downloadText(page, viz.exportJson);
  const json = JSON.parse(text) as RecordingJson;
  const recording = recordingFromJson(json);
  expect(recording.steps.length).toBe(await viz.total());

  await viz.slider.focus();
  await page.keyboard.press('Home');
  for (let step = 0; step < Math.min(recording.steps.length, 25); step++) {
    expect(await viz.cursor()).toBe(step);
    await expect(viz.log).toHaveText(describeStep(recording, step));
    await page.keyboard.press('ArrowRight');
  }
  // Spot checks that do not go through the describer: the words carry the event's own fields.
  const events = json.sources[0]!.events as { type: string; [k: string]: unknown }[];
  const started = events.findIndex((e) => e.type === 'request-started');
  const syn = events.findIndex((e) => e.type === 'handshake' && e.step === 'SYN');
  await viz.slider.focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < started; i++) await page.keyboard.press('ArrowRight');
  await expect(viz.log).toContainText(`${events[started]!.requestId}: ${events[started]!.method} ${events[started]!.url}`);
  await page.keyboard.press('Home');
  for (let i = 0; i < syn; i++) await page.keyboard.press('ArrowRight');
  await expect(viz.log).toHaveText(`${events[syn]!.connectionId}: SYN from client`);
});

test('a share link with view and step reproduces the same step after Run', async ({ page, context }) => {
  await page.goto(PAGE);
  const { pg, viz } = await runHelloWire(page);
  await viz.slider.focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 7; i++) await viz.stepForward.click();
  // Pick the last tab with the keyboard (WAI-ARIA tabs: End moves to, and selects, the last tab).
  const tabCount = await viz.tabs.count();
  expect(tabCount).toBeGreaterThan(1);
  await viz.tabs.first().focus();
  await page.keyboard.press('End');
  const lastTab = viz.tabs.nth(tabCount - 1);
  await expect(lastTab).toHaveAttribute('aria-selected', 'true');
  await expect(lastTab).toBeFocused();
  const view = await lastTab.getAttribute('data-view');
  const said = await viz.log.textContent();

  await pg.share.click();
  await expect(pg.root.getByRole('status').last()).toContainText(/characters/);
  const url = await page.evaluate(() => navigator.clipboard.readText());

  const other = await context.newPage();
  await other.goto(url);
  const again = playground(other, ID);
  await expect(again.root.getByRole('status').first()).toContainText('Run will open at step 8');
  // Nothing runs from a link until Run.
  await expect(vizPanel(again.root).panel).toHaveCount(0);
  const { viz: viz2 } = await runHelloWire(other);
  await expect.poll(() => viz2.cursor()).toBe(7);
  await expect(viz2.play).toBeVisible();
  await expect(viz2.panel.locator(`[role="tab"][data-view="${view}"]`)).toHaveAttribute('aria-selected', 'true');
  await expect(viz2.log).toHaveText(said!);
});

test('exports the trace as JSON and as a valid HAR', async ({ page }) => {
  await page.goto(PAGE);
  const { viz } = await runHelloWire(page);
  const json = await downloadText(page, viz.exportJson);
  expect(json.name).toBe(`${ID}-trace.json`);
  const parsed = JSON.parse(json.text) as RecordingJson;
  expect(parsed).toMatchObject({ format: 'roundtrip-recording', version: 1, playground: ID });
  expect(parsed.sources).toHaveLength(1);
  expect(parsed.sources[0]).toMatchObject({ id: 'sim-1', kind: 'wire', label: 'HTTP/1.1 · 80 ms RTT' });

  const har = await downloadText(page, viz.exportHar);
  expect(har.name).toBe(`${ID}.har`);
  const log = JSON.parse(har.text);
  await expect(validateHar(log)).resolves.toBeTruthy();
  expect(log.log.pages).toEqual([expect.objectContaining({ id: 'sim-1' })]);
  expect(log.log.entries.map((e: { request: { url: string } }) => e.request.url)).toEqual(['http://api.example/todos', 'http://api.example/todos']);
});

test('no serious or critical axe violation with the panel open, on every tab', async ({ page }) => {
  await page.goto(PAGE);
  const { viz } = await runHelloWire(page);
  const count = await viz.tabs.count();
  const problems: string[] = [];
  for (let i = 0; i < count; i++) {
    await viz.tabs.nth(i).click();
    await expect(viz.tabpanel.locator('.rt-empty', { hasText: /^Loading/ })).toHaveCount(0);
    const view = await viz.tabs.nth(i).textContent();
    problems.push(...(await seriousViolations(page, `[data-playground-id="${ID}"]`)).map((p) => `${view} tab: ${p}`));
  }
  expect(problems).toEqual([]);
});

test('under reduced motion, steps are discrete: no autoplay, stepping still works', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(PAGE);
  const { viz } = await runHelloWire(page);
  const total = await viz.total();
  await expect.poll(() => viz.cursor()).toBe(total - 1);
  await expect(viz.play).toBeDisabled();
  await expect(viz.panel).toContainText('Reduced motion is on');
  await page.waitForTimeout(800);
  expect(await viz.cursor()).toBe(total - 1);
  await viz.stepBack.click();
  expect(await viz.cursor()).toBe(total - 2);
  await viz.slider.focus();
  await page.keyboard.press('Home');
  expect(await viz.cursor()).toBe(0);
  await page.waitForTimeout(500);
  expect(await viz.cursor()).toBe(0);
});

test('a query client is recorded live, and a devtools action reaches its sandbox', async ({ page }) => {
  const code = [
    // Real time: this run is watched live as it happens, and devtools actions after it follow live too.
    '// @playground real-time',
    "import { QueryClient } from 'roundtrip/query';",
    '',
    'let calls = 0;',
    'const client = new QueryClient();',
    "await client.fetchQuery({ queryKey: ['todos'], queryFn: async () => { calls += 1; console.log(`queryFn call ${calls}`); return ['a']; } });",
    '',
  ].join('\n');
  const hash = formatShareHash({ id: 'hello-query', encoded: await encodeShareState({ code }) });
  await page.goto(`/query/overview/${hash}`);
  const pg = playground(page, 'hello-query');
  await pg.run.click();
  await expect(pg.output).toContainText('Finished in');
  const viz = vizPanel(pg.root);
  // Finished: nothing replays by itself; the cursor stays on the newest step.
  await expect(viz.play).toBeVisible();
  const total = await viz.total();
  expect(total).toBeGreaterThan(1);
  expect(await viz.cursor()).toBe(total - 1);

  await viz.panel.getByRole('tab', { name: 'Query devtools' }).click();
  await viz.tabpanel.getByRole('button', { name: /'todos'/ }).click();
  await viz.tabpanel.getByRole('button', { name: 'Refetch' }).click();
  // The action ran in the sandbox (the query function ran again) and its events followed live.
  await expect(pg.output).toContainText('queryFn call 2');
  await expect.poll(() => viz.total()).toBeGreaterThan(total);
  expect(await viz.cursor()).toBe((await viz.total()) - 1);
});
