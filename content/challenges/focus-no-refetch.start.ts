import { QueryClient, QueryObserver, focusManager } from 'roundtrip/query';

let calls = 0;
const client = new QueryClient();
client.mount(); // listens to focus and network changes

// A dashboard whose numbers change once a day.
const observer = new QueryObserver(client, {
  queryKey: ['daily-report'],
  queryFn: async () => ({ visits: 1204, call: ++calls }),
  // Goal: switching tabs and back must not fetch the report again.
});
const stop = observer.subscribe((r) => console.log(r.status, r.fetchStatus, r.data ? `(fetch #${r.data.call})` : ''));

await sleep(1_000);
focusManager.setFocused(false); // the reader switches to another tab...
await sleep(1_000);
focusManager.setFocused(true); // ...and comes back
await sleep(100);
console.log('fetches:', calls);
stop();
client.unmount();

function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}
