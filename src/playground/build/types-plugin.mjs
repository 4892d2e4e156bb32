// @ts-check
/**
 * `virtual:roundtrip-types`: the declaration files of roundtrip/wire, roundtrip/query, roundtrip/react and
 * roundtrip/playground (the snippet's side of the options panel, src/playground/options),
 * generated from the real sources with the TypeScript compiler when the site is built (or first requested in
 * dev), so the editor offers completion and diagnostics for exactly the API the sandbox runs, with no network.
 *
 * Shape: `{ [path: string]: string }`, paths laid out as a package at file:///node_modules/roundtrip/ so that
 * Monaco's ordinary Node module resolution finds `roundtrip/wire` -> node_modules/roundtrip/wire/index.d.ts.
 *
 * React snippets import `react` and `react-dom/client`, and their JSX needs `react/jsx-runtime`: React's own
 * declarations (@types/react, @types/react-dom, the versions the site is built with) go in beside them
 * (reactDeclarations), or every React example would open in the editor under red squiggles.
 */
import ts from 'typescript';
import { readFileSync } from 'node:fs';
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
  const parsed = ts.getParsedCommandLineOfConfigFile(
    `${ROOT}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
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

const TYPES_ROOT = 'file:///node_modules/@types/';
/** The files of each @types package a snippet's React imports reach, from the site's node_modules. */
const REACT_TYPES = {
  react: ['index.d.ts', 'global.d.ts', 'jsx-runtime.d.ts', 'jsx-dev-runtime.d.ts'],
  'react-dom': ['index.d.ts', 'client.d.ts'],
};

/**
 * csstype, which @types/react takes CSSProperties from, is close to 1 MB of declarations, most of it value
 * types: the editor gets its property names (so `style={{ ... }}` still completes and catches a misspelt
 * property) with any string or number as their value.
 * @param {string} source csstype's index.d.ts
 */
export function csstypeStandIn(source) {
  const names = new Set();
  for (const block of ['StandardLonghandProperties', 'StandardShorthandProperties']) {
    const start = source.indexOf(`export interface ${block}<`);
    const end = source.indexOf('\n}', start);
    if (start < 0 || end < 0) throw new Error(`csstype: interface ${block} not found; update csstypeStandIn for the installed csstype.`);
    for (const m of source.slice(start, end).matchAll(/^ {2}(\w+)\?:/gm)) names.add(m[1]);
  }
  const props = [...names].map((name) => `  ${name}?: string | number | undefined;`).join('\n');
  return `// The property names of csstype's standard properties, with any value (see types-plugin.mjs).\nexport interface Properties<TLength = (string & {}) | 0, TTime = string & {}> {\n${props}\n}\n`;
}

/** @returns {Record<string, string>} React's declarations, at the paths Node module resolution looks in. */
export function reactDeclarations() {
  /** @type {Record<string, string>} */
  const files = {};
  for (const [pkg, names] of Object.entries(REACT_TYPES)) {
    const dir = `${ROOT}node_modules/@types/${pkg}/`;
    const version = JSON.parse(readFileSync(`${dir}package.json`, 'utf8')).version;
    // A minimal package.json: "types" is all resolution needs (the real one's typesVersions serve TS <= 5.0).
    files[`${TYPES_ROOT}${pkg}/package.json`] = JSON.stringify({ name: `@types/${pkg}`, version, types: 'index.d.ts' });
    for (const name of names) files[`${TYPES_ROOT}${pkg}/${name}`] = readFileSync(`${dir}${name}`, 'utf8');
  }
  files['file:///node_modules/csstype/package.json'] = JSON.stringify({ name: 'csstype', types: 'index.d.ts' });
  files['file:///node_modules/csstype/index.d.ts'] = csstypeStandIn(readFileSync(`${ROOT}node_modules/csstype/index.d.ts`, 'utf8'));
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
      cached ??= { ...generateDeclarations(), ...reactDeclarations() };
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
