/**
 * Bundles a TypeScript entry of this repository into one ES module under node_modules/.cache, for running on
 * plain node: the benchmarks' imports of our libraries (bench-build.ts `importBundled`), `npm run serve`
 * (scripts/run-bundled.mjs) and the server `npm run bench:serve` measures (scripts/bench-serve-peer.mjs).
 * Built JavaScript is how a library ships and a server is deployed; run from its sources under tsx the
 * server spent about 1 µs more a request (some 5 %). Plain JavaScript, so scripts run it without a loader.
 */
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Bundles `entry` (a path from the repository root, e.g. 'src/query/index.ts') and returns the bundle's file
 * URL. The bundle is written under node_modules/.cache, where the test runner loads it natively.
 * @param {string} entry
 * @returns {Promise<string>}
 */
export async function bundle(entry) {
  const outfile = join(ROOT, 'node_modules', '.cache', 'roundtrip-bundled', `${entry.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
  mkdirSync(dirname(outfile), { recursive: true });
  // Readable output (no minify): the peers' dist files are not minified either.
  await build({ entryPoints: [join(ROOT, entry)], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node22', minify: false, logLevel: 'error' });
  return pathToFileURL(outfile).href;
}
