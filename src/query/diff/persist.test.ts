/**
 * Differential: TanStack's own persistence packages (query-persist-client-core, the async and sync
 * storage persisters, the experimental per-query persister) run once on @tanstack/query-core and
 * once on roundtrip/query. What users observe must match: the cache after a save/restore round
 * trip, the persisted JSON byte for byte, what gets discarded (maxAge, buster), what the
 * dehydrate filters keep, and paused mutations resuming after a restore.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { libraries, runScenario } from './harness';
import type { Ctx } from './harness';
import { loadEcosystem, memoryStorage } from './ecosystem';
import type { Ecosystem } from './ecosystem';

let sides: { reference: Ecosystem; ours: Ecosystem };

beforeAll(async () => {
  sides = { reference: await loadEcosystem(libraries.reference), ours: await loadEcosystem(libraries.ours) };
});

type EcoScenario = (ctx: Ctx, eco: Ecosystem) => Promise<void>;

/** Same script on both sides; `uses` names core exports the packages must have called on each side. */
function ecoDiff(name: string, uses: ReadonlyArray<string>, scenario: EcoScenario): void {
  it(`matches TanStack: ${name}`, async () => {
    const before = { reference: { ...sides.reference.calls }, ours: { ...sides.ours.calls } };
    const expected = await runScenario(libraries.reference, (ctx) => scenario(ctx, sides.reference));
    const actual = await runScenario(libraries.ours, (ctx) => scenario(ctx, sides.ours));
    for (const side of ['reference', 'ours'] as const) {
      for (const use of uses) expect(sides[side].calls[use] ?? 0, `${side} ${use}`).toBeGreaterThan(before[side][use] ?? 0);
    }
    expect(expected.length).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  });
}

/** Stored strings are logged raw (key order included) and parsed (for a readable diff). */
function logStorage(log: Ctx['log'], label: string, storage: ReturnType<typeof memoryStorage>): void {
  for (const [key, value] of storage.items) {
    log(`${label}:${key}:raw`, value);
    log(`${label}:${key}`, JSON.parse(value));
  }
  if (storage.items.size === 0) log(`${label}:empty`);
}

function cacheSummary(client: any): unknown {
  return {
    queries: client
      .getQueryCache()
      .getAll()
      .map((q: any) => ({ hash: q.queryHash, state: q.state, meta: q.meta })),
    mutations: client
      .getMutationCache()
      .getAll()
      .map((m: any) => ({ key: m.options.mutationKey, state: m.state, scope: m.options.scope })),
  };
}

describe('the redirect', () => {
  // Each side's packages must call the core they were given: ours for roundtrip, TanStack's one top-level
  // copy for the reference (not the older copies npm nests under the exact-pinned packages).
  for (const side of ['ours', 'reference'] as const) {
    it(`the packages call the ${side} core`, async () => {
      const storage = memoryStorage();
      const { persist, asyncStorage, calls } = sides[side];
      const client = new libraries[side].QueryClient();
      client.setQueryData(['k'], 1);
      const persister = asyncStorage.createAsyncStoragePersister({ storage, throttleTime: 0 });
      const before = { dehydrate: calls.dehydrate ?? 0, hydrate: calls.hydrate ?? 0 };
      await persist.persistQueryClientSave({ queryClient: client as any, persister });
      expect(calls.dehydrate).toBe(before.dehydrate + 1);
      const other = new libraries[side].QueryClient();
      await persist.persistQueryClientRestore({ queryClient: other as any, persister });
      expect(calls.hydrate).toBe(before.hydrate + 1);
      expect(other.getQueryData(['k'])).toBe(1);
      client.clear();
      other.clear();
    });
  }
});

