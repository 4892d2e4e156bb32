import { QueryCache, QueryClient, QueryObserver } from 'roundtrip/query';

// Every change in the query cache is an event. Cache-level callbacks run once per fetch,
// however many observers watch the query.
const queryCache = new QueryCache({
  onSuccess: (_data, query) => console.log('  QueryCache.onSuccess for', JSON.stringify(query.queryKey)),
  onError: (error, query) => console.log('  QueryCache.onError for', JSON.stringify(query.queryKey), error.message),
});
const client = new QueryClient({ queryCache, defaultOptions: { queries: { retry: false, gcTime: 50 } } });

queryCache.subscribe((event) => {
  const action = event.type === 'updated' ? ` (${event.action.type})` : '';
  console.log(`${event.type}${action}`, JSON.stringify(event.query.queryKey));
});

const user = { queryKey: ['user', 1], queryFn: async () => ({ name: 'Ada' }) };
const a = new QueryObserver(client, user);
const b = new QueryObserver(client, user); // a second observer: still one fetch, one onSuccess
const stopA = a.subscribe(() => {});
const stopB = b.subscribe(() => {});
await new Promise((r) => setTimeout(r, 10));

await client.fetchQuery({ queryKey: ['broken'], queryFn: async () => Promise.reject(new Error('nope')) }).catch(() => {});

stopA();
stopB(); // no observers left: gcTime (50 ms) starts
await new Promise((r) => setTimeout(r, 100));
