/**
 * Benchmarks measure our libraries the way they ship: bundled into one ES module, like the peers they are
 * compared with (which load from their published `dist` files in node_modules).
 *
 * Why not import the sources directly: the test runner executes project sources through Vite's module runner,
 * which turns every read of an imported binding into a property read on the exporting module's namespace,
 * while packages in node_modules run natively. On hot paths that handicap is a large part of the measured
 * time and belongs to the runner, not to the code. Bundling removes it for us the same way the peers never had
 * it, so the ratios compare libraries, and nobody is tempted to contort the sources for the runner.
 *
 * The bundle is written under node_modules/.cache so the runner loads it natively (it does not transform
 * files in node_modules). `process.env.NODE_ENV` is left as it is, exactly as for the peers.
 */
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT_DIR = resolve(REPO_ROOT, 'node_modules', '.cache', 'roundtrip-bench');

/** Bundles `entry` (a path from the repository root, e.g. 'src/query/index.ts') and imports the result. */
export async function importBundled<T>(entry: string): Promise<T> {
  mkdirSync(OUT_DIR, { recursive: true });
  const outfile = resolve(OUT_DIR, `${entry.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
  await build({
    entryPoints: [resolve(REPO_ROOT, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // Readable output: the peers' dist files are not minified either.
    minify: false,
    logLevel: 'error',
  });
  // A query string defeats the module cache if a second bench file bundles the same entry.
  return (await import(`${pathToFileURL(outfile).href}?t=${Date.now()}`)) as T;
}
