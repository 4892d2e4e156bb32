// @ts-check
/**
 * Names, on each `client:interaction` island of a built page, every module its hydration will load, so that the
 * directive can request them all at once when the reader shows intent (interaction-directive.ts).
 *
 * Why: an island's code arrives as a chain. Astro imports the component and the renderer; only once those have
 * arrived and been parsed does the browser see their static imports (react-dom), and only after those the
 * next level (the bundler's runtime). Three round trips one after another, ~100 ms on a cold Run before the
 * island could hydrate. `<link rel="modulepreload">` for the whole graph turns the chain into one parallel
 * fetch (HTML §4.6.7.12: the module and its dependencies are fetched and parsed ahead, and the later import uses
 * them). The links cannot simply go into the page: that would download React on every docs page before anyone
 * touches a playground. So the page carries only the list, in `data-rt-preload` on the island, and the
 * directive turns it into links on intent.
 *
 * Done after the build, on the written files, because only then are the chunks' hashed names known; static
 * imports are read from the bundler's output, which writes them as `import{...}from"./x.js"`.
 */

/** Static `import`/`export ... from` of a relative module in built (minified or not) code. */
const STATIC_IMPORT = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*${}\s,]+from\s*)?["'](\.{1,2}\/[^"']+\.m?js)["']/g;

/**
 * The relative modules `code` imports statically (not `import()`: that loads later, if ever).
 * @param {string} code @returns {string[]}
 */
export function staticImports(code) {
  return [...new Set([...code.matchAll(STATIC_IMPORT)].map((m) => /** @type {string} */ (m[1])))];
}

/**
 * `entries` (site paths such as `/_astro/Playground.x.js`) and everything they import statically, transitively,
 * each once, entries first. A module `read` cannot find (undefined) is kept in the list but not followed.
 * @param {readonly string[]} entries @param {(path: string) => Promise<string | undefined>} read
 * @returns {Promise<string[]>}
 */
export async function importClosure(entries, read) {
  /** @type {string[]} */
  const order = [];
  const queue = [...entries];
  while (queue.length > 0) {
    const path = /** @type {string} */ (queue.shift());
    if (order.includes(path)) continue;
    order.push(path);
    const code = await read(path);
    if (code === undefined) continue;
    for (const spec of staticImports(code)) queue.push(new URL(spec, `https://site${path}`).pathname);
  }
  return order;
}

/** An island that hydrates on interaction, with the URLs of its component and renderer. */
const ISLAND = /<astro-island\b[^>]*>/g;

/** @param {string} tag @param {string} name */
function attribute(tag, name) {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

/**
 * `html` with `data-rt-preload` (space-separated site paths) on every `client:interaction` island: the
 * island's component and renderer and what they import statically. Other islands are left alone, and so is an
 * island that has the attribute already (so running this twice changes nothing).
 * @param {string} html @param {(path: string) => Promise<string | undefined>} read
 * @returns {Promise<string>}
 */
export async function addIslandPreloads(html, read) {
  /** @type {Map<string, string>} */
  const replacements = new Map();
  for (const [tag] of html.matchAll(ISLAND)) {
    if (replacements.has(tag) || attribute(tag, 'client') !== 'interaction' || attribute(tag, 'data-rt-preload') !== undefined) continue;
    const entries = [attribute(tag, 'component-url'), attribute(tag, 'renderer-url')].filter((url) => url?.startsWith('/'));
    if (entries.length === 0) continue;
    const paths = await importClosure(/** @type {string[]} */ (entries), read);
    replacements.set(tag, tag.replace(/>$/, ` data-rt-preload="${paths.join(' ')}">`));
  }
  return replacements.size === 0 ? html : html.replace(ISLAND, (tag) => replacements.get(tag) ?? tag);
}
