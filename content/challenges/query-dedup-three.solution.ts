import { QueryClient, QueryObserver } from 'roundtrip/query';
import { createSimulation, createServer, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/todos', () => Response.json(['milk', 'bread']), { latency: 50 })] });
const sim = createSimulation({ server });
const client = new QueryClient();

// Three components on one screen show the same list. Goal: the server sees one request, not three.
function todosQuery(component: string) {
  return {
    queryKey: ['todos'], // one key: one cache entry, one fetch shared by every observer
    meta: { component }, // who asked can travel in meta, which is not part of the key
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await sim.fetch('/todos', { signal })).json(),
  };
}

const components = ['header', 'sidebar', 'list'];
await Promise.all(
  components.map(
    (name) =>
      new Promise<void>((resolve) => {
        const stop = new QueryObserver(client, todosQuery(name)).subscribe((result) => {
          if (result.status === 'success') {
            console.log(`${name}: ${JSON.stringify(result.data)}`);
            stop();
            resolve();
          }
        });
      }),
  ),
);
console.log('requests the server saw:', sim.trace.ofType('request-started').length);
