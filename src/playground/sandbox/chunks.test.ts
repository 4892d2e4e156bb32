import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunksFor, chunksFromHash, importedModules, SANDBOX_CHUNKS, sandboxSrc, withNeeds } from './chunks.mjs';
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

  it('names the chunks to preload in the sandbox address and reads them back, ignoring strangers', () => {
    expect(sandboxSrc('/sandbox/index.html', [])).toBe('/sandbox/index.html');
    const src = sandboxSrc('/sandbox/index.html', ['wire', 'compiler']);
    expect(src).toBe('/sandbox/index.html#wire,compiler');
    expect(chunksFromHash(new URL(src, 'http://x').hash)).toEqual(['wire', 'compiler']);
    expect(chunksFromHash('#react,evil,../x,constructor')).toEqual(['query', 'react']);
    expect(chunksFromHash('')).toEqual([]);
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
