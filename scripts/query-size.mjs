// @ts-check
/**
 * What our query library costs an app next to TanStack Query, for the size goals of issues #5 and #6
 * (minified + gzip, at most 0.9x the original). Both sides are bundled the same way: esbuild, tree-shaken,
 * minified, production mode, ESM for the browser, react and react-dom external (as an app would have them).
 *
 *   core   every value export that `roundtrip/query` and `@tanstack/query-core` both have (the names are
 *          read from both entry points and intersected, so extensions on either side are not counted)
 *   react  `useQuery`, `QueryClient`, `QueryClientProvider` from `roundtrip/react` vs `@tanstack/react-query`
 *
 * Usage: npm run size [-- --breakdown]
 *   --breakdown also lists minified bytes per source file, largest first.
 * Exits with status 0 either way: this is a report, not a test (sizes are not part of `npm test`).
 */
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { roundtripAliases } from '../aliases.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const GOAL = 0.9;

/**
 * Our modules whose exports TanStack does not have (so none of the compared names need them) but whose
 * top-level code esbuild cannot prove free of side effects, so they are bundled anyway. Should one of
 * them show up in a bundle, the comparison is printed a second time with it stubbed out: the first
 * figure is what an app pays today, the second what the compared export set itself costs.
 */
const NOT_COMPARED = ['src/query/stateTable.ts'];

/** @type {import('esbuild').Plugin} */
const stubNotCompared = {
  name: 'stub-not-compared',
  setup(build) {
    const filter = new RegExp(`(${NOT_COMPARED.map((f) => f.replace(/[.]/g, '\\.')).join('|')})$`);
    build.onLoad({ filter }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * Bundles `contents` as an entry module and returns its size and the export names of the bundle.
 * @param {string} contents
 * @param {boolean} [stub] replace the NOT_COMPARED modules with empty ones
 */
async function bundle(contents, stub = false) {
  const result = await build({
    plugins: stub ? [stubNotCompared] : [],
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    alias: roundtripAliases,
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    logLevel: 'error',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  const output = Object.values(result.metafile.outputs)[0];
  const perFile = Object.entries(output?.inputs ?? {})
    .map(([file, { bytesInOutput }]) => /** @type {const} */ ([file, bytesInOutput]))
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1]);
  return {
    raw: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
    exports: output?.exports ?? [],
    perFile,
  };
}

/** The value (runtime) exports of a package entry; type-only exports vanish when bundling. */
async function valueExports(/** @type {string} */ from) {
  return (await bundle(`export * from '${from}';`)).exports;
}

const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(2)} KiB`;
const breakdown = process.argv.includes('--breakdown');

/**
 * @param {string} title
 * @param {string[]} names
 * @param {[string, string]} ours  [label, module]
 * @param {[string, string]} theirs
 */
async function compare(title, names, ours, theirs) {
  const entry = (/** @type {string} */ from) => `export { ${names.join(', ')} } from '${from}';`;
  const a = await bundle(entry(ours[1]));
  const b = await bundle(entry(theirs[1]));
  const width = Math.max(ours[0].length, theirs[0].length) + 4;
  const row = (/** @type {string} */ label, /** @type {string} */ raw, /** @type {string} */ gzip) =>
    `  ${label.padEnd(width)}${raw.padStart(12)}${gzip.padStart(12)}`;
  const gzipRatio = a.gzip / b.gzip;
  console.log(`\n${title}`);
  console.log(row('', 'minified', 'gzip'));
  console.log(row(ours[0], kb(a.raw), kb(a.gzip)));
  console.log(row(theirs[0], kb(b.raw), kb(b.gzip)));
  console.log(row('ratio', (a.raw / b.raw).toFixed(3), gzipRatio.toFixed(3)));
  console.log(`  goal: minified + gzip <= ${GOAL}x: ${gzipRatio <= GOAL ? 'met' : 'NOT met'}`);
  const leaked = a.perFile.filter(([file]) => NOT_COMPARED.includes(file));
  if (leaked.length > 0) {
    const stubbed = await bundle(entry(ours[1]), true);
    const what = leaked.map(([file, bytes]) => `${file} (${bytes} B minified)`).join(', ');
    console.log(`  * without ${what}, which is bundled although no compared name needs it:`);
    console.log(row(`${ours[0]} *`, kb(stubbed.raw), kb(stubbed.gzip)));
    console.log(row('ratio *', (stubbed.raw / b.raw).toFixed(3), (stubbed.gzip / b.gzip).toFixed(3)));
  }
  if (breakdown) {
    for (const [label, { perFile }] of /** @type {const} */ ([
      [ours[0], a],
      [theirs[0], b],
    ])) {
      console.log(`\n  ${label}, minified bytes per source file:`);
      for (const [file, bytes] of perFile) {
        console.log(`    ${String(bytes).padStart(6)}  ${file.replace(/^node_modules\/@tanstack\//, '')}`);
      }
    }
  }
}

const ourCore = await valueExports('roundtrip/query');
const theirCore = new Set(await valueExports('@tanstack/query-core'));
const shared = ourCore.filter((name) => theirCore.has(name)).sort();
const onlyOurs = ourCore.filter((name) => !theirCore.has(name));
const onlyTheirs = [...theirCore].filter((name) => !ourCore.includes(name));

await compare(
  `(a) core: the ${shared.length} value exports both entry points have`,
  shared,
  ['roundtrip/query', 'roundtrip/query'],
  ['@tanstack/query-core', '@tanstack/query-core'],
);
console.log(`  not counted, only in roundtrip/query: ${onlyOurs.join(', ') || '(none)'}`);
console.log(`  not counted, only in @tanstack/query-core: ${onlyTheirs.join(', ') || '(none)'}`);

await compare(
  '(b) react: useQuery + QueryClient + QueryClientProvider (react external)',
  ['useQuery', 'QueryClient', 'QueryClientProvider'],
  ['roundtrip/react', 'roundtrip/react'],
  ['@tanstack/react-query', '@tanstack/react-query'],
);
