import { QueryClient, QueryObserver } from 'roundtrip/query';
import { createSimulation, createServer, http } from 'roundtrip/wire';

// The two libraries meet in one place: a queryFn that calls the simulated network's fetch.
const server = createServer({ routes: [http.get('/todos', () => Response.json(['milk', 'bread']), { latency: 50 })] });
const sim = createSimulation({ server });

const client = new QueryClient();
client.mount();

const todos = { queryKey: ['todos'], queryFn: async ({ signal }: { signal: AbortSignal }) => (await sim.fetch('/todos', { signal })).json() };

// Three components mount the same query at the same moment...
const observers = [1, 2, 3].map(() => new QueryObserver(client, todos));
const results = await Promise.all(
  observers.map(
    (observer, i) =>
      new Promise((resolve) => {
        const stop = observer.subscribe((result) => {
          if (result.status === 'success') {
            stop();
            resolve(`observer ${i + 1}: ${JSON.stringify(result.data)}`);
          }
        });
      }),
  ),
);
console.log(results);

// ...and the server saw one request.
console.log('requests sent:', sim.trace.ofType('request-started').length);
client.unmount();
