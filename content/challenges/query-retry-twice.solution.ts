import { QueryClient, QueryObserver } from 'roundtrip/query';

// An endpoint that is down for a while: every call fails after 100 ms.
async function fetchReport() {
  await sleep(100);
  throw new Error('HTTP 503 Service Unavailable');
}

const client = new QueryClient();
const observer = new QueryObserver(client, {
  queryKey: ['report'],
  queryFn: fetchReport,
  retry: 2, // two retries after the first failure: three attempts in all
  retryDelay: (failureCount) => 200 * 2 ** failureCount, // failureCount is 0, then 1: 200 ms, then 400 ms
});

const done = new Promise<void>((resolve) => {
  const stop = observer.subscribe((result) => {
    if (result.status === 'error') {
      console.log(`gave up after ${result.failureCount} failed attempts: ${result.error?.message}`);
      stop();
      resolve();
    }
  });
});
await done;

function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}
