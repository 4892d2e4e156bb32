// @vitest-environment jsdom
/**
 * Differential: @tanstack/react-query-persist-client's PersistQueryClientProvider (TanStack's own code)
 * rendered once on @tanstack/react-query and once on roundtrip/react, with its imports redirected
 * (see src/query/diff/ecosystem.ts). The render logs must match: useIsRestoring while the cache is
 * restored, queries holding their fetch until then, onSuccess / onError, the saves that follow, and
 * paused mutations resumed from onSuccess (the offline-mutations recipe from TanStack's docs).
 */
import * as React from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { later, ours, pick, runScenario, sleep, theirs } from './differential.harness';
import type { Ctx, Lib, Scenario } from './differential.harness';
import { loadEcosystem, memoryStorage } from '../query/diff/ecosystem';
import type { Ecosystem } from '../query/diff/ecosystem';

let sides: Map<Lib, Ecosystem>;

beforeAll(async () => {
  // TanStack side: every copy of the core the packages reach is TanStack's one top-level core, so the
  // reference is TanStack everywhere; roundtrip side: the core and the React bindings are ours.
  const tanstackCore = await import('@tanstack/query-core');
  sides = new Map([
    [theirs, await loadEcosystem(tanstackCore)],
    [ours, await loadEcosystem(ours, ours)],
  ]);
});

const KEY = 'REACT_QUERY_OFFLINE_CACHE';
type Storage = ReturnType<typeof memoryStorage>;

/** A storage that answers after `delay` ms of (fake) time, like IndexedDB or AsyncStorage would. */
function slowStorage(storage: Storage, delay: number, failRead = false) {
  return {
    getItem: (key: string) => sleep(delay).then(() => (failRead ? Promise.reject(new Error('disk on fire')) : storage.getItem(key))),
    setItem: (key: string, value: string) => sleep(delay).then(() => storage.setItem(key, value)),
    removeItem: (key: string) => sleep(delay).then(() => storage.removeItem(key)),
  };
}

/**
 * What an earlier visit left in storage `age` ms ago, written by the side's own dehydrate. (The fake
 * clock starts at 0, and the persister treats a zero timestamp as "nothing usable".)
 */
function seed(ctx: Ctx, storage: Storage, fill: (client: Ctx['client']) => void, { buster = '', age = 100 } = {}): void {
  const previous = new ctx.lib.QueryClient();
  fill(previous);
  // hydrate only overwrites a query whose data is older: the mounted query starts at dataUpdatedAt 0
  for (const query of previous.getQueryCache().getAll()) query.setState({ dataUpdatedAt: 1 });
  storage.setItem(KEY, JSON.stringify({ buster, timestamp: Date.now() - age, clientState: ctx.lib.dehydrate(previous) }));
  previous.clear();
}

function storedQueries(storage: Storage): unknown {
  const value = storage.getItem(KEY);
  if (!value) return 'nothing stored';
  const { clientState } = JSON.parse(value);
  if (!clientState) return { clientState };
  return {
    queries: clientState.queries.map((q: any) => [q.queryHash, q.state.status, q.state.data]),
    mutations: clientState.mutations.map((m: any) => [m.mutationKey, m.state.status, m.state.isPaused, m.state.variables]),
  };
}

const fields = ['status', 'fetchStatus', 'data', 'isFetching', 'isStale'];

interface PersistCase {
  name: string;
  strict?: boolean;
  /** Runs before render: seed storage, set managers. */
  before?: (ctx: Ctx, storage: Storage) => void;
  persistOptions?: (ctx: Ctx) => Record<string, unknown>;
  failRead?: boolean;
  /** A render must have shown this data (proof that the restore reached the cache). */
  shows?: string;
  onSuccess?: (ctx: Ctx) => unknown;
  children: (ctx: Ctx) => React.ReactElement;
  drive: Scenario['drive'];
}

function persistScenario(c: PersistCase): Scenario {
  return {
    name: c.name,
    strict: c.strict,
    setup: (ctx) => {
      const eco = sides.get(ctx.lib)!;
      const storage = memoryStorage();
      c.before?.(ctx, storage);
      const persister = eco.asyncStorage.createAsyncStoragePersister({ storage: slowStorage(storage, 30, c.failRead), throttleTime: 100 });
      const Provider = eco.react.PersistQueryClientProvider as unknown as React.FC<Record<string, unknown>>;
      return (
        <Provider
          client={ctx.client}
          persistOptions={{ persister, ...c.persistOptions?.(ctx) }}
          onSuccess={() => {
            ctx.log('onSuccess');
            return c.onSuccess?.(ctx);
          }}
          onError={() => ctx.log('onError')}
        >
          {c.children(ctx)}
          <StoredProbe storage={storage} log={ctx.log} />
        </Provider>
      );
    },
    drive: c.drive,
  };
}

