/**
 * queryClient.query() and queryClient.infiniteQuery() (@tanstack/query-core 5.102), the methods that replace
 * the fetch, prefetch and ensure methods deprecated in 5.108: when they answer from the cache, when they
 * fetch, that `select` applies to both, that they do not retry unless asked, and what `staleTime: 'static'`
 * and `pages` do. Each script runs on both libraries and must log the same.
 */
import { describe } from 'vitest';
import { diff } from './harness';

describe('queryClient.query and queryClient.infiniteQuery', () => {
  diff('query: fetches when stale, answers fresh data from the cache, applies select to both', async ({ client, after, settle, log }) => {
    let calls = 0;
    const options = { queryKey: ['q'], queryFn: () => after(5, { n: ++calls }), select: (d: { n: number }) => d.n * 10, staleTime: 100 };
    log('first', await settle(client.query(options)));
    log('cached', await settle(client.query(options)));
    log('raw data in the cache', client.getQueryData(['q']));
    log('calls', calls);
  });

  diff('query: once data is stale it fetches again; staleTime static keeps any cached data', async ({ client, after, settle, advance, log }) => {
    let calls = 0;
    const queryFn = () => after(5, ++calls);
    log('first', await settle(client.query({ queryKey: ['s'], queryFn, staleTime: 50 })));
    await advance(60);
    log('stale', await settle(client.query({ queryKey: ['s'], queryFn, staleTime: 50 })));
    await advance(10_000);
    log('static', await settle(client.query({ queryKey: ['s'], queryFn, staleTime: 'static' })));
    log('calls', calls);
  });

  diff('query: rejects without retrying unless retry is given', async ({ client, failAfter, settle, log }) => {
    let calls = 0;
    const queryFn = () => (calls++, failAfter(5, 'down'));
    await settle(client.query({ queryKey: ['e'], queryFn })).catch((error: unknown) => log('rejected', error));
    log('calls without retry', calls);
    log('state', client.getQueryState(['e']));
    calls = 0;
    await settle(client.query({ queryKey: ['e2'], queryFn, retry: 2, retryDelay: 10 })).catch((error: unknown) => log('rejected again', error));
    log('calls with retry 2', calls);
  });

  diff('query: an error thrown by select rejects the call, the fetched data stays cached', async ({ client, after, settle, log }) => {
    const select = () => {
      throw new Error('bad select');
    };
    await settle(client.query({ queryKey: ['sel'], queryFn: () => after(5, 1), select })).catch((error: unknown) => log('rejected', error));
    log('data', client.getQueryData(['sel']));
  });

  diff('infiniteQuery: the first page from initialPageParam, select, then cached', async ({ client, after, settle, log }) => {
    let calls = 0;
    const options = {
      queryKey: ['inf'],
      queryFn: ({ pageParam }: { pageParam: number }) => (calls++, after(5, `page ${pageParam}`)),
      initialPageParam: 3,
      getNextPageParam: (_last: string, _all: string[], param: number) => param + 1,
      staleTime: 1000,
    };
    log('data', await settle(client.infiniteQuery(options)));
    log('selected', await settle(client.infiniteQuery({ ...options, select: (d: { pages: string[] }) => d.pages.join('|') })));
    log('calls', calls);
  });

  diff('infiniteQuery: pages with getNextPageParam fetches that many pages from the first', async ({ client, after, settle, log }) => {
    const params: number[] = [];
    const data = await settle(
      client.infiniteQuery({
        queryKey: ['pages'],
        queryFn: ({ pageParam }: { pageParam: number }) => (params.push(pageParam), after(5, pageParam * 2)),
        initialPageParam: 1,
        getNextPageParam: (last: number) => (last < 8 ? last : undefined),
        pages: 5,
      }),
    );
    log('data', data);
    log('params', params);
  });
});
