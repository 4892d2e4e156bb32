import { QueryClient, QueryObserver } from 'roundtrip/query';

const queryFn = async ({ queryKey }: { queryKey: readonly unknown[] }) => {
  console.log('   fetch', JSON.stringify(queryKey));
  return 'fresh';
};
const client = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000, queryFn } } });

// Two lists and two details of the same todos, all on screen.
const keys = [
  ['todos', 'list', { done: false }],
  ['todos', 'list', { done: true }],
  ['todos', 'detail', 1],
  ['todos', 'detail', 2],
];
for (const key of keys) client.setQueryData(key, 'cached');
const stops = keys.map((queryKey) => new QueryObserver(client, { queryKey }).subscribe(() => {}));

// A new todo was added: the lists are out of date, the details are not.
// Goal: invalidate both lists, and neither detail.
console.log('after adding a todo:');
await client.invalidateQueries({ queryKey: ['todos'] });

for (const stop of stops) stop();
