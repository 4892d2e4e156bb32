// @vitest-environment jsdom
/**
 * Differential: tRPC's TanStack Query integration (@trpc/tanstack-react-query, loaded from its sources with
 * its @tanstack/react-query imports redirected; see src/query/diff/ecosystem.ts) on @tanstack/react-query and
 * on roundtrip/react. The server is a real tRPC router called in-process through `unstable_localLink`.
 *
 * tRPC writes its own query keys (`[path, { input, type }]`), filters on them with `pathFilter()`, skips
 * queries with the `skipToken` it imported, pages with a `cursor` input, and turns async-generator
 * procedures into queries it builds and updates itself (`queryCache.build`, `query.setState`).
 * (The `as any` casts bridge tRPC's option types, written against TanStack's classes, to the shared hooks.)
 */
import * as React from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initTRPC } from '@trpc/server';
import { createTRPCClient, unstable_localLink } from '@trpc/client';
import { ours, pick, runScenario, sleep, theirs } from './differential.harness';
import type { Ctx, Lib, Scenario } from './differential.harness';
import { loadTrpc } from '../query/diff/ecosystem';

type Trpc = Awaited<ReturnType<typeof loadTrpc>>;
let integrations: Map<Lib, Trpc>;

beforeAll(async () => {
  integrations = new Map([
    [theirs, await loadTrpc()],
    [ours, await loadTrpc(ours)],
  ]);
});

/** A small todo API as a tRPC router; every call takes fake time like a network round trip would. */
function createApi() {
  const t = initTRPC.create();
  const todos = [{ id: 1, title: 'milk' }];
  const router = t.router({
    list: t.procedure.query(() => sleep(10).then(() => todos.map((todo) => ({ ...todo })))),
    byId: t.procedure.input((raw: unknown) => raw as number).query(({ input }) => sleep(5).then(() => todos.find((todo) => todo.id === input) ?? null)),
    add: t.procedure
      .input((raw: unknown) => raw as string)
      .mutation(({ input }) =>
        sleep(10).then(() => {
          if (input === 'fail') throw new Error('cannot add "fail"');
          const todo = { id: todos.length + 1, title: input };
          todos.push(todo);
          return todo;
        }),
      ),
    page: t.procedure
      .input((raw: unknown) => raw as { limit: number; cursor?: number | null })
      .query(({ input }) =>
        sleep(5).then(() => {
          const start = input.cursor ?? 0;
          return { items: Array.from({ length: input.limit }, (_, i) => `row ${start + i}`), nextCursor: start + input.limit < 6 ? start + input.limit : null };
        }),
      ),
    onTodo: t.procedure.subscription(async function* () {
      for (let i = 0; i < 3; i++) {
        await sleep(5);
        yield `event ${i}`;
      }
    }),
    ticks: t.procedure.query(async function* () {
      for (let i = 0; i < 3; i++) {
        await sleep(5);
        yield i;
      }
    }),
  });
  const client = createTRPCClient<typeof router>({ links: [unstable_localLink({ router, createContext: async () => ({}) })] });
  return { router, client };
}

function options(ctx: Ctx) {
  const { createTRPCOptionsProxy } = integrations.get(ctx.lib)!;
  const { client } = createApi();
  return createTRPCOptionsProxy<ReturnType<typeof createApi>['router']>({ client, queryClient: ctx.client as any });
}

const fields = ['status', 'fetchStatus', 'data', 'error', 'isFetching'];

