/**
 * /llms.txt in the llmstxt.org shape: the site's name, a one-line summary, then one section per sidebar group
 * listing each page's Markdown copy with its description, in sidebar order.
 */
import type { APIRoute } from 'astro';
import { getCollection, type CollectionEntry } from 'astro:content';

// The sidebar's groups (astro.config.mjs), by the content directory each one autogenerates from.
const SECTIONS = [
  { heading: 'HTTP', directory: 'http' },
  { heading: 'Query library', directory: 'query' },
];

const order = (entry: CollectionEntry<'docs'>) => entry.data.sidebar?.order ?? Number.MAX_SAFE_INTEGER;

export const GET: APIRoute = async ({ site }) => {
  // Typed explicitly: before `astro sync` runs (a fresh clone's typecheck) astro:content is declared as any.
  const docs: CollectionEntry<'docs'>[] = await getCollection('docs');
  const url = (entry: CollectionEntry<'docs'>) => new URL(`/${entry.id}.md`, site).href;
  const item = (entry: CollectionEntry<'docs'>) => `- [${entry.data.title}](${url(entry)})${entry.data.description ? `: ${entry.data.description}` : ''}`;
  const home = docs.find((entry) => entry.id === 'index');

  const lines = [
    '# Roundtrip',
    '',
    `> ${home?.data.description ?? 'Learn how HTTP and data fetching really work, by watching them work.'}`,
    '',
    'Interactive documentation of the HTTP protocol (versions 0.9 to 3) and of a data-fetching and cache library ' +
      'with the TanStack Query v5 interface. Every page embeds playgrounds that run against a simulated network; ' +
      'the Markdown copies below show each playground as its source code.' +
      (home ? ` Landing page: [${home.data.title}](${url(home)}).` : ''),
  ];
  for (const { heading, directory } of SECTIONS) {
    const pages = docs.filter((entry) => entry.id.startsWith(`${directory}/`)).sort((a, b) => order(a) - order(b) || a.data.title.localeCompare(b.data.title));
    lines.push('', `## ${heading}`, '', ...pages.map(item));
  }
  return new Response(lines.join('\n') + '\n', { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
