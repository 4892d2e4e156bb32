/**
 * Room for the visualizers (issue #22, item 5), measured in the browser at 1280 px wide: every text label of
 * the state diagrams and sequence diagrams is drawn at 11 px or more (its computed font size times the SVG's
 * scale on screen), and no two labels overlap (their drawn boxes, rotated with their text, may touch or cross
 * by 1 px); the query diagram fits the panel without scrolling sideways. On a phone, the machine picker fits the
 * screen and the transition table keeps the current row in sight by scrolling only itself, and only as far as
 * needed. The panel's full-window toggle covers the window, holds the page still, returns on Esc and keeps
 * focus; axe finds nothing serious either way.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { playground } from './helpers';
import { seriousViolations, vizPanel } from './viz-helpers';

test.use({ viewport: { width: 1280, height: 900 } });

const MIN_PX = 11;
const TOLERANCE = 1;

interface Label {
  readonly text: string;
  readonly px: number;
  /** Corners on screen, in order around the box. */
  readonly quad: [number, number][];
}

/**
 * Every label under `selector`: the leaf text elements (a tspan per table row in a state diagram, else the text),
 * with their box mapped through the element's screen transform, so rotation and the viewBox's scale count.
 */
function collectLabels(page: Page, selector: string): Promise<Label[]> {
  return page.evaluate((sel) => {
    const out: { text: string; px: number; quad: [number, number][] }[] = [];
    for (const svg of document.querySelectorAll<SVGSVGElement>(sel)) {
      for (const text of svg.querySelectorAll<SVGTextElement>('text')) {
        const spans = [...text.querySelectorAll<SVGTSpanElement>('tspan')];
        for (const el of spans.length > 0 ? spans : [text]) {
          const content = (el.textContent ?? '').trim();
          if (!content) continue;
          const ctm = el.getScreenCTM();
          if (!ctm) continue;
          const box = el.getBBox();
          if (box.width === 0 || box.height === 0) continue;
          const scale = Math.sqrt(Math.abs(ctm.a * ctm.d - ctm.b * ctm.c));
          const corners: [number, number][] = [
            [box.x, box.y],
            [box.x + box.width, box.y],
            [box.x + box.width, box.y + box.height],
            [box.x, box.y + box.height],
          ];
          const quad = corners.map(([x, y]) => [ctm.a * x + ctm.c * y + ctm.e, ctm.b * x + ctm.d * y + ctm.f] as [number, number]);
          out.push({ text: content, px: Number.parseFloat(getComputedStyle(el).fontSize) * scale, quad });
        }
      }
    }
    return out;
  }, selector);
}

/** Separating axis test: do two convex quads overlap by more than `tolerance` px along every axis? */
function overlap(a: [number, number][], b: [number, number][], tolerance: number): boolean {
  for (const q of [a, b]) {
    for (let i = 0; i < q.length; i++) {
      const [x1, y1] = q[i]!;
      const [x2, y2] = q[(i + 1) % q.length]!;
      const len = Math.hypot(x2 - x1, y2 - y1);
      if (len === 0) continue;
      const [ax, ay] = [-(y2 - y1) / len, (x2 - x1) / len];
      const pa = a.map(([x, y]) => x * ax + y * ay);
      const pb = b.map(([x, y]) => x * ax + y * ay);
      if (Math.min(Math.max(...pa), Math.max(...pb)) - Math.max(Math.min(...pa), Math.min(...pb)) <= tolerance) return false;
    }
  }
  return true;
}

/** Labels under 11 px, and pairs that overlap, one line each. */
function problems(labels: readonly Label[]): string[] {
  const out: string[] = [];
  for (const l of labels) if (l.px < MIN_PX - 0.01) out.push(`"${l.text}" is ${l.px.toFixed(1)} px`);
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++)
      if (overlap(labels[i]!.quad, labels[j]!.quad, TOLERANCE)) out.push(`"${labels[i]!.text}" overlaps "${labels[j]!.text}"`);
  return out;
}

