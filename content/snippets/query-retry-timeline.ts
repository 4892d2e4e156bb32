import { QueryClient, QueryObserver } from 'roundtrip/query';

// A flaky endpoint: every request takes 300 ms, and the first two fail.
let calls = 0;
async function fetchTodos() {
  calls += 1;
  await sleep(300);
  if (calls <= 2) throw new Error(`HTTP 503 on call ${calls}`);
  return [{ id: 1, title: 'Watch the retries', call: calls }];
}

const client = new QueryClient();
const observer = new QueryObserver(client, {
  queryKey: ['todos'],
  queryFn: fetchTodos,
  retry: 3, // up to 3 more attempts after a failure
  retryDelay: (failureCount) => 500 * 2 ** failureCount, // failures so far: 0 -> 500 ms, 1 -> 1,000 ms
  staleTime: 2_000, // fresh for 2 s after each success
  gcTime: 4_000, // once nobody observes it, removed after 4 s
  refetchInterval: 3_000, // refetched 3 s after the last update, while observed
});

const started = Date.now();
const stop = observer.subscribe((r) => {
  const t = String(Date.now() - started).padStart(5);
  console.log(`${t} ms`, r.status.padEnd(7), r.fetchStatus.padEnd(8), 'failures:', r.failureCount, r.isStale ? 'stale' : 'fresh');
});

await sleep(7_000);
stop();
console.log('unsubscribed: the query is inactive, gc removes it in 4 s');
await sleep(4_500);
console.log('still cached?', client.getQueryCache().find({ queryKey: ['todos'] }) !== undefined);

function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}
