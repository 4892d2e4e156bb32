import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chunksFor,
  chunksFromHash,
  importedModules,
  SANDBOX_CHUNKS,
  sandboxPageHtml,
  sandboxPageName,
  sandboxPageSets,
  sandboxSrc,
  withNeeds,
} from './chunks.mjs';
import { compileSnippet } from './compile';

const SNIPPETS = new URL('../../../content/snippets/', import.meta.url);

describe('sandbox chunks', () => {
  it('finds the modules of TypeScript imports and of the compiled requires alike', () => {
    const source = "import { createSimulation } from 'roundtrip/wire';\nimport type { Query } from \"roundtrip/query\";\nimport 'react';\nconst x = 1;";
    expect(importedModules(source).sort()).toEqual(['react', 'roundtrip/query', 'roundtrip/wire']);
    const compiled = compileSnippet("import { useQuery } from 'roundtrip/react';\nexport const el = <p>{String(useQuery)}</p>;");
    if (!compiled.ok) throw new Error(compiled.message);
    // The automatic JSX runtime is an import the source never wrote.
    expect(importedModules(compiled.js).sort()).toEqual(['react/jsx-runtime', 'roundtrip/react']);
  });

  it('loads what a chunk needs before it, each chunk once', () => {
    expect(chunksFor(['roundtrip/react', 'roundtrip/query', 'react'])).toEqual(['query', 'react']);
    expect(chunksFor(['roundtrip/wire', 'roundtrip/playground', 'node:fs'])).toEqual(['wire']);
    expect(withNeeds(['compiler', 'react', 'wire'])).toEqual(['compiler', 'query', 'react', 'wire']);
  });

  it('reads chunk names from the sandbox address, ignoring strangers', () => {
    expect(chunksFromHash(new URL('/sandbox/index.html#wire,compiler', 'http://x').hash)).toEqual(['wire', 'compiler']);
    expect(chunksFromHash('#react,evil,../x,constructor')).toEqual(['query', 'react']);
    expect(chunksFromHash('')).toEqual([]);
  });

  it('names one sandbox page per set of chunks, whatever order or needs they come in', () => {
    expect(sandboxSrc('/sandbox/', [])).toBe('/sandbox/index.html');
    expect(sandboxSrc('/sandbox/', ['compiler', 'wire'])).toBe('/sandbox/with-wire-compiler.html');
    expect(sandboxPageName(['react'])).toBe('with-query-react.html');
    expect(sandboxPageName(['react', 'query', 'react'])).toBe('with-query-react.html');
    const sets = sandboxPageSets();
    // Four chunks in or out, less the sets with react but not the query chunk it needs.
    expect(sets).toHaveLength(12);
    const names = sets.map(sandboxPageName);
    expect(new Set(names).size).toBe(sets.length);
    for (const set of sets) expect(withNeeds(set)).toEqual(set);
  });

  it("puts a page's chunks before the core, in run order, deferred in the head, and says what a template lacks", () => {
    const template =
      '<html>\n  <head>\n    <title>t</title>\n  </head>\n  <body>\n    <div id="root"></div>\n    <script src="/sandbox/runtime.js"></script>\n  </body>\n</html>';
    const page = sandboxPageHtml(template, ['react', 'wire']);
    const scripts = [...page.matchAll(/<script defer (crossorigin )?src="([^"]+)"><\/script>/g)].map((m) => `${m[1] ?? ''}${m[2]}`);
    // The libraries with CORS, so their errors are not muted; the core without, so it runs on any host.
    expect(scripts).toEqual(['crossorigin /sandbox/query.js', 'crossorigin /sandbox/react.js', 'crossorigin /sandbox/wire.js', '/sandbox/runtime.js']);
    // Every script is in the head and deferred: none blocks the parser, all are requested at once.
    expect(page.match(/<script/g)).toHaveLength(4);
    expect(page.indexOf('/sandbox/runtime.js')).toBeLessThan(page.indexOf('</head>'));
    expect(page).toContain('  <body>\n    <div id="root"></div>\n  </body>');
    expect(() => sandboxPageHtml('<body></body>', ['wire'])).toThrow(/public\/sandbox\/index\.html.*runtime\.js/);
    expect(() => sandboxPageHtml('<body><script src="/sandbox/runtime.js"></script></body>', ['wire'])).toThrow(/no <\/head>/);
  });

  it('makes a page for every set from the real template, each keeping its security policy', async () => {
    const { buildSandboxPages } = await import('../build/integration.mjs');
    const pages = await buildSandboxPages();
    expect(Object.keys(pages)).toHaveLength(sandboxPageSets().length - 1);
    const wire = pages['with-wire.html']!;
    expect(wire).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval';");
    expect(wire.indexOf('/sandbox/wire.js')).toBeLessThan(wire.indexOf('/sandbox/runtime.js'));
    expect(wire.indexOf('/sandbox/runtime.js')).toBeLessThan(wire.indexOf('</head>'));
    expect(wire).toContain('<div id="root"></div>');
  });

  it('offers every module the site snippets import, from their compiled code', () => {
    const offered = new Set(['roundtrip/playground', ...Object.values(SANDBOX_CHUNKS).flatMap((c) => c.modules)]);
    const files = readdirSync(SNIPPETS).filter((f) => /\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const compiled = compileSnippet(readFileSync(new URL(file, SNIPPETS), 'utf8'));
      if (!compiled.ok) throw new Error(`${file}: ${compiled.message}`);
      const modules = importedModules(compiled.js);
      for (const module of modules) expect(offered.has(module), `${file} imports ${module}`).toBe(true);
      const provided = new Set(chunksFor(modules).flatMap((name) => SANDBOX_CHUNKS[name].modules));
      for (const module of modules.filter((m) => m !== 'roundtrip/playground')) expect(provided.has(module), `${file}: chunk for ${module}`).toBe(true);
    }
  });
});