/** Logs storage contents whenever the tree re-renders because the cache changed. */
function StoredProbe({ storage, log }: { storage: Storage; log: Ctx['log'] }) {
  const [, force] = React.useState(0);
  React.useEffect(() => {
    const id = setInterval(() => force((n) => n + 1), 250);
    return () => clearInterval(id);
  }, []);
  log({ stored: storedQueries(storage) });
  return null;
}

function Todos({ lib, log, id = 'todos', staleTime }: Ctx & { id?: string; staleTime?: number }) {
  const restoring = lib.useIsRestoring();
  const r = lib.useQuery({ queryKey: [id], queryFn: later(20, `fresh ${id}`), staleTime });
  log({ [id]: pick(r, fields), restoring });
  return <p>{r.data ?? 'none'}</p>;
}

const cases: Array<PersistCase> = [
  {
    name: 'restores, then fetches: useIsRestoring, onSuccess, no fetch while restoring',
    shows: 'persisted todos',
    before: (ctx, storage) => seed(ctx, storage, (c) => c.setQueryData(['todos'], 'persisted todos')),
    children: (ctx) => (
      <>
        <Todos {...ctx} />
        <Todos {...ctx} id="other" />
      </>
    ),
    drive: async (d) => {
      for (let i = 0; i < 8; i++) await d.advance(10);
      await d.advance(600);
    },
  },
  {
    name: 'restored data that is still fresh is not refetched',
    shows: 'persisted todos',
    before: (ctx, storage) => seed(ctx, storage, (c) => c.setQueryData(['todos'], 'persisted todos')),
    children: (ctx) => <Todos {...ctx} staleTime={60_000} />,
    drive: async (d) => {
      for (let i = 0; i < 6; i++) await d.advance(10);
      await d.advance(300);
    },
  },
  {
    name: 'nothing stored: onSuccess still runs, then queries fetch and get saved',
    children: (ctx) => <Todos {...ctx} />,
    drive: async (d) => {
      for (let i = 0; i < 6; i++) await d.advance(10);
      await d.advance(600);
    },
  },
  {
    name: 'maxAge: an old cache is thrown away',
    before: (ctx, storage) => seed(ctx, storage, (c) => c.setQueryData(['todos'], 'ancient'), { age: 5000 }),
    persistOptions: () => ({ maxAge: 1000 }),
    children: (ctx) => <Todos {...ctx} />,
    drive: async (d) => {
      for (let i = 0; i < 6; i++) await d.advance(10);
      await d.advance(300);
    },
  },
  {
    name: 'buster mismatch: the cache is thrown away',
    before: (ctx, storage) => seed(ctx, storage, (c) => c.setQueryData(['todos'], 'old build'), { buster: 'build-1' }),
    persistOptions: () => ({ buster: 'build-2' }),
    children: (ctx) => <Todos {...ctx} />,
    drive: async (d) => {
      for (let i = 0; i < 6; i++) await d.advance(10);
      await d.advance(300);
    },
  },
  {
    name: 'restore fails: onError, the stored cache is removed, queries fetch',
    failRead: true,
    before: (ctx, storage) => seed(ctx, storage, (c) => c.setQueryData(['todos'], 'unreadable')),
    children: (ctx) => <Todos {...ctx} />,
    drive: async (d) => {
      for (let i = 0; i < 8; i++) await d.advance(10);
      await d.advance(300);
    },
  },
  {
    // an unreadable stored client (clientState null): TanStack's hydrate throws, so onError runs and the
    // entry is removed; a hydrate that skipped it reported onSuccess and kept the bad entry forever
    name: 'a stored client without clientState: onError, and the entry is removed',
    before: (_ctx, storage) => storage.setItem(KEY, JSON.stringify({ buster: '', timestamp: Date.now() - 100, clientState: null })),
    children: (ctx) => <Todos {...ctx} />,
    drive: async (d) => {
      for (let i = 0; i < 6; i++) await d.advance(10);
      await d.advance(300);
    },
  },
  {
    name: 'StrictMode: one restore, one onSuccess',
    shows: 'persisted todos',
    strict: true,
    before: (ctx, storage) => seed(ctx, storage, (c) => c.setQueryData(['todos'], 'persisted todos')),
    children: (ctx) => <Todos {...ctx} />,
    drive: async (d) => {
      for (let i = 0; i < 6; i++) await d.advance(10);
      await d.advance(300);
    },
  },
  {
    name: 'useQueries and useIsFetching while restoring',
    shows: 'persisted a',
    before: (ctx, storage) => seed(ctx, storage, (c) => c.setQueryData(['a'], 'persisted a')),
    children: ({ lib, log }) => {
      function Many() {
        const results = lib.useQueries({
          queries: ['a', 'b'].map((id) => ({ queryKey: [id], queryFn: later(15, `fresh ${id}`) })),
        });
        log({ many: results.map((r) => pick(r, fields)), fetching: lib.useIsFetching(), restoring: lib.useIsRestoring() });
        return null;
      }
      return <Many />;
    },
    drive: async (d) => {
      for (let i = 0; i < 8; i++) await d.advance(10);
    },
  },
  {
    name: 'useSuspenseQuery under the provider while restoring',
    before: (ctx, storage) => seed(ctx, storage, (c) => c.setQueryData(['cached'], 'persisted cached')),
    children: ({ lib, log }) => {
      function Suspending({ id }: { id: string }) {
        const r = lib.useSuspenseQuery({ queryKey: [id], queryFn: later(25, `fresh ${id}`) });
        log({ [id]: pick(r, fields), restoring: lib.useIsRestoring() });
        return null;
      }
      function Fallback() {
        log('fallback');
        return null;
      }
      return (
        <React.Suspense fallback={<Fallback />}>
          <Suspending id="cached" />
          <Suspending id="uncached" />
        </React.Suspense>
      );
    },
    drive: async (d) => {
      for (let i = 0; i < 8; i++) await d.advance(10);
    },
  },
  {
    name: 'offline mutations: persisted while paused, resumed from onSuccess, then invalidated',
    shows: 'persisted todos',
    before: (ctx, storage) => {
      // a previous visit queued two mutations while offline
      ctx.lib.onlineManager.setOnline(false);
      seed(ctx, storage, (c) => {
        c.setMutationDefaults(['add'], { mutationFn: later(5, 'never runs') });
        for (const title of ['milk', 'eggs'])
          void c
            .getMutationCache()
            .build(c, { mutationKey: ['add'] })
            .execute(title)
            .catch(() => undefined);
        c.setQueryData(['todos'], 'persisted todos');
      });
      ctx.lib.onlineManager.setOnline(true);
      ctx.client.setMutationDefaults(['add'], { mutationFn: (title: string) => sleep(10).then(() => `added ${title}`) });
    },
    onSuccess: ({ client, log }) =>
      client.resumePausedMutations().then(() => {
        log('resumed');
        return client.invalidateQueries();
      }),
    children: (ctx) => {
      const { lib, log } = ctx;
      function Pending() {
        const variables = lib.useMutationState({ filters: { status: 'pending' }, select: (m) => m.state.variables });
        log({ pendingVariables: variables, mutating: lib.useIsMutating() });
        return null;
      }
      return (
        <>
          <Todos {...ctx} staleTime={60_000} />
          <Pending />
        </>
      );
    },
    drive: async (d) => {
      for (let i = 0; i < 12; i++) await d.advance(10);
      await d.advance(500);
    },
  },
];

