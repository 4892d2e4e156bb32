import { InfiniteQueryObserver, QueryClient } from 'roundtrip/query';
import { createSimulation, createServer, http } from 'roundtrip/wire';

// A cursor-paginated endpoint: each page says where the next one starts.
const server = createServer({
  routes: [
    http.get('/feed', (req) => {
      const cursor = Number(new URL(req.url).searchParams.get('cursor') ?? 0);
      const items = [cursor, cursor + 1, cursor + 2];
      return Response.json({ items, next: cursor + 3 < 9 ? cursor + 3 : null });
    }),
  ],
});
const sim = createSimulation({ server });
const client = new QueryClient();

type Page = { items: number[]; next: number | null };
const feed = new InfiniteQueryObserver<Page, Error, { pages: Page[]; pageParams: number[] }, ['feed'], number>(client, {
  queryKey: ['feed'],
  queryFn: async ({ pageParam }) => (await sim.fetch(`/feed?cursor=${pageParam}`)).json() as Promise<Page>,
  initialPageParam: 0,
  getNextPageParam: (lastPage) => lastPage.next, // null: no next page
  maxPages: 2, // keep at most two pages; try removing this
});

const stop = feed.subscribe(() => {});
await feed.refetch(); // the first page
let result = feed.getCurrentResult();
console.log(
  'pages:',
  result.data?.pages.map((p) => p.items),
);
while (result.hasNextPage) {
  result = await feed.fetchNextPage();
  console.log(
    'pages:',
    result.data?.pages.map((p) => p.items),
    'params:',
    result.data?.pageParams,
    'hasNextPage:',
    result.hasNextPage,
  );
}
stop();
