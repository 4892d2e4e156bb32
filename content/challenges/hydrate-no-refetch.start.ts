import { QueryClient, QueryObserver, dehydrate, hydrate } from 'roundtrip/query';
import { createServer, createSimulation, http } from 'roundtrip/wire';

const sim = createSimulation({ server: createServer({ routes: [http.get('/todos', () => Response.json(['milk', 'bread']))] }) });
const todos = { queryKey: ['todos'], queryFn: async () => (await sim.fetch('/todos')).json() as Promise<string[]> };

// On the server: fetch, then send the cache with the page.
const serverClient = new QueryClient();
await serverClient.query(todos);
const state = JSON.parse(JSON.stringify(dehydrate(serverClient)));

// In the browser: hydrate, then the component mounts.
// Goal: the browser shows the server's data without asking the server again.
const browserClient = new QueryClient();
hydrate(browserClient, state);
await new Promise<void>((resolve) => {
  const stop = new QueryObserver(browserClient, todos).subscribe((r) => {
    console.log('browser:', r.status, r.fetchStatus);
    if (r.fetchStatus === 'idle') {
      stop();
      resolve();
    }
  });
  setTimeout(() => {
    stop();
    resolve();
  }, 1_000);
});
console.log('requests the server saw:', sim.trace.ofType('request-started').length);
