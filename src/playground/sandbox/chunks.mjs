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
 * Every set of chunks a sandbox page may run ahead of the core: each chunk either in or out, a chunk only with
 * what it needs, in run order. The build writes one page per set (build/integration.mjs).
 * @returns {SandboxChunkName[][]}
 */
export function sandboxPageSets() {
  const names = /** @type {SandboxChunkName[]} */ (Object.keys(SANDBOX_CHUNKS));
  /** @type {SandboxChunkName[][]} */
  const sets = [];
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const picked = names.filter((_, i) => mask & (1 << i));
    if (withNeeds(picked).length === picked.length) sets.push(withNeeds(picked));
  }
  return sets;
}

/**
 * File name of the sandbox page that runs `chunks` (with what they need) before the runtime core:
 * `index.html` for none, `with-wire-compiler.html` for wire and the compiler.
 * @param {Iterable<SandboxChunkName>} chunks @returns {string}
 */
export function sandboxPageName(chunks) {
  const set = withNeeds(chunks);
  const ordered = Object.keys(SANDBOX_CHUNKS).filter((name) => set.includes(/** @type {SandboxChunkName} */ (name)));
  return ordered.length ? `with-${ordered.join('-')}.html` : 'index.html';
}

/**
 * The address of the sandbox page in folder `dir` that loads `chunks` (what the snippet will import) as it
 * opens. The pieces are script tags of the page itself rather than loaded by the core once it runs: the
 * browser's preload scanner then fetches the core and every chunk at once, in parallel, from the first bytes
 * of the page (an opaque-origin frame has no cache to hide a second round trip).
 * @param {string} dir @param {Iterable<SandboxChunkName>} chunks @returns {string}
 */
export function sandboxSrc(dir, chunks) {
  return `${dir}${sandboxPageName(chunks)}`;
}

/**
 * The sandbox page for `chunks`, made from `template` (public/sandbox/index.html, which runs the core alone):
 * the chunks' classic scripts and then the core's, in run order, so the chunks have run by the time the core
 * says hello. All of them are `defer` scripts at the end of the head, not blocking scripts in the body: the
 * parser then requests every one the moment it reads the head, and the browser runs them in document order once
 * the page is parsed (HTML §4.12.1.1, "list of scripts that will execute when the document has finished
 * parsing"). With blocking scripts, Chromium requested the core only after the chunk before it had downloaded
 * and run (~60-250 ms later on a cold Run; the preload scanner did not get ahead of it). The chunks are
 * requested with CORS (`crossorigin`): to this opaque-origin page every script is cross-origin, and the browser
 * mutes the errors of a cross-origin script fetched without CORS, dropping its unhandled promise rejections (a
 * `sim.fetch` nobody awaited that failed). The site serves them with `Access-Control-Allow-Origin: *`; where a
 * host does not, the chunk fails to load and the core loads it again without CORS (runtime.ts, loadChunk). The
 * core itself is loaded without CORS, so that it always runs. Throws when the template has no core script tag,
 * or no head to put the scripts in.
 * @param {string} template @param {Iterable<SandboxChunkName>} chunks @returns {string}
 */
export function sandboxPageHtml(template, chunks) {
  const core = /[ \t]*<script src="\/sandbox\/runtime\.js"><\/script>\n?/;
  if (!core.test(template))
    throw new Error('The sandbox page template (public/sandbox/index.html) has no <script src="/sandbox/runtime.js"></script> to load chunks before.');
  const headEnd = /([ \t]*)<\/head>/;
  const head = headEnd.exec(template);
  if (!head) throw new Error('The sandbox page template (public/sandbox/index.html) has no </head> to put the sandbox scripts in.');
  const indent = `${head[1]}  `;
  const tags = [
    ...withNeeds(chunks).map((name) => `${indent}<script defer crossorigin src="/sandbox/${name}.js"></script>\n`),
    `${indent}<script defer src="/sandbox/runtime.js"></script>\n`,
  ];
  return template.replace(core, '').replace(headEnd, `${tags.join('')}$&`);
}

/** @param {string} hash `location.hash` of the sandbox page @returns {SandboxChunkName[]} */
export function chunksFromHash(hash) {
  return withNeeds(hash.replace(/^#/, '').split(',').filter(isSandboxChunk));
}
