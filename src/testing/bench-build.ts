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
 * The bundle (bundle.mjs) is written under node_modules/.cache so the runner loads it natively (it does not
 * transform files in node_modules). `process.env.NODE_ENV` is left as it is, exactly as for the peers.
 */
import { bundle } from './bundle.mjs';

/** Bundles `entry` (a path from the repository root, e.g. 'src/query/index.ts') and imports the result. */
export async function importBundled<T>(entry: string): Promise<T> {
  // A query string defeats the module cache if a second bench file bundles the same entry.
  return (await import(`${await bundle(entry)}?t=${Date.now()}`)) as T;
}
