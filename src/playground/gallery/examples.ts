/**
 * Every playground in the docs, found at build time from the MDX pages that embed them: which snippet, under
 * which title, on which page. The /playground gallery lists these and each gets its own full-page playground
 * at /playground/<id>/, so every docs playground is reachable there (and "Open in playground" has a target).
 *
 * Read from the sources rather than declared by hand, so a new playground on a page joins the gallery without
 * anyone remembering to add it. Build-time only (Vite's import.meta.glob over content/).
 */
import { VIEW_IDS } from '../viz/views';
export interface Example {
  /** The playground's id: unique on the site, used in share links and the gallery URL. */
  id: string;
  title: string;
  code: string;
  /** content/snippets/<file> */
  snippet: string;
  page: { title: string; href: string; section: string };
  /** The view a run opens on (`view="frames"` on the tag), the one that teaches the page; absent: the first that applies. */
  view?: string;
}

const SECTIONS: Readonly<Record<string, string>> = { http: 'HTTP', query: 'Query library' };

export const examplePath = (id: string) => `/playground/${encodeURIComponent(id)}/`;

function frontmatterTitle(mdx: string): string | undefined {
  const fm = /^---\n([\s\S]*?)\n---/.exec(mdx)?.[1] ?? '';
  const raw = /^title:\s*(.+)$/m.exec(fm)?.[1]?.trim();
  if (!raw) return undefined;
  return raw.startsWith('"') || raw.startsWith("'") ? raw.slice(1, -1).replace(/\\"/g, '"') : raw;
}

/** Attributes of one `<Playground ... />` tag: string values and `{identifier}` expressions. */
function tagAttributes(tag: string): Record<string, { text?: string; ref?: string }> {
  const out: Record<string, { text?: string; ref?: string }> = {};
  for (const m of tag.matchAll(/(\w+)=(?:"([^"]*)"|'([^']*)'|\{\s*([A-Za-z_$][\w$]*)\s*\})/g)) {
    out[m[1]!] = m[4] !== undefined ? { ref: m[4] } : { text: m[2] ?? m[3] ?? '' };
  }
  return out;
}

/**
 * Finds the examples in `pages` (path -> MDX source) whose snippets are in `snippets` (file name -> code).
 * Throws, naming the page, for an embed it cannot resolve or an id used twice.
 */
export function collectExamples(pages: Readonly<Record<string, string>>, snippets: Readonly<Record<string, string>>): Example[] {
  const examples: Example[] = [];
  const seen = new Map<string, string>();
  for (const [path, mdx] of Object.entries(pages).sort(([a], [b]) => a.localeCompare(b))) {
    const rel = /content\/docs\/(.+)\.mdx$/.exec(path)?.[1];
    if (!rel) continue;
    const imports = new Map<string, string>();
    for (const m of mdx.matchAll(/^import\s+([A-Za-z_$][\w$]*)\s+from\s+['"][./]*snippets\/([^'"?]+)\?raw['"]/gm)) imports.set(m[1]!, m[2]!);
    const href = rel === 'index' ? '/' : `/${rel.replace(/\/index$/, '')}/`;
    const page = { title: frontmatterTitle(mdx) ?? rel, href, section: SECTIONS[rel.split('/')[0]!] ?? 'Docs' };
    for (const m of mdx.matchAll(/<Playground\b([^>]*?)\/>/g)) {
      const attrs = tagAttributes(m[1]!);
      const id = attrs.id?.text;
      const title = attrs.title?.text;
      const ref = attrs.code?.ref;
      const view = attrs.view?.text;
      const snippet = ref ? imports.get(ref) : undefined;
      if (!id || !title || !snippet) throw new Error(`${path}: a <Playground> needs id="…", title="…" and code={a snippet imported with ?raw}.`);
      const code = snippets[snippet];
      if (code === undefined) throw new Error(`${path}: playground "${id}" uses content/snippets/${snippet}, which does not exist.`);
      const other = seen.get(id);
      if (other)
        throw new Error(
          `${path}: playground id "${id}" is already used on ${other}; ids must be unique on the site (they name share links and /playground pages).`,
        );
      if (view !== undefined && !VIEW_IDS.includes(view))
        throw new Error(`${path}: playground "${id}" opens on view="${view}", which is no view; the views are ${VIEW_IDS.join(', ')}.`);
      seen.set(id, path);
      examples.push({ id, title, code, snippet, page, ...(view ? { view } : {}) });
    }
  }
  return examples;
}

/** All the docs' examples, in page order. */
export function docsExamples(): Example[] {
  const pages = import.meta.glob<string>('../../../content/docs/**/*.mdx', { query: '?raw', import: 'default', eager: true });
  const files = import.meta.glob<string>('../../../content/snippets/*', { query: '?raw', import: 'default', eager: true });
  const snippets = Object.fromEntries(Object.entries(files).map(([p, code]) => [p.split('/').pop()!, code]));
  return collectExamples(pages, snippets);
}
