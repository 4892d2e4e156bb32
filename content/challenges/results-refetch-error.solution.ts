import { QueryClient, QueryObserver, type QueryObserverResult } from 'roundtrip/query';

// The server's answers, in order. A refetch that fails keeps the data and adds the error
// (status 'error', isRefetchError true).
const answers = ['ok', 'fail']; // the first load succeeds, the refetch fails: the data stays
let calls = 0;
const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
const observer = new QueryObserver(client, {
  queryKey: ['report'],
  queryFn: async () => {
    const answer = answers[calls++] ?? 'fail';
    if (answer !== 'ok') throw new Error(`call ${calls} failed`);
    return `report #${calls}`;
  },
});

const show = (r: QueryObserverResult<string, Error>) =>
  console.log(r.status.padEnd(7), r.fetchStatus.padEnd(8), `data=${r.data ?? '-'}`, `error=${r.error?.message ?? '-'}`);
const stop = observer.subscribe(show);
await new Promise((r) => setTimeout(r, 50)); // the first load
await observer.refetch(); // a refetch
stop();
