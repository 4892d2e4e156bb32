/**
 * Differential: the own, enumerable fields of every object the cache hands out, in order.
 *
 * Tools walk these objects generically: TanStack Query Devtools' "Query Explorer" lists a Query's
 * fields as Object.keys gives them, and loggers / serialisers do the same. So the field set and its
 * order are part of what users see (src/react/devtools.test.tsx caught a Query whose fields came in a
 * different order).
 */
import { describe, expect, it } from 'vitest';
import { libraries } from './harness';
import type { Lib } from './harness';

function shapes(lib: Lib) {
  const client = new lib.QueryClient();
  const observer = new lib.QueryObserver(client, { queryKey: ['q'], queryFn: () => 1 });
  const stop = observer.subscribe(() => {});
  const infinite = new lib.InfiniteQueryObserver(client, {
    queryKey: ['i'],
    queryFn: () => 1,
    initialPageParam: 0,
    getNextPageParam: () => undefined,
  });
  const queries = new lib.QueriesObserver(client, [{ queryKey: ['a'], queryFn: () => 1 }]);
  const mutations = new lib.MutationObserver(client, { mutationFn: async () => 1 });
  void mutations.mutate(undefined);
  const out = {
    client: Object.keys(client),
    query: Object.keys(client.getQueryCache().find({ queryKey: ['q'] })!),
    queryState: Object.keys(client.getQueryCache().find({ queryKey: ['q'] })!.state),
    mutation: Object.keys(client.getMutationCache().getAll()[0]!),
    mutationState: Object.keys(client.getMutationCache().getAll()[0]!.state),
    queryObserver: Object.keys(observer),
    infiniteQueryObserver: Object.keys(infinite),
    queriesObserver: Object.keys(queries),
    mutationObserver: Object.keys(mutations),
    queryCache: Object.keys(client.getQueryCache()),
    mutationCache: Object.keys(client.getMutationCache()),
  };
  stop();
  client.clear();
  return out;
}

describe('object shapes', () => {
  it('match @tanstack/query-core field for field, in order', () => {
    const expected = shapes(libraries.reference);
    expect(expected.query.length).toBeGreaterThan(3);
    expect(shapes(libraries.ours)).toEqual(expected);
  });
});