describe('persistQueryClient with the async storage persister', () => {
  ecoDiff(
    'save, then restore into a fresh client (cache and JSON)',
    ['dehydrate', 'hydrate', 'timeoutManager.setTimeout'],
    async ({ lib, client, log, after, settle, advance, observe, failAfter }, eco) => {
      const storage = memoryStorage();
      const persister = eco.asyncStorage.createAsyncStoragePersister({ storage });
      const [stop, restored] = eco.persist.persistQueryClient({ queryClient: client, persister, buster: 'v1' });
      await settle(restored);
      await settle(client.prefetchQuery({ queryKey: ['todos', 1], queryFn: () => after(5, { id: 1, done: false }), meta: { m: 1 } }));
      await settle(client.prefetchQuery({ queryKey: ['bad'], queryFn: () => failAfter(5, 'nope') }));
      client.setQueryData(['set'], [1, 2, 3]);
      client.setQueryData(['undefined-free'], { nested: { a: null, b: 'x' } });
      logStorage(log, 'early', storage);
      await advance(1500);
      logStorage(log, 'saved', storage);
      stop();

      const other = new lib.QueryClient();
      await settle(eco.persist.persistQueryClientRestore({ queryClient: other, persister, buster: 'v1' }));
      log('restored', cacheSummary(other));
      observe('fresh', new lib.QueryObserver(other, { queryKey: ['todos', 1], queryFn: () => after(5, 'refetched'), staleTime: Infinity }));
      observe('stale', new lib.QueryObserver(other, { queryKey: ['set'], queryFn: () => after(5, 'refetched') }));
      await advance(20);
      other.clear();
    },
  );

  ecoDiff('maxAge: an expired cache is discarded, not restored', ['hydrate'], async ({ lib, client, log, after, settle, advance }, eco) => {
    const storage = memoryStorage();
    const persister = eco.asyncStorage.createAsyncStoragePersister({ storage, throttleTime: 0 });
    await settle(client.prefetchQuery({ queryKey: ['a'], queryFn: () => after(5, 'a') }));
    await settle(eco.persist.persistQueryClientSave({ queryClient: client, persister }));
    const young = new lib.QueryClient();
    await advance(500);
    await settle(eco.persist.persistQueryClientRestore({ queryClient: young, persister, maxAge: 1000 }));
    log('within maxAge', young.getQueryState(['a']));
    await advance(1000);
    const old = new lib.QueryClient();
    await settle(eco.persist.persistQueryClientRestore({ queryClient: old, persister, maxAge: 1000 }));
    log('past maxAge', old.getQueryState(['a']));
    logStorage(log, 'after', storage);
    young.clear();
    old.clear();
  });

  ecoDiff('buster: a different buster discards the cache', ['dehydrate'], async ({ lib, client, log, after, settle }, eco) => {
    const storage = memoryStorage();
    const persister = eco.asyncStorage.createAsyncStoragePersister({ storage, throttleTime: 0 });
    await settle(client.prefetchQuery({ queryKey: ['a'], queryFn: () => after(5, 'a') }));
    await settle(eco.persist.persistQueryClientSave({ queryClient: client, persister, buster: 'build-1' }));
    logStorage(log, 'saved', storage);
    const other = new lib.QueryClient();
    await settle(eco.persist.persistQueryClientRestore({ queryClient: other, persister, buster: 'build-2' }));
    log('restored', other.getQueryState(['a']));
    logStorage(log, 'after', storage);
    other.clear();
  });

  ecoDiff('dehydrateOptions: filters decide what is persisted', ['dehydrate'], async ({ lib, client, log, after, failAfter, settle, advance }, eco) => {
    const storage = memoryStorage();
    const persister = eco.asyncStorage.createAsyncStoragePersister({ storage, throttleTime: 0 });
    await settle(client.prefetchQuery({ queryKey: ['keep', 1], queryFn: () => after(5, 'k1') }));
    await settle(client.prefetchQuery({ queryKey: ['drop', 1], queryFn: () => after(5, 'd1') }));
    await settle(client.prefetchQuery({ queryKey: ['keep', 'err'], queryFn: () => failAfter(5, 'boom') }));
    void client.prefetchQuery({ queryKey: ['keep', 'pending'], queryFn: () => after(50, 'later') });
    lib.onlineManager.setOnline(false);
    const paused = new lib.MutationObserver(client, { mutationKey: ['m'], mutationFn: () => after(5, 'm') });
    void paused.mutate(undefined).catch(() => undefined);
    await advance(10);
    await settle(
      eco.persist.persistQueryClientSave({
        queryClient: client,
        persister,
        dehydrateOptions: {
          shouldDehydrateQuery: (q: any) => q.queryKey[0] === 'keep' && q.state.status !== 'pending',
          shouldDehydrateMutation: () => false,
          shouldRedactErrors: () => false,
        },
      }),
    );
    logStorage(log, 'filtered', storage);
    await settle(eco.persist.persistQueryClientSave({ queryClient: client, persister, dehydrateOptions: { serializeData: (d: unknown) => ({ wrapped: d }) } }));
    logStorage(log, 'serialized', storage);
    const other = new lib.QueryClient();
    await settle(
      eco.persist.persistQueryClientRestore({ queryClient: other, persister, hydrateOptions: { defaultOptions: { deserializeData: (d: any) => d?.wrapped } } }),
    );
    log('restored', cacheSummary(other));
    lib.onlineManager.setOnline(true);
    await advance(100);
    other.clear();
  });

  ecoDiff(
    'paused mutations survive a restore and resume with resumePausedMutations',
    ['dehydrate', 'hydrate'],
    async ({ lib, client, log, after, settle, advance }, eco) => {
      const storage = memoryStorage();
      const persister = eco.asyncStorage.createAsyncStoragePersister({ storage, throttleTime: 0 });
      lib.onlineManager.setOnline(false);
      client.setMutationDefaults(['add'], { mutationFn: (v: string) => after(5, `saved ${v}`) });
      const first = new lib.MutationObserver(client, { mutationKey: ['add'], scope: { id: 'todos' }, meta: { note: 'one' } });
      const second = new lib.MutationObserver(client, { mutationKey: ['add'], scope: { id: 'todos' } });
      void first.mutate('a').catch(() => undefined);
      void second.mutate('b').catch(() => undefined);
      await advance(10);
      await settle(eco.persist.persistQueryClientSave({ queryClient: client, persister }));
      logStorage(log, 'saved', storage);

      const other = new lib.QueryClient();
      const mutationEvents: Array<unknown> = [];
      other
        .getMutationCache()
        .subscribe((e: any) => mutationEvents.push([e.type, e.mutation?.state.status, e.mutation?.state.isPaused, e.mutation?.state.data]));
      other.setMutationDefaults(['add'], {
        mutationFn: (v: string) => after(5, `resumed ${v}`),
        onSuccess: (data: unknown) => log('defaults onSuccess', data),
      });
      await settle(eco.persist.persistQueryClientRestore({ queryClient: other, persister }));
      log('restored', cacheSummary(other));
      lib.onlineManager.setOnline(true);
      await settle(other.resumePausedMutations());
      await advance(50);
      log('resumed', cacheSummary(other));
      log('mutation events', mutationEvents);
      other.clear();
    },
  );

  ecoDiff('the throttle writes once per interval, through timeoutManager', ['timeoutManager.setTimeout'], async ({ client, log, advance }, eco) => {
    const storage = memoryStorage();
    let writes = 0;
    const counting = { ...storage, setItem: (key: string, value: string) => (writes++, storage.setItem(key, value)) };
    const persister = eco.asyncStorage.createAsyncStoragePersister({ storage: counting, throttleTime: 100 });
    const stop = eco.persist.persistQueryClientSubscribe({ queryClient: client, persister });
    for (let i = 0; i < 5; i++) {
      client.setQueryData(['n'], i);
      await advance(30);
      log('writes', writes);
    }
    await advance(200);
    log('writes at end', writes);
    logStorage(log, 'last', storage);
    stop();
  });
});

