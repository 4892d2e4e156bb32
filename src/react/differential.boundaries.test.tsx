// @vitest-environment jsdom
/**
 * Differential: suspense, error boundaries, reset boundaries, mutations, hydration and prefetching
 * against @tanstack/react-query. Fallbacks and boundary screens are logged too, so "when did it
 * suspend / throw / recover" is compared, not only the data.
 */
import * as React from 'react';
import { describe, expect, it } from 'vitest';
import { failLater, later, ours, pick, runScenario, sleep, theirs } from './differential.harness';
import type { Ctx, Scenario } from './differential.harness';

function Fallback({ log, label = 'fallback' }: { log: Ctx['log']; label?: string }) {
  log(label);
  return <p>{label}</p>;
}

const scenarios: Array<Scenario> = [
  {
    name: 'useSuspenseQuery suspends, then renders data; a remount within 1 s does not refetch',
    setup: ({ lib, log }) => {
      let n = 0;
      function Data() {
        const r = lib.useSuspenseQuery({ queryKey: ['s'], queryFn: () => sleep(10).then(() => ++n) });
        log(pick(r, ['status', 'data', 'isFetching']));
        return <p>data {r.data}</p>;
      }
      function Page() {
        const [key, setKey] = React.useState(0);
        return (
          <>
            <button onClick={() => setKey((k) => k + 1)}>remount</button>
            <React.Suspense fallback={<Fallback log={log} />}>
              <Data key={key} />
            </React.Suspense>
          </>
        );
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(20);
      await d.click('remount');
      await d.advance(20);
    },
  },
  {
    name: 'useSuspenseQuery error goes to the boundary; reset retries and recovers',
    setup: ({ lib, log, ErrorBoundary }) => {
      let calls = 0;
      const queryFn = () => sleep(5).then(() => (++calls === 1 ? Promise.reject(new Error('first fails')) : 'second works'));
      function Data() {
        const r = lib.useSuspenseQuery({ queryKey: ['se'], queryFn, retry: false });
        log(pick(r, ['status', 'data']));
        return <p>{r.data}</p>;
      }
      return (
        <lib.QueryErrorResetBoundary>
          {({ reset }) => (
            <ErrorBoundary
              onReset={reset}
              fallback={(error, retry) => {
                log({ boundary: error.message });
                return <button onClick={retry}>retry</button>;
              }}
            >
              <React.Suspense fallback={<Fallback log={log} />}>
                <Data />
              </React.Suspense>
            </ErrorBoundary>
          )}
        </lib.QueryErrorResetBoundary>
      );
    },
    drive: async (d) => {
      await d.advance(10);
      await d.click('retry');
      await d.advance(10);
    },
  },
  {
    name: 'useQuery throwOnError: true throws to the boundary; without a reset it does not refetch on remount',
    setup: ({ lib, log, ErrorBoundary }) => {
      const queryFn = failLater(3, 'nope');
      function Data() {
        const r = lib.useQuery({ queryKey: ['te'], queryFn, throwOnError: true });
        log(pick(r, ['status', 'fetchStatus']));
        return null;
      }
      return (
        <ErrorBoundary
          fallback={(error, retry) => {
            log({ boundary: error.message });
            return <button onClick={retry}>again</button>;
          }}
        >
          <Data />
        </ErrorBoundary>
      );
    },
    drive: async (d) => {
      await d.advance(5);
      await d.click('again');
      await d.advance(5);
    },
  },
  {
    name: 'throwOnError as a predicate: only matching errors reach the boundary',
    setup: ({ lib, log, ErrorBoundary }) => {
      function Data({ k, message }: { k: string; message: string }) {
        const r = lib.useQuery({
          queryKey: [k],
          queryFn: failLater(2, message),
          throwOnError: (error) => error.message.startsWith('fatal'),
        });
        log(pick(r, ['status', 'error']));
        return null;
      }
      return (
        <ErrorBoundary
          fallback={(error) => {
            log({ boundary: error.message });
            return null;
          }}
        >
          <Data k="soft" message="soft error" />
          <Data k="hard" message="fatal error" />
        </ErrorBoundary>
      );
    },
    drive: async (d) => {
      await d.advance(5);
    },
  },
  {
    name: 'useSuspenseQueries waits for all queries in parallel',
    setup: ({ lib, log }) => {
      function Data() {
        const [a, b] = lib.useSuspenseQueries({
          queries: [
            { queryKey: ['sa'], queryFn: later(5, 'A') },
            { queryKey: ['sb'], queryFn: later(12, 'B') },
          ],
        });
        log([a.data, b.data]);
        return null;
      }
      return (
        <React.Suspense fallback={<Fallback log={log} />}>
          <Data />
        </React.Suspense>
      );
    },
    drive: async (d) => {
      await d.advance(6);
      await d.advance(10);
    },
  },
  {
    name: 'useSuspenseInfiniteQuery suspends for the first page, then pages',
    setup: ({ lib, log }) => {
      function Data() {
        const r = lib.useSuspenseInfiniteQuery({
          queryKey: ['sinf'],
          queryFn: ({ pageParam }) => sleep(4).then(() => pageParam * 2),
          initialPageParam: 1,
          getNextPageParam: (_l, _p, param) => (param < 2 ? param + 1 : undefined),
        });
        log(pick(r, ['data', 'hasNextPage', 'isFetchingNextPage']));
        return <button onClick={() => void r.fetchNextPage()}>more</button>;
      }
      return (
        <React.Suspense fallback={<Fallback log={log} />}>
          <Data />
        </React.Suspense>
      );
    },
    drive: async (d) => {
      await d.advance(5);
      await d.click('more');
      await d.advance(5);
    },
  },
  {
    name: 'usePrefetchQuery starts the fetch before the suspending child renders',
    setup: ({ lib, log }) => {
      const fetchOnce = later(8, 'prefetched');
      const options = {
        queryKey: ['pf'],
        queryFn: () => {
          log('queryFn called');
          return fetchOnce();
        },
      };
      function Child() {
        const r = lib.useSuspenseQuery(options);
        log(r.data);
        return null;
      }
      function Parent() {
        lib.usePrefetchQuery(options);
        return (
          <React.Suspense fallback={<Fallback log={log} />}>
            <Child />
          </React.Suspense>
        );
      }
      return <Parent />;
    },
    drive: async (d) => {
      await d.advance(10);
    },
  },
  {
    name: 'useMutation success and error, with callbacks and useIsMutating',
    setup: ({ lib, log }) => {
      function Counter() {
        log({ mutating: lib.useIsMutating() });
        return null;
      }
      function Form() {
        const m = lib.useMutation({
          mutationFn: (n: number) => sleep(5).then(() => (n < 0 ? Promise.reject(new Error('negative')) : n * 2)),
          onSuccess: (data) => log({ onSuccess: data }),
          onError: (error) => log({ onError: error.message }),
          onSettled: () => log('onSettled'),
        });
        log(pick(m, ['status', 'data', 'error', 'variables', 'isPending', 'failureCount', 'submittedAt']));
        return (
          <>
            <button onClick={() => m.mutate(21)}>ok</button>
            <button onClick={() => m.mutate(-1, { onError: () => log('per-call onError') })}>bad</button>
            <button onClick={() => m.reset()}>reset</button>
          </>
        );
      }
      return (
        <>
          <Counter />
          <Form />
        </>
      );
    },
    drive: async (d) => {
      await d.click('ok');
      await d.advance(10);
      await d.click('bad');
      await d.advance(10);
      await d.click('reset');
      await d.advance(1);
    },
  },
  {
    name: 'mutateAsync resolves; onSuccess invalidation refetches a query',
    setup: ({ lib, log, client }) => {
      let server = 'v1';
      function Page() {
        const q = lib.useQuery({ queryKey: ['doc'], queryFn: () => sleep(3).then(() => server) });
        const m = lib.useMutation({
          mutationFn: (next: string) => sleep(3).then(() => (server = next)),
          onSuccess: () => client.invalidateQueries({ queryKey: ['doc'] }),
        });
        log({ doc: q.data, fetching: q.isFetching, mutation: m.status });
        return <button onClick={() => void m.mutateAsync('v2').then((v) => log({ resolved: v }))}>save</button>;
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(5);
      await d.click('save');
      await d.advance(5);
      await d.advance(5);
    },
  },
  {
    name: 'useMutation throwOnError sends the error to the boundary',
    setup: ({ lib, log, ErrorBoundary }) => {
      function Form() {
        const m = lib.useMutation({ mutationFn: failLater(2, 'save failed'), throwOnError: true });
        log(m.status);
        return <button onClick={() => m.mutate()}>save</button>;
      }
      return (
        <ErrorBoundary
          fallback={(error) => {
            log({ boundary: error.message });
            return null;
          }}
        >
          <Form />
        </ErrorBoundary>
      );
    },
    drive: async (d) => {
      await d.click('save');
      await d.advance(5);
    },
  },
  {
    name: 'useMutationState selects variables of pending mutations',
    setup: ({ lib, log }) => {
      function Pending() {
        log({ pending: lib.useMutationState({ filters: { status: 'pending' }, select: (m) => m.state.variables }) });
        return null;
      }
      function Form() {
        const m = lib.useMutation({ mutationKey: ['add'], mutationFn: (text: string) => sleep(text.length).then(() => text) });
        return (
          <>
            <button onClick={() => m.mutate('ab')}>short</button>
            <button onClick={() => m.mutate('abcdef')}>long</button>
          </>
        );
      }
      return (
        <>
          <Pending />
          <Form />
        </>
      );
    },
    drive: async (d) => {
      await d.click('long');
      await d.click('short');
      await d.advance(3);
      await d.advance(5);
    },
  },
  {
    name: 'HydrationBoundary hydrates new queries during render and newer data after commit',
    setup: ({ lib, log, client }) => {
      client.setQueryData(['existing'], 'old');
      const server = new lib.QueryClient();
      server.setQueryData(['fresh'], 'from server');
      function Data({ k }: { k: string }) {
        const r = lib.useQuery({ queryKey: [k], queryFn: later(1, 'client fetched'), staleTime: Infinity });
        log({ [k]: r.data });
        return null;
      }
      function Page() {
        const [state, setState] = React.useState(() => lib.dehydrate(server));
        return (
          <>
            <button
              onClick={() => {
                server.setQueryData(['existing'], 'newer');
                setState(lib.dehydrate(server));
              }}
            >
              update
            </button>
            <lib.HydrationBoundary state={state}>
              <Data k="fresh" />
              <Data k="existing" />
            </lib.HydrationBoundary>
          </>
        );
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(5);
      await d.click('update');
      await d.advance(5);
    },
  },
  {
    name: 'IsRestoringProvider holds fetches until restoring ends',
    setup: ({ lib, log }) => {
      function Data() {
        const r = lib.useQuery({ queryKey: ['restore'], queryFn: later(2, 'x') });
        log(pick(r, ['status', 'fetchStatus', 'data']));
        return null;
      }
      function Page() {
        const [restoring, setRestoring] = React.useState(true);
        log({ restoring });
        return (
          <lib.IsRestoringProvider value={restoring}>
            <button onClick={() => setRestoring(false)}>restored</button>
            <Data />
          </lib.IsRestoringProvider>
        );
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(5);
      await d.click('restored');
      await d.advance(5);
    },
  },
];

describe('differential: boundaries, mutations, hydration', () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const ourLog = await runScenario(ours, scenario);
      const theirLog = await runScenario(theirs, scenario);
      expect(ourLog.length).toBeGreaterThan(1);
      expect(ourLog).toEqual(theirLog);
    });
  }
});
