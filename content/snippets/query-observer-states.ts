import { QueryClient, QueryObserver } from 'roundtrip/query';

// Watch status and fetchStatus move while a query fails twice, then succeeds.
// retry is set explicitly: its default is 3 in a browser but 0 on a server (isServer).
let calls = 0;
const client = new QueryClient({ defaultOptions: { queries: { retry: 3, retryDelay: 10 } } });

const observer = new QueryObserver(client, {
  queryKey: ['flaky'],
  queryFn: async () => {
    calls += 1;
    if (calls < 3) throw new Error(`attempt ${calls} failed`);
    return { calls };
  },
});

await new Promise<void>((done) => {
  const stop = observer.subscribe((r) => {
    console.log(r.status.padEnd(8), r.fetchStatus.padEnd(9), 'failureCount', r.failureCount, r.failureReason?.message ?? '');
    if (r.status !== 'pending') {
      stop();
      done();
    }
  });
});
const state = client.getQueryState(['flaky']);
console.log('final state:', { status: state?.status, data: state?.data, fetchFailureCount: state?.fetchFailureCount, dataUpdateCount: state?.dataUpdateCount });
