// @ts-check
/**
 * `virtual:roundtrip-types`: the declaration files of roundtrip/wire, roundtrip/query, roundtrip/react and
 * roundtrip/playground (the snippet's side of the options panel, src/playground/options),
 * generated from the real sources with the TypeScript compiler when the site is built (or first requested in
 * dev), so the editor offers completion and diagnostics for exactly the API the sandbox runs, with no network.
 *
 * Shape: `{ [path: string]: string }`, paths laid out as a package at file:///node_modules/roundtrip/ so that
 * Monaco's ordinary Node module resolution finds `roundtrip/wire` -> node_modules/roundtrip/wire/index.d.ts.
 */
import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { relative, sep } from 'node:path';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Each `roundtrip/<name>` module and the folder its index.ts lives in. */
const ENTRIES = { wire: 'src/wire', query: 'src/query', react: 'src/react', playground: 'src/playground/options' };
const ENTRY_DIRS = Object.values(ENTRIES);
const VIRTUAL_ID = 'virtual:roundtrip-types';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const PACKAGE_ROOT = 'file:///node_modules/roundtrip/';

/** @returns {Record<string, string>} */
export function generateDeclarations() {
  const parsed = ts.getParsedCommandLineOfConfigFile(`${ROOT}tsconfig.json`, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error('Could not read tsconfig.json');
  /** @type {ts.CompilerOptions} */
  const options = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    skipLibCheck: true,
    outDir: `${ROOT}.types-out`,
    rootDir: ROOT,
  };
  const roots = ENTRY_DIRS.map((dir) => `${ROOT}${dir}/index.ts`);
  const program = ts.createProgram(roots, options);
  /** @type {Record<string, string>} */
  const files = {};
  const outRoot = `${ROOT}.types-out${sep}`;
  program.emit(undefined, (fileName, text) => {
    const rel = relative(outRoot, fileName).split(sep).join('/');
    // Only the libraries' own declarations: tests, benches and other folders are not part of the API.
    if (!ENTRY_DIRS.some((dir) => rel.startsWith(`${dir}/`)) || /\.(test|bench)\.d\.ts$/.test(rel)) return;
    files[`${PACKAGE_ROOT}${rel}`] = text;
  });
  for (const [entry, dir] of Object.entries(ENTRIES)) {
    files[`${PACKAGE_ROOT}${entry}/index.d.ts`] = `export * from '../${dir}/index';\n`;
  }
  return files;
}

/** @returns {import('vite').Plugin} */
export function roundtripTypes() {
  /** @type {Record<string, string> | undefined} */
  let cached;
  return {
    name: 'roundtrip:types',
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : null;
    },
    load(id) {
      if (id !== RESOLVED_ID) return null;
      cached ??= generateDeclarations();
      return `export default ${JSON.stringify(cached)};`;
    },
    handleHotUpdate({ file, server }) {
      if (!/[\\/]src[\\/](wire|query|react|playground[\\/]options)[\\/]/.test(file)) return;
      cached = undefined;
      const mod = server.moduleGraph.getModuleById(RESOLVED_ID);
      if (mod) server.moduleGraph.invalidateModule(mod);
    },
  };
}
