/**
 * Site-wide quality gates over every page in the sitemap: no console error, no broken internal link or #anchor,
 * no serious or critical WCAG 2.2 AA violation (axe), and a phone-sized render without horizontal scrolling.
 *
 * Cost: axe's color-contrast rule dominates (seconds per page with long code samples), so the pages are split
 * into shards that the two workers share, each shard reusing one page and running axe once per page.
 * Links and anchors are checked from the served HTML, which is where Starlight renders every heading id.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { collectPageErrors } from './helpers';
import { sitemapPaths } from './sitemap';

// axe's tags for WCAG 2.0, 2.1 and 2.2, levels A and AA.
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const PHONE = { width: 360, height: 740 };
// 8: the /playground/<id>/ pages (one per docs playground) doubled the page count; keep ~8 pages per test.
const SHARDS = 8;

test.describe.configure({ timeout: 120_000 });

async function axeViolations(page: Page, path: string): Promise<string[]> {
  // Expressive Code makes overflowing code blocks focusable from an idle callback after a 250 ms debounce;
  // run axe once that has happened, as a reader's browser would.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.expressive-code pre')].every((pre) => pre.scrollWidth <= pre.clientWidth || pre.hasAttribute('tabindex')),
  );
  // Legacy mode runs axe in the page itself: no cross-origin frames to merge here (playground sandboxes start only
  // when a reader presses Run), and it saves a blank helper page and a second copy of axe per analysis.
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).setLegacyMode(true).analyze();
  const found: string[] = [];
  for (const v of results.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    const nodes = v.nodes;
    const targets = nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`);
    found.push(`${path}: [${v.impact}] ${v.id} x${nodes.length}: ${v.help}\n    ${targets.join('\n    ')}`);
  }
  return found;
}

/**
 * Tables that could overflow without a keyboard-reachable scroller. Whether one overflows depends on the
 * machine's fonts, so this checks the structure axe's `scrollable-region-focusable` relies on for every table,
 * overflowing here or not: inside a focusable, named region, and not a scrolling box itself.
 */
async function unreachableTables(page: Page): Promise<string[]> {
  return page.locator('.sl-markdown-content table').evaluateAll((tables) =>
    tables.flatMap((table, i) => {
      const region = table.parentElement?.closest('[role="region"]');
      const name = `table ${i + 1} (${table.querySelector('th')?.textContent?.trim() ?? 'no header'})`;
      if (region?.getAttribute('tabindex') !== '0' || !region.getAttribute('aria-label')) return [`${name} is not in a focusable, labelled region`];
      if (getComputedStyle(region).overflowX !== 'auto') return [`${name}'s region does not scroll`];
      // A box with display: table never scrolls, whatever its overflow says (the data tables are such boxes).
      const style = getComputedStyle(table);
      return style.display === 'table' || style.overflowX === 'visible' ? [] : [`${name} scrolls itself`];
    }),
  );
}

for (let shard = 0; shard < SHARDS; shard++) {
  test(`pages ${shard + 1}/${SHARDS}: no console error and no serious or critical WCAG 2.2 AA violation`, async ({ page, request }) => {
    const paths = (await sitemapPaths(request)).filter((_, i) => i % SHARDS === shard);
    const problems: string[] = [];
    for (const path of paths) {
      const errors = collectPageErrors(page);
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.locator('h1').first(), path).toBeVisible();
      problems.push(...(await axeViolations(page, path)));
      problems.push(...(await unreachableTables(page)).map((t) => `${path}: ${t}`));
      await page.waitForLoadState('networkidle');
      problems.push(...errors.map((e) => `${path}: ${e}`));
      page.removeAllListeners('console');
      page.removeAllListeners('pageerror');
    }
    expect(problems).toEqual([]);
  });
}

test('every internal link resolves to a page, and every #fragment to an element on it', async ({ request, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const paths = await sitemapPaths(request);
  expect(paths).toContain('/http/overview/');
  expect(paths).toContain('/query/overview/');

  const ids = new Map<string, Set<string> | null>(); // path -> ids on it, or null when it is not a 200 page
  const read = async (path: string) => {
    const res = await request.get(path);
    const html = res.status() === 200 ? await res.text() : '';
    ids.set(path, res.status() === 200 ? new Set([...html.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((m) => unescapeHtml(m[1]!))) : null);
    return html;
  };
  const links: { from: string; url: URL }[] = [];
  for (const path of paths) {
    const html = await read(path);
    expect(ids.get(path), path).not.toBeNull();
    for (const m of html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)) links.push({ from: path, url: new URL(unescapeHtml(m[1]!), origin + path) });
  }
  expect(links.length).toBeGreaterThan(paths.length * 10);

  const broken = new Set<string>();
  for (const { from, url } of links) {
    if (url.origin !== origin) continue; // external links are not this gate's business
    if (!ids.has(url.pathname)) await read(url.pathname);
    const targetIds = ids.get(url.pathname);
    const fragment = decodeURIComponent(url.hash.slice(1));
    if (!targetIds) broken.add(`${from}: ${url.pathname} is not a page`);
    else if (fragment && !targetIds.has(fragment)) broken.add(`${from}: no #${fragment} on ${url.pathname}`);
  }
  expect([...broken]).toEqual([]);
});

test('every page fits a phone: no horizontal overflow, heading visible', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  const overflowing: string[] = [];
  for (const path of await sitemapPaths(request)) {
    await page.goto(path);
    await expect(page.locator('h1').first(), path).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > PHONE.width + 1) overflowing.push(`${path}: scrollWidth ${width}`);
  }
  expect(overflowing).toEqual([]);
});

/** Undoes the HTML escaping of an attribute value (Astro escapes &, <, >, " and '). */
function unescapeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[e]!);
}
