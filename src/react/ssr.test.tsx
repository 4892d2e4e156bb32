/**
 * Differential: server rendering, the way TanStack's SSR guides do it, through React's own server renderer
 * (react-dom/server and react-dom/static), once with @tanstack/react-query and once with roundtrip/react.
 * The HTML must be byte-identical, and so must what the server's cache holds afterwards and what
 * `dehydrate` hands to the client.
 *
 * Runs in the node environment, so both libraries detect a server (no `window`): queries get the server
 * gcTime, useQuery never fetches during render, and useSuspenseQuery fetches and suspends.
 */
import * as React from 'react';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { describe, expect, it, vi } from 'vitest';
import * as tanstack from '@tanstack/react-query';
import * as roundtrip from './index';

type Lib = typeof roundtrip;
const libs: Array<[string, Lib]> = [
  ['theirs', tanstack as unknown as Lib],
  ['ours', roundtrip],
];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function prerender(ui: React.ReactElement): Promise<string> {
  const { prelude } = await prerenderToNodeStream(ui);
  let html = '';
  for await (const chunk of prelude) html += chunk.toString();
  return html;
}

function cacheSummary(client: InstanceType<Lib['QueryClient']>) {
  return client
    .getQueryCache()
    .getAll()
    .map((q) => ({
      hash: q.queryHash,
      status: q.state.status,
      fetchStatus: q.state.fetchStatus,
      data: q.state.data,
      gcTime: q.gcTime,
      observers: q.getObserversCount(),
    }));
}

/** Dehydrated state with promises replaced by what they settle to (the part a client would receive). */
async function settled(state: ReturnType<Lib['dehydrate']>) {
  return {
    mutations: state.mutations,
    queries: await Promise.all(
      state.queries.map(async ({ promise, ...rest }) => ({
        ...rest,
        promise:
          promise &&
          (await promise.then(
            (v) => ({ resolved: v }),
            (e: Error) => ({ rejected: e.message }),
          )),
      })),
    ),
  };
}

type Run = (lib: Lib) => Promise<unknown>;

/** Development builds of React put component stacks (with file paths) into error templates: drop them. */
function withoutStacks(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replace(/ data-c?stck=\\"[\s\S]*?\\"/g, ''));
}

function ssrDiff(name: string, run: Run): void {
  it(name, async () => {
    const results: Record<string, unknown> = {};
    for (const [side, lib] of libs) {
      // a frozen clock (real timers): timestamps in the cache and in dehydrated state compare equal
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.UTC(2026, 0, 1, 12));
      try {
        results[side] = withoutStacks(await run(lib));
      } finally {
        vi.useRealTimers();
      }
    }
    expect(JSON.stringify(results.theirs)).toMatch(/<|html/);
    expect(results.ours).toEqual(results.theirs);
  });
}

function Todos({ lib, id = 'todos' }: { lib: Lib; id?: string }) {
  const r = lib.useQuery({ queryKey: [id], queryFn: () => wait(5).then(() => [`${id} from the client`]) });
  const fetching = lib.useIsFetching();
  return (
    <section data-status={r.status} data-fetch-status={r.fetchStatus} data-fetching={fetching}>
      {r.isPending ? 'loading' : r.data?.join(', ')}
    </section>
  );
}

describe('differential: server rendering with react-dom/server', () => {
  ssrDiff('useQuery without prefetching renders the loading state and fetches nothing', async (lib) => {
    const client = new lib.QueryClient();
    const html = renderToString(
      <lib.QueryClientProvider client={client}>
        <Todos lib={lib} />
      </lib.QueryClientProvider>,
    );
    await wait(10);
    const out = { html, cache: cacheSummary(client) };
    client.clear();
    return out;
  });

  ssrDiff('prefetchQuery + dehydrate + HydrationBoundary (the guide), rendered on the server', async (lib) => {
    const server = new lib.QueryClient();
    await server.prefetchQuery({ queryKey: ['todos'], queryFn: () => wait(5).then(() => ['milk', 'eggs']) });
    await server.prefetchQuery({ queryKey: ['broken'], queryFn: () => Promise.reject(new Error('server down')), retry: false });
    const dehydrated = JSON.parse(JSON.stringify(lib.dehydrate(server)));
    // the request's own client on the rendering side
    const client = new lib.QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
    const html = renderToString(
      <lib.QueryClientProvider client={client}>
        <lib.HydrationBoundary state={dehydrated}>
          <Todos lib={lib} />
          <Todos lib={lib} id="broken" />
        </lib.HydrationBoundary>
      </lib.QueryClientProvider>,
    );
    const out = { html, dehydrated, cache: cacheSummary(client) };
    server.clear();
    client.clear();
    return out;
  });

  ssrDiff('initialData, placeholderData, enabled: false and select on the server', async (lib) => {
    const client = new lib.QueryClient();
    function Many() {
      const initial = lib.useQuery({ queryKey: ['initial'], queryFn: () => 'fetched', initialData: 'from initialData' });
      const placeholder = lib.useQuery({ queryKey: ['placeholder'], queryFn: () => 'fetched', placeholderData: 'from placeholderData' });
      const disabled = lib.useQuery({ queryKey: ['disabled'], queryFn: () => 'fetched', enabled: false });
      const selected = lib.useQuery({ queryKey: ['initial'], queryFn: () => 'fetched', select: (s: string) => s.toUpperCase() });
      return (
        <ul>
          {[initial, placeholder, disabled, selected].map((r, i) => (
            <li key={i} data-status={r.status} data-fetch-status={r.fetchStatus} data-placeholder={r.isPlaceholderData}>
              {String(r.data)}
            </li>
          ))}
        </ul>
      );
    }
    const html = renderToString(
      <lib.QueryClientProvider client={client}>
        <Many />
      </lib.QueryClientProvider>,
    );
    const out = { html, cache: cacheSummary(client) };
    client.clear();
    return out;
  });
});

