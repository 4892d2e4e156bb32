import { describe } from 'vitest';
import { diff } from './harness';

describe('query lifecycle', () => {
  diff('pending -> success', async ({ lib, client, observe, advance, after }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['a'], queryFn: () => after(100, { n: 1 }) });
    observe('o', observer);
    await advance(150);
  });

  diff('pending -> error after default retries (1s, 2s, 4s backoff)', async ({ lib, client, observe, advance, failAfter }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['e'], queryFn: () => failAfter(10, 'boom') });
    observe('o', observer);
    for (let i = 0; i < 10; i++) await advance(1000);
  });

  diff('retry: false fails at once, retry: 1 with fixed retryDelay', async ({ lib, client, observe, advance, failAfter }) => {
    observe('none', new lib.QueryObserver(client, { queryKey: ['r0'], retry: false, queryFn: () => failAfter(5, 'x') }));
    observe('one', new lib.QueryObserver(client, { queryKey: ['r1'], retry: 1, retryDelay: 50, queryFn: () => failAfter(5, 'y') }));
    await advance(200);
  });

  diff('retry function and retryDelay function see failureCount and error', async ({ lib, client, observe, advance, log, failAfter }) => {
    const observer = new lib.QueryObserver(client, {
      queryKey: ['rf'],
      retry: (count: number, error: Error) => {
        log('retry?', { count, error });
        return count < 2;
      },
      retryDelay: (count: number) => count * 100,
      queryFn: () => failAfter(1, 'nope'),
    });
    observe('o', observer);
    await advance(1000);
  });

  diff('success after two failures resets failureCount', async ({ lib, client, observe, advance, after, failAfter }) => {
    let calls = 0;
    const observer = new lib.QueryObserver(client, {
      queryKey: ['flaky'],
      retryDelay: 10,
      queryFn: () => (++calls < 3 ? failAfter(5, `fail ${calls}`) : after(5, 'ok')),
    });
    observe('o', observer);
    await advance(200);
  });

  diff('staleTime: fresh data is not refetched on second mount; stale data is', async ({ lib, client, observe, advance, after, log }) => {
    let n = 0;
    const queryFn = () => after(10, ++n);
    const first = new lib.QueryObserver(client, { queryKey: ['s'], queryFn, staleTime: 1000 });
    const stop = observe('first', first);
    await advance(20);
    stop();
    const second = new lib.QueryObserver(client, { queryKey: ['s'], queryFn, staleTime: 1000 });
    observe('second', second);
    await advance(500);
    log('state', client.getQueryState(['s']));
    await advance(600);
    const third = new lib.QueryObserver(client, { queryKey: ['s'], queryFn, staleTime: 1000 });
    observe('third', third);
    await advance(20);
  });

  diff('stale timer flips isStale while mounted', async ({ lib, client, observe, advance, after }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['st'], queryFn: () => after(10, 'd'), staleTime: 300 });
    observe('o', observer);
    await advance(400);
  });

  diff("staleTime 'static' and Infinity never refetch on mount/invalidate", async ({ settle, lib, client, observe, advance, after, log }) => {
    let n = 0;
    const queryFn = () => after(10, ++n);
    const a = new lib.QueryObserver(client, { queryKey: ['static'], queryFn, staleTime: 'static' });
    observe('a', a);
    await advance(20);
    await settle(client.invalidateQueries({ queryKey: ['static'] }));
    await advance(20);
    log('data', client.getQueryData(['static']));
    const b = new lib.QueryObserver(client, { queryKey: ['inf'], queryFn, staleTime: Infinity });
    observe('b', b);
    await advance(20);
    observe('b2', new lib.QueryObserver(client, { queryKey: ['inf'], queryFn, staleTime: Infinity }));
    await advance(20);
  });

  diff('gcTime: unused query is removed after gcTime, not before', async ({ lib, client, observe, advance, after, log }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['gc'], queryFn: () => after(10, 1), gcTime: 1000 });
    const stop = observe('o', observer);
    await advance(20);
    stop();
    await advance(999);
    log('still cached', client.getQueryCache().find({ queryKey: ['gc'] }) !== undefined);
    await advance(2);
    log('removed', client.getQueryCache().find({ queryKey: ['gc'] }) === undefined);
  });

  diff('gcTime: remount before expiry cancels collection', async ({ lib, client, observe, advance, after, log }) => {
    const make = () => new lib.QueryObserver(client, { queryKey: ['gc2'], queryFn: () => after(10, 1), gcTime: 100 });
    const stop = observe('o1', make());
    await advance(20);
    stop();
    await advance(50);
    observe('o2', make());
    await advance(200);
    log('cached', client.getQueryCache().getAll().length);
  });

  diff('enabled: false does not fetch; switching to true fetches', async ({ lib, client, observe, advance, after }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['en'], queryFn: () => after(10, 'x'), enabled: false });
    observe('o', observer);
    await advance(50);
    observer.setOptions({ queryKey: ['en'], queryFn: () => after(10, 'x'), enabled: true });
    await advance(50);
  });

  diff('enabled as a function of the query', async ({ settle, lib, client, observe, advance, after }) => {
    const observer = new lib.QueryObserver(client, {
      queryKey: ['enf'],
      queryFn: () => after(10, 'x'),
      enabled: (query: any) => query.state.dataUpdateCount < 1,
    });
    observe('o', observer);
    await advance(50);
    await settle(observer.refetch());
    await advance(50);
  });

  diff('enabled of a wrong type throws the documented error', async ({ lib, client, log }) => {
    try {
      new lib.QueryObserver(client, { queryKey: ['bad'], enabled: 'yes' as any });
    } catch (error) {
      log('thrown', error);
    }
  });

  diff('initialData and initialDataUpdatedAt decide staleness', async ({ lib, client, observe, advance, after }) => {
    observe(
      'fresh',
      new lib.QueryObserver(client, {
        queryKey: ['i1'],
        queryFn: () => after(10, 'server'),
        initialData: 'initial',
        staleTime: 1000,
      }),
    );
    observe(
      'old',
      new lib.QueryObserver(client, {
        queryKey: ['i2'],
        queryFn: () => after(10, 'server'),
        initialData: () => 'initial',
        initialDataUpdatedAt: Date.now() - 5000,
        staleTime: 1000,
      }),
    );
    await advance(50);
  });

  diff('initialData with enabled: false is success without fetching', async ({ lib, client, observe, advance }) => {
    observe('o', new lib.QueryObserver(client, { queryKey: ['i3'], initialData: [1, 2], enabled: false }));
    await advance(10);
  });

  diff('placeholderData value and function, never cached', async ({ lib, client, observe, advance, after, log }) => {
    observe('v', new lib.QueryObserver(client, { queryKey: ['p1'], queryFn: () => after(10, 'real'), placeholderData: 'ph' }));
    observe('f', new lib.QueryObserver(client, { queryKey: ['p2'], queryFn: () => after(10, 'real'), placeholderData: () => 'phf' }));
    log('cache before', client.getQueryData(['p1']));
    await advance(20);
  });

  diff('keepPreviousData across key changes', async ({ lib, client, observe, advance, after }) => {
    const options = (page: number) => ({
      queryKey: ['list', page],
      queryFn: () => after(50, `page ${page}`),
      placeholderData: lib.keepPreviousData,
    });
    const observer = new lib.QueryObserver(client, options(1));
    observe('o', observer);
    await advance(60);
    observer.setOptions(options(2));
    await advance(10);
    observer.setOptions(options(3));
    await advance(100);
    observer.setOptions(options(1));
    await advance(100);
  });

  diff('select transforms and is memoised; select errors become error status', async ({ lib, client, observe, advance, after, log }) => {
    let selects = 0;
    const select = (data: { items: Array<number> }) => {
      selects++;
      return data.items.length;
    };
    const observer = new lib.QueryObserver(client, { queryKey: ['sel'], queryFn: () => after(10, { items: [1, 2, 3] }), select });
    observe('o', observer);
    await advance(20);
    observer.setOptions({ queryKey: ['sel'], queryFn: () => after(10, { items: [1, 2, 3] }), select });
    log('selects', selects);
    const failing = new lib.QueryObserver(client, {
      queryKey: ['sel'],
      queryFn: () => after(10, { items: [1] }),
      select: () => {
        throw new Error('select failed');
      },
    });
    observe('failing', failing);
    await advance(20);
  });

  diff('structural sharing keeps references of unchanged parts', async ({ settle, lib, client, observe, advance, after, log }) => {
    let version = 0;
    const observer = new lib.QueryObserver(client, {
      queryKey: ['share'],
      queryFn: () => after(10, { a: { x: 1 }, b: { y: version++ < 1 ? 1 : 2 }, list: [{ id: 1 }, { id: 2 }] }),
    });
    observe('o', observer);
    await advance(20);
    const before = observer.getCurrentResult().data as any;
    await settle(observer.refetch());
    const afterResult = observer.getCurrentResult().data as any;
    log('same a', before.a === afterResult.a);
    log('same b', before.b === afterResult.b);
    log('same list', before.list === afterResult.list);
    await settle(observer.refetch());
    log('same root', afterResult === observer.getCurrentResult().data);
  });

  diff('structuralSharing: false and custom function', async ({ settle, lib, client, advance, after, log }) => {
    const off = new lib.QueryObserver(client, { queryKey: ['ss0'], queryFn: () => after(1, { a: 1 }), structuralSharing: false });
    off.subscribe(() => undefined);
    await advance(5);
    const first = off.getCurrentResult().data;
    await settle(off.refetch());
    log('off keeps ref', first === off.getCurrentResult().data);
    const custom = new lib.QueryObserver(client, {
      queryKey: ['ss1'],
      queryFn: () => after(1, { a: 1 }),
      structuralSharing: (old: unknown, next: unknown) => ({ old, next }),
    });
    custom.subscribe(() => undefined);
    await advance(5);
    log('custom', custom.getCurrentResult().data);
  });

  diff('two observers of one key share one fetch', async ({ lib, client, observe, advance, after, log }) => {
    let calls = 0;
    const queryFn = () => {
      calls++;
      return after(10, 'shared');
    };
    observe('a', new lib.QueryObserver(client, { queryKey: ['shared'], queryFn }));
    observe('b', new lib.QueryObserver(client, { queryKey: ['shared'], queryFn }));
    await advance(20);
    log('calls', calls);
  });

  diff('queryFn returning undefined is an error', async ({ lib, client, observe, advance, after }) => {
    observe('o', new lib.QueryObserver(client, { queryKey: ['undef'], retry: false, queryFn: () => after(5, undefined) }));
    await advance(10);
  });

  diff('missing queryFn rejects with the documented message', async ({ lib, client, observe, advance }) => {
    observe('o', new lib.QueryObserver(client, { queryKey: ['nofn'], retry: false }));
    await advance(10);
  });

  diff('skipToken disables the query', async ({ lib, client, observe, advance, after }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['skip'], queryFn: lib.skipToken });
    observe('o', observer);
    await advance(10);
    observer.setOptions({ queryKey: ['skip'], queryFn: () => after(5, 'now') });
    await advance(10);
  });

  diff('retryOnMount: false keeps a failed query failed on remount', async ({ lib, client, observe, advance, failAfter }) => {
    const make = (retryOnMount: boolean) =>
      new lib.QueryObserver(client, { queryKey: ['rom'], retry: false, retryOnMount, queryFn: () => failAfter(5, 'bad') });
    const stop = observe('first', make(true));
    await advance(10);
    stop();
    observe('noRetry', make(false));
    await advance(10);
    observe('retry', make(true));
    await advance(10);
  });

  diff('refetchOnMount: false / always', async ({ lib, client, observe, advance, after, log }) => {
    let n = 0;
    const queryFn = () => after(5, ++n);
    const stop = observe('seed', new lib.QueryObserver(client, { queryKey: ['rom2'], queryFn }));
    await advance(10);
    stop();
    observe('never', new lib.QueryObserver(client, { queryKey: ['rom2'], queryFn, refetchOnMount: false }));
    await advance(10);
    observe('always', new lib.QueryObserver(client, { queryKey: ['rom2'], queryFn, refetchOnMount: 'always', staleTime: Infinity }));
    await advance(10);
    log('n', n);
  });

  diff('notifyOnChangeProps limits notifications', async ({ settle, lib, client, observe, advance, after }) => {
    const observer = new lib.QueryObserver(client, {
      queryKey: ['nocp'],
      queryFn: () => after(5, 'x'),
      notifyOnChangeProps: ['data'],
    });
    observe('o', observer);
    await advance(10);
    await settle(observer.refetch());
    await advance(10);
  });

  diff('tracked props via trackResult limit notifications', async ({ settle, lib, client, log, advance, after }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['track'], queryFn: () => after(5, 'x') });
    const tracked = observer.trackResult(observer.getCurrentResult());
    void tracked.data;
    observer.subscribe((result: any) => log('notified', result.data));
    await advance(10);
    await settle(observer.refetch());
    await advance(10);
  });

  diff('getOptimisticResult reports the fetch that subscribing starts', async ({ lib, client, log, advance, after }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['opt'], queryFn: () => after(5, 'x') });
    log(
      'optimistic',
      observer.getOptimisticResult(client.defaultQueryOptions({ queryKey: ['opt'], queryFn: () => after(5, 'x'), _optimisticResults: 'optimistic' } as any)),
    );
    observer.subscribe(() => undefined);
    await advance(10);
    log('current', observer.getCurrentResult());
  });

  diff('fetchOptimistic resolves with data', async ({ lib, client, track, advance, after }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['fo'], queryFn: () => after(5, 'x') });
    track('fetchOptimistic', observer.fetchOptimistic({ queryKey: ['fo'], queryFn: () => after(5, 'x') }));
    await advance(10);
  });

  diff('isFetchedAfterMount and dataUpdatedAt/errorUpdatedAt', async ({ lib, client, observe, advance, after, failAfter }) => {
    const stop = observe('seed', new lib.QueryObserver(client, { queryKey: ['fam'], queryFn: () => after(5, 1) }));
    await advance(10);
    stop();
    await advance(100);
    observe('later', new lib.QueryObserver(client, { queryKey: ['fam'], retry: false, queryFn: () => failAfter(5, 'err') }));
    await advance(10);
  });
});
