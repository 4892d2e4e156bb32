import { describe } from 'vitest';
import { diff } from './harness';

const pageOptions = (after: any, extra: Record<string, unknown> = {}) => ({
  queryKey: ['pages'],
  queryFn: ({ pageParam, direction }: any) => after(10, { page: pageParam, direction }),
  initialPageParam: 0,
  getNextPageParam: (last: any) => (last.page < 3 ? last.page + 1 : undefined),
  getPreviousPageParam: (first: any) => (first.page > -2 ? first.page - 1 : null),
  ...extra,
});

describe('infinite queries', () => {
  diff('first page, next pages until exhausted, previous pages', async ({ advance, lib, client, observe, after, settle }) => {
    const observer = new lib.InfiniteQueryObserver(client, pageOptions(after));
    observe('o', observer);
    await advance(20);
    await settle(observer.fetchNextPage());
    await settle(observer.fetchNextPage());
    await settle(observer.fetchNextPage());
    await settle(observer.fetchNextPage());
    await settle(observer.fetchPreviousPage());
  });

  diff('refetch refetches all pages from the first', async ({ advance, lib, client, observe, after, settle, log }) => {
    const calls: Array<unknown> = [];
    const observer = new lib.InfiniteQueryObserver(
      client,
      pageOptions(after, {
        queryFn: ({ pageParam }: any) => {
          calls.push(pageParam);
          return after(10, { page: pageParam });
        },
      }),
    );
    observe('o', observer);
    await advance(20);
    await settle(observer.fetchNextPage());
    await settle(observer.fetchNextPage());
    await settle(observer.refetch());
    log('calls', calls);
  });

  diff('maxPages trims from the other end', async ({ advance, lib, client, observe, after, settle }) => {
    const observer = new lib.InfiniteQueryObserver(client, pageOptions(after, { maxPages: 2 }));
    observe('o', observer);
    await advance(20);
    await settle(observer.fetchNextPage());
    await settle(observer.fetchNextPage());
    await settle(observer.fetchPreviousPage());
  });

  diff('fetchNextPage error sets isFetchNextPageError', async ({ advance, lib, client, observe, after, failAfter, settle }) => {
    const observer = new lib.InfiniteQueryObserver(
      client,
      pageOptions(after, {
        retry: false,
        queryFn: ({ pageParam }: any) => (pageParam === 1 ? failAfter(5, 'page 1 broke') : after(5, { page: pageParam })),
      }),
    );
    observe('o', observer);
    await advance(20);
    await settle(observer.fetchNextPage());
  });

  diff('fetchInfiniteQuery / prefetch with pages / ensureInfiniteQueryData', async ({ client, after, settle, log }) => {
    log('fetch', await settle(client.fetchInfiniteQuery(pageOptions(after, { queryKey: ['fi'] }) as any)));
    await settle(client.prefetchInfiniteQuery(pageOptions(after, { queryKey: ['fi2'], pages: 3 }) as any));
    log('prefetched', client.getQueryData(['fi2']));
    log('ensure', await settle(client.ensureInfiniteQueryData(pageOptions(after, { queryKey: ['fi2'] }) as any)));
  });

  diff('select over infinite data and cancelRefetch on fetchNextPage', async ({ lib, client, observe, after, track, advance }) => {
    const observer = new lib.InfiniteQueryObserver(
      client,
      pageOptions(after, { select: (data: any) => ({ ...data, pages: data.pages.map((p: any) => p.page) }) }),
    );
    observe('o', observer);
    await advance(20);
    track('n1', observer.fetchNextPage());
    await advance(2);
    track('n2', observer.fetchNextPage({ cancelRefetch: false }));
    await advance(50);
  });
});