describe('unreadable stored clients', () => {
  for (const clientState of ['null', 'missing']) {
    ecoDiff(`clientState ${clientState}: restore fails, the stored client is removed`, [], async ({ lib, log, settle, track }, eco) => {
      const storage = memoryStorage();
      const persister = eco.asyncStorage.createAsyncStoragePersister({ storage, throttleTime: 0 });
      const stored: Record<string, unknown> = { buster: '', timestamp: Date.now() - 10 };
      if (clientState === 'null') stored.clientState = null;
      storage.setItem('REACT_QUERY_OFFLINE_CACHE', JSON.stringify(stored));
      const other = new lib.QueryClient();
      const quiet = [vi.spyOn(console, 'error').mockImplementation(() => {}), vi.spyOn(console, 'warn').mockImplementation(() => {})];
      try {
        const restore = eco.persist.persistQueryClientRestore({ queryClient: other, persister });
        track('restore', restore);
        await settle(restore.catch(() => undefined));
      } finally {
        for (const spy of quiet) spy.mockRestore();
      }
      logStorage(log, 'after', storage);
      other.clear();
    });
  }
});

describe('restored mutations without their function', () => {
  ecoDiff('resuming fails per mutation; hydrateOptions mutation defaults apply', ['hydrate'], async ({ lib, client, log, after, settle, advance }, eco) => {
    const storage = memoryStorage();
    const persister = eco.asyncStorage.createAsyncStoragePersister({ storage, throttleTime: 0 });
    lib.onlineManager.setOnline(false);
    client.setMutationDefaults(['known'], { mutationFn: () => after(5, 'ok') });
    for (const key of ['known', 'forgotten']) {
      void new lib.MutationObserver(client, { mutationKey: [key] }).mutate(key).catch(() => undefined);
    }
    await advance(10);
    await settle(eco.persist.persistQueryClientSave({ queryClient: client, persister }));
    const other = new lib.QueryClient();
    other.setMutationDefaults(['known'], { mutationFn: (v: string) => after(5, `resumed ${v}`) });
    const hydrateOptions = { defaultOptions: { mutations: { gcTime: 50, retry: 1, retryDelay: 5 } } };
    await settle(eco.persist.persistQueryClientRestore({ queryClient: other, persister, hydrateOptions }));
    lib.onlineManager.setOnline(true);
    await settle(other.resumePausedMutations());
    log('after resume', cacheSummary(other));
    await advance(100);
    log('after gcTime', cacheSummary(other));
    other.clear();
  });
});

