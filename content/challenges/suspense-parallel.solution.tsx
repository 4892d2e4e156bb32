import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, useSuspenseQueries } from 'roundtrip/react';
import { createServer, createSimulation, http } from 'roundtrip/wire';

const sim = createSimulation({
  server: createServer({
    routes: [
      http.get('/user', () => Response.json({ name: 'Ada' }), { latency: 200 }),
      http.get('/posts', () => Response.json([{ title: 'Notes on the Analytical Engine' }]), { latency: 200 }),
    ],
  }),
});
const client = new QueryClient();
const user = { queryKey: ['user'], queryFn: async () => (await sim.fetch('/user')).json() as Promise<{ name: string }> };
const posts = { queryKey: ['posts'], queryFn: async () => (await sim.fetch('/posts')).json() as Promise<{ title: string }[]> };

// One profile, two queries. Two useSuspenseQuery calls in a row make a waterfall: the first suspends, so the
// second is not even seen until the first has arrived. useSuspenseQueries starts both, then suspends once.
function Profile() {
  const [{ data: who }, { data: list }] = useSuspenseQueries({ queries: [user, posts] });
  return (
    <p>
      {who.name}: {list.length} post(s)
    </p>
  );
}

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={client}>
    <Suspense fallback={<p>Loading…</p>}>
      <Profile />
    </Suspense>
  </QueryClientProvider>,
);
