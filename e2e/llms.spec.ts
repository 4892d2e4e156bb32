import { expect, test } from '@playwright/test';
import { sitemapPaths } from './sitemap';

test('llms.txt lists every docs page, and each Markdown copy answers with its title', async ({ request }) => {
  const res = await request.get('/llms.txt');
  expect(res.status()).toBe(200);
  const llms = await res.text();
  expect(llms).toMatch(/^# Roundtrip\n\n> \S/);
  const http = llms.indexOf('\n## HTTP\n');
  const query = llms.indexOf('\n## Query library\n');
  expect(http).toBeGreaterThan(0);
  expect(query).toBeGreaterThan(http);

  // `- [Title](url.md): description`, one per page; the landing page is linked from the introduction.
  const links = [...llms.matchAll(/\[([^\]]+)\]\((https?:\/\/[^)]+\.md)\)/g)].map((m) => ({ title: m[1]!, path: new URL(m[2]!).pathname }));
  const items = [...llms.matchAll(/^- \[[^\]]+\]\([^)]+\.md\): \S.*$/gm)];
  // The full-page playgrounds (/playground/...), the traffic inspector (/inspect/) and the challenges' index
  // (/challenges/, whose challenges each page's copy carries) are tools, not docs pages.
  const pages = (await sitemapPaths(request)).filter((p) => !p.startsWith('/playground/') && p !== '/inspect/' && p !== '/challenges/');
  expect(items.length).toBe(pages.length - 1);
  const expected = pages.map((p) => (p === '/' ? '/index.md' : p.replace(/\/$/, '.md')));
  expect(links.map((l) => l.path).sort()).toEqual(expected.sort());
  for (const { path } of links.filter((l) => l.path.startsWith('/http/'))) expect(llms.indexOf(path)).toBeLessThan(query);
  for (const { path } of links.filter((l) => l.path.startsWith('/query/'))) expect(llms.indexOf(path)).toBeGreaterThan(query);

  for (const { title, path } of links) {
    const md = await request.get(path);
    expect(md.status(), path).toBe(200);
    expect(md.headers()['content-type'], path).toContain('text/markdown');
    const text = await md.text();
    expect(text.startsWith(`# ${title}\n`), path).toBe(true);
    // What MDX adds is rewritten, not leaked: no imports, no component tags outside code.
    const outsideCode = text.replace(/^```[\s\S]*?^```/gm, '');
    expect(outsideCode, path).not.toMatch(/^import |^<[A-Z]|^:::|^(> )?\s*\{\/\*/m);
  }
});

test('a Markdown copy keeps tables, asides and playground code', async ({ request }) => {
  const text = await (await request.get('/http/headers.md')).text();
  expect(text).toContain('| Field | Meaning | Context | Proxy handling |');
  expect(text).toContain('> **Caution: A common misconception**');
  const status = await (await request.get('/http/status-codes.md')).text();
  expect(status).toContain('**Playground: Status codes from a mock server**');
  expect(status).toMatch(/```ts\nimport \{[^}]+\} from 'roundtrip\/wire';/);
  const limits = await (await request.get('/http/limits.md')).text();
  expect(limits).toContain('61 entries, indexes 1 to 61');
  expect(limits).not.toContain('{HTTP1_DEFAULT_MAX_HEADER_BYTES');
});
