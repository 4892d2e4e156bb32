import { QueryClient, QueryObserver, type QueryObserverResult } from 'roundtrip/query';

// The server's answers, in order: the first load fails once and then succeeds; the refetch fails twice.
const answers = ['fail', 'ok', 'fail', 'fail'];
let calls = 0;
const client = new QueryClient({ defaultOptions: { queries: { retry: 1, retryDelay: 10 } } });
const observer = new QueryObserver(client, {
  queryKey: ['report'],
  queryFn: async () => {
    const answer = answers[calls++];
    if (answer !== 'ok') throw new Error(`call ${calls} failed`);
    return `report #${calls}`;
  },
});

// One line per notification: status and fetchStatus, then the derived flags that are true.
// With the default staleTime of 0, data is stale as soon as it arrives.
const flags = ['isPending', 'isLoading', 'isFetching', 'isRefetching', 'isStale', 'isLoadingError', 'isRefetchError'] as const;
const show = (r: QueryObserverResult<string, Error>) =>
  console.log(r.status.padEnd(7), r.fetchStatus.padEnd(8), `data=${r.data ?? '-'}`, `failures=${r.failureCount}`, flags.filter((f) => r[f]).join(' '));

const stop = observer.subscribe(show);
await new Promise((r) => setTimeout(r, 50)); // the first load, with its one retry
await observer.refetch(); // a background refetch that fails: the data stays, the error is added
stop();
