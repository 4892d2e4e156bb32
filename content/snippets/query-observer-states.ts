import { QueryClient, QueryObserver } from 'roundtrip/query';
import { defineOptions } from 'roundtrip/playground';

// Watch status and fetchStatus move while a query fails twice, then succeeds.
// Turn `retry` down to 1 and the query ends in 'error' before its third attempt.
const { retry, retryDelay, failures } = defineOptions({
  retry: {
    type: 'number',
    default: 3,
    min: 0,
    max: 10,
    integer: true,
    label: 'Retries',
    doc: 'Retries after a failed attempt (the default is 3 in a browser, 0 on a server)',
  },
  retryDelay: { type: 'number', default: 10, min: 0, max: 5000, step: 10, label: 'Retry delay', doc: 'Milliseconds to wait before each retry' },
  failures: { type: 'number', default: 2, min: 0, max: 10, integer: true, label: 'Failing attempts', doc: 'How many attempts fail before one succeeds' },
});

let calls = 0;
const client = new QueryClient({ defaultOptions: { queries: { retry, retryDelay } } });

const observer = new QueryObserver(client, {
  queryKey: ['flaky'],
  queryFn: async () => {
    calls += 1;
    if (calls <= failures) throw new Error(`attempt ${calls} failed`);
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
