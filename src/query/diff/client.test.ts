import { describe } from 'vitest';
import { diff } from './harness';

describe('QueryClient methods and filters', () => {
  const seed = async ({ client, after, advance, lib }: any) => {
    const keys = [['todos'], ['todos', 1], ['todos', 2, { done: true }], ['users', 'a'], ['users', { id: 7, role: 'x' }]];
    for (const key of keys) client.setQueryData(key, { key });
    const observer = new lib.QueryObserver(client, { queryKey: ['todos', 1], queryFn: () => after(5, 'active'), staleTime: 1000 });
    observer.subscribe(() => undefined);
    await advance(10);
    return observer;
  };

  diff('getQueryData / getQueryState / getQueriesData', async (ctx) => {
    const { client, log } = ctx;
    await seed(ctx);
    log('data', client.getQueryData(['todos', 2, { done: true }]));
    log('missing', client.getQueryData(['nope']));
    log('state', client.getQueryState(['users', 'a']));
    log('many', client.getQueriesData({ queryKey: ['todos'] }));
    log('none', client.getQueriesData({ queryKey: ['zzz'] }));
  });

  diff('setQueryData: updater function, undefined leaves data, updatedAt option', async ({ client, log, observe, lib, advance }) => {
    observe('o', new lib.QueryObserver(client, { queryKey: ['sq'], enabled: false }));
    log('r1', client.setQueryData(['sq'], 1));
    log(
      'r2',
      client.setQueryData(['sq'], (old: number | undefined) => (old ?? 0) + 1),
    );
    log(
      'r3',
      client.setQueryData(['sq'], () => undefined),
    );
    log('r4', client.setQueryData(['sq'], 5, { updatedAt: 42 }));
    log('state', client.getQueryState(['sq']));
    await advance(1);
  });

  diff('setQueriesData over a partial key', async (ctx) => {
    await seed(ctx);
    ctx.log(
      'result',
      ctx.client.setQueriesData({ queryKey: ['users'] }, (old: any) => ({ ...old, touched: true })),
    );
    ctx.log('after', ctx.client.getQueriesData({ queryKey: [] }));
  });

  diff('findAll filters: exact, type, stale, fetchStatus, predicate', async (ctx) => {
    const { client, log } = ctx;
    await seed(ctx);
    const hashes = (filters: any) =>
      client
        .getQueryCache()
        .findAll(filters)
        .map((q: any) => q.queryHash);
    log('all', hashes({}));
    log('partial', hashes({ queryKey: ['todos'] }));
    log('exact', hashes({ queryKey: ['todos'], exact: true }));
    log('object partial', hashes({ queryKey: ['users', { id: 7 }] }));
    log('active', hashes({ type: 'active' }));
    log('inactive', hashes({ type: 'inactive' }));
    log('stale', hashes({ stale: true }));
    log('fresh', hashes({ stale: false }));
    log('idle', hashes({ fetchStatus: 'idle' }));
    log('predicate', hashes({ predicate: (q: any) => q.queryKey.length === 2 }));
    log('find', client.getQueryCache().find({ queryKey: ['todos'] })?.queryHash);
  });

  diff('invalidateQueries: marks stale, refetches active only by default', async (ctx) => {
    const { client, log, lib, observe, settle, after } = ctx;
    let n = 0;
    observe('a', new lib.QueryObserver(client, { queryKey: ['inv', 1], queryFn: () => after(5, ++n), staleTime: Infinity }));
    client.setQueryData(['inv', 2], 'inactive');
    await ctx.advance(10);
    await settle(client.invalidateQueries({ queryKey: ['inv'] }));
    log('states', client.getQueriesData({ queryKey: ['inv'] }));
    log(
      'invalidated',
      client
        .getQueryCache()
        .findAll({ queryKey: ['inv'] })
        .map((q: any) => q.state.isInvalidated),
    );
  });

  diff('invalidateQueries refetchType none / all / inactive', async (ctx) => {
    const { client, log, lib, observe, settle, after } = ctx;
    let n = 0;
    const queryFn = () => after(5, ++n);
    observe('a', new lib.QueryObserver(client, { queryKey: ['rt', 1], queryFn }));
    await settle(client.prefetchQuery({ queryKey: ['rt', 2], queryFn }));
    await ctx.advance(10);
    await settle(client.invalidateQueries({ queryKey: ['rt'], refetchType: 'none' }));
    log('n after none', n);
    await settle(client.invalidateQueries({ queryKey: ['rt'], refetchType: 'inactive' }));
    log('n after inactive', n);
    await settle(client.invalidateQueries({ queryKey: ['rt'], refetchType: 'all' }));
    log('n after all', n);
  });

  diff('refetchQueries skips disabled queries; throwOnError rejects', async (ctx) => {
    const { client, lib, observe, after, failAfter, settle, log } = ctx;
    observe('disabled', new lib.QueryObserver(client, { queryKey: ['rq', 1], queryFn: () => after(5, 'd'), enabled: false }));
    observe('failing', new lib.QueryObserver(client, { queryKey: ['rq', 2], retry: false, queryFn: () => failAfter(5, 'bad') }));
    await ctx.advance(10);
    const result = settle(client.refetchQueries({ queryKey: ['rq'] }, { throwOnError: true }));
    await result.then(
      () => log('resolved'),
      (error: unknown) => log('rejected', error),
    );
  });

  diff('resetQueries returns to initial state and refetches active', async (ctx) => {
    const { client, lib, observe, after, settle, log } = ctx;
    let n = 0;
    observe('withInitial', new lib.QueryObserver(client, { queryKey: ['rs', 1], queryFn: () => after(5, ++n), initialData: 0 }));
    client.setQueryData(['rs', 2], 'x');
    await ctx.advance(10);
    await settle(client.resetQueries({ queryKey: ['rs'] }));
    log('data', client.getQueriesData({ queryKey: ['rs'] }));
    log(
      'states',
      client
        .getQueryCache()
        .findAll({ queryKey: ['rs'] })
        .map((q: any) => q.state),
    );
  });

  diff('removeQueries and clear', async (ctx) => {
    await seed(ctx);
    ctx.client.removeQueries({ queryKey: ['users'] });
    ctx.log(
      'left',
      ctx.client
        .getQueryCache()
        .getAll()
        .map((q: any) => q.queryHash),
    );
    ctx.client.clear();
    ctx.log('cleared', ctx.client.getQueryCache().getAll().length);
  });

  diff('fetchQuery: cached fresh data, stale refetch, no retry by default, error thrown', async (ctx) => {
    const { client, after, failAfter, settle, log } = ctx;
    let n = 0;
    log('first', await settle(client.fetchQuery({ queryKey: ['fq'], queryFn: () => after(5, ++n), staleTime: 1000 })));
    log('cached', await settle(client.fetchQuery({ queryKey: ['fq'], queryFn: () => after(5, ++n), staleTime: 1000 })));
    log('stale', await settle(client.fetchQuery({ queryKey: ['fq'], queryFn: () => after(5, ++n) })));
    let calls = 0;
    await settle(
      client.fetchQuery({
        queryKey: ['fqe'],
        queryFn: () => {
          calls++;
          return failAfter(5, 'nope');
        },
      }),
    ).catch((error: unknown) => log('thrown', error));
    log('calls', calls);
  });

  diff('prefetchQuery swallows errors; ensureQueryData with revalidateIfStale', async (ctx) => {
    const { client, after, failAfter, settle, log } = ctx;
    log('prefetch', await settle(client.prefetchQuery({ queryKey: ['pf'], queryFn: () => failAfter(5, 'x') })));
    let n = 0;
    log('ensure1', await settle(client.ensureQueryData({ queryKey: ['eq'], queryFn: () => after(5, ++n) })));
    log('ensure2', await settle(client.ensureQueryData({ queryKey: ['eq'], queryFn: () => after(5, ++n), revalidateIfStale: true })));
    await ctx.advance(20);
    log('revalidated', client.getQueryData(['eq']));
  });

  diff('client.query applies select and uses staleTime', async (ctx) => {
    const { client, after, settle, log } = ctx;
    if (typeof (client as any).query !== 'function') return log('no query()');
    log('q', await settle((client as any).query({ queryKey: ['qq'], queryFn: () => after(5, { v: 2 }), select: (d: any) => d.v * 10 })));
  });

  diff('isFetching / isMutating counts', async (ctx) => {
    const { client, lib, after, log } = ctx;
    void client.prefetchQuery({ queryKey: ['if', 1], queryFn: () => after(50, 1) });
    void client.prefetchQuery({ queryKey: ['if', 2], queryFn: () => after(50, 1) });
    log('fetching', client.isFetching());
    log('fetching filtered', client.isFetching({ queryKey: ['if', 1] }));
    const m = new lib.MutationObserver(client, { mutationFn: () => after(20, 'm'), mutationKey: ['mk'] });
    void m.mutate(undefined).catch(() => undefined);
    log('mutating', client.isMutating());
    log('mutating filtered', client.isMutating({ mutationKey: ['other'] }));
    await ctx.advance(100);
    log('after', [client.isFetching(), client.isMutating()]);
  });

  diff('query defaults and default options merge order', async (ctx) => {
    const { client, log, lib, after, observe } = ctx;
    client.setDefaultOptions({ queries: { staleTime: 100, retry: 0 } });
    client.setQueryDefaults(['d'], { staleTime: 200, gcTime: 5 });
    client.setQueryDefaults(['d', 'x'], { staleTime: 300 });
    log('defaults', client.getQueryDefaults(['d', 'x', 1]));
    log('defaults none', client.getQueryDefaults(['zz']));
    log('defaulted', client.defaultQueryOptions({ queryKey: ['d', 'x'], networkMode: 'always' } as any));
    log('client defaults', client.getDefaultOptions());
    client.setMutationDefaults(['m'], { retry: 2 });
    log('mutation defaults', client.getMutationDefaults(['m', 1]));
    log('defaulted mutation', client.defaultMutationOptions({ mutationKey: ['m'] } as any));
    observe('o', new lib.QueryObserver(client, { queryKey: ['d', 'x'], queryFn: () => after(5, 1) }));
    await ctx.advance(400);
    log('gc', client.getQueryCache().find({ queryKey: ['d', 'x'] })?.gcTime);
  });

  diff('hashKey sorts object keys; partialMatchKey; matchQuery; replaceEqualDeep', async ({ lib, log }) => {
    log('hash', [
      lib.hashKey(['a', { b: 1, a: 2, c: { z: 1, y: [3, { q: 1, p: 2 }] } }]),
      lib.hashKey([1, 'two', null, true, 1.5, -0, 1e21]),
      lib.hashKey(['s"q\n', undefined as any, NaN]),
    ]);
    log('partial', [
      lib.partialMatchKey(['a', { b: 1, c: 2 }], ['a', { b: 1 }]),
      lib.partialMatchKey(['a'], ['a', 'b']),
      lib.partialMatchKey(['a', [1, 2]], ['a', [1]]),
    ]);
    const a = { x: [1, 2, { y: 3 }], z: { w: 1 } };
    const b = { x: [1, 2, { y: 3 }], z: { w: 2 } };
    const r = lib.replaceEqualDeep(a, b) as any;
    log('red', [r === a, r.x === a.x, r.z === a.z, lib.replaceEqualDeep(a, { ...a }) === a]);
    log('arrays', [lib.replaceEqualDeep([1, 2], [1, 2, 3]), lib.replaceEqualDeep([1, 2, 3], [1, 2])]);
    log('shouldThrow', [lib.shouldThrowError(true, []), lib.shouldThrowError((e: any) => e === 1, [1] as any)]);
  });
});
