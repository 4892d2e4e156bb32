import { Component, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, QueryErrorResetBoundary, useQuery } from 'roundtrip/react';
import { createServer, createSimulation, http } from 'roundtrip/wire';

// The server fails twice with a 500, then recovers. fetch does not reject for a 500, so the queryFn throws.
let calls = 0;
const sim = createSimulation({
  server: createServer({ routes: [http.get('/todos', () => (++calls <= 2 ? new Response('down', { status: 500 }) : Response.json(['milk', 'bread'])))] }),
});
const client = new QueryClient();

function Todos() {
  const { data } = useQuery({
    queryKey: ['todos'],
    queryFn: async () => {
      const res = await sim.fetch('/todos');
      if (!res.ok) throw new Error(`attempt ${calls}: GET /todos answered ${res.status}`);
      return { items: (await res.json()) as string[], calls };
    },
    retry: 1, // one retry, then the error is final. Try 2.
    retryDelay: 10,
    throwOnError: true, // the final error goes to the nearest error boundary
  });
  return <p>{data ? `attempt ${data.calls}: ${data.items.join(', ')}` : 'Loading…'}</p>;
}

class ErrorBoundary extends Component<{ onReset: () => void; children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (!this.state.error) return this.props.children;
    const retry = () => {
      this.props.onReset(); // clears the query's error, so it fetches again instead of rethrowing
      this.setState({ error: null });
    };
    return (
      <p>
        {this.state.error.message} <button onClick={retry}>Try again</button>
      </p>
    );
  }
}

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={client}>
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <ErrorBoundary onReset={reset}>
          <Todos />
        </ErrorBoundary>
      )}
    </QueryErrorResetBoundary>
  </QueryClientProvider>,
);