describe('pending queries in a persisted client', () => {
  // With the streaming guide's `shouldDehydrateQuery` (pending too) as the client default, a persister
  // stores pending queries; JSON turns their promise into {} and the restore has to cope with that.
  ecoDiff('a stored pending query whose promise became {} in JSON', ['dehydrate'], async ({ lib, log, after, settle, advance, track }, eco) => {
    const storage = memoryStorage();
    const persister = eco.asyncStorage.createAsyncStoragePersister({ storage, throttleTime: 0 });
    const dehydrate = { shouldDehydrateQuery: (q: any) => lib.defaultShouldDehydrateQuery(q) || q.state.status === 'pending' };
    const source = new lib.QueryClient({ defaultOptions: { dehydrate } });
    await settle(source.prefetchQuery({ queryKey: ['done'], queryFn: () => after(5, 'done') }));
    void source.prefetchQuery({ queryKey: ['running'], queryFn: () => after(500, 'late') });
    await settle(eco.persist.persistQueryClientSave({ queryClient: source, persister }));
    logStorage(log, 'saved', storage);
    const other = new lib.QueryClient();
    const quiet = [vi.spyOn(console, 'error').mockImplementation(() => {}), vi.spyOn(console, 'warn').mockImplementation(() => {})];
    try {
      const restore = eco.persist.persistQueryClientRestore({ queryClient: other, persister });
      track('restore', restore);
      await settle(restore.catch(() => undefined));
    } finally {
      for (const spy of quiet) spy.mockRestore();
    }
    log('restored', cacheSummary(other));
    logStorage(log, 'after', storage);
    await advance(600);
    source.clear();
    other.clear();
  });
});

describe('infinite queries through a persister', () => {
  ecoDiff(
    'an infinite query keeps its pages and type across a restore, then fetches the next page',
    ['dehydrate', 'hydrate'],
    async ({ lib, client, log, after, settle, advance, observe }, eco) => {
      const storage = memoryStorage();
      const persister = eco.asyncStorage.createAsyncStoragePersister({ storage, throttleTime: 0 });
      const options = {
        queryKey: ['feed'],
        queryFn: ({ pageParam }: { pageParam: number }) => after(5, { items: [pageParam * 10, pageParam * 10 + 1], next: pageParam + 1 }),
        initialPageParam: 0,
        getNextPageParam: (last: { next: number }) => (last.next < 3 ? last.next : undefined),
      };
      await settle(client.fetchInfiniteQuery({ ...options, pages: 2 }));
      await settle(eco.persist.persistQueryClientSave({ queryClient: client, persister }));
      logStorage(log, 'saved', storage);
      const other = new lib.QueryClient();
      await settle(eco.persist.persistQueryClientRestore({ queryClient: other, persister }));
      log('restored', cacheSummary(other));
      const observer = new lib.InfiniteQueryObserver(other, { ...options, staleTime: Infinity });
      observe('feed', observer);
      await settle(observer.fetchNextPage());
      await advance(10);
      other.clear();
    },
  );
});