describe('differential: streaming with suspense (react-dom/static prerender)', () => {
  ssrDiff('useSuspenseQuery fetches on the server and the HTML carries the data', async (lib) => {
    const client = new lib.QueryClient();
    function Item({ id }: { id: number }) {
      const { data } = lib.useSuspenseQuery({ queryKey: ['item', id], queryFn: () => wait(5 * id).then(() => `item ${id}`) });
      return <li>{data}</li>;
    }
    const html = await prerender(
      <lib.QueryClientProvider client={client}>
        <React.Suspense fallback={<p>loading</p>}>
          <ul>
            <Item id={1} />
            <Item id={2} />
          </ul>
        </React.Suspense>
      </lib.QueryClientProvider>,
    );
    const out = { html, cache: cacheSummary(client), dehydrated: await settled(lib.dehydrate(client)) };
    client.clear();
    return out;
  });

  ssrDiff('useSuspenseQueries and a failing query under an error boundary', async (lib) => {
    const client = new lib.QueryClient({ defaultOptions: { queries: { retry: false } } });
    function Pair() {
      const [a, b] = lib.useSuspenseQueries({
        queries: [
          { queryKey: ['a'], queryFn: () => wait(5).then(() => 'A') },
          { queryKey: ['b'], queryFn: () => wait(8).then(() => 'B') },
        ],
      });
      return (
        <p>
          {a.data}
          {b.data}
        </p>
      );
    }
    function Failing() {
      const { data } = lib.useSuspenseQuery({ queryKey: ['fails'], queryFn: () => wait(3).then(() => Promise.reject(new Error('nope'))) });
      return <p>{String(data)}</p>;
    }
    class Boundary extends React.Component<{ children: React.ReactNode }, { error?: Error }> {
      override state: { error?: Error } = {};
      static getDerivedStateFromError(error: Error) {
        return { error };
      }
      override render() {
        return this.state.error ? <p>error: {this.state.error.message}</p> : this.props.children;
      }
    }
    const errors: Array<string> = [];
    const { prelude } = await prerenderToNodeStream(
      <lib.QueryClientProvider client={client}>
        <React.Suspense fallback={<p>loading</p>}>
          <Pair />
          <Boundary>
            <Failing />
          </Boundary>
        </React.Suspense>
      </lib.QueryClientProvider>,
      { onError: (error) => void errors.push((error as Error).message) },
    );
    let html = '';
    for await (const chunk of prelude) html += chunk.toString();
    const out = { html, errors, cache: cacheSummary(client) };
    client.clear();
    return out;
  });

  ssrDiff('pending queries dehydrated with their promise (the streaming guide)', async (lib) => {
    const client = new lib.QueryClient({
      defaultOptions: {
        dehydrate: { shouldDehydrateQuery: (q) => lib.defaultShouldDehydrateQuery(q) || q.state.status === 'pending' },
      },
    });
    void client.prefetchQuery({ queryKey: ['slow'], queryFn: () => wait(20).then(() => 'slow data') });
    await client.prefetchQuery({ queryKey: ['fast'], queryFn: () => wait(1).then(() => 'fast data') });
    const state = lib.dehydrate(client);
    // the receiving side hydrates the pending query and adopts its promise
    const receiving = new lib.QueryClient();
    lib.hydrate(receiving, state);
    const before = cacheSummary(receiving);
    const dehydrated = await settled(state);
    await wait(5);
    const out = { html: '<none>', dehydrated, before, after: cacheSummary(receiving) };
    client.clear();
    receiving.clear();
    return out;
  });
});
