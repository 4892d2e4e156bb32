// @ts-check
/**
 * The playground's build plumbing, as one Astro integration:
 * - registers the `client:interaction` directive;
 * - builds the sandbox runtime (src/playground/sandbox/runtime.ts) as one classic script at /sandbox/runtime.js:
 *   on demand in `astro dev`, into the output folder on `astro build`;
 * - keeps Monaco's CSS inside Monaco's lazy chunk (see monacoCssInline below);
 * - serves the libraries' generated declaration files to the editor (types-plugin.mjs);
 * - offers a built copy of the libraries to "Download project" (download/package-plugin.mjs).
 */
import { fileURLToPath } from 'node:url';
import { mkdir, writeFile } from 'node:fs/promises';
import { build } from 'vite';
import { roundtripAliases } from '../../../aliases.mjs';
import { roundtripTypes } from './types-plugin.mjs';
import { roundtripPackage } from '../download/package-plugin.mjs';

const RUNTIME_ENTRY = fileURLToPath(new URL('../sandbox/runtime.ts', import.meta.url));
const RUNTIME_PATH = '/sandbox/runtime.js';
/** The project's own sources: a change there (not in a dependency) makes the dev server rebuild the runtime. */
const SRC_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** @param {{ minify: boolean }} opts @returns {Promise<string>} */
export async function buildSandboxRuntime({ minify }) {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    resolve: { alias: roundtripAliases },
    define: { 'process.env.NODE_ENV': JSON.stringify(minify ? 'production' : 'development') },
    build: {
      write: false,
      minify,
      sourcemap: false,
      emptyOutDir: false,
      lib: { entry: RUNTIME_ENTRY, formats: ['iife'], name: 'RoundtripSandbox', fileName: () => 'runtime.js' },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const out of outputs) {
    if ('output' in out) {
      const chunk = out.output.find((o) => o.type === 'chunk');
      if (chunk && chunk.type === 'chunk') return chunk.code;
    }
  }
  throw new Error('The sandbox runtime build produced no script.');
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
        /** @type {Promise<string> | undefined} */
        let cached;
        server.watcher.on('change', (file) => {
          if (file.startsWith(SRC_DIR)) cached = undefined;
        });
        server.middlewares.use(async (req, res, next) => {
          if (req.url?.split('?')[0] !== RUNTIME_PATH) return next();
          try {
            cached ??= buildSandboxRuntime({ minify: false });
            const code = await cached;
            res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
            res.setHeader('Cache-Control', 'no-store');
            res.end(code);
          } catch (error) {
            cached = undefined;
            next(error);
          }
        });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const target = new URL(`.${RUNTIME_PATH}`, dir);
        await mkdir(new URL('./', target), { recursive: true });
        const code = await buildSandboxRuntime({ minify: true });
        await writeFile(target, code);
        logger.info(`sandbox runtime: ${(code.length / 1024).toFixed(1)} KiB at ${RUNTIME_PATH}`);
      },
    },
  };
}
