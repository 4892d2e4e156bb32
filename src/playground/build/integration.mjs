// @ts-check
/**
 * The playground's build plumbing, as one Astro integration:
 * - registers the `client:interaction` directive;
 * - builds the sandbox runtime (src/playground/sandbox/runtime.ts) and its chunks (sandbox/chunks.mjs) as classic
 *   scripts under /sandbox/, and a sandbox page per set of chunks (`with-wire.html`...) made from
 *   public/sandbox/index.html: on demand in `astro dev`, into the output folder on `astro build`;
 * - keeps Monaco's CSS inside Monaco's lazy chunk (see monacoCssInline below);
 * - serves the libraries' generated declaration files to the editor (types-plugin.mjs);
 * - offers a built copy of the libraries to "Download project" (download/package-plugin.mjs);
 * - names on each `client:interaction` island the modules its hydration loads, for the directive to preload
 *   them on intent (island-preload.mjs).
 */
import { fileURLToPath } from 'node:url';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { build } from 'vite';
import { roundtripAliases } from '../../../aliases.mjs';
import { roundtripTypes } from './types-plugin.mjs';
import { roundtripPackage } from '../download/package-plugin.mjs';
import { addIslandPreloads } from './island-preload.mjs';
import { SANDBOX_CHUNKS, sandboxPageHtml, sandboxPageName, sandboxPageSets } from '../sandbox/chunks.mjs';

const SANDBOX_DIR = '/sandbox/';
/** The project's own sources: a change there (not in a dependency) makes the dev server rebuild the runtime. */
const SRC_DIR = fileURLToPath(new URL('../../', import.meta.url));
const here = (/** @type {string} */ p) => fileURLToPath(new URL(p, import.meta.url));

/**
 * What each sandbox script is built from. `runtime` is the core the sandbox page loads; the others are the
 * chunks of sandbox/chunks.mjs, each an IIFE that defines its global. `imports`: modules taken from another
 * script's global instead of being bundled again (module name -> that script's name). `devWarnings`: built with
 * NODE_ENV 'development' even when minified, so the library's development-only warnings reach the playground's
 * console (runtime.ts routes the realm's console there), as TanStack Query's reach DevTools while a reader
 * develops: "Query data cannot be undefined", a queryKey that is not an array. React stays a production build
 * (its development build is several times the size).
 * @type {Record<string, { entry: string, global: string, imports?: Record<string, string>, devWarnings?: boolean }>}
 */
const SANDBOX_SCRIPTS = {
  runtime: { entry: here('../sandbox/runtime.ts'), global: 'RoundtripSandbox' },
  wire: { entry: here('../sandbox/chunk-wire.ts'), global: SANDBOX_CHUNKS.wire.global },
  query: { entry: roundtripAliases['roundtrip/query'], global: SANDBOX_CHUNKS.query.global, devWarnings: true },
  react: { entry: here('../sandbox/chunk-react.ts'), global: SANDBOX_CHUNKS.react.global, imports: { 'roundtrip/query': 'query' } },
  compiler: { entry: here('../sandbox/compile.ts'), global: SANDBOX_CHUNKS.compiler.global },
};

/** @typedef {{ code: string, exports: string[] }} BuiltScript */

/**
 * Serves `module` from `global` (another script's), as a module with the same named exports. Not Rollup's
 * `external` + `output.globals`: an IIFE that re-exports everything of an external (`export *`, as
 * roundtrip/react does with roundtrip/query) comes out calling `require`, which a browser does not have.
 * @param {Record<string, { global: string, exports: string[] }>} provided @returns {import('vite').Plugin}
 */
function fromGlobals(provided) {
  const PREFIX = '\0roundtrip-sandbox-global:';
  return {
    name: 'roundtrip:sandbox-globals',
    enforce: 'pre',
    resolveId(id) {
      return Object.hasOwn(provided, id) ? PREFIX + id : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const { global, exports } = /** @type {{ global: string, exports: string[] }} */ (provided[id.slice(PREFIX.length)]);
      const names = exports.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
      return `const m = globalThis[${JSON.stringify(global)}];\n${names.map((name) => `export const ${name} = m.${name};`).join('\n')}\n`;
    },
  };
}

/**
 * @param {string} name @param {{ minify: boolean }} opts
 * @param {(name: string) => Promise<BuiltScript>} built the other scripts, for `imports`
 * @returns {Promise<BuiltScript>}
 */
