/**
 * What a scrub costs the query views per frame: folding a client's events to the cursor (devtools, timers)
 * and laying out the timeline lanes. The events are a real client's, recorded through capture-query.ts:
 * 20 queries refetching on an interval with failures and retries, about 10,000 events.
 */
import { test, vi } from 'vitest';
import * as queryLib from 'roundtrip/query';
import type { QueryVizEvent } from '../../recording/model';
import { instrumentQueryModule } from '../../sandbox/capture-query';
import { foldClient } from './fold';
import { buildLanes } from './lanes';

async function record(): Promise<QueryVizEvent[]> {
  const events: QueryVizEvent[] = [];
  vi.useFakeTimers();
  vi.setSystemTime(Date.UTC(2026, 0, 1));
  queryLib.environmentManager.setIsServer(() => false);
  const lib = instrumentQueryModule(queryLib, {
    addSource: () => ({ id: 'client-1', push: (e) => void events.push(e as QueryVizEvent), onAction: () => undefined }),
  });
  const client = new lib.QueryClient();
  let n = 0;
  const stops: (() => void)[] = [];
  for (let i = 0; i < 20; i++) {
    const observer = new queryLib.QueryObserver(client, {
      queryKey: ['item', i],
      retry: 2,
      retryDelay: 50,
      refetchInterval: 200,
      queryFn: async () => {
        if (++n % 3 === 0) throw new Error('flaky');
        return { i, n };
      },
    });
    stops.push(observer.subscribe(() => undefined));
  }
  while (events.length < 10_000) await vi.advanceTimersByTimeAsync(100);
  for (const stop of stops) stop();
  client.clear();
  vi.useRealTimers();
  return events;
}

test('query views: fold and lanes over a 10,000-event client', { timeout: 120_000 }, async ({ bench }) => {
  const events = await record();
  const fold = await bench('foldClient (devtools and timers state at the last step)', () => void foldClient(events)).run();
  const lanes = await bench('buildLanes (event timeline)', () => void buildLanes(events)).run();
  for (const r of [fold, lanes]) console.log(`${r.name}: ${r.latency.mean.toFixed(2)} ms per call over ${events.length} events`);
});