/** useQuery / useInfiniteQuery with experimental_createQueryPersister as the per-query `persister`. */
function perQueryScenario(name: string, infinite: boolean): Scenario {
  return {
    name,
    setup: (ctx) => {
      const { lib, log, client } = ctx;
      const eco = sides.get(lib)!;
      const storage = memoryStorage();
      const { persisterFn } = eco.persist.experimental_createQueryPersister({ storage: slowStorage(storage, 10), maxAge: 60_000 });
      // (`as any` below: the persister's type names TanStack's Query class, ours is structurally the same)
      // an earlier visit stored this query 100 ms ago
      const earlier = new lib.QueryClient();
      const stored = infinite ? { pages: ['stored page 0'], pageParams: [0] } : 'stored value';
      earlier.setQueryData(['per-query'], stored);
      const query = earlier.getQueryCache().find({ queryKey: ['per-query'] })!;
      query.setState({ dataUpdatedAt: 1 });
      storage.setItem(
        `tanstack-query-${query.queryHash}`,
        JSON.stringify({ buster: '', queryHash: query.queryHash, queryKey: query.queryKey, state: query.state }),
      );
      earlier.clear();
      let calls = 0;
      function Plain() {
        const r = lib.useQuery({
          queryKey: ['per-query'],
          queryFn: () => sleep(20).then(() => `fetched ${++calls}`),
          persister: persisterFn as any,
          staleTime: 10,
        });
        log({ plain: pick(r, fields), calls });
        return <button onClick={() => void client.invalidateQueries()}>invalidate</button>;
      }
      function Pages() {
        const r = lib.useInfiniteQuery({
          queryKey: ['per-query'],
          queryFn: ({ pageParam }) => sleep(20).then(() => `fetched page ${pageParam} (${++calls})`),
          initialPageParam: 0,
          getNextPageParam: (_last, pages) => (pages.length < 3 ? pages.length : undefined),
          persister: persisterFn as any,
          staleTime: 10,
        });
        log({ pages: pick(r, [...fields, 'hasNextPage', 'isFetchingNextPage']), calls });
        return (
          <>
            <button onClick={() => void r.fetchNextPage()}>more</button>
            <button onClick={() => void client.invalidateQueries()}>invalidate</button>
          </>
        );
      }
      function Storage() {
        const [, force] = React.useState(0);
        React.useEffect(() => {
          const id = setInterval(() => force((n) => n + 1), 100);
          return () => clearInterval(id);
        }, []);
        log({ storage: [...storage.items.values()].map((v) => JSON.parse(v).state.data) });
        return null;
      }
      return (
        <>
          {infinite ? <Pages /> : <Plain />}
          <Storage />
        </>
      );
    },
    drive: async (d) => {
      for (let i = 0; i < 6; i++) await d.advance(10);
      if (infinite) {
        await d.click('more');
        for (let i = 0; i < 4; i++) await d.advance(10);
      }
      await d.click('invalidate');
      for (let i = 0; i < 6; i++) await d.advance(10);
      await d.advance(100);
    },
  };
}

