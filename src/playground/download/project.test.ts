import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { importedModules, needsBrowser, projectFiles } from './project';
import { buildRoundtripPackage } from './package-plugin.mjs';

const wireSnippet =
  "import { createServer, createSimulation } from 'roundtrip/wire';\nimport { defineOptions } from 'roundtrip/playground';\nconsole.log(1);\n";
const reactSnippet =
  "import { createRoot } from 'react-dom/client';\nimport { useQuery } from 'roundtrip/react';\ncreateRoot(document.getElementById('root')!).render(<p />);\n";

const fileMap = (files: { path: string; data: string | Uint8Array }[]) => Object.fromEntries(files.map((f) => [f.path, String(f.data)]));

describe('downloaded project', () => {
  it('lists what a snippet imports', () => {
    expect(importedModules(wireSnippet)).toEqual(['roundtrip/playground', 'roundtrip/wire']);
    expect(importedModules("import type { X } from 'a';\nexport { y } from \"b\";\nimport 'c';\nconst s = 'import x from \"no\"';")).toEqual(['a', 'b', 'c']);
    expect(needsBrowser(wireSnippet)).toBe(false);
    expect(needsBrowser(reactSnippet)).toBe(true);
  });

  it('makes a Node project for a simulation snippet, with the libraries as a local package', () => {
    const files = fileMap(projectFiles({ id: 'http3-loss', title: 'Loss', code: wireSnippet, options: { options: { loss: 0.2 }, seed: 7 } }));
    expect(Object.keys(files).sort()).toEqual(['README.md', 'package.json', 'src/main.ts', 'tsconfig.json']);
    const pkg = JSON.parse(files['package.json']!);
    expect(pkg.name).toBe('http3-loss');
    expect(pkg.scripts.start).toBe('tsx src/main.ts');
    expect(pkg.dependencies).toEqual({ roundtrip: 'file:./vendor/roundtrip' });
    expect(pkg.devDependencies).toHaveProperty('tsx');
    expect(files['src/main.ts']).toBe(wireSnippet);
    expect(files['README.md']).toContain('not published to npm');
    expect(files['README.md']).toContain('- `loss`: `0.2`');
    expect(files['README.md']).toContain('- `seed`: `7`');
  });

  it('makes a Vite app with React for a snippet that renders', () => {
    const files = fileMap(projectFiles({ id: 'Suspense demo', title: 'A <b> & c', code: reactSnippet }));
    const pkg = JSON.parse(files['package.json']!);
    expect(pkg.name).toBe('suspense-demo');
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['react', 'react-dom', 'roundtrip']);
    expect(pkg.devDependencies).toHaveProperty('vite');
    expect(files['index.html']).toContain('<div id="root"></div>');
    expect(files['index.html']).toContain('<script type="module" src="/src/main.tsx">');
    expect(files['index.html']).toContain('<title>A &lt;b> &amp; c</title>');
    expect(files['src/main.tsx']).toBe(reactSnippet);
  });

  it('ships a library copy that Node imports by package name', async () => {
    const pkg = await buildRoundtripPackage();
    const dir = mkdtempSync(join(tmpdir(), 'rt-pkg-'));
    for (const [path, text] of Object.entries(pkg.files)) {
      const file = join(dir, 'node_modules', 'roundtrip', path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    writeFileSync(
      join(dir, 'main.mjs'),
      [
        "import { createSimulation, createServer } from 'roundtrip/wire';",
        "import { QueryClient } from 'roundtrip/query';",
        "import { defineOptions } from 'roundtrip/playground';",
        "const { rtt } = defineOptions({ rtt: { type: 'number', default: 40, doc: 'RTT' } });",
        "const sim = createSimulation({ rtt, server: createServer({ resources: { '/a': { body: 'hi', contentType: 'text/plain' } } }) });",
        "const res = await sim.fetch('/a');",
        'console.log(res.status, await res.text(), typeof QueryClient);',
      ].join('\n'),
    );
    expect(execFileSync(process.execPath, [join(dir, 'main.mjs')], { encoding: 'utf8' }).trim()).toBe('200 hi function');
    expect(pkg.files['wire/index.d.ts']).toBeDefined();
    expect(JSON.parse(pkg.files['package.json']!).exports['./query']).toEqual({ types: './query/index.d.ts', default: './dist/query.js' });

    // A downloaded Node project and a React one type-check against the copy's declarations, with the
    // tsconfig they ship (installed packages linked from this checkout: the test has no network).
    for (const snippet of ['http3-vs-http2-loss.ts', 'query-suspense.tsx']) {
      const project = mkdtempSync(join(tmpdir(), 'rt-project-'));
      const code = readFileSync(`content/snippets/${snippet}`, 'utf8');
      const put = (path: string, text: string | Uint8Array) => {
        mkdirSync(dirname(join(project, path)), { recursive: true });
        writeFileSync(join(project, path), text);
      };
      for (const f of projectFiles({ id: snippet, title: snippet, code })) put(f.path, f.data);
      for (const [path, text] of Object.entries(pkg.files)) put(`node_modules/roundtrip/${path}`, text);
      mkdirSync(join(project, 'node_modules/@types'), { recursive: true });
      for (const m of ['@types/node', '@types/react', '@types/react-dom', 'react', 'react-dom', 'undici-types', 'csstype'])
        symlinkSync(resolve('node_modules', m), join(project, 'node_modules', m));
      const tsc = resolve('node_modules/typescript/bin/tsc');
      expect(() => execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' }), snippet).not.toThrow();
    }
  }, 180_000);
});

describe('downloaded project options', () => {
  it("writes the reader's options into the snippet's defaults, and says so in the README", () => {
    const code =
      "import { defineOptions } from 'roundtrip/playground';\nconst { retry, seed } = defineOptions({\n  retry: { type: 'number', default: 3, min: 0, doc: 'Retries' },\n  seed: { type: 'number', default: 2, integer: true, doc: 'Seed' },\n});\nconsole.log(retry, seed);\n";
    const files = fileMap(projectFiles({ id: 'q', title: 'Q', code, options: { options: { retry: 1 }, seed: 9 } }));
    expect(files['src/main.ts']).toBe(code.replace('default: 3', 'default: 1').replace('default: 2', 'default: 9'));
    expect(files['README.md']).toContain('written into `src/main.ts` as the defaults');
    expect(files['README.md']).toContain('- `retry`: `1`');
    expect(files['README.md']).not.toContain('could not be found');
  });
});
