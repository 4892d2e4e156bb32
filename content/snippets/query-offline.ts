import { MutationObserver, QueryClient, QueryObserver, onlineManager } from 'roundtrip/query';
import { defineOptions } from 'roundtrip/playground';

// With networkMode 'online' (the default), nothing fetches while the onlineManager says offline:
// the query waits with fetchStatus 'paused', the mutation with isPaused true. Try 'always', or start online.
const { startOnline, networkMode, offlineFor } = defineOptions({
  startOnline: { type: 'boolean', default: false, label: 'Start online', doc: 'Whether the onlineManager reports a network when the snippet starts' },
  networkMode: {
    type: 'select',
    choices: ['online', 'always', 'offlineFirst'],
    default: 'online',
    label: 'Network mode',
    doc: 'When queries and mutations may run without a network',
  },
  offlineFor: { type: 'number', default: 50, min: 0, max: 2000, step: 10, label: 'Offline for', doc: 'Milliseconds before the network comes back' },
});

const client = new QueryClient({ defaultOptions: { queries: { networkMode }, mutations: { networkMode } } });
client.mount(); // resumes paused work when the client learns it is online again

onlineManager.setOnline(startOnline);

const query = new QueryObserver(client, { queryKey: ['profile'], queryFn: async () => ({ name: 'Ada' }) });
const stop = query.subscribe((r) => console.log('query:', r.status, r.fetchStatus));

const save = new MutationObserver(client, { mutationFn: async (name: string) => ({ saved: name }) });
const saving = save.mutate('Grace');
console.log('mutation paused?', save.getCurrentResult().isPaused);

await new Promise((r) => setTimeout(r, offlineFor));
console.log('...back online');
onlineManager.setOnline(true);

console.log('mutation result:', await saving);
await new Promise((r) => setTimeout(r, 10));
stop();
client.unmount();
