/**
 * Every value in defaults.ts, measured: each test leaves the option unset and watches what the library
 * does (how many attempts, when they happen, when an entry is removed, whether a trigger refetches), on
 * @tanstack/query-core and on roundtrip/query alike. The docs render their default columns from these
 * constants, so a wrong constant fails here before a page can show it.
 */
import * as reference from '@tanstack/query-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as D from './defaults';
import * as ours from './index';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const libs = { '@tanstack/query-core': reference as unknown as typeof ours, 'roundtrip/query': ours };

describe.each(Object.entries(libs))('defaults of %s', (_name, lib) => {
  let client: InstanceType<typeof lib.QueryClient>;
  const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
  const elapsed = () => Date.now() - T0;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    lib.environmentManager.setIsServer(() => false);
    lib.onlineManager.setOnline(true);
    lib.focusManager.setFocused(undefined);
    client = new lib.QueryClient();
  });

  afterEach(() => {
    client.unmount();
    client.clear();
    lib.environmentManager.setIsServer(() => typeof window === 'undefined' || 'Deno' in globalThis);
    lib.onlineManager.setOnline(true);
    lib.focusManager.setFocused(undefined);
    vi.clearAllTimers();
    vi.useRealTimers();
  });

  /** Fetches a query whose queryFn always fails and returns the moments (ms since T0) of each attempt. */
  async function failingAttempts(options: Record<string, unknown> = {}): Promise<number[]> {
    const attempts: number[] = [];
    const query = client.getQueryCache().build(client, {
      queryKey: ['failing', options],
      queryFn: () => {
        attempts.push(elapsed());
        return Promise.reject(new Error('nope'));
      },
      ...options,
    });
    query.fetch().catch(() => undefined);
    await advance(10 * 60_000);
    return attempts;
  }

  /** Subscribes an observer and counts queryFn calls; the data is stale as soon as it arrives. */
  function countingObserver(options: Record<string, unknown> = {}) {
    const count = { calls: 0 };
    const observer = new lib.QueryObserver(client, {
      queryKey: ['counted'],
      queryFn: () => Promise.resolve(++count.calls),
      ...options,
    });
    const stop = observer.subscribe(() => undefined);
    return { count, observer, stop };
  }

  it(`staleTime: data is stale ${D.STALE_TIME} ms after it was set`, async () => {
    client.setQueryData(['fresh'], 'data');
    const query = client.getQueryCache().find({ queryKey: ['fresh'] })!;
    if (D.STALE_TIME > 0) {
      await advance(D.STALE_TIME - 1);
      expect(query.isStaleByTime()).toBe(false);
      await advance(1);
    }
    expect(elapsed()).toBe(D.STALE_TIME);
    expect(query.isStaleByTime()).toBe(true);
  });

  it(`gcTime: an unused query is removed after ${D.GC_TIME} ms, not before`, async () => {
    client.setQueryData(['unused'], 'data');
    await advance(D.GC_TIME - 1);
    expect(client.getQueryCache().find({ queryKey: ['unused'] })).toBeDefined();
    await advance(1);
    expect(client.getQueryCache().find({ queryKey: ['unused'] })).toBeUndefined();
  });

  it('gcTime: a settled mutation is removed after the same time', async () => {
    const mutation = client.getMutationCache().build(client, { mutationFn: () => Promise.resolve('ok') });
    await mutation.execute(undefined);
    const settledAt = elapsed();
    await advance(D.GC_TIME - 1 - (elapsed() - settledAt));
    expect(client.getMutationCache().getAll()).toHaveLength(1);
    await advance(1);
    expect(client.getMutationCache().getAll()).toHaveLength(0);
  });

  it(`gcTime on a server: ${D.SERVER_GC_TIME}`, async () => {
    lib.environmentManager.setIsServer(() => true);
    client.setQueryData(['kept'], 'data');
    expect(client.getQueryCache().find({ queryKey: ['kept'] })!.gcTime).toBe(D.SERVER_GC_TIME);
    await advance(24 * 60 * 60_000);
    expect(client.getQueryCache().find({ queryKey: ['kept'] })).toBeDefined();
  });

  it(`retry: ${D.RETRY} retries after the first failure, waiting min(${D.RETRY_DELAY_BASE} * 2^n, ${D.RETRY_DELAY_MAX}) ms`, async () => {
    const attempts = await failingAttempts();
    expect(attempts).toHaveLength(D.RETRY + 1);
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    expect(gaps).toEqual(gaps.map((_, n) => Math.min(D.RETRY_DELAY_BASE * 2 ** n, D.RETRY_DELAY_MAX)));
  });

  it('retryDelay: the default backoff stops growing at its cap', async () => {
    const attempts = await failingAttempts({ retry: 7 });
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    expect(gaps).toHaveLength(7);
    expect(gaps.at(-1)).toBe(D.RETRY_DELAY_MAX);
    expect(gaps).toEqual(gaps.map((_, n) => Math.min(D.RETRY_DELAY_BASE * 2 ** n, D.RETRY_DELAY_MAX)));
  });

  it(`retry on a server: ${D.SERVER_RETRY}`, async () => {
    lib.environmentManager.setIsServer(() => true);
    expect(await failingAttempts()).toHaveLength(D.SERVER_RETRY + 1);
  });

  it(`mutation retry: ${D.MUTATION_RETRY}`, async () => {
    let attempts = 0;
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => {
        attempts++;
        return Promise.reject(new Error('nope'));
      },
    });
    mutation.execute(undefined).catch(() => undefined);
    await advance(10 * 60_000);
    expect(attempts).toBe(D.MUTATION_RETRY + 1);
  });

  it(`networkMode: '${D.NETWORK_MODE}'`, async () => {
    /** Which mode does a query behave like, when started offline and failing while offline? */
    async function measuredMode(options: Record<string, unknown>): Promise<string> {
      lib.onlineManager.setOnline(false);
      const attempts = await failingAttempts({ retryDelay: 10, ...options });
      lib.onlineManager.setOnline(true);
      if (attempts.length === 0) return 'online'; // waited for the network before the first attempt
      return attempts.length === 1 ? 'offlineFirst' : 'always'; // retries paused offline, or went on
    }
    expect(await measuredMode({ networkMode: 'always' })).toBe('always');
    expect(await measuredMode({ networkMode: 'offlineFirst' })).toBe('offlineFirst');
    expect(await measuredMode({})).toBe(D.NETWORK_MODE);
  });

  it(`enabled: ${D.ENABLED}`, async () => {
    const { count, stop } = countingObserver();
    await advance(0);
    expect(count.calls > 0).toBe(D.ENABLED);
    stop();
  });

  it(`refetchOnMount: ${D.REFETCH_ON_MOUNT}`, async () => {
    client.setQueryData(['counted'], 0);
    const { count, stop } = countingObserver();
    await advance(0);
    expect(count.calls > 0).toBe(D.REFETCH_ON_MOUNT);
    stop();
  });

  it(`refetchOnWindowFocus: ${D.REFETCH_ON_WINDOW_FOCUS}`, async () => {
    client.mount();
    const { count, stop } = countingObserver();
    await advance(0);
    lib.focusManager.setFocused(false);
    lib.focusManager.setFocused(true);
    await advance(0);
    expect(count.calls > 1).toBe(D.REFETCH_ON_WINDOW_FOCUS);
    stop();
  });

  it(`refetchOnReconnect: ${D.REFETCH_ON_RECONNECT}, but false with networkMode 'always'`, async () => {
    client.mount();
    const online = countingObserver();
    const always = countingObserver({ queryKey: ['always'], networkMode: 'always' });
    await advance(0);
    lib.onlineManager.setOnline(false);
    lib.onlineManager.setOnline(true);
    await advance(0);
    expect(online.count.calls > 1).toBe(D.REFETCH_ON_RECONNECT);
    expect(always.count.calls).toBe(1);
    online.stop();
    always.stop();
  });

  it(`retryOnMount: ${D.RETRY_ON_MOUNT}`, async () => {
    const first = countingObserver({ queryFn: () => Promise.reject(new Error('nope')), retry: false });
    await advance(0);
    expect(first.observer.getCurrentResult().status).toBe('error');
    first.stop();
    const again = countingObserver({ retry: false });
    await advance(0);
    expect(again.count.calls > 0).toBe(D.RETRY_ON_MOUNT);
    again.stop();
  });

  it(`refetchInterval: ${D.REFETCH_INTERVAL} (no polling)`, async () => {
    const { count, stop } = countingObserver({ staleTime: Infinity });
    await advance(60 * 60_000);
    expect(D.REFETCH_INTERVAL).toBe(false);
    expect(count.calls).toBe(1);
    stop();
  });

  it(`refetchIntervalInBackground: ${D.REFETCH_INTERVAL_IN_BACKGROUND}`, async () => {
    const { count, stop } = countingObserver({ refetchInterval: 100 });
    await advance(250);
    const whileVisible = count.calls;
    expect(whileVisible).toBeGreaterThan(1);
    lib.focusManager.setFocused(false);
    await advance(1000);
    expect(count.calls > whileVisible).toBe(D.REFETCH_INTERVAL_IN_BACKGROUND);
    stop();
  });

  it(`structuralSharing: ${D.STRUCTURAL_SHARING}`, async () => {
    const { observer, stop } = countingObserver({ queryFn: () => Promise.resolve({ list: [{ id: 1 }] }) });
    await advance(0);
    const before = observer.getCurrentResult().data as unknown as { list: unknown[] };
    await observer.refetch();
    const after = observer.getCurrentResult().data as unknown as { list: unknown[] };
    expect(after.list === before.list).toBe(D.STRUCTURAL_SHARING);
    stop();
  });

  it(`fetchQuery retry: ${D.FETCH_QUERY_RETRY}`, async () => {
    let attempts = 0;
    const fetched = client.fetchQuery({
      queryKey: ['once'],
      queryFn: () => {
        attempts++;
        return Promise.reject(new Error('nope'));
      },
    });
    fetched.catch(() => undefined);
    await advance(10 * 60_000);
    await expect(fetched).rejects.toThrow('nope');
    expect(attempts).toBe(D.FETCH_QUERY_RETRY === false ? 1 : Number(D.FETCH_QUERY_RETRY) + 1);
  });

  it(`invalidateQueries refetchType: '${D.REFETCH_TYPE}'; filter type: '${D.FILTER_TYPE}'`, async () => {
    const active = countingObserver({ queryKey: ['list', 'active'] });
    client.setQueryData(['list', 'inactive'], 0);
    await advance(0);
    const inactiveQuery = client.getQueryCache().find({ queryKey: ['list', 'inactive'] })!;
    let inactiveCalls = 0;
    inactiveQuery.setOptions({ queryKey: ['list', 'inactive'], queryFn: () => Promise.resolve(++inactiveCalls) });
    // the filter type decides which queries are invalidated: by default all of them
    expect(client.getQueryCache().findAll({ queryKey: ['list'] })).toHaveLength(D.FILTER_TYPE === 'all' ? 2 : 1);
    await client.invalidateQueries({ queryKey: ['list'] });
    const refetched = [active.count.calls > 1 && 'active', inactiveCalls > 0 && 'inactive'].filter(Boolean);
    expect(refetched).toEqual(D.REFETCH_TYPE === 'all' ? ['active', 'inactive'] : [D.REFETCH_TYPE]);
    expect(inactiveQuery.state.isInvalidated).toBe(true);
    active.stop();
  });

  it(`cancelRefetch: ${D.CANCEL_REFETCH} (refetch() while a refetch runs starts over)`, async () => {
    // only a query that has data cancels a running fetch; without data the calls share one fetch
    client.setQueryData(['counted'], 'old');
    const signals: AbortSignal[] = [];
    const { observer, stop } = countingObserver({
      queryFn: ({ signal }: { signal: AbortSignal }) => {
        signals.push(signal);
        return new Promise((resolve) => setTimeout(() => resolve('slow'), 100));
      },
    });
    await advance(10);
    observer.refetch().catch(() => undefined);
    await advance(0);
    expect(signals.length > 1 && signals[0]!.aborted).toBe(D.CANCEL_REFETCH);
    await advance(200);
    stop();
  });
});
