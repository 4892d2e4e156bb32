import { QueryClient, QueryObserver, keepPreviousData } from 'roundtrip/query';

// v4's keepPreviousData: true is v5's placeholderData: keepPreviousData: while page 2 loads, the observer
// keeps showing page 1, flagged with isPlaceholderData.
const client = new QueryClient();
const fetchPage = async (page: number) => {
  await new Promise((r) => setTimeout(r, 30));
  return [`item ${page * 10 + 1}`, `item ${page * 10 + 2}`];
};
const options = (page: number) => ({
  queryKey: ['items', page],
  queryFn: () => fetchPage(page),
  placeholderData: keepPreviousData,
});

const observer = new QueryObserver(client, options(1));
const stop = observer.subscribe((r) => {
  console.log(`showing: status ${r.status}, isPlaceholderData ${r.isPlaceholderData}, data ${JSON.stringify(r.data ?? null)}`);
});
await new Promise((r) => setTimeout(r, 50));
observer.setOptions(options(2)); // the user clicks "next page"
await new Promise((r) => setTimeout(r, 50));
stop();
