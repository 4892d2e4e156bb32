import { describe } from 'vitest';
import { diff } from './harness';

const cacheCallbacks = (lib: any, log: any) => ({
  queryCache: new lib.QueryCache({
    onSuccess: (data: unknown, query: any) => log('cache:onSuccess', { data, hash: query.queryHash }),
    onError: (error: unknown, query: any) => log('cache:onError', { error, hash: query.queryHash }),
    onSettled: (data: unknown, error: unknown, query: any) => log('cache:onSettled', { data, error, hash: query.queryHash }),
  }),
});

describe('edges', () => {
  diff(
    'QueryCache callbacks run once per query outcome, whoever fetched',
    async ({ lib, client, observe, after, failAfter, advance }) => {
      observe('a', new lib.QueryObserver(client, { queryKey: ['cb'], queryFn: () => after(5, 1) }));
      observe('b', new lib.QueryObserver(client, { queryKey: ['cb'], queryFn: () => after(5, 1) }));
      observe('c', new lib.QueryObserver(client, { queryKey: ['cbe'], retry: false, queryFn: () => failAfter(5, 'bad') }));
      await advance(20);
    },
    { config: cacheCallbacks },
  );

  diff('setQueryData during a fetch keeps fetching; the fetch result wins', async ({ lib, client, observe, after, advance, log }) => {
    observe('o', new lib.QueryObserver(client, { queryKey: ['sd'], queryFn: () => after(50, 'fetched') }));
    await advance(10);
    client.setQueryData(['sd'], 'manual');
    log('state', client.getQueryState(['sd']));
    await advance(60);
  });

  diff('cancel with revert after a manual update reverts to the manual data', async ({ client, after, advance, log }) => {
    void client.prefetchQuery({ queryKey: ['rv'], queryFn: () => after(50, 'fetched') });
    await advance(10);
    client.setQueryData(['rv'], 'manual');
    void client.cancelQueries({ queryKey: ['rv'] });
    await advance(60);
    log('state', client.getQueryState(['rv']));
  });

  diff('invalidateQueries with cancelRefetch: false joins a running fetch', async ({ lib, client, observe, after, advance, settle, log }) => {
    let n = 0;
    observe('o', new lib.QueryObserver(client, { queryKey: ['ij'], queryFn: () => after(30, ++n) }));
    await advance(40);
    void client.refetchQueries({ queryKey: ['ij'] });
    await advance(5);
    await settle(client.invalidateQueries({ queryKey: ['ij'] }, { cancelRefetch: false }));
    log('n', n);
  });

  diff('observer switching keys moves between queries', async ({ lib, client, observe, after, advance, log }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['k', 1], queryFn: () => after(5, 1) });
    observe('o', observer);
    await advance(10);
    observer.setOptions({ queryKey: ['k', 2], queryFn: () => after(5, 2) });
    await advance(10);
    log(
      'observers',
      client
        .getQueryCache()
        .getAll()
        .map((q: any) => [q.queryHash, q.getObserversCount(), q.isActive()]),
    );
    log('current', observer.getCurrentQuery().queryHash);
  });

  diff('Query methods: isStaleByTime, isDisabled, isActive, setState, reset', async ({ lib, client, after, advance, log, settle }) => {
    await settle(client.prefetchQuery({ queryKey: ['qm'], queryFn: () => after(5, 'x'), initialData: undefined }));
    const query = client.getQueryCache().find({ queryKey: ['qm'] });
    log('stale', [query.isStaleByTime(0), query.isStaleByTime(1000), query.isStaleByTime('static'), query.isStale()]);
    log('flags', [query.isDisabled(), query.isActive(), query.getObserversCount(), query.isFetched()]);
    const observer = new lib.QueryObserver(client, { queryKey: ['qm'], enabled: false });
    observer.subscribe(() => undefined);
    log('flags observed', [query.isDisabled(), query.isActive(), query.getObserversCount()]);
    query.setState({ data: 'set', status: 'success' });
    log('after setState', query.state);
    query.reset();
    log('after reset', query.state);
    query.invalidate();
    log('invalidated', query.state.isInvalidated);
    await advance(1);
  });

  diff('placeholderData with select, then real data', async ({ lib, client, observe, after, advance }) => {
    observe(
      'o',
      new lib.QueryObserver(client, {
        queryKey: ['ps'],
        queryFn: () => after(10, [1, 2, 3]),
        placeholderData: [9],
        select: (d: Array<number>) => d.map((x) => x * 2),
      }),
    );
    await advance(20);
  });

  diff('select identity change re-runs select on the same data', async ({ lib, client, observe, after, advance, log }) => {
    const observer = new lib.QueryObserver(client, { queryKey: ['si'], queryFn: () => after(5, 3), select: (d: number) => d + 1 });
    observe('o', observer);
    await advance(10);
    observer.setOptions({ queryKey: ['si'], queryFn: () => after(5, 3), select: (d: number) => d + 2 });
    log('data', observer.getCurrentResult().data);
  });

  diff('focus/online managers: listeners, setEventListener, isFocused/isOnline', async ({ lib, log }) => {
    let trigger: ((focused?: boolean) => void) | undefined;
    let cleaned = 0;
    lib.focusManager.setEventListener((handle: any) => {
      trigger = handle;
      return () => cleaned++;
    });
    const stop = lib.focusManager.subscribe((focused: boolean) => log('focus', focused));
    trigger?.(false);
    trigger?.(true);
    trigger?.();
    log('isFocused', lib.focusManager.isFocused());
    stop();
    const stopOnline = lib.onlineManager.subscribe((online: boolean) => log('online', online));
    lib.onlineManager.setOnline(false);
    lib.onlineManager.setOnline(false);
    lib.onlineManager.setOnline(true);
    log('isOnline', lib.onlineManager.isOnline());
    stopOnline();
    lib.focusManager.setEventListener(() => undefined);
    log('cleaned', cleaned);
  });

  diff('notifyManager: batch defers scheduled callbacks to one flush', async ({ lib, log, advance }) => {
    const batched = lib.notifyManager.batchCalls((value: number) => log('batched', value));
    lib.notifyManager.batch(() => {
      batched(1);
      batched(2);
      lib.notifyManager.schedule(() => log('scheduled'));
      log('inside batch');
    });
    log('after batch');
    batched(3);
    await advance(0);
    log('flushed');
  });

  diff('mutation: observer unsubscribed mid-flight skips mutate callbacks but not options callbacks', async ({ lib, client, log, after, advance }) => {
    const observer = new lib.MutationObserver(client, {
      mutationFn: () => after(20, 'ok'),
      onSuccess: () => log('options onSuccess'),
    });
    const stop = observer.subscribe(() => undefined);
    void observer.mutate(undefined, { onSuccess: () => log('mutate onSuccess') });
    await advance(5);
    stop();
    await advance(30);
  });

  diff('mutation: throwing callbacks do not break the flow', async ({ lib, client, observe, log, after, advance }) => {
    const observer = new lib.MutationObserver(client, {
      mutationFn: () => after(5, 'ok'),
      onSuccess: () => {
        throw new Error('onSuccess threw');
      },
      onSettled: () => log('onSettled ran'),
    });
    observe('o', observer);
    const swallow = (event: PromiseRejectionEvent | unknown) => void event;
    process.on('unhandledRejection', swallow);
    void observer.mutate(undefined).catch((error: unknown) => log('rejected', error));
    await advance(20);
    process.off('unhandledRejection', swallow);
  });

  diff('mutation scope with offline pause keeps order on resume', async ({ lib, client, log, after, advance, settle }) => {
    lib.onlineManager.setOnline(false);
    const make = (name: string) =>
      new lib.MutationObserver(client, {
        scope: { id: 's' },
        mutationFn: () => {
          log('run', name);
          return after(10, name);
        },
      });
    const a = make('a');
    const b = make('b');
    void a.mutate(undefined);
    void b.mutate(undefined);
    await advance(10);
    log(
      'states',
      client
        .getMutationCache()
        .getAll()
        .map((m: any) => [m.state.status, m.state.isPaused]),
    );
    lib.onlineManager.setOnline(true);
    void client.resumePausedMutations();
    await advance(100);
    log(
      'done',
      client
        .getMutationCache()
        .getAll()
        .map((m: any) => m.state.status),
    );
    await settle(Promise.resolve());
  });

  diff('infinite: no getPreviousPageParam means no previous page', async ({ lib, client, observe, after, advance, settle }) => {
    const observer = new lib.InfiniteQueryObserver(client, {
      queryKey: ['np'],
      queryFn: ({ pageParam }: any) => after(5, pageParam),
      initialPageParam: 1,
      getNextPageParam: (last: number) => last + 1,
    });
    observe('o', observer);
    await advance(10);
    await settle(observer.fetchPreviousPage());
    await settle(observer.fetchNextPage());
  });

  diff('infinite: refetch stops when getNextPageParam ends earlier than before', async ({ lib, client, observe, after, advance, settle }) => {
    let limit = 3;
    const observer = new lib.InfiniteQueryObserver(client, {
      queryKey: ['shrink'],
      queryFn: ({ pageParam }: any) => after(5, pageParam),
      initialPageParam: 0,
      getNextPageParam: (last: number) => (last + 1 < limit ? last + 1 : undefined),
    });
    observe('o', observer);
    await advance(10);
    await settle(observer.fetchNextPage());
    await settle(observer.fetchNextPage());
    limit = 2;
    await settle(observer.refetch());
  });

  diff('streamedQuery reset mode clears data on refetch', async ({ lib, client, observe, after, advance, settle }) => {
    let round = 0;
    async function* chunks() {
      round++;
      for (let i = 0; i < 2; i++) yield await after(10, `${round}.${i}`);
    }
    const observer = new lib.QueryObserver(client, {
      queryKey: ['sr'],
      queryFn: lib.experimental_streamedQuery({ streamFn: () => chunks(), refetchMode: 'reset' }),
    });
    observe('o', observer);
    await advance(30);
    await settle(observer.refetch());
  });

  diff('QueryCache build/add/remove/find, events for each', async ({ client, log }) => {
    const cache = client.getQueryCache();
    const query = cache.build(client, { queryKey: ['b', { z: 1, a: 2 }] });
    log('hash', query.queryHash);
    log('same', cache.build(client, { queryKey: ['b', { a: 2, z: 1 }] }) === query);
    log('find exact default', cache.find({ queryKey: ['b'] })?.queryHash);
    log('find partial', cache.find({ queryKey: ['b'], exact: false })?.queryHash);
    cache.remove(query);
    log('after remove', cache.getAll().length);
    cache.add(query);
    log('after add', cache.getAll().length);
    cache.clear();
  });

  diff('dehydrate redacts a pending query that later fails', async ({ lib, client, log, failAfter, advance }) => {
    const errors = console.error;
    console.error = () => undefined;
    void client.prefetchQuery({ queryKey: ['red'], queryFn: () => failAfter(10, 'secret'), retry: false });
    const state = lib.dehydrate(client, { shouldDehydrateQuery: () => true });
    state.queries[0].promise.catch((error: unknown) => log('redacted', error));
    const kept = lib.dehydrate(client, { shouldDehydrateQuery: () => true, shouldRedactErrors: () => false });
    kept.queries[0].promise.catch((error: unknown) => log('kept', error));
    await advance(20);
    console.error = errors;
  });
});