/** Runs a playground to its end and opens a view; returns the panel. */
async function runAndOpen(page: Page, id: string, tab: string) {
  const pg = playground(page, id);
  await pg.run.click();
  const viz = vizPanel(pg.root);
  await expect(viz.panel).toBeVisible();
  await expect(pg.output).toContainText('Finished in', { timeout: 60_000 });
  if (await viz.pause.isVisible()) await viz.pause.click();
  await viz.slider.focus();
  await page.keyboard.press('End');
  await expect.poll(async () => (await viz.cursor()) + 1).toBe(await viz.total());
  await viz.panel.getByRole('tab', { name: tab, exact: true }).click();
  await expect(viz.tabpanel.locator('.rt-empty', { hasText: /^Loading/ })).toHaveCount(0);
  return { pg, viz };
}

async function pickMachine(tabpanel: Locator, group: string, machine: string) {
  const select = tabpanel.getByRole('combobox', { name: 'Machine' });
  const value = await select.locator(`optgroup[label="${group}"] option`).first().getAttribute('value');
  await select.selectOption(value!);
  await expect(tabpanel.locator(`svg[data-machine="${machine}"]`)).toBeVisible();
}

/** Measures once the drawing has stopped changing (labels appear as the view catches up with the cursor). */
async function settledLabels(page: Page, selector: string): Promise<Label[]> {
  let last = -1;
  let labels: Label[] = [];
  await expect
    .poll(async () => {
      labels = await collectLabels(page, selector);
      const same = labels.length === last;
      last = labels.length;
      return same && labels.length > 0;
    })
    .toBe(true);
  return labels;
}

test('the query state diagram: labels 11 px or more, none overlapping', async ({ page }) => {
  await page.goto('/query/overview/');
  const { viz } = await runAndOpen(page, 'dedup', 'State machines');
  await pickMachine(viz.tabpanel, 'Queries', 'query');
  const labels = await settledLabels(page, '[data-playground-id="dedup"] svg.rt-sm-svg');
  // Nine states and the table's rows, every one of them measured.
  expect(labels.length).toBeGreaterThan(20);
  expect(problems(labels)).toEqual([]);
  // The playground keeps to the text column (about 630 px at 1280, so it never covers "On this page"), which is
  // narrower than the diagram drawn at full size: the box pans, says so, and keeps the current state in view.
  const diagram = viz.tabpanel.getByRole('region', { name: 'State diagram' });
  if ((await diagram.evaluate((d) => d.scrollWidth - d.clientWidth)) > 0) {
    await expect(viz.tabpanel.getByTestId('machine-pan-hint')).toBeVisible();
    const [box, state] = [await diagram.boundingBox(), await viz.tabpanel.locator('svg.rt-sm-svg .is-current').first().boundingBox()];
    if (state) expect(state.x + state.width).toBeLessThanOrEqual(box!.x + box!.width + 1);
  }
  // The status line says what fired in words, not as a row id.
  await expect(viz.tabpanel.getByTestId('machine-fired')).not.toHaveText(/[a-z]+\/[a-z]+:/);
  expect(await seriousViolations(page, '[data-playground-id="dedup"]')).toEqual([]);
});

test('the HTTP/2 stream diagram: labels 11 px or more, none overlapping', async ({ page }) => {
  await page.goto('/http/http2-attacks/');
  const id = 'http2-attack-rapid-reset';
  const { viz } = await runAndOpen(page, id, 'State machines');
  await pickMachine(viz.tabpanel, 'HTTP/2 streams', 'h2-stream');
  const labels = await settledLabels(page, `[data-playground-id="${id}"] svg.rt-sm-svg`);
  expect(labels.length).toBeGreaterThan(20);
  expect(problems(labels)).toEqual([]);
});

for (const { id, title } of [
  { id: 'keepalive-trap', title: 'the dumb proxy' },
  { id: 'h2-proxy-tunnel', title: 'HTTP/2 through a tunnel' },
]) {
  test(`the sequence diagram of ${title}: labels 11 px or more, none overlapping`, async ({ page }) => {
    await page.goto('/http/proxies/');
    const { viz } = await runAndOpen(page, id, 'Sequence');
    const selector = `[data-playground-id="${id}"] svg.rt-tl-svg`;
    await expect(page.locator(`${selector} text.rt-tl-label`).first()).toBeVisible();
    // Every simulation the run recorded, one after the other.
    const picker = viz.tabpanel.getByRole('combobox', { name: 'Simulation' });
    const sims = (await picker.count()) > 0 ? await picker.locator('option').allTextContents() : [''];
    for (const sim of sims) {
      if (sim) await picker.selectOption({ label: sim });
      const labels = await settledLabels(page, selector);
      expect(labels.filter((l) => l.text !== '').length, sim).toBeGreaterThan(4);
      expect(problems(labels), sim).toEqual([]);
    }
    expect(await seriousViolations(page, `[data-playground-id="${id}"]`)).toEqual([]);
  });
}

