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
  // Goal: retry exactly twice, waiting 200 ms before the first retry and 400 ms before the second.
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
