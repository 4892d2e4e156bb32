import { QueryClient, QueryObserver } from 'roundtrip/query';
import { createServer, createSimulation, http } from 'roundtrip/wire';

let version = 1;
const server = createServer({ routes: [http.get('/todos/:id', (_req, { params }) => Response.json({ id: params.id, version }))] });
const sim = createSimulation({ server });
const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });

const todo = (id: number) => ({ queryKey: ['todos', id], queryFn: async () => (await sim.fetch(`/todos/${id}`)).json() });
const requests = () => sim.trace.ofType('request-started').length;

// Todo 1 is on screen (an active observer); todo 2 was only prefetched (inactive).
const stop = new QueryObserver(client, todo(1)).subscribe(() => {});
await client.prefetchQuery({ ...todo(2), retry: false });
await new Promise((r) => setTimeout(r, 10));
console.log('cached:', client.getQueriesData({ queryKey: ['todos'] }), 'requests:', requests());

// Something changed on the server. Invalidate everything under ['todos']:
version = 2;
await client.invalidateQueries({ queryKey: ['todos'] });
console.log('after invalidate:', client.getQueriesData({ queryKey: ['todos'] }), 'requests:', requests());
console.log('todo 2 is stale, waiting for its next observer:', client.getQueryState(['todos', 2])?.isInvalidated);

// Write directly, then read through filters.
client.setQueryData(['todos', 3], { id: '3', version: 0 });
console.log(
  'fresh queries:',
  client
    .getQueryCache()
    .findAll({ queryKey: ['todos'], stale: false })
    .map((q) => q.queryKey),
);
console.log('idle (not fetching):', client.getQueryCache().findAll({ fetchStatus: 'idle' }).length);
stop();