const scenarios: Array<Scenario> = [
  {
    name: 'queryOptions, mutationOptions, and invalidation with pathFilter',
    setup: (ctx) => {
      const trpc = options(ctx);
      const { lib, log } = ctx;
      function Todos() {
        const client = lib.useQueryClient();
        const list = lib.useQuery(trpc.list.queryOptions() as any);
        const add = lib.useMutation(
          trpc.add.mutationOptions({
            onSettled: () => client.invalidateQueries(trpc.list.pathFilter() as any),
          }) as any,
        );
        log({ list: pick(list, fields), add: pick(add, ['status', 'variables', 'error']), key: trpc.list.queryKey() });
        return (
          <>
            <button onClick={() => add.mutate('eggs' as never)}>add</button>
            <button onClick={() => add.mutate('fail' as never)}>fail</button>
          </>
        );
      }
      return <Todos />;
    },
    drive: async (d) => {
      await d.advance(15);
      await d.click('add');
      for (let i = 0; i < 4; i++) await d.advance(10);
      await d.click('fail');
      for (let i = 0; i < 4; i++) await d.advance(10);
    },
  },
  {
    name: 'skipToken input until an id is chosen (dependent query)',
    setup: (ctx) => {
      const trpc = options(ctx);
      const { lib, log } = ctx;
      function Detail() {
        const [id, setId] = React.useState<number | null>(null);
        const todo = lib.useQuery(trpc.byId.queryOptions(id ?? (lib.skipToken as any)) as any);
        log({ todo: pick(todo, fields), id });
        return <button onClick={() => setId(1)}>open</button>;
      }
      return <Detail />;
    },
    drive: async (d) => {
      await d.advance(10);
      await d.click('open');
      await d.advance(10);
    },
  },
  {
    name: 'infiniteQueryOptions pages with the cursor input',
    setup: (ctx) => {
      const trpc = options(ctx);
      const { lib, log } = ctx;
      function Feed() {
        const feed = lib.useInfiniteQuery(trpc.page.infiniteQueryOptions({ limit: 2 }, { getNextPageParam: (last: any) => last.nextCursor }) as any);
        log({ feed: pick(feed, [...fields, 'hasNextPage', 'isFetchingNextPage']) });
        return <button onClick={() => void feed.fetchNextPage()}>more</button>;
      }
      return <Feed />;
    },
    drive: async (d) => {
      await d.advance(10);
      for (let i = 0; i < 3; i++) {
        await d.click('more');
        await d.advance(10);
      }
    },
  },
  {
    name: 'an async-generator procedure streams into the query tRPC builds',
    setup: (ctx) => {
      const trpc = options(ctx);
      const { lib, log } = ctx;
      function Ticks() {
        const ticks = lib.useQuery(trpc.ticks.queryOptions() as any);
        log({ ticks: pick(ticks, fields) });
        return null;
      }
      return <Ticks />;
    },
    drive: async (d) => {
      for (let i = 0; i < 5; i++) await d.advance(5);
    },
  },
  {
    name: 'optimistic update on a tRPC key: setQueryData, rollback on error, then invalidate',
    setup: (ctx) => {
      const trpc = options(ctx);
      const { lib, log } = ctx;
      function Todos() {
        const client = lib.useQueryClient();
        const list = lib.useQuery(trpc.list.queryOptions() as any);
        const add = lib.useMutation(
          trpc.add.mutationOptions({
            onMutate: async (title: string) => {
              await client.cancelQueries(trpc.list.queryFilter() as any);
              const previous = client.getQueryData(trpc.list.queryKey() as any);
              client.setQueryData(trpc.list.queryKey() as any, (old: any) => [...(old ?? []), { id: -1, title }]);
              return { previous };
            },
            onError: (_error: unknown, _title: string, result: any) => client.setQueryData(trpc.list.queryKey() as any, result?.previous),
            onSettled: () => client.invalidateQueries({ queryKey: trpc.list.queryKey() as any }),
          }) as any,
        );
        log({ list: pick(list, ['data', 'isFetching']), add: add.status });
        return <button onClick={() => add.mutate('fail' as never)}>fail</button>;
      }
      return <Todos />;
    },
    drive: async (d) => {
      await d.advance(15);
      await d.click('fail');
      for (let i = 0; i < 4; i++) await d.advance(10);
    },
  },
  {
    name: 'useSuspenseQuery and useQueries with tRPC options',
    setup: (ctx) => {
      const trpc = options(ctx);
      const { lib, log } = ctx;
      function Both() {
        const { data } = lib.useSuspenseQuery(trpc.list.queryOptions() as any);
        const [one, missing] = lib.useQueries({ queries: [trpc.byId.queryOptions(1) as any, trpc.byId.queryOptions(99) as any] });
        log({ list: data, one: pick(one!, ['status', 'data']), missing: pick(missing!, ['status', 'data']) });
        return null;
      }
      function Fallback() {
        log('fallback');
        return null;
      }
      return (
        <React.Suspense fallback={<Fallback />}>
          <Both />
        </React.Suspense>
      );
    },
    drive: async (d) => {
      for (let i = 0; i < 4; i++) await d.advance(5);
    },
  },
  {
    name: 'useSubscription over an async-generator subscription',
    setup: (ctx) => {
      const trpc = options(ctx);
      const { log } = ctx;
      const { useSubscription } = integrations.get(ctx.lib)!;
      function Events() {
        const sub = useSubscription(trpc.onTodo.subscriptionOptions(undefined, { onData: (data: unknown) => log({ onData: data }) }) as any);
        log({ sub: pick(sub, ['status', 'data', 'error']) });
        return null;
      }
      return <Events />;
    },
    drive: async (d) => {
      for (let i = 0; i < 5; i++) await d.advance(5);
    },
  },
];

describe('differential: tRPC (@trpc/tanstack-react-query) on both React bindings', () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const theirLog = await runScenario(theirs, scenario);
      const ourLog = await runScenario(ours, scenario);
      expect(theirLog.length).toBeGreaterThan(2);
      expect(ourLog).toEqual(theirLog);
    });
  }

  it('tRPC recognises our skipToken (its import reaches roundtrip/react)', () => {
    const client = new ours.QueryClient();
    const trpc = integrations
      .get(ours)!
      .createTRPCOptionsProxy<ReturnType<typeof createApi>['router']>({ client: createApi().client, queryClient: client as any });
    expect(trpc.byId.queryOptions(ours.skipToken as any).queryFn).toBe(ours.skipToken);
    client.clear();
  });
});
