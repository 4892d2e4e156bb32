import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  environmentManager,
  focusManager,
  Instrumentation,
  MutationObserver,
  onlineManager,
  QueryClient,
  QueryObserver,
  timeoutManager,
  type InstrumentationEvent,
} from './index';

const T0 = Date.UTC(2026, 0, 1);

function record(client: QueryClient) {
  const events: Array<InstrumentationEvent> = [];
  const stop = Instrumentation.of(client).subscribe((event) => events.push(event));
  return { events, stop, types: () => events.map((event) => event.type) };
}

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const failLater = (ms: number, message: string) => new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms));

describe('instrumentation', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    environmentManager.setIsServer(() => false);
    onlineManager.setOnline(true);
    focusManager.setFocused(undefined);
  });
  afterEach(() => {
    onlineManager.setOnline(true);
    focusManager.setFocused(undefined);
    vi.useRealTimers();
  });

  it('reports a fetch from start to success with observer and gc lifecycle', async () => {
    const client = new QueryClient();
    const { events, types } = record(client);
    const observer = new QueryObserver(client, { queryKey: ['a'], queryFn: () => later(100, 'x'), gcTime: 1000 });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(100);
    unsubscribe();
    await vi.advanceTimersByTimeAsync(1000);
    // the milestones, in order (timer bookkeeping events interleave between them)
    const milestones = types().filter((type) => ['observerAdded', 'fetchStart', 'success', 'fetchEnd', 'observerRemoved', 'gcFired'].includes(type));
    expect(milestones).toEqual(['observerAdded', 'fetchStart', 'success', 'fetchEnd', 'observerRemoved', 'gcFired']);
    expect(types().slice(0, 2)).toEqual(['timerScheduled', 'gcScheduled']); // a new query arms its gc timer
    // The precise sequence: check the important facts rather than every timer bookkeeping step.
    const fetchStart = events.find((e) => e.type === 'fetchStart')!;
    const success = events.find((e) => e.type === 'success')!;
    expect(fetchStart.at).toBe(T0);
    expect(success.at).toBe(T0 + 100);
    expect(events.find((e) => e.type === 'fetchEnd')).toMatchObject({ outcome: 'success' });
    expect(events.filter((e) => e.type === 'observerAdded')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'gcFired', removed: true, at: T0 + 1100 });
    expect(client.getQueryCache().getAll()).toHaveLength(0);
    expect(Object.isFrozen(fetchStart)).toBe(true);
    expect(fetchStart.subject).toEqual({ kind: 'query', queryHash: '["a"]', queryKey: ['a'] });
  });

  it('reports each retry with its delay, due time and why', async () => {
    const client = new QueryClient();
    const { events } = record(client);
    let calls = 0;
    void client
      .fetchQuery({
        queryKey: ['r'],
        retry: 2,
        queryFn: () => (++calls < 3 ? failLater(10, `fail ${calls}`) : later(10, 'ok')),
      })
      .catch(() => undefined);
    await vi.advanceTimersByTimeAsync(5000);
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries).toMatchObject([
      { attempt: 1, delay: 1000, dueAt: T0 + 10 + 1000, delaySource: 'default-backoff' },
      { attempt: 2, delay: 2000, dueAt: T0 + 1020 + 2000, delaySource: 'default-backoff' },
    ]);
    expect(events.filter((e) => e.type === 'timerScheduled' && e.timer.timer === 'retry')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'timerFired' && e.timer.timer === 'retry')).toHaveLength(2);
  });

  it('reports giving up, with a function retryDelay', async () => {
    const client = new QueryClient();
    const { events } = record(client);
    void client.fetchQuery({ queryKey: ['g'], retry: 1, retryDelay: () => 5, queryFn: () => failLater(1, 'no') }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(100);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ delay: 5, delaySource: 'retryDelay-function' });
    expect(events.find((e) => e.type === 'retryGiveUp')).toMatchObject({ failureCount: 2, reason: 'retry-exhausted' });
    expect(events.find((e) => e.type === 'error')).toBeDefined();
    expect(events.find((e) => e.type === 'fetchEnd')).toMatchObject({ outcome: 'error' });
  });

  it.each([
    [0, 1],
    [1, 2],
    [3, 4],
  ])('with retry: %i, gives up after %i failed attempts, the fetchFailureCount TanStack ends with', async (retry, failed) => {
    const client = new QueryClient();
    const { events } = record(client);
    let calls = 0;
    void client.fetchQuery({ queryKey: ['n', retry], retry, retryDelay: 1, queryFn: () => (calls++, failLater(1, 'no')) }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(failed);
    expect(client.getQueryState(['n', retry])?.fetchFailureCount).toBe(failed);
    expect(events.find((e) => e.type === 'retryGiveUp')).toMatchObject({ failureCount: failed, reason: 'retry-exhausted' });
  });

  it('reports no cancel when the last observer leaves a fetch that has already succeeded', async () => {
    const client = new QueryClient();
    const { events, types } = record(client);
    // the queryFn reads the signal, so a running fetch would be cancelled with its state reverted
    const observer = new QueryObserver(client, { queryKey: ['done'], queryFn: ({ signal }) => (signal.aborted, later(10, 'x')) });
    const stop = observer.subscribe((result) => {
      if (result.status === 'success') stop();
    });
    await vi.advanceTimersByTimeAsync(20);
    expect(client.getQueryData(['done'])).toBe('x');
    expect(types()).not.toContain('cancel');
    // while it runs, leaving does cancel it, and that is reported
    const running = new QueryObserver(client, { queryKey: ['running'], queryFn: ({ signal }) => (signal.aborted, later(10, 'y')) });
    running.subscribe(() => undefined)();
    expect(events.filter((e) => e.type === 'cancel')).toMatchObject([{ revert: true, subject: { queryKey: ['running'] } }]);
  });

  it('reports pause and continue with the reason (offline, unfocused)', async () => {
    const client = new QueryClient();
    client.mount();
    const { events } = record(client);
    onlineManager.setOnline(false);
    const observer = new QueryObserver(client, { queryKey: ['p'], queryFn: () => later(10, 1) });
    observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(10);
    expect(events.find((e) => e.type === 'fetchStart')).toMatchObject({ fetchStatus: 'paused' });
    expect(events.find((e) => e.type === 'pause')).toMatchObject({ reason: 'offline' });
    onlineManager.setOnline(true);
    await vi.advanceTimersByTimeAsync(20);
    expect(events.some((e) => e.type === 'continue')).toBe(true);

    let calls = 0;
    const second = new QueryObserver(client, {
      queryKey: ['u'],
      retryDelay: 5,
      queryFn: () => (++calls < 2 ? failLater(1, 'x') : later(1, 'y')),
    });
    second.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(2);
    focusManager.setFocused(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(events.filter((e) => e.type === 'pause').at(-1)).toMatchObject({ reason: 'unfocused' });
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(second.getCurrentResult().data).toBe('y');
    client.unmount();
  });

  it('reports cancel and invalidation', async () => {
    const client = new QueryClient();
    const { events } = record(client);
    void client.prefetchQuery({ queryKey: ['c'], queryFn: () => later(100, 1) });
    await vi.advanceTimersByTimeAsync(10);
    await client.cancelQueries({ queryKey: ['c'] });
    expect(events.find((e) => e.type === 'cancel')).toMatchObject({ revert: true, silent: false });
    expect(events.find((e) => e.type === 'fetchEnd')).toMatchObject({ outcome: 'cancelled' });
    client.setQueryData(['c'], 2);
    await client.invalidateQueries({ queryKey: ['c'] });
    expect(events.filter((e) => e.type === 'invalidate')).toHaveLength(1);
    expect(events.find((e) => e.type === 'success')).toMatchObject({ manual: true });
  });

  it('lists pending timers with due times: stale expiry, refetch interval, gc', async () => {
    const client = new QueryClient();
    record(client);
    const observer = new QueryObserver(client, {
      queryKey: ['t'],
      queryFn: () => later(10, 1),
      staleTime: 500,
      refetchInterval: 1000,
    });
    observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(10);
    const pending = Instrumentation.of(client).getPendingTimers();
    const byKind = Object.fromEntries(pending.map((timer) => [timer.timer, timer]));
    expect(byKind.staleTime).toMatchObject({ delay: 501, dueAt: T0 + 10 + 501 });
    expect(byKind.refetchInterval).toMatchObject({ delay: 1000 });
    // like TanStack, a settled fetch re-arms gc even while observed; removal then checks for observers
    expect(byKind.gc).toMatchObject({ delay: 5 * 60 * 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    const interval = Instrumentation.of(client)
      .getPendingTimers()
      .find((t) => t.timer === 'refetchInterval');
    expect(interval?.dueAt).toBeGreaterThan(T0 + 1000);
  });

  it('reports mutation retries and pauses with a mutation subject', async () => {
    const client = new QueryClient();
    const { events } = record(client);
    onlineManager.setOnline(false);
    const observer = new MutationObserver(client, { mutationKey: ['save'], mutationFn: () => later(5, 'ok') });
    void observer.mutate(undefined);
    await vi.advanceTimersByTimeAsync(5);
    expect(events.find((e) => e.type === 'pause')).toMatchObject({
      reason: 'offline',
      subject: { kind: 'mutation', mutationId: 1, mutationKey: ['save'] },
    });
    onlineManager.setOnline(true);
    void client.resumePausedMutations();
    await vi.advanceTimersByTimeAsync(10);
    expect(events.find((e) => e.type === 'success')?.subject.kind).toBe('mutation');
  });

  it('reports a mutation waiting for its scope, then its retries and giving up', async () => {
    const client = new QueryClient();
    const { events } = record(client);
    const first = new MutationObserver(client, { scope: { id: 'row' }, mutationFn: () => later(10, 'one') });
    let attempts = 0;
    const second = new MutationObserver(client, {
      scope: { id: 'row' },
      retry: 1,
      retryDelay: 3,
      mutationFn: () => (attempts++, failLater(1, 'nope')),
    });
    void first.mutate(undefined);
    void second.mutate(undefined).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(events.find((e) => e.type === 'pause')).toMatchObject({ reason: 'scope', subject: { mutationId: 2 } });
    await vi.advanceTimersByTimeAsync(20);
    expect(attempts).toBe(2);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({
      attempt: 1,
      delay: 3,
      delaySource: 'retryDelay-number',
      subject: { mutationId: 2 },
    });
    expect(events.filter((e) => e.type === 'timerFired' && e.timer.timer === 'retry')).toHaveLength(1);
    expect(events.find((e) => e.type === 'retryGiveUp')).toMatchObject({ failureCount: 2, reason: 'retry-exhausted' });
  });

  it('is one instrumentation per client, hearing only that client', async () => {
    const client = new QueryClient();
    const other = new QueryClient();
    expect(Instrumentation.of(client)).toBe(Instrumentation.of(client));
    expect(Instrumentation.of(other)).not.toBe(Instrumentation.of(client));
    const { events } = record(client);
    await other.prefetchQuery({ queryKey: ['elsewhere'], queryFn: () => Promise.resolve(1) });
    expect(events).toHaveLength(0);
    await client.prefetchQuery({ queryKey: ['here'], queryFn: () => Promise.resolve(1) });
    const subjects = new Set(events.map((e) => e.subject));
    // one frozen subject per query, shared by all of its events
    expect([...subjects]).toEqual([{ kind: 'query', queryHash: '["here"]', queryKey: ['here'] }]);
    expect(Object.isFrozen(events[0]!.subject)).toBe(true);
  });

  it('costs nothing while nobody listens, and stops when the last listener leaves', async () => {
    const client = new QueryClient();
    const instrumentation = Instrumentation.of(client);
    expect(instrumentation.enabled).toBe(false);
    const { events, stop } = record(client);
    expect(instrumentation.enabled).toBe(true);
    stop();
    expect(instrumentation.enabled).toBe(false);
    await client.prefetchQuery({ queryKey: ['quiet'], queryFn: () => Promise.resolve(1) });
    expect(events).toHaveLength(0);
    expect(instrumentation.getPendingTimers()).toHaveLength(0);
  });
});

describe('virtual clock', () => {
  // switching providers after other tests used timers is warned about, correctly; keep the output quiet
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    timeoutManager.setTimeoutProvider({
      setTimeout: (cb, ms) => globalThis.setTimeout(cb, ms),
      clearTimeout: (id) => globalThis.clearTimeout(id as never),
      setInterval: (cb, ms) => globalThis.setInterval(cb, ms),
      clearInterval: (id) => globalThis.clearInterval(id as never),
    });
    vi.restoreAllMocks();
  });

  it('runs the library on a simulation clock: timers and timestamps both follow it', async () => {
    // a tiny discrete-event clock, as a playground simulation would provide
    let time = 1_000_000;
    let nextId = 1;
    const timers = new Map<number, { at: number; cb: () => void; every?: number }>();
    const clock = {
      now: () => time,
      setTimeout: (cb: () => void, ms: number) => (timers.set(nextId, { at: time + ms, cb }), nextId++),
      clearTimeout: (id: number | undefined) => void timers.delete(id!),
      setInterval: (cb: () => void, ms: number) => (timers.set(nextId, { at: time + ms, cb, every: ms }), nextId++),
      clearInterval: (id: number | undefined) => void timers.delete(id!),
    };
    const advance = async (ms: number) => {
      const end = time + ms;
      for (;;) {
        await Promise.resolve();
        await new Promise((resolve) => globalThis.setImmediate(resolve));
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [id, timer] = due;
        time = timer.at;
        if (timer.every) timer.at += timer.every;
        else timers.delete(id);
        timer.cb();
      }
      time = end;
    };
    timeoutManager.setTimeoutProvider(clock);
    environmentManager.setIsServer(() => false);
    const client = new QueryClient();
    const wait = (ms: number) => new Promise<string>((resolve) => clock.setTimeout(() => resolve('data'), ms));
    const observer = new QueryObserver(client, { queryKey: ['v'], queryFn: () => wait(60_000), staleTime: 30_000 });
    const results: Array<{ status: string; isStale: boolean; at: number }> = [];
    observer.subscribe((r) => results.push({ status: r.status, isStale: r.isStale, at: time }));
    await advance(60_000);
    expect(observer.getCurrentResult()).toMatchObject({ status: 'success', dataUpdatedAt: 1_060_000, isStale: false });
    await advance(30_001);
    expect(observer.getCurrentResult().isStale).toBe(true);
    expect(results.at(-1)).toEqual({ status: 'success', isStale: true, at: 1_090_001 });
    observer.destroy();
    client.clear();
  });
});
