import { QueryClient, QueryObserver, type QueryFilters } from 'roundtrip/query';

// One default queryFn for every key, so we can see which queries a method refetches.
const queryFn = async ({ queryKey }: { queryKey: readonly unknown[] }) => {
  console.log('   fetch', JSON.stringify(queryKey));
  return 'fresh';
};
const client = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000, queryFn } } });
for (const key of [['todos'], ['todos', 1], ['todos', { done: true }], ['users', 1]]) client.setQueryData(key, 'cached');
const stop = new QueryObserver(client, { queryKey: ['todos'] }).subscribe(() => {}); // on screen: active

// Which queries does each filter match? Try your own.
const show = (f: QueryFilters) => {
  const keys = client
    .getQueryCache()
    .findAll(f)
    .map((q) => JSON.stringify(q.queryKey));
  console.log(
    JSON.stringify(f, (k, v) => (k === 'predicate' ? 'fn' : v)),
    '->',
    keys.join(' ') || '(none)',
  );
};
show({ queryKey: ['todos'] }); // a prefix
show({ queryKey: ['todos'], exact: true });
show({ queryKey: ['todos'], type: 'inactive' });
show({ predicate: (q) => typeof q.queryKey[1] === 'number' });
show({ stale: true }); // everything is fresh for a minute

console.log("invalidateQueries({ queryKey: ['todos'] }) refetches only the active match:");
await client.invalidateQueries({ queryKey: ['todos'] });
show({ stale: true }); // the inactive ones wait, invalidated, for their next observer
console.log("refetchQueries({ type: 'inactive' }):");
await client.refetchQueries({ type: 'inactive' });
stop();
