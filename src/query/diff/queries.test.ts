import { describe } from 'vitest';
import { diff } from './harness';

describe('QueriesObserver', () => {
  diff('results in order, updates per query', async ({ lib, client, observe, after, advance }) => {
    const observer = new lib.QueriesObserver(client, [
      { queryKey: ['q', 1], queryFn: () => after(20, 'one') },
      { queryKey: ['q', 2], queryFn: () => after(10, 'two') },
    ]);
    observe('o', observer);
    await advance(30);
  });

  diff('combine is memoised and structurally shared', async ({ lib, client, log, after, advance }) => {
    let combines = 0;
    const combine = (results: Array<any>) => {
      combines++;
      return { data: results.map((r) => r.data), pending: results.some((r) => r.isPending) };
    };
    const observer = new lib.QueriesObserver(
      client,
      [
        { queryKey: ['c', 1], queryFn: () => after(10, 'a') },
        { queryKey: ['c', 2], queryFn: () => after(20, 'b') },
      ],
      { combine },
    );
    observer.subscribe((raw: any) => log('raw', raw));
    const [raw, getCombined] = observer.getOptimisticResult(
      [{ queryKey: ['c', 1] }, { queryKey: ['c', 2] }].map((q) => client.defaultQueryOptions(q as any)),
      combine,
    );
    log('optimistic', raw);
    const first = getCombined();
    log('combined', first);
    log('same twice', getCombined() === first);
    await advance(30);
    log('combined later', getCombined());
    log('combines', combines);
  });

  diff('setQueries reorders, adds and removes observers', async ({ lib, client, observe, after, advance, log }) => {
    const q = (n: number) => ({ queryKey: ['s', n], queryFn: () => after(5, n) });
    const observer = new lib.QueriesObserver(client, [q(1), q(2)]);
    observe('o', observer);
    await advance(10);
    observer.setQueries([q(2), q(1), q(3)]);
    await advance(10);
    observer.setQueries([q(3)]);
    await advance(10);
    log(
      'queries',
      observer.getQueries().map((query: any) => query.queryHash),
    );
    log(
      'observers',
      client
        .getQueryCache()
        .getAll()
        .map((query: any) => [query.queryHash, query.getObserversCount()]),
    );
  });
});

describe('QueriesObserver combine notifications', () => {
  diff('listeners are skipped when the combined value does not change', async ({ lib, client, log, after, advance }) => {
    const observer = new lib.QueriesObserver(
      client,
      [
        { queryKey: ['cn', 1], queryFn: () => after(10, 'a') },
        { queryKey: ['cn', 2], queryFn: () => after(20, 'b') },
      ],
      { combine: (results: Array<any>) => results.every((r) => r.isSuccess) },
    );
    observer.subscribe((raw: Array<any>) =>
      log(
        'notified',
        raw.map((r) => r.status),
      ),
    );
    await advance(30);
    observer.setQueries(
      [
        { queryKey: ['cn', 2], queryFn: () => after(20, 'b') },
        { queryKey: ['cn', 3], queryFn: () => after(5, 'c') },
      ],
      { combine: (results: Array<any>) => results.map((r) => r.data) },
    );
    await advance(30);
  });

  diff('tracked props from getOptimisticResult limit notifications of every observer', async ({ lib, client, log, after, advance, settle }) => {
    const queries = [
      { queryKey: ['tp', 1], queryFn: () => after(10, 'a') },
      { queryKey: ['tp', 2], queryFn: () => after(10, 'b') },
    ];
    const observer = new lib.QueriesObserver(client, queries);
    const [, , track] = observer.getOptimisticResult(
      queries.map((q) => client.defaultQueryOptions(q)),
      undefined,
    );
    const tracked = track();
    void tracked[0].status;
    observer.subscribe((raw: Array<any>) =>
      log(
        'notified',
        raw.map((r) => [r.status, r.isFetching]),
      ),
    );
    await advance(20);
    await settle(Promise.all(observer.getObservers().map((o: any) => o.refetch())));
  });

  diff('refetch with throwOnError rejects, without it resolves with the error result', async ({ lib, client, observe, failAfter, settle, log }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['te'], retry: false, queryFn: () => failAfter(5, 'bad') });
    observe('o', observer);
    await settle(observer.refetch()).then((result: any) => log('resolved', result.status));
    await settle(observer.refetch({ throwOnError: true })).catch((error: unknown) => log('rejected', error));
  });
});
