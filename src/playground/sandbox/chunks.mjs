// @ts-check
/**
 * The sandbox runtime's pieces, as data shared by the build (build/integration.mjs) and the sandbox
 * (runtime.ts). Plain JavaScript so the build, which runs in Node without a TypeScript loader, can read it.
 *
 * Why pieces: a sandbox is a fresh realm per run, and an opaque-origin frame gets no HTTP or code cache for
 * its scripts (Chromium keys both by the frame's site, and an opaque one is never reused), so every byte it
 * runs is fetched, parsed and evaluated again on every start. One 726 KB script made the first Run of a page
 * wait ~800 ms; a wire-only snippet needs about a third of it. Each chunk is a classic script (module scripts
 * from an opaque origin would need CORS headers) that defines one global; the core runtime (runtime.js) loads
 * the chunks a snippet imports, and the compiler only when the host sends source it has not compiled already.
 */

/**
 * @typedef {object} SandboxChunk
 * @property {string} global The global variable the chunk's classic script defines.
 * @property {readonly string[]} modules Module names a snippet may import that this chunk provides.
 * @property {readonly string[]} needs Chunks that must have run before this one (their globals are its imports).
 */

/** @type {Readonly<Record<'wire' | 'query' | 'react' | 'compiler', SandboxChunk>>} */
export const SANDBOX_CHUNKS = Object.freeze({
  wire: { global: 'RoundtripSandboxWire', modules: ['roundtrip/wire'], needs: [] },
  query: { global: 'RoundtripSandboxQuery', modules: ['roundtrip/query'], needs: [] },
  // roundtrip/react shares the query chunk's classes (one QueryClient class per realm), so it needs that chunk.
  react: { global: 'RoundtripSandboxReact', modules: ['roundtrip/react', 'react', 'react-dom/client', 'react/jsx-runtime'], needs: ['query'] },
  compiler: { global: 'RoundtripSandboxCompiler', modules: [], needs: [] },
});

/** @typedef {keyof typeof SANDBOX_CHUNKS} SandboxChunkName */

/** @param {string} name @returns {name is SandboxChunkName} */
export function isSandboxChunk(name) {
  return Object.hasOwn(SANDBOX_CHUNKS, name);
}

/**
 * Module names in `code`'s static imports and requires: TypeScript source (`import ... from 'x'`,
 * `import 'x'`) and the compiler's output (`require('x')`) alike. A heuristic that may over-match (an import
 * inside a string): loading a chunk too many costs time, never correctness.
 * @param {string} code @returns {string[]}
 */
export function importedModules(code) {
  const found = new Set();
  const pattern = /\b(?:from|import|require\s*\()\s*(['"])([^'"\n]+)\1/g;
  for (const m of code.matchAll(pattern)) found.add(/** @type {string} */ (m[2]));
  return [...found];
}

/**
 * `names` with the chunks they need, each once, in an order they can run in (a chunk after what it needs).
 * @param {Iterable<SandboxChunkName>} names @returns {SandboxChunkName[]}
 */
export function withNeeds(names) {
  /** @type {SandboxChunkName[]} */
  const order = [];
  /** @param {SandboxChunkName} name */
  const add = (name) => {
    if (order.includes(name)) return;
    for (const need of SANDBOX_CHUNKS[name].needs) if (isSandboxChunk(need)) add(need);
    order.push(name);
  };
  for (const name of names) add(name);
  return order;
}

/**
 * The chunks that provide `modules` (module names a snippet imports), with what they need, in run order.
 * @param {Iterable<string>} modules @returns {SandboxChunkName[]}
 */
export function chunksFor(modules) {
  /** @type {SandboxChunkName[]} */
  const names = [];
  for (const module of modules) {
    for (const [name, chunk] of Object.entries(SANDBOX_CHUNKS)) {
      if (chunk.modules.includes(module) && isSandboxChunk(name)) names.push(name);
    }
  }
  return withNeeds(names);
}

/**
 * The sandbox page's address with the chunks to start loading as soon as it opens (`#wire,query`), so a
 * sandbox prepared ahead of a run has what the snippet will import by the time Run is pressed.
 * @param {string} page @param {readonly string[]} chunks @returns {string}
 */
export function sandboxSrc(page, chunks) {
  return chunks.length ? `${page}#${chunks.join(',')}` : page;
}

/** @param {string} hash `location.hash` of the sandbox page @returns {SandboxChunkName[]} */
export function chunksFromHash(hash) {
  return withNeeds(hash.replace(/^#/, '').split(',').filter(isSandboxChunk));
}