test('full window: the panel covers the window, the page holds still, Esc and the toggle return, focus stays', async ({ page }) => {
  await page.goto('/http/proxies/');
  const id = 'keepalive-trap';
  const { viz } = await runAndOpen(page, id, 'Sequence');
  const toggle = viz.panel.getByRole('button', { name: 'Full window' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(toggle).toBeFocused();
  const box = await viz.panel.boundingBox();
  expect(box).toEqual({ x: 0, y: 0, width: 1280, height: 900 });
  // Nothing else is on top of it, not even the site header.
  expect(await page.evaluate(() => document.elementFromPoint(640, 10)?.closest('[data-testid="viz-panel"]') !== null)).toBe(true);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
  // Wider: the sequence diagram is drawn for the room there is, and still keeps its labels apart.
  const svgWidth = await viz.tabpanel.locator('svg.rt-tl-svg').evaluate((svg) => svg.getBoundingClientRect().width);
  expect(svgWidth).toBeGreaterThan(1000);
  expect(problems(await settledLabels(page, `[data-playground-id="${id}"] svg.rt-tl-svg`))).toEqual([]);
  expect(await seriousViolations(page, `[data-playground-id="${id}"]`)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(toggle).toBeFocused();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');
  expect((await viz.panel.boundingBox())!.width).toBeLessThan(1280);
  // And the toggle itself returns.
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(toggle).toBeFocused();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the machine picker fits the screen; the table opens at its first rows and scrolls only itself, only as needed', async ({ page }) => {
    await page.goto('/query/overview/');
    const pg = playground(page, 'dedup');
    await pg.run.click();
    await expect(pg.output).toContainText('Finished in', { timeout: 60_000 });
    await pg.root.getByRole('tab', { name: 'Timeline', exact: true }).click();
    const viz = vizPanel(pg.root);
    await expect(viz.panel).toBeVisible();
    if (await viz.pause.isVisible()) await viz.pause.click();
    await viz.slider.focus();
    await page.keyboard.press('Home');
    await viz.panel.getByRole('tab', { name: 'State machines', exact: true }).click();
    await pickMachine(viz.tabpanel, 'Queries', 'query');

    const select = viz.tabpanel.getByRole('combobox', { name: 'Machine' });
    const box = (await select.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Step to the query's first transition: its row is near the top of the table, already in sight.
    const fired = viz.tabpanel.getByTestId('machine-fired');
    for (let i = 0; i < 60 && (await fired.count()) === 0; i++) {
      await viz.slider.focus();
      await page.keyboard.press('ArrowRight');
    }
    await expect(fired).toHaveCount(1);
    const table = viz.tabpanel.getByRole('region', { name: 'Transition table' });
    const sight = () =>
      table.evaluate((wrap) => {
        const r = wrap.getBoundingClientRect();
        const inside = (el: Element | null) => {
          const b = el!.getBoundingClientRect();
          return b.top >= r.top - 1 && b.bottom <= r.top + wrap.clientTop + wrap.clientHeight + 1;
        };
        const current = wrap.querySelector('tr[aria-current="true"]')!;
        // How far the current row's bottom is from the box's: 0 when a scroll down went no further than needed.
        const below = Math.round(r.top + wrap.clientTop + wrap.clientHeight - current.getBoundingClientRect().bottom);
        return { scrollTop: wrap.scrollTop, first: inside(wrap.querySelector('tbody tr')), current: inside(current), below };
      });
    expect(await sight()).toMatchObject({ scrollTop: 0, first: true, current: true });

    // To the end: the last row that fired is further down; the table scrolls to it, the page does not move.
    await viz.slider.focus();
    const before = await page.evaluate(() => window.scrollY);
    const row = await table.locator('tr[aria-current="true"]').getAttribute('data-row');
    await page.keyboard.press('End');
    await expect(table.locator('tr[aria-current="true"]')).not.toHaveAttribute('data-row', row!);
    await expect.poll(async () => (await sight()).current).toBe(true);
    // Further down than the box shows: scrolled just far enough, the row at the bottom edge (not centred).
    expect(Math.abs((await sight()).below)).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => window.scrollY)).toBe(before);
  });
});