describe('differential: experimental_createQueryPersister as a query option', () => {
  const scenarios = [
    perQueryScenario('useQuery restores from storage, refetches when stale, stores the result', false),
    perQueryScenario('useInfiniteQuery pages through a per-query persister', true),
  ];
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const theirLog = await runScenario(theirs, scenario);
      const ourLog = await runScenario(ours, scenario);
      expect(JSON.stringify(theirLog)).toContain('stored');
      expect(ourLog).toEqual(theirLog);
    });
  }
});

describe('differential: PersistQueryClientProvider (TanStack code on both libraries)', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const before = { theirs: sides.get(theirs)!.calls.hydrate ?? 0, ours: sides.get(ours)!.calls.hydrate ?? 0 };
      // persistQueryClientRestore warns when it discards an unreadable cache (the harness already mutes errors)
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      let theirLog: Array<unknown>;
      let ourLog: Array<unknown>;
      try {
        theirLog = await runScenario(theirs, persistScenario(c));
        ourLog = await runScenario(ours, persistScenario(c));
      } finally {
        warn.mockRestore();
      }
      expect(theirLog.length).toBeGreaterThan(2);
      expect(ourLog).toEqual(theirLog);
      if (c.shows) {
        expect(JSON.stringify(ourLog)).toContain(`"data":"${c.shows}"`);
        // the restore went through each side's own hydrate
        expect(sides.get(theirs)!.calls.hydrate).toBeGreaterThan(before.theirs);
        expect(sides.get(ours)!.calls.hydrate).toBeGreaterThan(before.ours);
      } else {
        expect(JSON.stringify(ourLog)).not.toMatch(/"data":"(persisted|ancient|old build|unreadable)/);
      }
    });
  }

  it('the provider reaches our IsRestoringProvider and QueryClientProvider', async () => {
    const log = await runScenario(ours, persistScenario({ ...cases[0]!, drive: async (d) => void (await d.advance(0)) }));
    // useIsRestoring() reads our context: true in the first render proves the redirect
    expect(log[0]).toMatchObject({ restoring: true });
  });
});
