// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { QuerySource, QueryVizEvent } from '../../recording/model';
import { foldClient, indexClientFold, type ClientState } from './fold';
import { recorder, useQueryTestEnvironment } from './test-recording';

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest setup helper (it registers before/after hooks), not a React hook
useQueryTestEnvironment();

/** A real client's events: two observed queries that refetch, fail, retry, get invalidated, and a mutation. */
async function record(): Promise<readonly QueryVizEvent[]> {
  const rec = recorder();
  const { QueryClient, QueryObserver, MutationObserver } = rec.lib;
  const client = new QueryClient();
  let n = 0;
  const stops = [0, 1].map((i) =>
    new QueryObserver(client, {
      queryKey: ['item', i],
      retry: 1,
      retryDelay: 20,
      refetchInterval: 100,
      gcTime: 50,
      queryFn: async () => {
        if (++n % 3 === 0) throw new Error('flaky');
        return { i, n };
      },
    }).subscribe(() => undefined),
  );
  const mutated = new MutationObserver(client, { mutationFn: async (x: number) => x * 2 }).mutate(21);
  for (let t = 0; t < 6; t++) {
    await vi.advanceTimersByTimeAsync(80);
    if (t === 2) void client.invalidateQueries({ queryKey: ['item', 0] });
  }
  await mutated;
  stops[1]!();
  await vi.advanceTimersByTimeAsync(200);
  stops[0]!();
  await vi.advanceTimersByTimeAsync(200);
  return (rec.recording().sources[0] as QuerySource).events;
}

const plain = (s: ClientState) => ({
  ...s,
  queries: [...s.queries.entries()],
  removed: [...s.removed.entries()],
  mutations: [...s.mutations.entries()],
  timers: [...s.timers.entries()],
});

describe('indexClientFold', () => {
  it('gives the same state as folding the prefix, at every count and checkpoint spacing', async () => {
    const events = await record();
    // Enough events to cross several checkpoints, with removals (gc), timers and a mutation among them.
    expect(events.length).toBeGreaterThan(40);
    expect(events.some((e) => e.kind === 'query' && e.action === 'removed')).toBe(true);
    expect(events.some((e) => e.kind === 'mutation')).toBe(true);
    for (const every of [1, 3, 16, 64]) {
      const index = indexClientFold(events, every);
      for (let n = 0; n <= events.length; n++) expect(plain(index.at(n)), `every ${every}, count ${n}`).toEqual(plain(foldClient(events.slice(0, n))));
    }
  });

  it('hands out independent states: a later call does not change an earlier answer', async () => {
    const events = await record();
    const index = indexClientFold(events, 8);
    const early = index.at(5);
    const before = plain(early);
    index.at(events.length);
    index.at(7);
    expect(plain(early)).toEqual(before);
    expect(plain(index.at(events.length + 10))).toEqual(plain(foldClient(events)));
    expect(plain(index.at(-3))).toEqual(plain(foldClient([])));
  });

  it('rejects a checkpoint spacing that is not a positive integer, naming it', () => {
    expect(() => indexClientFold([], 0)).toThrow(/"every" must be a positive integer, got 0/);
    expect(() => indexClientFold([], 2.5)).toThrow(/got 2.5/);
  });
});
