/**
 * Ours vs @tanstack/query-core, side by side, on the operations a playground hammers.
 * Run: npx vitest bench --run src/query
 */
import * as reference from '@tanstack/query-core';
import { test } from 'vitest';
import { importBundled } from '../testing/bench-build';

// Bundled, as it ships and as query-core loads from its dist (see src/testing/bench-build.ts).
const ours = await importBundled<typeof import('./index')>('src/query/index.ts');

type Lib = typeof ours;
const libs: Array<[string, Lib]> = [
  ['roundtrip', ours],
  ['tanstack', reference as unknown as Lib],
];

for (const [, lib] of libs) lib.environmentManager.setIsServer(() => false);

const N = 10_000;
const keys = Array.from({ length: N }, (_, i) => ['todos', i % 100, { page: i, filter: i % 3 === 0 ? 'done' : 'open' }]);
const ROUNDS = 6;
const runOptions = { time: 250, warmupTime: 50, iterations: 3 };

type Body = { run: () => unknown; beforeEach?: () => void };
type Setup = (lib: Lib) => Body | (() => unknown);

/**
 * Register one comparison: the same body, set up once per library, measured side by side. The pair is
 * measured in several short rounds with the order alternating (a shared, busy machine warms, throttles
 * and collects garbage unevenly), and the reported ratio is the median of the per-round ratios
 * (>1 means roundtrip is faster). Within a round each library's speed is taken from its median
 * iteration time, not the mean, so the odd iteration stretched by another process does not decide the
 * round. Throughputs (averaged over rounds) are also printed. `options` overrides the run
 * options for one comparison (a longer `time` for bodies that take a large fraction of a round).
 */
function compare(name: string, setup: Setup, options: { time?: number } = {}): void {
  test(name, { timeout: 300_000 }, async ({ bench }) => {
    const [oursBody, theirsBody] = libs.map(([, lib]) => {
      const body = setup(lib);
      return typeof body === 'function' ? { run: body } : body;
    }) as [Body, Body];
    const register = (label: 'roundtrip' | 'tanstack', body: Body) =>
      body.beforeEach ? bench(label, { beforeEach: body.beforeEach }, body.run) : bench(label, body.run);
    const ratios: Array<number> = [];
    const totals = { roundtrip: 0, tanstack: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const pair =
        round % 2 === 0
          ? [register('roundtrip', oursBody), register('tanstack', theirsBody)]
          : [register('tanstack', theirsBody), register('roundtrip', oursBody)];
      const result = await bench.compare(pair[0]!, pair[1]!, { ...runOptions, ...options });
      // ops/s from the median iteration: one iteration slowed by another process barely moves it
      const a = 1000 / result.get('roundtrip').latency.p50;
      const b = 1000 / result.get('tanstack').latency.p50;
      totals.roundtrip += a / ROUNDS;
      totals.tanstack += b / ROUNDS;
      ratios.push(a / b);
    }
    ratios.sort((x, y) => x - y);
    const median = (ratios[(ROUNDS - 1) >> 1]! + ratios[ROUNDS >> 1]!) / 2;
    console.log(
      `${name}: roundtrip ${totals.roundtrip.toFixed(1)} ops/s, tanstack ${totals.tanstack.toFixed(1)} ops/s, ` +
        `median ratio ${median.toFixed(2)}x (rounds ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
    );
  });
}

// One iteration takes about a tenth of a second: give each round a full second so that it holds several
// samples of each library, not one or two that a single garbage collection can swing.
compare(
  'setQueryData on 10,000 keys',
  (lib) => () => {
    const client = new lib.QueryClient();
    for (const key of keys) client.setQueryData(key, { id: key[1] });
    client.clear();
  },
  { time: 1000 },
);

compare('findAll with partial keys over 10,000 queries', (lib) => {
  const client = new lib.QueryClient();
  for (const key of keys) client.setQueryData(key, 1);
  const cache = client.getQueryCache();
  return () => {
    for (let i = 0; i < 10; i++) {
      cache.findAll({ queryKey: ['todos', i] });
      cache.findAll({ queryKey: ['todos', i, { filter: 'done' }] });
    }
  };
});

compare('one setQueryData notifying 1,000 observers', (lib) => {
  const client = new lib.QueryClient();
  client.setQueryData(['shared'], { n: 0 });
  for (let i = 0; i < 1000; i++) {
    const observer = new lib.QueryObserver(client, { queryKey: ['shared'], enabled: false });
    observer.subscribe(() => undefined);
  }
  let n = 0;
  return () => client.setQueryData(['shared'], { n: ++n });
});

function bigJson(seed: number): Array<Record<string, unknown>> {
  // ~1 MB of JSON: 5,000 records of ~200 bytes; every 100th record differs between seeds (1%)
  return Array.from({ length: 5000 }, (_, i) => ({
    id: i,
    name: `item ${i}`,
    tags: ['alpha', 'beta', 'gamma'],
    owner: { id: i % 50, name: `owner ${i % 50}`, email: `owner${i % 50}@example.com` },
    stats: { views: i * 3, likes: i % 17, ratio: (i % 7) / 7 },
    version: i % 100 === 0 ? seed : 0,
  }));
}

compare('replaceEqualDeep on ~1 MB JSON with 1% changed', (lib) => {
  const before = bigJson(1);
  const after = bigJson(2);
  return () => lib.replaceEqualDeep(before, after);
});

compare('invalidateQueries over 10,000 queries', (lib) => {
  const client = new lib.QueryClient();
  for (const key of keys) client.setQueryData(key, 1);
  const queries = client.getQueryCache().getAll();
  return {
    beforeEach: () => {
      for (const query of queries) query.state = { ...query.state, isInvalidated: false };
    },
    run: () => client.invalidateQueries({ queryKey: ['todos'] }),
  };
});
