/**
 * The instrumentation is an add-on: an app that never calls `Instrumentation.of` must not bundle it
 * (issue #5's size goal counts what the TanStack-compatible exports pull in). This guards the seam:
 * the core reaches instrumentation only through trace.ts, never by importing instrumentation.ts.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Source files (relative to the repository root) that end up in a minified bundle of `names`. */
async function bundledFiles(names: string): Promise<Array<string>> {
  const result = await build({
    stdin: { contents: `export { ${names} } from './src/query/index.ts';`, resolveDir: root, loader: 'ts' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    metafile: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
}

describe('bundle seams', () => {
  it('leaves instrumentation.ts out of an app that only uses the core', async () => {
    const files = await bundledFiles('QueryClient, QueryObserver, MutationObserver, QueriesObserver, hydrate');
    expect(files).toContain('src/query/trace.ts');
    expect(files).toContain('src/query/query.ts');
    expect(files).not.toContain('src/query/instrumentation.ts');
  });

  it('bundles instrumentation.ts once an app asks for it', async () => {
    const files = await bundledFiles('QueryClient, Instrumentation');
    expect(files).toContain('src/query/instrumentation.ts');
  });
});
