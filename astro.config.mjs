// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import react from '@astrojs/react';
import { roundtripAliases } from './aliases.mjs';
import { playgroundIntegration } from './src/playground/build/integration.mjs';
import { searchOnIntent } from './src/components/build/search-on-intent.mjs';
import { rehypeTableScroll } from './src/components/build/rehype-table-scroll.mjs';
import { unified } from '@astrojs/markdown-remark';

export default defineConfig({
  // Used for canonical URLs and the sitemap; local serving works the same whatever it says.
  site: 'https://roundtrip.dev',
  // Starlight reads `<srcDir>/content/docs`: '.' keeps the docs in top-level content/docs with the stock loaders.
  srcDir: '.',
  // RT_OUT_DIR lets two builds share a checkout (parallel e2e runs); both the output and Astro's cache move.
  outDir: process.env.RT_OUT_DIR ?? './dist',
  cacheDir: process.env.RT_OUT_DIR ? `${process.env.RT_OUT_DIR}-cache` : './node_modules/.astro',
  // The playground sandbox loads its library scripts with CORS so that their errors are not muted for the
  // opaque-origin sandbox page (src/playground/sandbox/chunks.mjs). This covers `astro dev` and `astro preview`;
  // public/_headers says the same to static hosts that read it (Netlify, Cloudflare Pages).
  server: { headers: { 'Access-Control-Allow-Origin': '*' } },
  // MDX pages inherit this: every Markdown table gets a focusable, labelled scroll region.
  markdown: { processor: unified({ rehypePlugins: [rehypeTableScroll] }) },
  integrations: [
    starlight({
      title: 'Roundtrip',
      description: 'Learn how HTTP and data fetching really work, by watching them work.',
      logo: { src: './public/favicon.svg', replacesTitle: false },
      favicon: '/favicon.svg',
      lastUpdated: false,
      sidebar: [
        // The gallery of every docs playground, each runnable full-page (pages/playground/).
        { label: 'Playground gallery', link: '/playground/' },
        // Paste or drop a capture and see it with the same visualizers (pages/inspect.astro).
        { label: 'Inspect your traffic', link: '/inspect/' },
        // Goals checked against what a run did (pages/challenges.astro; the blocks are components/Challenge.astro).
        { label: 'Challenges', link: '/challenges/' },
        { label: 'HTTP', items: [{ autogenerate: { directory: 'http' } }] },
        { label: 'Query library', items: [{ autogenerate: { directory: 'query' } }] },
      ],
      customCss: ['./src/components/styles/site.css'],
      components: { PageTitle: './src/components/PageTitle.astro', SkipLink: './src/components/SkipLink.astro' },
    }),
    react(),
    playgroundIntegration(),
  ],
  vite: {
    resolve: { alias: roundtripAliases },
    plugins: [searchOnIntent()],
  },
});
