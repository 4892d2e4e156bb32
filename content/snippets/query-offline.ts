import { MutationObserver, QueryClient, QueryObserver, onlineManager } from 'roundtrip/query';

// With networkMode 'online' (the default), nothing fetches while the onlineManager says offline:
// the query waits with fetchStatus 'paused', the mutation with isPaused true.
const client = new QueryClient();
client.mount(); // resumes paused work when the client learns it is online again

onlineManager.setOnline(false);

const query = new QueryObserver(client, { queryKey: ['profile'], queryFn: async () => ({ name: 'Ada' }) });
const stop = query.subscribe((r) => console.log('query:', r.status, r.fetchStatus));

const save = new MutationObserver(client, { mutationFn: async (name: string) => ({ saved: name }) });
const saving = save.mutate('Grace');
console.log('mutation paused?', save.getCurrentResult().isPaused);

await new Promise((r) => setTimeout(r, 50));
console.log('...back online');
onlineManager.setOnline(true);

console.log('mutation result:', await saving);
await new Promise((r) => setTimeout(r, 10));
stop();
client.unmount();
