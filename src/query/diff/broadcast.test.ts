/**
 * Differential: TanStack's broadcastQueryClient (@tanstack/query-broadcast-client-experimental) syncing
 * two "tabs" (two QueryClients) on @tanstack/query-core and on roundtrip/query.
 *
 * The package imports the core for types only; at run time it works purely through the client it is
 * given, and reaches past the documented surface: cache events' `action`, `query.observers`,
 * `query.setState`, `queryCache.build(client, options, state)` and `queryCache.remove`. The channel uses
 * broadcast-channel's in-process "simulate" transport, which delivers after 5 ms of (fake) time.
 */
import { describe, expect, it } from 'vitest';
import { broadcastQueryClient } from '@tanstack/query-broadcast-client-experimental';
import { libraries, runScenario } from './harness';
import type { Ctx } from './harness';

let channels = 0;

function tabs(ctx: Ctx) {
  // a fresh channel name per run, so the two libraries' runs never hear each other
  const name = `roundtrip-diff-${++channels}`;
  const other = new ctx.lib.QueryClient();
  const stops = [ctx.client, other].map((queryClient) => broadcastQueryClient({ queryClient, broadcastChannel: name, options: { type: 'simulate' } }));
  const summary = (client: any) =>
    client
      .getQueryCache()
      .getAll()
      .map((q: any) => ({
        hash: q.queryHash,
        status: q.state.status,
        // a copy: the simulated channel hands both tabs the same object
        data: q.state.data === undefined ? undefined : JSON.parse(JSON.stringify(q.state.data)),
        updatedAt: q.state.dataUpdatedAt,
        observers: q.observers.length,
      }));
  return {
    other,
    snapshot: (label: string) => ctx.log(label, { a: summary(ctx.client), b: summary(other) }),
    close: () => {
      for (const stop of stops) stop();
      other.clear();
    },
  };
}

function broadcastDiff(name: string, scenario: (ctx: Ctx, t: ReturnType<typeof tabs>) => Promise<void>): void {
  it(`matches TanStack: ${name}`, async () => {
    const run = (lib: typeof libraries.ours) =>
      runScenario(lib, async (ctx) => {
        const t = tabs(ctx);
        try {
          await scenario(ctx, t);
        } finally {
          t.close();
        }
      });
    const expected = await run(libraries.reference);
    const actual = await run(libraries.ours);
    // the other tab saw something: the channel works in this run
    expect(JSON.stringify(expected)).toMatch(/"b":\[\{/);
    expect(actual).toEqual(expected);
  });
}

describe('broadcastQueryClient across two clients', () => {
  broadcastDiff('a fetch in tab A appears in tab B (added, then updated)', async ({ client, after, advance, settle }, t) => {
    await settle(client.prefetchQuery({ queryKey: ['todos'], queryFn: () => after(10, ['milk']) }));
    t.snapshot('after fetch');
    await advance(10);
    t.snapshot('after delivery');
  });

  broadcastDiff('tab B observes the query and gets the data from A without fetching', async ({ lib, client, after, advance, settle, observe }, t) => {
    let fetchedInB = 0;
    observe('b', new lib.QueryObserver(t.other, { queryKey: ['n'], queryFn: () => (fetchedInB++, after(50, 'b own')), staleTime: Infinity, enabled: false }));
    await advance(10);
    await settle(client.fetchQuery({ queryKey: ['n'], queryFn: () => after(5, 'from a') }));
    await advance(10);
    client.setQueryData(['n'], 'set in a');
    await advance(10);
    t.snapshot('synced');
    expect(fetchedInB).toBe(0);
  });

  broadcastDiff('setQueryData in B reaches A; a bare add in A creates a pending query in B', async ({ client, advance }, t) => {
    t.other.setQueryData(['k'], 'b has data');
    await advance(10);
    t.snapshot('after set in B');
    client.getQueryCache().build(client, { queryKey: ['fresh-in-a'] });
    client.getQueryCache().build(client, { queryKey: ['k'] });
    await advance(10);
    t.snapshot('after adds in A');
  });

  broadcastDiff('removing a query that has observers removes it in the other tab too', async ({ lib, client, after, advance, settle, observe }, t) => {
    observe('a', new lib.QueryObserver(client, { queryKey: ['r'], queryFn: () => after(5, 'r') }));
    await advance(20);
    t.snapshot('before remove');
    client.removeQueries({ queryKey: ['r'] });
    await advance(10);
    t.snapshot('after remove with observers');
    await settle(client.prefetchQuery({ queryKey: ['quiet'], queryFn: () => after(5, 'q') }));
    await advance(10);
    client.removeQueries({ queryKey: ['quiet'] });
    await advance(10);
    t.snapshot('after remove without observers');
  });

  broadcastDiff('invalidation and errors are not broadcast; only successes are', async ({ client, after, failAfter, advance, settle }, t) => {
    await settle(client.prefetchQuery({ queryKey: ['x'], queryFn: () => after(5, 1) }));
    await advance(10);
    await client.invalidateQueries({ queryKey: ['x'] }, { cancelRefetch: false });
    await settle(client.prefetchQuery({ queryKey: ['bad'], queryFn: () => failAfter(5, 'no') }));
    await advance(10);
    t.snapshot('after');
  });
});
