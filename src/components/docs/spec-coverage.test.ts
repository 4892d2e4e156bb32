/**
 * Spec coverage: every section of the two spec documents is taught somewhere in the docs.
 *
 * `spec-coverage.json` maps each `##` and `###` heading of `shared/spec/*.md` (kept beside the clone, at
 * `<repo>/../shared/spec`) to `page.mdx#anchor` under `content/docs`. The test fails when
 * - a spec heading has no entry (a new spec section nobody has written up yet),
 * - an entry names a heading the spec no longer has (the map went stale),
 * - an entry's page does not exist, or the page has no heading with that anchor.
 *
 * Anchors are computed the way Starlight computes heading ids (github-slugger): lowercase, drop everything
 * but letters, digits, spaces, `-` and `_`, turn each space into `-`, and number repeats (`-1`, `-2`, ...).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import coverage from './spec-coverage.json';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const specDir = path.resolve(repoRoot, '../shared/spec');
const docsDir = path.resolve(repoRoot, 'content/docs');

type CoverageMap = Record<string, Record<string, string>>;
const map: CoverageMap = Object.fromEntries(Object.entries(coverage).filter(([key]) => !key.startsWith('$'))) as CoverageMap;

/** `##` and `###` headings of a markdown document, outside fenced code blocks. */
function specHeadings(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^(#{2,3})\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) out.push(m[2]!);
  }
  return out;
}

/** The text a reader sees in a heading: inline code, links and emphasis markers removed. */
function headingText(raw: string): string {
  return raw
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*)(.+?)\1/g, '$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!<>])/g, '$1')
    .trim();
}

/** github-slugger's rule for one heading (Starlight's heading ids). */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every heading anchor of an MDX page, numbering repeated slugs as the slugger does. */
function pageAnchors(mdx: string): Set<string> {
  const body = mdx.replace(/^---\n[\s\S]*?\n---\n/, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(headingText(m[2]!));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe('slug', () => {
  it('matches the ids Starlight gives headings', () => {
    expect(slug('Anatomy of an HTTP/1.x message')).toBe('anatomy-of-an-http1x-message');
    expect(slug('QueryState')).toBe('querystate');
    expect(slug('Connection, Keep-Alive and Proxy-Connection')).toBe('connection-keep-alive-and-proxy-connection');
    expect([...pageAnchors('## Try it\n### Try it\n```\n## not a heading\n```\n## `useQuery` options')]).toEqual(['try-it', 'try-it-1', 'usequery-options']);
  });
});

describe('spec coverage', () => {
  const specFiles = existsSync(specDir)
    ? readdirSync(specDir)
        .filter((f) => f.endsWith('.md'))
        .sort()
    : [];

  it('finds the spec documents beside the repository', () => {
    expect(specFiles, `no spec documents in ${specDir}`).toEqual(expect.arrayContaining(['http-protocol.md', 'query-library.md']));
  });

  for (const file of specFiles) {
    describe(file, () => {
      const headings = specHeadings(readFileSync(path.join(specDir, file), 'utf8'));
      const entries = map[file] ?? {};

      it('maps every ## and ### heading to a page', () => {
        const missing = headings.filter((h) => !(h in entries));
        expect(missing, `add these ${file} headings to spec-coverage.json`).toEqual([]);
      });

      it('has no entries for headings the spec no longer has', () => {
        const stale = Object.keys(entries).filter((h) => !headings.includes(h));
        expect(stale, `remove or rename these ${file} entries in spec-coverage.json`).toEqual([]);
      });

      it.each(Object.entries(entries))('"%s" points at an existing page heading', (_heading, target) => {
        const [page, anchor] = target.split('#') as [string, string | undefined];
        const pagePath = path.join(docsDir, page);
        expect(existsSync(pagePath), `content/docs/${page} does not exist`).toBe(true);
        expect(anchor, `${target} has no #anchor`).toBeTruthy();
        const anchors = pageAnchors(readFileSync(pagePath, 'utf8'));
        expect([...anchors], `content/docs/${page} has no heading #${anchor}`).toContain(anchor);
      });
    });
  }
});
