// @vitest-environment jsdom
/**
 * Differential: StrictMode, changing query lists, cache operations (cancel, reset, remove), select with
 * structural sharing, subscribed toggling, and option edge cases, against @tanstack/react-query.
 */
import * as React from 'react';
import { describe, expect, it } from 'vitest';
import { failLater, later, ours, pick, runScenario, sleep, theirs } from './differential.harness';
import type { Ctx, Scenario } from './differential.harness';

function Fallback({ log }: { log: Ctx['log'] }) {
  log('fallback');
  return null;
}

const scenarios: Array<Scenario> = [
  {
    name: 'StrictMode: one fetch, same renders',
    strict: true,
    setup: ({ lib, log }) => {
      let calls = 0;
      function Page() {
        const r = lib.useQuery({ queryKey: ['strict'], queryFn: () => sleep(5).then(() => ++calls) });
        log(pick(r, ['status', 'data']));
        return null;
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(10);
    },
  },
  {
    name: 'StrictMode: suspense and mutation',
    strict: true,
    setup: ({ lib, log }) => {
      function Data() {
        const r = lib.useSuspenseQuery({ queryKey: ['strict-s'], queryFn: later(5, 'S') });
        const m = lib.useMutation({ mutationFn: later(2, 'M') });
        log({ data: r.data, m: m.status });
        return <button onClick={() => m.mutate()}>go</button>;
      }
      return (
        <React.Suspense fallback={<Fallback log={log} />}>
          <Data />
        </React.Suspense>
      );
    },
    drive: async (d) => {
      await d.advance(10);
      await d.click('go');
      await d.advance(5);
    },
  },
  {
    name: 'useQueries: adding, removing and reordering queries',
    setup: ({ lib, log }) => {
      function Page() {
        const [ids, setIds] = React.useState([1, 2]);
        const results = lib.useQueries({
          queries: ids.map((id) => ({ queryKey: ['row', id], queryFn: later(id, `row ${id}`) })),
        });
        log(results.map((r) => pick(r, ['status', 'data'])));
        return (
          <>
            <button onClick={() => setIds([2, 1, 3])}>reorder</button>
            <button onClick={() => setIds([3])}>shrink</button>
          </>
        );
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(5);
      await d.click('reorder');
      await d.advance(5);
      await d.click('shrink');
      await d.advance(5);
    },
  },
  {
    name: 'useQueries combine re-runs when the combine function changes',
    setup: ({ lib, log }) => {
      function Page() {
        const [factor, setFactor] = React.useState(1);
        const value = lib.useQueries({
          queries: [{ queryKey: ['cf'], queryFn: later(2, 5) }],
          combine: React.useCallback((rs: Array<{ data?: unknown }>) => ((rs[0]?.data as number | undefined) ?? 0) * factor, [factor]),
        });
        log({ value });
        return <button onClick={() => setFactor(10)}>factor</button>;
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(5);
      await d.click('factor');
      await d.advance(1);
    },
  },
  {
    name: 'select result keeps identity across equal refetches (structural sharing)',
    setup: ({ lib, log }) => {
      const identities: Array<unknown> = [];
      function Page() {
        const r = lib.useQuery({
          queryKey: ['shared'],
          queryFn: () => sleep(2).then(() => ({ items: [1, 2, 3], at: 'same' })),
          select: (d) => d.items.filter((n) => n > 1),
        });
        if (r.data && !identities.includes(r.data)) identities.push(r.data);
        log({ data: r.data, distinct: identities.length });
        return null;
      }
      return <Page />;
    },
    drive: async (d, { client }) => {
      await d.advance(5);
      await d.act(() => void client.refetchQueries({ queryKey: ['shared'] }));
      await d.advance(5);
      await d.act(() => void client.refetchQueries({ queryKey: ['shared'] }));
      await d.advance(5);
    },
  },
  {
    name: 'cancelQueries reverts to the previous state, resetQueries refetches from pending',
    setup: ({ lib, log }) => {
      let n = 0;
      function Page() {
        const r = lib.useQuery({ queryKey: ['ops'], queryFn: () => sleep(10).then(() => ++n) });
        log(pick(r, ['status', 'fetchStatus', 'data']));
        return null;
      }
      return <Page />;
    },
    drive: async (d, { client }) => {
      await d.advance(15);
      await d.act(() => void client.refetchQueries({ queryKey: ['ops'] }));
      await d.advance(3);
      await d.act(() => void client.cancelQueries({ queryKey: ['ops'] }));
      await d.advance(15);
      await d.act(() => void client.resetQueries({ queryKey: ['ops'] }));
      await d.advance(15);
    },
  },
  {
    name: 'error, then a manual refetch succeeds',
    setup: ({ lib, log }) => {
      let ok = false;
      function Page() {
        const r = lib.useQuery({
          queryKey: ['recover'],
          queryFn: () => sleep(3).then(() => (ok ? 'recovered' : Promise.reject(new Error('down')))),
        });
        log(pick(r, ['status', 'fetchStatus', 'data', 'error', 'isRefetchError', 'isLoadingError']));
        return (
          <button
            onClick={() => {
              ok = true;
              void r.refetch();
            }}
          >
            retry
          </button>
        );
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(5);
      await d.click('retry');
      await d.advance(5);
    },
  },
  {
    name: 'subscribed toggles from false to true',
    setup: ({ lib, log, client }) => {
      client.setQueryData(['subs'], 'cached');
      function Page() {
        const [subscribed, setSubscribed] = React.useState(false);
        const r = lib.useQuery({ queryKey: ['subs'], queryFn: later(3, 'fetched'), subscribed });
        log(pick(r, ['data', 'fetchStatus']));
        return <button onClick={() => setSubscribed(true)}>subscribe</button>;
      }
      return <Page />;
    },
    drive: async (d, { client }) => {
      await d.advance(5);
      await d.act(() => client.setQueryData(['subs'], 'written while unsubscribed'));
      await d.advance(1);
      await d.click('subscribe');
      await d.advance(5);
    },
  },
  {
    name: 'enabled as a function of the query, refetchOnMount false, staleTime static',
    setup: ({ lib, log, client }) => {
      client.setQueryData(['static'], 'preloaded');
      function Page() {
        const a = lib.useQuery({
          queryKey: ['gated'],
          queryFn: later(2, 'gated data'),
          enabled: (query) => query.state.dataUpdateCount === 0,
        });
        const b = lib.useQuery({ queryKey: ['static'], queryFn: later(2, 'refetched'), staleTime: 'static' });
        const c = lib.useQuery({ queryKey: ['static'], queryFn: later(2, 'refetched'), refetchOnMount: false });
        log({ a: a.data, aEnabled: a.isEnabled, b: b.data, c: c.data, bFetching: b.isFetching });
        return null;
      }
      return <Page />;
    },
    drive: async (d, { client }) => {
      await d.advance(5);
      await d.act(() => void client.invalidateQueries());
      await d.advance(5);
    },
  },
  {
    name: 'retry with exponential default delay and networkMode always',
    clientConfig: {},
    setup: ({ lib, log }) => {
      function Page() {
        const r = lib.useQuery({ queryKey: ['retry-default'], queryFn: failLater(1, 'flaky'), networkMode: 'always' });
        log(pick(r, ['status', 'failureCount', 'fetchStatus']));
        return null;
      }
      return <Page />;
    },
    drive: async (d) => {
      for (let i = 0; i < 8; i++) await d.advance(1000);
    },
  },
  {
    name: 'HydrationBoundary with a query dehydrated while pending (streamed promise)',
    setup: ({ lib, log }) => {
      const server = new lib.QueryClient();
      void server.prefetchQuery({ queryKey: ['stream'], queryFn: later(6, 'streamed') });
      const state = lib.dehydrate(server, { shouldDehydrateQuery: () => true });
      function Data() {
        const r = lib.useQuery({ queryKey: ['stream'], queryFn: later(50, 'client'), staleTime: 1000 });
        log(pick(r, ['status', 'fetchStatus', 'data']));
        return null;
      }
      return (
        <lib.HydrationBoundary state={state}>
          <Data />
        </lib.HydrationBoundary>
      );
    },
    drive: async (d) => {
      await d.advance(10);
      await d.advance(60);
    },
  },
  {
    name: 'useQueryErrorResetBoundary().reset lets a throwOnError query retry on remount',
    setup: ({ lib, log, ErrorBoundary }) => {
      let attempt = 0;
      const queryFn = () => sleep(2).then(() => (++attempt === 1 ? Promise.reject(new Error('once')) : 'twice'));
      function Data() {
        const r = lib.useQuery({ queryKey: ['reset-hook'], queryFn, throwOnError: true });
        log(pick(r, ['status', 'data']));
        return null;
      }
      function Page() {
        const { reset } = lib.useQueryErrorResetBoundary();
        return (
          <ErrorBoundary
            onReset={reset}
            fallback={(error, retry) => {
              log({ boundary: error.message });
              return <button onClick={retry}>retry</button>;
            }}
          >
            <Data />
          </ErrorBoundary>
        );
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(5);
      await d.click('retry');
      await d.advance(5);
    },
  },
];

describe('differential: more', () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const ourLog = await runScenario(ours, scenario);
      const theirLog = await runScenario(theirs, scenario);
      expect(ourLog.length).toBeGreaterThan(1);
      expect(ourLog).toEqual(theirLog);
    });
  }
});
