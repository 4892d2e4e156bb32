// @vitest-environment jsdom
/**
 * Differential: useQuery, useQueries, useInfiniteQuery, useIsFetching against @tanstack/react-query.
 * Each scenario's render log (what every render saw, in order) must be identical for both libraries.
 */
import * as React from 'react';
import { describe, expect, it } from 'vitest';
import { failLater, later, ours, pick, runScenario, sleep, theirs } from './differential.harness';
import type { Scenario } from './differential.harness';

const core = ['status', 'fetchStatus', 'data', 'error', 'dataUpdatedAt', 'isStale'];

const scenarios: Array<Scenario> = [
  {
    name: 'fetch, then success',
    setup: ({ lib, log }) => {
      function Page() {
        log(pick(lib.useQuery({ queryKey: ['a'], queryFn: later(10, 'hello') }), core));
        return null;
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(20);
    },
  },
  {
    name: 'retries, then error (failureCount, failureReason, errorUpdatedAt)',
    setup: ({ lib, log }) => {
      function Page() {
        const r = lib.useQuery({ queryKey: ['e'], queryFn: failLater(5, 'boom'), retry: 2, retryDelay: 10 });
        log(pick(r, ['status', 'fetchStatus', 'failureCount', 'failureReason', 'error', 'errorUpdatedAt']));
        return null;
      }
      return <Page />;
    },
    drive: async (d) => {
      for (let i = 0; i < 6; i++) await d.advance(10);
    },
  },
  {
    name: 'tracked props: reading only data ignores refetches that return the same data',
    setup: ({ lib, log }) => {
      function Page() {
        log(lib.useQuery({ queryKey: ['t'], queryFn: later(5, 'same') }).data);
        return null;
      }
      return <Page />;
    },
    drive: async (d, { client }) => {
      await d.advance(10);
      await d.act(() => void client.invalidateQueries({ queryKey: ['t'] }));
      await d.advance(10);
      await d.act(() => client.setQueryData(['t'], 'changed'));
      await d.advance(1);
    },
  },
  {
    name: 'tracked props: reading isFetching renders each refetch',
    setup: ({ lib, log }) => {
      function Page() {
        const r = lib.useQuery({ queryKey: ['t2'], queryFn: later(5, 'same') });
        log(pick(r, ['data', 'isFetching', 'isRefetching']));
        return null;
      }
      return <Page />;
    },
    drive: async (d, { client }) => {
      await d.advance(10);
      await d.act(() => void client.refetchQueries({ queryKey: ['t2'] }));
      await d.advance(10);
    },
  },
  {
    name: 'notifyOnChangeProps limits renders to the listed properties',
    setup: ({ lib, log }) => {
      function Page() {
        const r = lib.useQuery({ queryKey: ['n'], queryFn: later(5, 1), notifyOnChangeProps: ['status'] });
        log(pick(r, ['status', 'data', 'isFetching']));
        return null;
      }
      return <Page />;
    },
    drive: async (d, { client }) => {
      await d.advance(10);
      await d.act(() => client.setQueryData(['n'], 2));
      await d.act(() => void client.refetchQueries({ queryKey: ['n'] }));
      await d.advance(10);
    },
  },
  {
    name: 'key change with keepPreviousData and select',
    setup: ({ lib, log }) => {
      function Page() {
        const [id, setId] = React.useState(1);
        const r = lib.useQuery({
          queryKey: ['item', id],
          queryFn: () => sleep(10).then(() => ({ id, name: `item ${id}` })),
          placeholderData: lib.keepPreviousData,
          select: (item) => item.name.toUpperCase(),
        });
        log(pick(r, ['status', 'data', 'isPlaceholderData', 'isFetching']));
        return <button onClick={() => setId((n) => n + 1)}>next</button>;
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(15);
      await d.click('next');
      await d.advance(15);
    },
  },
  {
    name: 'enabled toggles from false to true; placeholderData value',
    setup: ({ lib, log }) => {
      function Page() {
        const [enabled, setEnabled] = React.useState(false);
        const r = lib.useQuery({ queryKey: ['en'], queryFn: later(5, 'real'), enabled, placeholderData: 'placeholder' });
        log(pick(r, ['status', 'fetchStatus', 'data', 'isPlaceholderData', 'isLoading', 'isEnabled']));
        return <button onClick={() => setEnabled(true)}>enable</button>;
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(5);
      await d.click('enable');
      await d.advance(10);
    },
  },
  {
    name: 'initialData with staleTime, then invalidate',
    setup: ({ lib, log }) => {
      function Page() {
        const r = lib.useQuery({ queryKey: ['init'], queryFn: later(5, 'fetched'), initialData: 'initial', staleTime: 100 });
        log(pick(r, core));
        return null;
      }
      return <Page />;
    },
    drive: async (d, { client }) => {
      await d.advance(50);
      await d.advance(60);
      await d.act(() => void client.invalidateQueries({ queryKey: ['init'] }));
      await d.advance(10);
    },
  },
  {
    name: 'refetchInterval polls',
    setup: ({ lib, log }) => {
      let n = 0;
      function Page() {
        const r = lib.useQuery({ queryKey: ['poll'], queryFn: () => sleep(1).then(() => ++n), refetchInterval: 20 });
        log(pick(r, ['data', 'isFetching']));
        return null;
      }
      return <Page />;
    },
    drive: async (d) => {
      for (let i = 0; i < 5; i++) await d.advance(10);
    },
  },
  {
    name: 'window focus refetches stale queries',
    setup: ({ lib, log }) => {
      let n = 0;
      function Page() {
        const r = lib.useQuery({ queryKey: ['focus'], queryFn: () => sleep(2).then(() => ++n) });
        log(pick(r, ['data', 'fetchStatus']));
        return null;
      }
      return <Page />;
    },
    drive: async (d, { lib }) => {
      await d.advance(5);
      await d.act(() => lib.focusManager.setFocused(false));
      await d.act(() => lib.focusManager.setFocused(true));
      await d.advance(5);
      await d.act(() => lib.focusManager.setFocused(undefined));
    },
  },
  {
    name: 'offline pauses the fetch, online resumes it',
    setup: ({ lib, log }) => {
      function Page() {
        const r = lib.useQuery({ queryKey: ['net'], queryFn: later(3, 'online data') });
        log(pick(r, ['status', 'fetchStatus', 'data', 'isPaused']));
        return null;
      }
      return <Page />;
    },
    drive: async (d) => {
      // set before the first render so the initial fetch pauses
      await d.advance(1);
    },
  },
  {
    name: 'unmount and remount within gcTime reuses cached data, refetches in background',
    setup: ({ lib, log }) => {
      let n = 0;
      function Item() {
        const r = lib.useQuery({ queryKey: ['remount'], queryFn: () => sleep(4).then(() => ++n) });
        log(pick(r, ['status', 'data', 'isFetching']));
        return null;
      }
      function Page() {
        const [shown, setShown] = React.useState(true);
        return (
          <>
            <button onClick={() => setShown((s) => !s)}>toggle</button>
            {shown && <Item />}
          </>
        );
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(10);
      await d.click('toggle');
      await d.advance(10);
      await d.click('toggle');
      await d.advance(10);
    },
  },
  {
    name: 'useQueries with combine',
    setup: ({ lib, log }) => {
      function Page({ ids }: { ids: Array<number> }) {
        const combined = lib.useQueries({
          queries: ids.map((id) => ({ queryKey: ['q', id], queryFn: later(id * 3, id * 10) })),
          combine: (results) => ({
            data: results.map((r) => r.data),
            pending: results.some((r) => r.isPending),
          }),
        });
        log(combined);
        return null;
      }
      return <Page ids={[1, 2]} />;
    },
    drive: async (d) => {
      await d.advance(10);
    },
  },
  {
    name: 'useQueries without combine, tracked per property',
    setup: ({ lib, log }) => {
      function Page() {
        const results = lib.useQueries({
          queries: [
            { queryKey: ['qa'], queryFn: later(2, 'a') },
            { queryKey: ['qb'], queryFn: failLater(4, 'b failed') },
          ],
        });
        log(results.map((r) => pick(r, ['status', 'data', 'error'])));
        return null;
      }
      return <Page />;
    },
    drive: async (d, { client }) => {
      await d.advance(10);
      await d.act(() => void client.refetchQueries({ queryKey: ['qa'] }));
      await d.advance(10);
    },
  },
  {
    name: 'useInfiniteQuery pages forward and backward',
    setup: ({ lib, log }) => {
      function Page() {
        const r = lib.useInfiniteQuery({
          queryKey: ['inf'],
          queryFn: ({ pageParam }) => sleep(5).then(() => `page ${pageParam}`),
          initialPageParam: 1,
          getNextPageParam: (_last, pages, lastParam) => (pages.length < 3 ? lastParam + 1 : undefined),
          getPreviousPageParam: (_first, _pages, firstParam) => (firstParam > 0 ? firstParam - 1 : undefined),
        });
        log(pick(r, ['status', 'data', 'hasNextPage', 'hasPreviousPage', 'isFetchingNextPage', 'isFetchingPreviousPage']));
        return (
          <>
            <button onClick={() => void r.fetchNextPage()}>next</button>
            <button onClick={() => void r.fetchPreviousPage()}>prev</button>
          </>
        );
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(10);
      await d.click('next');
      await d.advance(10);
      await d.click('prev');
      await d.advance(10);
      await d.click('next');
      await d.advance(10);
    },
  },
  {
    name: 'useIsFetching counts running fetches',
    setup: ({ lib, log }) => {
      function Counter() {
        log({ fetching: lib.useIsFetching() });
        return null;
      }
      function A({ k, ms }: { k: string; ms: number }) {
        lib.useQuery({ queryKey: [k], queryFn: later(ms, k) });
        return null;
      }
      return (
        <>
          <Counter />
          <A k="x" ms={5} />
          <A k="y" ms={10} />
        </>
      );
    },
    drive: async (d) => {
      await d.advance(3);
      await d.advance(4);
      await d.advance(10);
    },
  },
];

// Scenario 'offline pauses the fetch' needs the managers set before rendering: wrap its setup.
const offline = scenarios.find((s) => s.name.startsWith('offline'))!;
const offlineSetup = offline.setup;
offline.setup = (ctx) => {
  ctx.lib.onlineManager.setOnline(false);
  return offlineSetup(ctx);
};
offline.drive = async (d, { lib }) => {
  await d.advance(5);
  await d.act(() => lib.onlineManager.setOnline(true));
  await d.advance(5);
};

describe('differential: queries', () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const ourLog = await runScenario(ours, scenario);
      const theirLog = await runScenario(theirs, scenario);
      expect(ourLog.length).toBeGreaterThan(1);
      expect(ourLog).toEqual(theirLog);
    });
  }
});
