/**
 * Turns a docs page's MDX source into plain Markdown for language models and other readers that do not run
 * JavaScript (the `/<page>.md` copies and llms.txt). What MDX adds is rewritten rather than dropped wherever it
 * carries content:
 *
 * - `import` lines go; a `<Playground code={snippet} />` becomes its snippet as a fenced `ts` block, and a
 *   `<Challenge id />` its title, goal and starting snippet;
 * - the data tables from src/components/docs are rendered (Astro's container API) and converted to GFM tables;
 * - `{EXPR}` over constants imported from roundtrip/wire is evaluated, as the page does;
 * - `:::caution[Title]` asides become blockquotes, Starlight cards become `###` sections;
 * - site-relative links become absolute, so that a copy read out of context still leads somewhere.
 *
 * Fenced code is passed through untouched.
 */
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import * as wire from 'roundtrip/wire';
import { challengeById } from '../../src/playground/challenges/catalog';

const snippets = import.meta.glob<string>('../../content/snippets/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
const tables = import.meta.glob<{ default: Parameters<AstroContainer['renderToString']>[0] }>('../../src/components/docs/*.astro', { eager: true });

let container: AstroContainer | undefined;

const basename = (path: string) => path.split('/').pop()!.replace(/\?.*$/, '');

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/(\w+)=(?:"([^"]*)"|\{([^}]*)\})/g)) out[m[1]!] = m[2] ?? `{${m[3]}}`;
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };
const decode = (s: string) => s.replace(/&(#?\w+);/g, (m, e: string) => ENTITIES[e] ?? m);

/** Inline HTML of a table cell to Markdown: code and emphasis kept, every other tag dropped, pipes escaped. */
function cell(html: string): string {
  return decode(
    html
      .replace(/<code[^>]*>(.*?)<\/code>/gs, (_, c: string) => '`' + c.replace(/<[^>]+>/g, '') + '`')
      .replace(/<(strong|b)>(.*?)<\/\1>/gs, '**$2**')
      .replace(/<(em|i)>(.*?)<\/\1>/gs, '*$2*')
      .replace(/<a [^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gs, '[$2]($1)')
      .replace(/<br\s*\/?>|<\/?(span|div|p|li)(\s[^>]*)?>/g, ' ')
      .replace(/<[^>]+>/g, ''),
  )
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\|/g, '\\|');
}

/** A rendered doc table (one `<table>`, header row in `<thead>`) as a GFM table, its caption underneath. */
export function htmlTableToMarkdown(html: string): string {
  const rows = [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((r) => [...r[1]!.matchAll(/<t([hd])[^>]*>(.*?)<\/t\1>/gs)].map((c) => cell(c[2]!)));
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]) => `| ${[...r, ...Array(width - r.length).fill('')].join(' | ')} |`;
  const out = [line(rows[0]!), line(Array(width).fill('---')), ...rows.slice(1).map(line)];
  const caption = /<caption[^>]*>(.*?)<\/caption>/s.exec(html);
  if (caption) out.push('', `*${cell(caption[1]!)}*`);
  return out.join('\n');
}

/** Evaluates `{expr}` outside inline code when it uses only constants the page imported from roundtrip/wire. */
function expressions(line: string, wireNames: string[]): string {
  if (wireNames.length === 0) return line;
  return line
    .split(/(`[^`]*`)/)
    .map((part) =>
      part.startsWith('`')
        ? part
        : part.replace(/\{([^{}]+)\}/g, (whole, expr: string) => {
            // Free identifiers: not inside string literals, not property names after a dot.
            const idents = expr.replace(/'[^']*'|"[^"]*"/g, "''").match(/(?<![.\w$])[A-Za-z_$][\w$]*/g) ?? [];
            if (idents.length === 0 || !idents.every((id) => wireNames.includes(id))) return whole;
            // Our own page source, evaluated at build time with only these constants in scope.
            const values = wireNames.map((n) => (wire as Record<string, unknown>)[n]);
            return String(new Function(...wireNames, `return (${expr});`)(...values));
          }),
    )
    .join('');
}

export interface MarkdownPage {
  title: string;
  description?: string;
  body: string;
}

export async function toMarkdown(page: MarkdownPage, site: URL): Promise<string> {
  const out: string[] = [`# ${page.title}`, ''];
  if (page.description) out.push(`> ${page.description}`, '');

  const defaults = new Map<string, string>(); // local name -> module path, for default imports
  const wireNames: string[] = [];
  let fence: string | null = null;
  let aside = false;
  let cardIndent = 0;

  for (const raw of page.body.split('\n')) {
    const prefix = aside ? '> ' : '';
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(raw)?.[1];
    if (fence) {
      out.push(prefix + raw);
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length && raw.trim() === fenceMark) fence = null;
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      out.push(prefix + raw);
      continue;
    }

    const line = raw.slice(Math.min(cardIndent, raw.length - raw.trimStart().length));
    const trimmed = line.trim();
    // An MDX comment on a line of its own (a source note such as {/* RFC 9110 §7.6.1 */}) is not shown.
    if (/^\{\/\*.*\*\/\}$/.test(trimmed)) continue;

    const imp = /^import\s+(.+?)\s+from\s+['"]([^'"]+)['"];?$/.exec(trimmed);
    if (imp) {
      const [, what, from] = imp;
      if (from === 'roundtrip/wire')
        wireNames.push(
          ...what!
            .replace(/[{}]/g, '')
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        );
      else if (!what!.startsWith('{')) defaults.set(what!, from!);
      continue;
    }

    const asideOpen = /^:::(\w+)(?:\[(.*)\])?\s*$/.exec(trimmed);
    if (asideOpen && !aside) {
      const kind = asideOpen[1]!.charAt(0).toUpperCase() + asideOpen[1]!.slice(1);
      // A titled note or tip reads best by its title alone; a caution or danger keeps its kind as a warning.
      const warn = kind === 'Caution' || kind === 'Danger';
      out.push(`> **${asideOpen[2] ? (warn ? `${kind}: ${asideOpen[2]}` : asideOpen[2]) : kind}**`, '>');
      aside = true;
      continue;
    }
    if (trimmed === ':::' && aside) {
      aside = false;
      continue;
    }

    const tag = /^<(\/?)([A-Z]\w*)([^>]*?)(\/?)>$/.exec(trimmed);
    if (tag) {
      const [, closing, name, rest, selfClosing] = tag;
      const props = attrs(rest!);
      const from = defaults.get(name!) ?? '';
      if (name === 'Playground' && selfClosing) {
        const file = `../../content/snippets/${basename(defaults.get(props.code!.slice(1, -1)) ?? '')}`;
        const code = snippets[file];
        out.push(prefix + `**Playground: ${props.title ?? props.id}** (runs live on the HTML page)`, prefix);
        const fence = file.endsWith('.tsx') ? '```tsx' : '```ts';
        if (code) out.push(...[fence, ...code.trimEnd().split('\n'), '```'].map((l) => prefix + l));
      } else if (name === 'Challenge' && selfClosing) {
        const challenge = challengeById(props.id ?? '');
        if (challenge) {
          out.push(prefix + `**Try it: ${challenge.title}** (checked live on the HTML page, with hints and a solution)`, prefix);
          out.push(prefix + challenge.goal, prefix);
          const fence = challenge.react ? '```tsx' : '```ts';
          out.push(...[fence, ...challenge.starter.trimEnd().split('\n'), '```'].map((l) => prefix + l));
        }
      } else if (from.includes('/components/docs/') && selfClosing) {
        const component = tables[`../../src/components/docs/${basename(from)}`]?.default;
        if (component) {
          container ??= await AstroContainer.create();
          const html = await container.renderToString(component, { props });
          out.push(
            ...htmlTableToMarkdown(html)
              .split('\n')
              .map((l) => prefix + l),
          );
        }
      } else if (name === 'Card' && !closing) {
        out.push('', `### ${props.title ?? ''}`, '');
        cardIndent = raw.length - raw.trimStart().length + 2;
      } else if (name === 'Card') {
        cardIndent = 0;
      }
      // Other layout-only components (CardGrid, ...) carry no text of their own.
      continue;
    }

    const text = expressions(line, wireNames).replace(/\]\((\/[^)\s]*)\)/g, (_, href: string) => `](${new URL(href, site).href})`);
    out.push(prefix + text);
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim() + '\n'
  );
}
