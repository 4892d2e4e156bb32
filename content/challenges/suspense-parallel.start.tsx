import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, useSuspenseQuery } from 'roundtrip/react';
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

// Goal: one profile, two queries. They load one after the other (the second starts only when the first
// has arrived); make them load at the same time, so the fallback shows once, for one round of requests.
function Profile() {
  const { data: who } = useSuspenseQuery(user);
  const { data: list } = useSuspenseQuery(posts);
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
