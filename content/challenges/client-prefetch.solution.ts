import { QueryClient, QueryObserver, noop } from 'roundtrip/query';

const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
const user = { queryKey: ['user', 7], queryFn: async () => (await sleep(300), { id: 7, name: 'Grace' }) };

// The reader hovers a link for 500 ms before clicking it: time enough to load the user.
void client.query(user).catch(noop); // starts on hover and fills the cache; .catch(noop) swallows errors, as the deprecated prefetchQuery did
await sleep(500);

// The click: the profile screen mounts.
const observer = new QueryObserver(client, user);
console.log('on mount:', observer.getCurrentResult().status);
const stop = observer.subscribe(() => {});
await sleep(400);
console.log('later:', observer.getCurrentResult().status);
stop();

function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}
