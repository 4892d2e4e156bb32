import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { collectExamples, docsExamples, examplePath } from './examples';

const page = (body: string) =>
  `---\ntitle: "The \\"page\\""\n---\n\nimport Playground from '../../../src/components/Playground.astro';\nimport snip from '../../snippets/a.ts?raw';\n\n${body}\n`;

describe('examples gallery', () => {
  it('finds each embedded playground with its page, in any attribute order', () => {
    const found = collectExamples({ '/x/content/docs/http/intro.mdx': page('<Playground code={snip} title="First" id="first" />') }, { 'a.ts': 'code A' });
    expect(found).toEqual([
      { id: 'first', title: 'First', code: 'code A', snippet: 'a.ts', page: { title: 'The "page"', href: '/http/intro/', section: 'HTTP' } },
    ]);
    expect(examplePath('first')).toBe('/playground/first/');
  });

  it("keeps a playground's view, and names the page for a view that does not exist", () => {
    const found = collectExamples({ '/x/content/docs/http/h2.mdx': page('<Playground id="f" view="frames" title="F" code={snip} />') }, { 'a.ts': '' });
    expect(found[0]?.view).toBe('frames');
    expect(() => collectExamples({ '/x/content/docs/http/h2.mdx': page('<Playground id="f" view="frame" title="F" code={snip} />') }, { 'a.ts': '' })).toThrow(
      '/x/content/docs/http/h2.mdx: playground "f" opens on view="frame", which is no view; the views are sequence,',
    );
  });

  it('names the page for a duplicate id or a missing snippet', () => {
    const twice = {
      '/c/content/docs/query/a.mdx': page('<Playground id="x" title="A" code={snip} />'),
      '/c/content/docs/query/b.mdx': page('<Playground id="x" title="B" code={snip} />'),
    };
    expect(() => collectExamples(twice, { 'a.ts': '' })).toThrow(
      '/c/content/docs/query/b.mdx: playground id "x" is already used on /c/content/docs/query/a.mdx',
    );
    expect(() => collectExamples({ '/c/content/docs/query/a.mdx': page('<Playground id="x" title="A" code={snip} />') }, {})).toThrow(
      'uses content/snippets/a.ts, which does not exist',
    );
    expect(() => collectExamples({ '/c/content/docs/query/a.mdx': page('<Playground id="x" code={snip} />') }, { 'a.ts': '' })).toThrow(
      'needs id="…", title="…"',
    );
  });

  it('covers every playground of the real docs', () => {
    const examples = docsExamples();
    expect(examples.length).toBeGreaterThanOrEqual(20);
    expect(new Set(examples.map((e) => e.id)).size).toBe(examples.length);
    // Every snippet in content/snippets that a page embeds is in the gallery, with its code.
    const used = new Set(examples.map((e) => e.snippet));
    for (const e of examples) expect(e.code.length, e.id).toBeGreaterThan(0);
    expect([...used].every((f) => readdirSync('content/snippets').includes(f))).toBe(true);
    expect(examples.find((e) => e.id === 'hello-wire')?.page).toEqual({ title: expect.any(String), href: '/http/overview/', section: 'HTTP' });
  });
});
