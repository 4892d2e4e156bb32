import { QueryClient, dehydrate, hydrate } from 'roundtrip/query';
import { createServer, createSimulation, http } from 'roundtrip/wire';

const sim = createSimulation({ server: createServer({ routes: [http.get('/todos', () => Response.json(['milk', 'bread']))] }) });
const todos = { queryKey: ['todos'], queryFn: async () => (await sim.fetch('/todos')).json() as Promise<string[]> };

// On the server: one client per request, prefetch, then dehydrate into plain JSON.
// (Real code must escape '<' in that JSON before putting it in a script tag.)
const serverClient = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
await serverClient.query(todos).catch(() => undefined); // a failed fetch still lets the page render
const html = `<script>window.__STATE__ = ${JSON.stringify(dehydrate(serverClient))}</script>`;
console.log('sent with the page:', html);

// In the browser: a new client, hydrated with that state before anything renders.
const browserClient = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
hydrate(browserClient, JSON.parse(html.slice(html.indexOf('=') + 2, html.lastIndexOf('<'))));
console.log('already cached in the browser:', browserClient.getQueryData(['todos']));

// Fresh by staleTime, so this reads the cache: no second request.
console.log(await browserClient.query(todos), '- requests so far:', sim.trace.ofType('request-started').length);
