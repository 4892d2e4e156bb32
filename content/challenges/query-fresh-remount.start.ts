import { QueryClient, QueryObserver } from 'roundtrip/query';

let calls = 0;
async function fetchProfile() {
  calls += 1;
  await sleep(200);
  return { name: 'Ada', call: calls };
}

const client = new QueryClient();
const options = {
  queryKey: ['profile'],
  queryFn: fetchProfile,
  // Goal: keep the profile fresh for 5 s, so the remount below shows it without fetching again.
};

// A component mounts, shows the profile, and unmounts...
await mount('first mount');
await sleep(2_000);
// ...and 2 s later the reader comes back to the same screen.
await mount('remount');

function mount(label: string) {
  const observer = new QueryObserver(client, options);
  return new Promise<void>((resolve) => {
    const show = (result: ReturnType<typeof observer.getCurrentResult>) => {
      if (result.status !== 'success' || result.fetchStatus !== 'idle') return;
      console.log(`${label}: ${result.data.name} (fetch #${result.data.call}), ${result.isStale ? 'stale' : 'fresh'}`);
      stop();
      resolve();
    };
    const stop = observer.subscribe(show);
    show(observer.getCurrentResult()); // subscribe reports changes only: fresh data shows at once
  });
}

function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}
