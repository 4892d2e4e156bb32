import { QueryClient, QueryObserver } from 'roundtrip/query';

// Code from v4 had keepPreviousData: true, which v5 removed. Without it, the list flashes back to a
// loading state on every page change. Goal: keep showing page 1 (flagged as placeholder data) until
// page 2 arrives, the v5 way.
const client = new QueryClient();
const fetchPage = async (page: number) => {
  await new Promise((r) => setTimeout(r, 30));
  return [`item ${page * 10 + 1}`, `item ${page * 10 + 2}`];
};
const options = (page: number) => ({
  queryKey: ['items', page],
  queryFn: () => fetchPage(page),
});

const observer = new QueryObserver(client, options(1));
const stop = observer.subscribe((r) => {
  console.log(`showing: status ${r.status}, isPlaceholderData ${r.isPlaceholderData}, data ${JSON.stringify(r.data ?? null)}`);
});
await new Promise((r) => setTimeout(r, 50));
observer.setOptions(options(2)); // the user clicks "next page"
await new Promise((r) => setTimeout(r, 50));
stop();
