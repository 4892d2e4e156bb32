// @ts-check
/**
 * How much JavaScript a built page makes the browser download before the reader interacts: the page's
 * <script> tags (inline and external), their static imports followed transitively, and modulepreload links.
 * Dynamic `import()` is excluded (that is what runs on interaction); so are island component URLs, which
 * `client:interaction` loads only when the reader touches the island.
 *
 * Also reports Monaco bytes among them, which must be none: the editor loads only when a reader starts editing.
 * Monaco's files are the editor chunk (src/playground/editor/monaco.ts -> `monaco.<hash>.js`), everything it
 * imports statically, and its workers; see monacoFiles().
 *
 * Usage: node scripts/page-weight.mjs [dist]    prints every page's weight (gzip) and its Monaco bytes.
 */
import { readFile, readdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join, dirname, resolve, relative, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const STATIC_IMPORT = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*${}\s,]+from\s*)?["']([^"']+\.m?js)["']/g;

/** @param {string} html */
function scriptsOf(html) {
  /** @type {{ inline: string[], urls: string[] }} */
  const found = { inline: [], urls: [] };
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attrs = m[1] ?? '';
    const type = /type="([^"]+)"/.exec(attrs)?.[1];
    if (type && type !== 'module' && type !== 'text/javascript') continue; // JSON data, not code
    const src = /src="([^"]+)"/.exec(attrs)?.[1];
    if (src) found.urls.push(src);
    else if (m[2]?.trim()) found.inline.push(m[2]);
  }
  for (const m of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) found.urls.push(m[1] ?? '');
  return found;
}

/**
 * @param {string} dist the build output folder
 * @param {string} pagePath e.g. '/http/overview/'
 */
export async function measurePage(dist, pagePath) {
  const htmlFile = join(dist, pagePath.endsWith('/') ? `${pagePath}index.html` : pagePath);
  const html = await readFile(htmlFile, 'utf8');
  const { inline, urls } = scriptsOf(html);
  /** @type {Map<string, number>} */
  const files = new Map();
  const queue = urls.filter((u) => u.startsWith('/')).map((u) => u.split('?')[0] ?? u);
  for (const code of inline) for (const m of code.matchAll(STATIC_IMPORT)) if (m[1]?.startsWith('/')) queue.push(m[1]);
  while (queue.length) {
    const url = /** @type {string} */ (queue.pop());
    if (files.has(url)) continue;
    const code = await readFile(join(dist, url), 'utf8');
    files.set(url, gzipSync(code, { level: 9 }).length);
    for (const m of code.matchAll(STATIC_IMPORT)) {
      const spec = m[1] ?? '';
      queue.push(spec.startsWith('/') ? spec : posix.join(posix.dirname(url), spec));
    }
  }
  const inlineGzip = inline.reduce((n, code) => n + gzipSync(code, { level: 9 }).length, 0);
  const total = [...files.values()].reduce((a, b) => a + b, inlineGzip);
  return { page: pagePath, totalGzip: total, inlineGzip, files: Object.fromEntries(files) };
}

/** Worker and language chunks Monaco starts by URL (new Worker / import()), which no static import reaches. */
const MONACO_NAMES = /^(monaco|editor\.api|editor\.worker|ts\.worker|tsMode)[.-]/;

/**
 * The build's Monaco files, as URLs ('/_astro/x.js'): the named chunks and their static imports, transitively.
 * Shared helpers they import (preload-helper, React's runtime) are not Monaco and are left out.
 * @param {string} dist
 */
export async function monacoFiles(dist) {
  const assets = await readdir(join(dist, '_astro')).catch(() => /** @type {string[]} */ ([]));
  const queue = assets.filter((f) => MONACO_NAMES.test(f) && f.endsWith('.js')).map((f) => `/_astro/${f}`);
  /** @type {Set<string>} */
  const found = new Set();
  while (queue.length) {
    const url = /** @type {string} */ (queue.pop());
    if (found.has(url)) continue;
    found.add(url);
    const code = await readFile(join(dist, url), 'utf8');
    for (const m of code.matchAll(STATIC_IMPORT)) {
      const spec = m[1] ?? '';
      const next = spec.startsWith('/') ? spec : posix.join(posix.dirname(url), spec);
      if (MONACO_NAMES.test(posix.basename(next)) || /monaco|editor\.main|codicon/i.test(next)) queue.push(next);
    }
  }
  return found;
}

/** @param {string} dist */
export async function listPages(dist) {
  /** @type {string[]} */
  const pages = [];
  /** @param {string} dir */
  async function walk(dir) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === 'index.html') pages.push(`/${relative(dist, dirname(full)).split('\\').join('/')}/`.replace('//', '/'));
    }
  }
  await walk(dist);
  return pages.sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = resolve(process.argv[2] ?? 'dist');
  const monaco = await monacoFiles(dist);
  let pagesWithMonaco = 0;
  for (const page of await listPages(dist)) {
    const { totalGzip, files } = await measurePage(dist, page);
    const monacoBytes = Object.entries(files).reduce((n, [url, size]) => n + (monaco.has(url) ? size : 0), 0);
    if (monacoBytes > 0) pagesWithMonaco += 1;
    const note = monacoBytes > 0 ? `  MONACO ${(monacoBytes / 1024).toFixed(1)} KiB` : '';
    console.log(`${(totalGzip / 1024).toFixed(1).padStart(6)} KiB gzip  ${page}${note}`);
  }
  console.log(
    monaco.size === 0
      ? 'Monaco: no Monaco files found in this build (is it a playground build?).'
      : `Monaco: ${monaco.size} files in the build; ${pagesWithMonaco === 0 ? 'no page loads any of them before interaction' : `${pagesWithMonaco} page(s) load Monaco before interaction`}.`,
  );
}
