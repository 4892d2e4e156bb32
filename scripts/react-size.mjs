// @ts-check
/**
 * What `useQuery + QueryClient + QueryClientProvider` costs an app, ours against @tanstack/react-query:
 * each is bundled from its package entry (tree-shaken, minified, production mode, react and react-dom
 * left external, as an app would), then gzipped. Prints both sizes and ours/theirs; the goal is <= 0.9.
 *
 * Usage: npx node scripts/react-size.mjs [--breakdown]
 *   --breakdown also lists minified bytes per source file, to see whether bindings or core dominate.
 */
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { roundtripAliases } from '../aliases.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const GOAL = 0.9;
const names = 'useQuery, QueryClient, QueryClientProvider';

/** @param {string} from the module the entry imports from */
async function measure(from) {
  const result = await build({
    stdin: { contents: `export { ${names} } from '${from}';`, resolveDir: root, loader: 'js' },
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
  const inputs = Object.values(result.metafile.outputs)[0]?.inputs ?? {};
  const perFile = Object.entries(inputs)
    .map(([file, { bytesInOutput }]) => /** @type {const} */ ([file, bytesInOutput]))
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1]);
  return { raw: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength, perFile };
}

const ours = await measure('roundtrip/react');
const theirs = await measure('@tanstack/react-query');
const ratio = ours.gzip / theirs.gzip;
const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(2)} KiB`;

console.log(`${names}, minified + gzip (react external):`);
console.log(`  roundtrip/react        ${kb(ours.gzip).padStart(10)}   (${kb(ours.raw)} minified)`);
console.log(`  @tanstack/react-query  ${kb(theirs.gzip).padStart(10)}   (${kb(theirs.raw)} minified)`);
console.log(`  ratio                  ${ratio.toFixed(3).padStart(10)}   (goal <= ${GOAL}: ${ratio <= GOAL ? 'met' : 'NOT met'})`);

if (process.argv.includes('--breakdown')) {
  /** @type {Array<[string, typeof ours]>} */
  const both = [
    ['roundtrip/react', ours],
    ['@tanstack/react-query', theirs],
  ];
  for (const [label, { perFile }] of both) {
    console.log(`\n${label}, minified bytes per source file:`);
    for (const [file, bytes] of perFile) console.log(`  ${String(bytes).padStart(6)}  ${file.replace(/^node_modules\/@tanstack\//, '')}`);
  }
}
