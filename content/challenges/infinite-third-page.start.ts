import { InfiniteQueryObserver, QueryClient } from 'roundtrip/query';
import { createSimulation, createServer, http } from 'roundtrip/wire';

// A cursor-paginated feed: each page holds three items and says where the next one starts.
const server = createServer({
  routes: [
    http.get('/feed', (req) => {
      const cursor = Number(new URL(req.url).searchParams.get('cursor') ?? 0);
      return Response.json({ items: [cursor, cursor + 1, cursor + 2], next: cursor + 3 < 9 ? cursor + 3 : null });
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
  getNextPageParam: (lastPage) => lastPage.next,
});

// Goal: a link opens the feed at its third page (items 6, 7 and 8). Show it with one request.
const stop = feed.subscribe(() => {});
await feed.refetch();
await feed.fetchNextPage();
const { data } = await feed.fetchNextPage();
console.log('showing:', data?.pages.at(-1)?.items, 'requests:', sim.trace.ofType('request-started').length);
stop();