async function buildSandboxScript(name, { minify }, built) {
  const script = SANDBOX_SCRIPTS[name];
  if (!script) throw new Error(`No sandbox script named "${name}".`);
  /** @type {Record<string, { global: string, exports: string[] }>} */
  const provided = {};
  for (const [module, from] of Object.entries(script.imports ?? {})) {
    const source = /** @type {{ global: string }} */ (SANDBOX_SCRIPTS[from]);
    provided[module] = { global: source.global, exports: (await built(from)).exports };
  }
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    plugins: [fromGlobals(provided)],
    // Without the aliases of what comes from globals: the alias would turn 'roundtrip/query' into a file first.
    resolve: { alias: Object.fromEntries(Object.entries(roundtripAliases).filter(([module]) => !Object.hasOwn(provided, module))) },
    define: { 'process.env.NODE_ENV': JSON.stringify(minify && !script.devWarnings ? 'production' : 'development') },
    build: {
      write: false,
      minify,
      sourcemap: false,
      emptyOutDir: false,
      lib: { entry: script.entry, formats: ['iife'], name: script.global, fileName: () => `${name}.js` },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const out of outputs) {
    if ('output' in out) {
      const chunk = out.output.find((o) => o.type === 'chunk');
      if (chunk && chunk.type === 'chunk') {
        // A bundling slip that would only show in the browser: a module left to a CommonJS require(). Checked
        // on minified output (no comments to mention one); the compiler's output legitimately writes require().
        if (minify && name !== 'compiler' && /\brequire\(["'`]/.test(chunk.code))
          throw new Error(`The sandbox script "${name}" calls require(), which a browser lacks.`);
        return { code: chunk.code, exports: chunk.exports };
      }
    }
  }
  throw new Error(`The sandbox script "${name}" built to nothing.`);
}

/**
 * Builds sandbox scripts on demand, each once (until `clear`); keys are script names.
 * @param {{ minify: boolean }} opts
 */
function sandboxBuilds(opts) {
  /** @type {Map<string, Promise<BuiltScript>>} */
  const cache = new Map();
  /** @param {string} name @returns {Promise<BuiltScript>} */
  const get = (name) => {
    let done = cache.get(name);
    if (!done) {
      done = buildSandboxScript(name, opts, get);
      cache.set(name, done);
      done.catch(() => cache.delete(name));
    }
    return done;
  };
  return { get, clear: () => cache.clear() };
}

/**
 * Builds every sandbox script; keys are file names under /sandbox/.
 * @param {{ minify: boolean }} opts @returns {Promise<Record<string, string>>}
 */
export async function buildSandboxRuntime(opts) {
  const builds = sandboxBuilds(opts);
  /** @type {Record<string, string>} */
  const files = {};
  // One at a time: Vite builds share a process, and the machine this runs on is often small.
  for (const name of Object.keys(SANDBOX_SCRIPTS)) files[`${name}.js`] = (await builds.get(name)).code;
  return files;
}

/** The sandbox page that runs the core alone; the pages with chunks are made from it. */
const SANDBOX_TEMPLATE = here('../../../public/sandbox/index.html');

/**
 * Every sandbox page but the template itself (which public/ serves as it is); keys are file names under /sandbox/.
 * @returns {Promise<Record<string, string>>}
 */
export async function buildSandboxPages() {
  const template = await readFile(SANDBOX_TEMPLATE, 'utf8');
  /** @type {Record<string, string>} */
  const pages = {};
  for (const set of sandboxPageSets()) if (set.length) pages[sandboxPageName(set)] = sandboxPageHtml(template, set);
  return pages;
}

/**
 * Monaco's ESM build imports its CSS from deep inside its modules. Astro drops CSS that is reached only through
 * a lazy import inside an island, so in a production build the editor would render unstyled. Rewriting each
 * `import './x.css'` into an inline string that Monaco's own chunk injects keeps styles and editor together.
 * @returns {import('vite').Plugin}
 */
function monacoCssInline() {
  return {
    name: 'roundtrip:monaco-css-inline',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]monaco-editor[\\/]esm[\\/].*\.js$/.test(id) || !code.includes('.css')) return null;
      let n = 0;
      /** @type {string[]} */
      const imports = [];
      const out = code.replace(/^import\s+(['"])([^'"]+\.css)\1;?\s*$/gm, (_m, _q, path) => {
        const name = `__monacoCss${n++}`;
        imports.push(`import ${name} from ${JSON.stringify(`${path}?inline`)};`);
        return `__injectMonacoCss(${name});`;
      });
      if (n === 0) return null;
      const helper = 'import { injectMonacoCss as __injectMonacoCss } from "roundtrip:monaco-css";';
      return { code: `${helper}\n${imports.join('\n')}\n${out}`, map: null };
    },
    resolveId(id) {
      return id === 'roundtrip:monaco-css' ? '\0roundtrip:monaco-css' : null;
    },
    load(id) {
      if (id !== '\0roundtrip:monaco-css') return null;
      return `const seen = new Set();
export function injectMonacoCss(css) {
  if (typeof document === 'undefined' || seen.has(css)) return;
  seen.add(css);
  const style = document.createElement('style');
  style.dataset.monaco = '';
  style.textContent = css;
  document.head.append(style);
}`;
    },
  };
}

/**
 * Adds `data-rt-preload` to the interaction islands of every page under `dir` (island-preload.mjs).
 * @param {URL} dir the build output folder @returns {Promise<number>} how many pages changed
 */
async function preloadIslands(dir) {
  /** @type {Map<string, Promise<string | undefined>>} */
  const modules = new Map();
  /** @param {string} path */
  const read = (path) => {
    let code = modules.get(path);
    if (!code) {
      code = readFile(new URL(`.${path}`, dir), 'utf8').catch(() => undefined);
      modules.set(path, code);
    }
    return code;
  };
  let changed = 0;
  const files = await readdir(dir, { recursive: true });
  for (const file of files.filter((f) => f.endsWith('.html'))) {
    const url = new URL(file.split('\\').join('/'), dir);
    const html = await readFile(url, 'utf8');
    if (!html.includes('client="interaction"')) continue;
    const next = await addIslandPreloads(html, read);
    if (next === html) continue;
    await writeFile(url, next);
    changed += 1;
  }
  return changed;
}

/** @returns {import('astro').AstroIntegration} */
export function playgroundIntegration() {
  return {
    name: 'roundtrip:playground',
    hooks: {
      'astro:config:setup': ({ addClientDirective, updateConfig }) => {
        addClientDirective({
          name: 'interaction',
          entrypoint: fileURLToPath(new URL('./interaction-directive.ts', import.meta.url)),
        });
        updateConfig({ vite: { plugins: [monacoCssInline(), roundtripTypes(), roundtripPackage()], worker: { format: 'es' } } });
      },
      'astro:server:setup': ({ server }) => {
        const builds = sandboxBuilds({ minify: false });
        server.watcher.on('change', (file) => {
          if (file.startsWith(SRC_DIR)) builds.clear();
        });
        /** @type {import('vite').Connect.NextHandleFunction} */
        const serveSandboxScript = async (req, res, next) => {
          const path = req.url?.split('?')[0] ?? '';
          const file = path.startsWith(SANDBOX_DIR) ? path.slice(SANDBOX_DIR.length) : '';
          if (file.startsWith('with-') && file.endsWith('.html')) {
            try {
              const page = (await buildSandboxPages())[file];
              if (page === undefined) return next();
              res.setHeader('Content-Type', 'text/html; charset=utf-8');
              res.setHeader('Cache-Control', 'no-store');
              res.end(page);
            } catch (error) {
              next(error);
            }
            return;
          }
          const name = file.endsWith('.js') ? file.slice(0, -3) : '';
          if (!Object.hasOwn(SANDBOX_SCRIPTS, name)) return next();
          try {
            const { code } = await builds.get(name);
            res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
            res.setHeader('Cache-Control', 'no-store');
            res.end(code);
          } catch (error) {
            next(error);
          }
        };
        // First in the stack, ahead of the dev server's guard against cross-site subresource requests (Astro
        // puts it first when the server is created): the sandbox's opaque origin makes every script request
        // cross-site, and these scripts are what the production site serves to anyone anyway.
        server.httpServer?.once('listening', () => server.middlewares.stack.unshift({ route: '', handle: serveSandboxScript }));
        if (!server.httpServer) server.middlewares.use(serveSandboxScript);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const folder = new URL(`.${SANDBOX_DIR}`, dir);
        await mkdir(folder, { recursive: true });
        const files = await buildSandboxRuntime({ minify: true });
        for (const [file, code] of Object.entries(files)) await writeFile(new URL(file, folder), code);
        const pages = await buildSandboxPages();
        for (const [file, html] of Object.entries(pages)) await writeFile(new URL(file, folder), html);
        const sizes = Object.entries(files).map(([file, code]) => `${file} ${(code.length / 1024).toFixed(1)} KiB`);
        logger.info(`sandbox scripts at ${SANDBOX_DIR}: ${sizes.join(', ')}; ${Object.keys(pages).length} sandbox pages`);
        logger.info(`island module lists for preloading on intent added to ${await preloadIslands(dir)} pages`);
      },
    },
  };
}
