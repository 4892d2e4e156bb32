// @ts-check
/**
 * `virtual:roundtrip-package`: a built copy of this project's libraries (roundtrip/wire, /query, /react,
 * /playground) as an npm package folder, for "Download project". The libraries are not published to npm, so a
 * downloaded snippet carries them: ES modules built from the real sources plus the same declaration files the
 * editor uses. Imported lazily by download/project.ts, so its bytes load only when a reader downloads.
 *
 * Shape: `{ version: string, files: { [path inside the package]: string } }`.
 */
import { build } from 'vite';
import { roundtripAliases } from '../../../aliases.mjs';
import { generateDeclarations } from '../build/types-plugin.mjs';

const VIRTUAL_ID = 'virtual:roundtrip-package';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const ENTRIES = ['wire', 'query', 'react', 'playground'];
const TYPES_ROOT = 'file:///node_modules/roundtrip/';

/** @returns {Promise<Record<string, string>>} */
async function buildModules() {
  /** @type {Record<string, string>} */
  const input = {};
  for (const entry of ENTRIES) input[entry] = /** @type {Record<string, string>} */ (roundtripAliases)[`roundtrip/${entry}`] ?? '';
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    resolve: { alias: roundtripAliases },
    build: {
      write: false,
      minify: false,
      sourcemap: false,
      emptyOutDir: false,
      lib: { entry: input, formats: ['es'], fileName: (_format, name) => `${name}.js` },
      // React stays the project's own dependency; the libraries share one copy of each other (chunks).
      rollupOptions: { external: [/^react($|\/)/, /^react-dom($|\/)/] },
    },
  });
  /** @type {Record<string, string>} */
  const files = {};
  for (const out of Array.isArray(result) ? result : [result]) {
    if (!('output' in out)) continue;
    for (const chunk of out.output) if (chunk.type === 'chunk') files[`dist/${chunk.fileName}`] = chunk.code;
  }
  return files;
}

/** @returns {Promise<{ version: string, files: Record<string, string> }>} */
export async function buildRoundtripPackage() {
  const files = await buildModules();
  for (const [path, text] of Object.entries(generateDeclarations())) files[path.slice(TYPES_ROOT.length)] = text;
  /** @type {Record<string, { types: string, default: string }>} */
  const exports = {};
  for (const entry of ENTRIES) exports[`./${entry}`] = { types: `./${entry}/index.d.ts`, default: `./dist/${entry}.js` };
  const version = '0.1.0';
  files['package.json'] = `${JSON.stringify(
    {
      name: 'roundtrip',
      version,
      description: 'The libraries of the Roundtrip docs (HTTP simulator, query library, React bindings), as built for a downloaded playground.',
      private: true,
      type: 'module',
      exports,
      peerDependencies: { react: '>=19', 'react-dom': '>=19' },
      peerDependenciesMeta: { react: { optional: true }, 'react-dom': { optional: true } },
    },
    null,
    2,
  )}\n`;
  return { version, files };
}

/** @returns {import('vite').Plugin} */
export function roundtripPackage() {
  /** @type {Promise<string> | undefined} */
  let cached;
  return {
    name: 'roundtrip:package',
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : null;
    },
    load(id) {
      if (id !== RESOLVED_ID) return null;
      cached ??= buildRoundtripPackage().then((pkg) => `export default ${JSON.stringify(pkg)};`);
      return cached;
    },
    handleHotUpdate({ file, server }) {
      if (!/[\\/]src[\\/](wire|query|react|playground[\\/]options)[\\/]/.test(file)) return;
      cached = undefined;
      const mod = server.moduleGraph.getModuleById(RESOLVED_ID);
      if (mod) server.moduleGraph.invalidateModule(mod);
    },
  };
}
