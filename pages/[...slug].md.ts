/**
 * A Markdown copy of every docs page at its URL plus `.md` (`/http/overview/` -> `/http/overview.md`, the landing
 * page at `/index.md`), for readers that want text rather than a rendered page; llms.txt links to these.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getCollection, type CollectionEntry } from 'astro:content';
import { toMarkdown } from './_lib/markdown';

export const getStaticPaths = (async () => {
  // Typed explicitly: before `astro sync` runs (a fresh clone's typecheck) astro:content is declared as any.
  const docs: CollectionEntry<'docs'>[] = await getCollection('docs');
  // The not-found page (content/docs/404.md) is not a docs page to copy.
  return docs.filter((entry) => entry.id !== '404').map((entry) => ({ params: { slug: entry.id }, props: { entry } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ entry: CollectionEntry<'docs'> }> = async ({ props, site }) => {
  const { title, description } = props.entry.data;
  const markdown = await toMarkdown({ title, description, body: props.entry.body ?? '' }, site!);
  return new Response(markdown, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
};
