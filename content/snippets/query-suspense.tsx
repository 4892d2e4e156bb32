import { Suspense, startTransition, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, useSuspenseQuery } from 'roundtrip/react';
import { createServer, createSimulation, http } from 'roundtrip/wire';

const sim = createSimulation({
  server: createServer({ routes: [http.get('/todos/:id', (_req, { params }) => Response.json({ title: `Todo ${params.id}` }))] }),
});
const client = new QueryClient();

function Todo({ id }: { id: number }) {
  // No isPending branch: until the data is there, this component suspends.
  const { data } = useSuspenseQuery({
    queryKey: ['todo', id],
    queryFn: async () => {
      await new Promise((r) => setTimeout(r, 300)); // slow enough to see the fallback
      return (await sim.fetch(`/todos/${id}`)).json() as Promise<{ title: string }>;
    },
  });
  return <p>{data.title}</p>;
}

function App() {
  const [id, setId] = useState(1);
  return (
    <>
      <Suspense fallback={<p>Loading…</p>}>
        <Todo id={id} />
      </Suspense>
      <button onClick={() => setId(id + 1)}>Next</button>
      <button onClick={() => startTransition(() => setId(id + 1))}>Next in a transition</button>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={client}>
    <App />
  </QueryClientProvider>,
);
