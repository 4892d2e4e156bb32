/**
 * The inspector views on real docs pages: the message inspector and the state machines for the malformed
 * request on the HTTP "Messages" page, and the frame inspector and HPACK stepper for an HTTP/2 simulation run
 * in the HTTP/2 page's playground.
 */
import { expect, test, type Page } from '@playwright/test';
import { playground } from './helpers';
import { seriousViolations, vizPanel } from './viz-helpers';

async function runAndPause(page: Page, id: string) {
  const pg = playground(page, id);
  await pg.run.click();
  const viz = vizPanel(pg.root);
  await expect(viz.panel).toBeVisible();
  // A finished run shows its end, where every event is visible (Pause, in case a replay is running).
  if (await viz.pause.isVisible()) await viz.pause.click();
  await viz.slider.focus();
  await page.keyboard.press('End');
  return { pg, viz };
}

async function openTab(viz: ReturnType<typeof vizPanel>, name: string) {
  await viz.panel.getByRole('tab', { name, exact: true }).click();
  await expect(viz.tabpanel.locator('.rt-empty', { hasText: /^Loading/ })).toHaveCount(0);
}

test('the message inspector points at the byte a malformed request breaks on; the machine shows ERROR', async ({ page }) => {
  await page.goto('/http/messages/');
  const { pg, viz } = await runAndPause(page, 'malformed-message');
  await expect(pg.output).toContainText('400 Bad Request');

  await openTab(viz, 'Messages');
  const client = viz.tabpanel.getByRole('region', { name: 'Client → server' });
  await expect(client.locator('[data-code="whitespace-before-colon"]')).toContainText('line 2, column 5');
  const mark = client.locator('mark[data-kind="error-byte"]');
  await expect(mark).toHaveAttribute('data-start', '25');
  await expect(mark).toHaveText(' ');
  const server = viz.tabpanel.getByRole('region', { name: 'Server → client' });
  await expect(server.getByRole('button', { name: /Status code: 400/ })).toBeVisible();
  // Focusing a part in the legend highlights the same bytes in the raw message.
  const reason = server.getByRole('button', { name: /Reason phrase: Bad Request/ });
  await reason.focus();
  await expect(server.locator('.rt-mi-raw .is-selected')).toHaveText('Bad Request');
  expect(await seriousViolations(page, '[data-playground-id="malformed-message"]')).toEqual([]);

  // The server's engine had no row for that input: its client-role machine went to ERROR, outside the table.
  await openTab(viz, 'State machines');
  await expect(viz.tabpanel.locator('svg[data-machine="http1-client-role"]')).toBeVisible();
  await expect(viz.tabpanel.getByTestId('machine-state')).toHaveText('ERROR');
  await expect(viz.tabpanel.locator('.rt-sm-state.is-current')).toHaveAttribute('data-state', 'ERROR');
  await expect(viz.tabpanel.locator('.rt-sm-status')).toContainText('error: whitespace-before-colon');
  await expect(viz.tabpanel.locator('tr[aria-current="true"]')).toHaveCount(0);
  expect(await seriousViolations(page, '[data-playground-id="malformed-message"]')).toEqual([]);
});

const HTTP2_RUN = `import { createServer, createSimulation, http } from 'roundtrip/wire';
const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1 }]))] });
const sim = createSimulation({ server, httpVersion: '2', seed: 1 });
await Promise.all([sim.fetch('/todos'), sim.fetch('/todos?page=2', { headers: { 'x-trace': 'abc' } })]);
console.log('two streams done');
`;

test('the frame inspector links tree and bytes, follows the cursor, and the HPACK stepper shows the table', async ({ page }) => {
  // Editing through Monaco, a run and three views with axe each: slow on a loaded 2-core machine.
  test.setTimeout(150_000);
  await page.goto('/http/http2/');
  const pg = playground(page, 'http2-frames');
  await pg.replaceCode(HTTP2_RUN);
  const { viz } = await runAndPause(page, 'http2-frames');
  await expect(pg.output).toContainText('two streams done');

  await openTab(viz, 'Frames');
  const lanes = viz.tabpanel.getByRole('table');
  await expect(lanes.getByRole('columnheader', { name: 'Stream 0 (connection)' })).toBeVisible();
  await expect(lanes.getByRole('columnheader', { name: 'Stream 3' })).toBeVisible();
  // Clicking a frame moves the player's cursor to it.
  const before = await viz.cursor();
  await lanes
    .getByRole('button', { name: /HEADERS/ })
    .first()
    .click();
  await expect.poll(() => viz.cursor()).not.toBe(before);
  await expect(lanes.locator('tr[aria-current="true"]')).toContainText('HEADERS');
  // Hover a field: its bytes light up; the keyboard walks the bytes and selects their field.
  await viz.tabpanel.locator('[data-field="streamId"]').hover();
  await expect(viz.tabpanel.locator('[role="gridcell"][aria-selected="true"]')).toHaveCount(4);
  const grid = viz.tabpanel.getByRole('grid');
  await grid.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(viz.tabpanel.locator('[data-field="flags"]')).toHaveAttribute('aria-current', 'true');
  await expect(viz.tabpanel.locator('[role="gridcell"][aria-selected="true"]')).toHaveCount(1);
  expect(await seriousViolations(page, '[data-playground-id="http2-frames"]')).toEqual([]);

  await openTab(viz, 'HPACK');
  const table = viz.tabpanel.getByTestId('hpack-dynamic-table');
  await expect(table).toBeVisible();
  await viz.tabpanel.getByRole('button', { name: 'Show the table after representation 1' }).click();
  await expect(viz.tabpanel.locator('tr[aria-current="step"]')).toHaveAttribute('data-step', '0');
  await viz.tabpanel.getByRole('button', { name: 'Next' }).click();
  await expect(viz.tabpanel.locator('tr[aria-current="step"]')).toHaveAttribute('data-step', '1');
  expect(await seriousViolations(page, '[data-playground-id="http2-frames"]')).toEqual([]);

  // Stream 3 as the server saw it, at the end: closed, by the END_STREAM it sent.
  await viz.slider.focus();
  await page.keyboard.press('End');
  await openTab(viz, 'State machines');
  const option = await viz.tabpanel.locator('option', { hasText: 'server, stream 3' }).textContent();
  await viz.tabpanel.getByLabel('Machine').selectOption({ label: option! });
  await expect(viz.tabpanel.getByTestId('machine-state')).toHaveText('closed');
  const fired = viz.tabpanel.locator('tr[aria-current="true"]');
  await expect(fired).toHaveAttribute('data-row', 'half_closed_remote:END_STREAM:send');
  await expect(viz.tabpanel.locator('tspan.is-fired[data-row="half_closed_remote:END_STREAM:send"]')).toHaveCount(1);
  expect(await seriousViolations(page, '[data-playground-id="http2-frames"]')).toEqual([]);
});
