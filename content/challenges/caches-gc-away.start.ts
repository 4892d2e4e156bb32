import { QueryClient, QueryObserver } from 'roundtrip/query';

const client = new QueryClient();
const todos = {
  queryKey: ['todos'],
  queryFn: async () => ['milk', 'bread'],
  gcTime: 1_000, // how long an unused query stays in the cache
  // Goal: the reader leaves the page for 8 s and comes back; the cached todos must still be there.
};

// On the page: a component observes the todos until they are in, then the reader leaves.
const leave = new QueryObserver(client, todos).subscribe(() => {});
await sleep(100);
leave();
// Away for 8 s: nothing observes the query, so its gc timer runs.
await sleep(8_000);
console.log('cached on return?', client.getQueryData(['todos']) !== undefined);
// Back on the page.
const back = new QueryObserver(client, todos).subscribe(() => {});
await sleep(100);
back();

function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}