describe('the sync storage persister', () => {
  ecoDiff(
    'save and restore through a Storage-like object',
    ['dehydrate', 'hydrate', 'timeoutManager.setTimeout'],
    async ({ lib, client, log, after, settle, advance }, eco) => {
      const storage = memoryStorage();
      const persister = eco.syncStorage.createSyncStoragePersister({ storage, key: 'app', throttleTime: 50 });
      const [stop, restored] = eco.persist.persistQueryClient({ queryClient: client, persister });
      await settle(restored);
      await settle(client.prefetchQuery({ queryKey: ['s'], queryFn: () => after(5, 'sync') }));
      await advance(100);
      logStorage(log, 'saved', storage);
      stop();
      const other = new lib.QueryClient();
      await settle(eco.persist.persistQueryClientRestore({ queryClient: other, persister }));
      log('restored', cacheSummary(other));
      other.clear();
    },
  );

  ecoDiff('a full storage: retry with removeOldestQuery drops the oldest queries until it fits', ['dehydrate'], async ({ client, log, advance }, eco) => {
    const storage = memoryStorage();
    // a quota: writes longer than 1200 characters fail, as localStorage's do when full
    const small = {
      ...storage,
      setItem: (key: string, value: string) => {
        if (value.length > 1200) throw new Error('QuotaExceededError');
        storage.setItem(key, value);
      },
    };
    const persister = eco.syncStorage.createSyncStoragePersister({ storage: small, throttleTime: 0, retry: eco.persist.removeOldestQuery });
    for (let i = 0; i < 5; i++) {
      client.setQueryData(['item', i], 'x'.repeat(150));
      await advance(10);
    }
    await eco.persist.persistQueryClientSave({ queryClient: client, persister });
    await advance(10);
    logStorage(log, 'fitted', storage);
  });
});

describe('experimental_createQueryPersister (per-query persistence)', () => {
  ecoDiff(
    'persists each fetch, restores without fetching, refetches when stale',
    ['notifyManager.schedule', 'matchQuery', 'hashKey'],
    async ({ lib, client, log, after, settle, advance, observe }, eco) => {
      const storage = memoryStorage();
      const { persisterFn, restoreQueries, removeQueries, persisterGc } = eco.persist.experimental_createQueryPersister({
        storage,
        maxAge: 10_000,
        filters: { queryKey: ['p'] },
      });
      let calls = 0;
      const fetcher = (value: string) => () => (calls++, after(5, value));
      await settle(client.fetchQuery({ queryKey: ['p', 1], queryFn: fetcher('one'), persister: persisterFn }));
      await settle(client.fetchQuery({ queryKey: ['other'], queryFn: fetcher('x'), persister: persisterFn }));
      await advance(1);
      logStorage(log, 'stored', storage);

      const second = new lib.QueryClient();
      observe('restored', new lib.QueryObserver(second, { queryKey: ['p', 1], queryFn: fetcher('refetched'), persister: persisterFn, staleTime: 0 }));
      await advance(20);
      log('queryFn calls', calls);
      log('second cache', cacheSummary(second));

      const third = new lib.QueryClient();
      await settle(restoreQueries(third, { queryKey: ['p'] }));
      log('restoreQueries', cacheSummary(third));
      await advance(20_000);
      await settle(persisterGc());
      logStorage(log, 'after gc', storage);
      await settle(client.fetchQuery({ queryKey: ['p', 2], queryFn: fetcher('two'), persister: persisterFn }));
      await advance(1);
      await settle(removeQueries({ queryKey: ['p', 2], exact: true }));
      logStorage(log, 'after remove', storage);
      second.clear();
      third.clear();
    },
  );
});
