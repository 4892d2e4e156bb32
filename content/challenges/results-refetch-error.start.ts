import { QueryClient, QueryObserver, type QueryObserverResult } from 'roundtrip/query';

// The server's answers, in order. Goal: end with a result that has data AND an error at once
// (status 'error' with the last good data kept: isRefetchError), by changing only the answers.
const answers = ['fail', 'fail'];
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
