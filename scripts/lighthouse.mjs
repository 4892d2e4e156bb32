// @ts-check
/**
 * Lighthouse scores of the built site, with Lighthouse's default mobile settings (a mid-range phone's screen,
 * simulated 4G and a 4x slower CPU): performance and accessibility for the landing page and two docs pages,
 * against the goals below. It builds and serves nothing itself; point it at a running preview:
 *
 *   npx astro build && npx astro preview --port 4321 --host 127.0.0.1
 *   node scripts/lighthouse.mjs [--url http://127.0.0.1:4321] [--pages /,/http/overview/]
 *
 * Exits with 1 when a page misses a goal. Scores on a busy machine vary by a few points from run to run; this
 * is a measurement to read, not a test (CI does not run it).
 */
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';

const PAGES = ['/', '/http/overview/', '/query/overview/'];
const GOALS = { performance: 95, accessibility: 100 };
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
// The flags the e2e tests use (playwright.config.ts): without the background-networking ones Chromium floods
// a closed network with requests, which also skews the performance score.
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const { values } = parseArgs({ options: { url: { type: 'string', default: 'http://127.0.0.1:4321' }, pages: { type: 'string' } } });
const base = values.url ?? 'http://127.0.0.1:4321';
// --pages /a/,/b/ measures those instead (e.g. more docs pages with playgrounds).
const pages = values.pages ? values.pages.split(',').filter(Boolean) : PAGES;

/** A TCP port nobody listens on right now, for Chromium's DevTools endpoint. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  if (!address || typeof address === 'string') throw new Error('could not find a free port for Chromium');
  return address.port;
}

// Chromium from @playwright/test (a declared dependency; Lighthouse's own launcher is not), with its DevTools
// endpoint on a port, which is how Lighthouse drives a browser it did not start.
const port = await freePort();
const chrome = await chromium.launch({
  ...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
  args: [...CHROME_FLAGS, `--remote-debugging-port=${port}`],
});
let missed = false;
try {
  console.log(`Lighthouse (mobile) against ${base}; goals: performance >= ${GOALS.performance}, accessibility ${GOALS.accessibility}\n`);
  console.log('page                   performance  accessibility');
  for (const path of pages) {
    const url = new URL(path, base).href;
    const result = await lighthouse(url, { port, logLevel: 'error', output: 'json', onlyCategories: ['performance', 'accessibility'] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { categories, runtimeError } = result.lhr;
    if (runtimeError) throw new Error(`${url}: ${runtimeError.code} ${runtimeError.message}`);
    const score = (/** @type {keyof typeof GOALS} */ id) => Math.round((categories[id]?.score ?? 0) * 100);
    const cells = /** @type {(keyof typeof GOALS)[]} */ (['performance', 'accessibility']).map((id) => {
      const ok = score(id) >= GOALS[id];
      missed ||= !ok;
      return `${String(score(id)).padStart(3)} ${ok ? 'ok  ' : 'MISS'}`;
    });
    console.log(`${path.padEnd(22)} ${(cells[0] ?? '').padEnd(12)} ${cells[1]}`);
    // Name what cost accessibility points, so a miss says what to fix.
    for (const ref of categories.accessibility?.auditRefs ?? []) {
      const audit = result.lhr.audits[ref.id];
      if (!(ref.weight > 0 && audit && audit.score !== null && audit.score < 1)) continue;
      console.log(`    accessibility: ${audit.id}: ${audit.title}`);
      const items = /** @type {{ items?: { node?: { selector?: string, snippet?: string } }[] } | undefined} */ (audit.details)?.items ?? [];
      for (const item of items.slice(0, 3)) console.log(`      ${item.node?.selector ?? ''}  ${item.node?.snippet ?? ''}`);
      if (items.length > 3) console.log(`      ... and ${items.length - 3} more`);
    }
  }
} finally {
  await chrome.close();
}
console.log(missed ? '\nAt least one page misses a goal.' : '\nEvery page meets the goals.');
process.exitCode = missed ? 1 : 0;
