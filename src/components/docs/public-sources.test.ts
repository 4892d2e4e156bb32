/**
 * Readers see the pages, the doc tables and the data they render, never the internal notes the course was
 * planned from. So no reader-visible text may say what "the spec" or "the spec document" claims: a
 * correction is phrased as a common misconception, answered from a public source (an RFC, TanStack Query's
 * docs or source). This test reads every MDX page (minus its MDX comments and imports), the markup of the
 * doc-table components, and the string literals of the data files they render from.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (rel: string) => readFileSync(path.join(root, rel), 'utf8');

/** "the spec", "the spec document", "spec says", "the spec's", or a table label "spec: ...". */
const HIDDEN_SOURCE = /\bthe spec\b|\bspec documents?\b|\bspec says\b|\bspec's\b|\bspec:/i;

function walk(dir: string, ext: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = path.posix.join(dir, d.name);
    return d.isDirectory() ? walk(rel, ext) : d.name.endsWith(ext) ? [rel] : [];
  });
}

const stripBlockComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
/** What a reader can see of an MDX page: no MDX comments, no import lines. */
const visibleMdx = (text: string) => text.replace(/\{\/\*[\s\S]*?\*\/\}/g, '').replace(/^import .*$/gm, '');
/** The string literals of a TypeScript module, comments removed first. */
const stringLiterals = (text: string) => [...stripBlockComments(text).matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map((m) => m[0]);

const pages = walk('content/docs', '.mdx');
const tables = walk('src/components/docs', '.astro');
const dataFiles = [
  'src/components/docs/query-options.ts',
  'src/components/docs/http2-error-codes.ts',
  'src/wire/data/errata.ts',
  'src/wire/data/headers.ts',
  'src/wire/data/methods.ts',
  'src/wire/data/status.ts',
  'src/wire/data/versions.ts',
  'src/wire/http1/codes.ts',
  'src/wire/net/connection-table.ts',
];

/** The lines of `text` that match, for a readable failure. */
const offending = (text: string) => text.split('\n').filter((line) => HIDDEN_SOURCE.test(line));

describe('reader-visible text cites public sources, never "the spec"', () => {
  it('finds the pages, tables and data files it checks', () => {
    expect(pages.length).toBeGreaterThanOrEqual(27);
    expect(tables).toContain('src/components/docs/SpecErrata.astro');
  });

  it('detects the phrasings it forbids', () => {
    for (const bad of ['The spec says otherwise', 'the spec document calls', "The spec's table", 'spec: Yes']) {
      expect(offending(bad), bad).toHaveLength(1);
    }
    expect(offending('SPEC_ERRATA, specSays, spec-was, a specific case')).toEqual([]);
    expect(offending(visibleMdx('{/* the spec says so */}\nplain text'))).toEqual([]);
  });

  it.each(pages)('%s', (page) => {
    expect(offending(visibleMdx(read(page)))).toEqual([]);
  });

  it.each(tables)('%s', (table) => {
    expect(offending(stripBlockComments(read(table)))).toEqual([]);
  });

  it.each(dataFiles)('%s', (file) => {
    expect(stringLiterals(read(file)).filter((s) => HIDDEN_SOURCE.test(s))).toEqual([]);
  });

  it('keeps every MDX source comment on a line of its own, which the Markdown copies drop', () => {
    for (const page of pages) {
      for (const line of read(page).split('\n')) {
        if (line.includes('{/*')) expect(line.trim(), page).toMatch(/^\{\/\*.*\*\/\}$/);
      }
    }
  });

  it('cites only source files that exist: a page claim traced to a moved or deleted file has lost its trace', () => {
    const cited = new Set<string>();
    for (const page of pages) {
      for (const comment of read(page).matchAll(/\{\/\*([\s\S]*?)\*\/\}/g)) {
        for (const m of comment[1]!.matchAll(/\bsrc\/[\w./-]+\.(?:tsx?|mjs|astro|css)\b/g)) cited.add(`${page}: ${m[0]}`);
      }
    }
    expect(cited.size).toBeGreaterThanOrEqual(8);
    expect([...cited].filter((c) => !existsSync(path.join(root, c.slice(c.indexOf(': ') + 2))))).toEqual([]);
  });

  it('answers every misconception aside from a public source', () => {
    let asides = 0;
    for (const page of pages) {
      const text = visibleMdx(read(page));
      for (const m of text.matchAll(/^:::caution\[A common misconception\]\n([\s\S]*?)^:::$/gm)) {
        asides++;
        expect(m[1], page).toMatch(/RFC \d{3,4}|TanStack|query-core|react-query/);
        expect(m[1], page).toMatch(/often/i);
      }
    }
    expect(asides).toBeGreaterThanOrEqual(20);
  });
});
