// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as queryLib from 'roundtrip/query';
import type { DevtoolsAction, QueryVizEvent } from '../recording/model';
import { foldClient } from '../viz/query/fold';
import { describeQueryEvent, queryStatusLabel } from '../viz/query/describe';
import { DEVTOOLS_ERROR_MESSAGE, instrumentQueryModule } from './capture-query';
import type { Capture, CaptureSource } from './capture';

const { QueryObserver, MutationObserver, onlineManager, focusManager, environmentManager } = queryLib;
const T0 = Date.UTC(2026, 0, 1);

interface FakeSource {
  id: string;
  label: string;
  events: QueryVizEvent[];
  act: (action: DevtoolsAction) => void;
}

function fakeCapture() {
  const sources: FakeSource[] = [];
  const capture: Capture = {
    addSource(kind, label): CaptureSource {
      expect(kind).toBe('query');
      const source: FakeSource = { id: `client-${sources.length + 1}`, label, events: [], act: () => {} };
      sources.push(source);
      return {
        id: source.id,
        push: (event) => void source.events.push(event as QueryVizEvent),
        onAction: (handler) => void (source.act = handler),
      };
    },
  };
  return { capture, sources };
}

const flushAll = () => vi.advanceTimersByTimeAsync(0);

/** The devtools-visible facts of every query in the real cache, to compare with what the capture folded. */
function realState(client: queryLib.QueryClient) {
  return client
    .getQueryCache()
    .getAll()
    .map((q) => ({
      queryHash: q.queryHash,
      status: q.state.status,
      fetchStatus: q.state.fetchStatus,
      dataUpdatedAt: q.state.dataUpdatedAt,
      fetchFailureCount: q.state.fetchFailureCount,
      isInvalidated: q.state.isInvalidated,
      isStale: q.isStale(),
      observerCount: q.getObserversCount(),
    }));
}

function foldedState(events: QueryVizEvent[]) {
  return [...foldClient(events).queries.values()].map(({ summary: s }) => ({
    queryHash: s.queryHash,
    status: s.status,
    fetchStatus: s.fetchStatus,
    dataUpdatedAt: s.dataUpdatedAt,
    fetchFailureCount: s.fetchFailureCount,
    isInvalidated: s.isInvalidated,
    isStale: s.isStale,
    observerCount: s.observerCount,
  }));
}

describe('instrumentQueryModule', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    environmentManager.setIsServer(() => false);
    onlineManager.setOnline(true);
    focusManager.setFocused(true);
  });
  afterEach(() => {
    onlineManager.setOnline(true);
    focusManager.setFocused(undefined);
    vi.useRealTimers();
  });

  it('makes each client a source, labelled in creation order, without changing what the snippet sees', () => {
    const { capture, sources } = fakeCapture();
    const lib = instrumentQueryModule(queryLib, capture);
    const a = new lib.QueryClient();
    const b = new lib.QueryClient({ defaultOptions: { queries: { staleTime: 5 } } });
    expect(sources.map((s) => s.label)).toEqual(['QueryClient 1', 'QueryClient 2']);
    expect(a).toBeInstanceOf(queryLib.QueryClient);
    expect(lib.QueryClient.name).toBe('QueryClient');
    expect(b.getDefaultOptions().queries?.staleTime).toBe(5);
    expect(lib.QueryObserver).toBe(queryLib.QueryObserver);
    // the first event of each source says where the environment starts
    expect(sources[0]!.events[0]).toMatchObject({ kind: 'environment', online: true, focused: true });
  });

  it('folds to the real cache state through a fetch with retries, staleness, invalidation and gc', async () => {
    const { capture, sources } = fakeCapture();
    const lib = instrumentQueryModule(queryLib, capture);
    const client = new lib.QueryClient();
    const events = sources[0]!.events;
    let calls = 0;
    const observer = new QueryObserver(client, {
      queryKey: ['todos'],
      retry: 3,
      retryDelay: 200,
      staleTime: 1000,
      gcTime: 3000,
      queryFn: async () => {
        calls += 1;
        if (calls < 3) throw new Error(`HTTP 500 (attempt ${calls})`);
        return [{ id: 1, title: 'write tests' }];
      },
    });
    const stop = observer.subscribe(() => undefined);
    await flushAll();
    expect(foldedState(events)).toEqual(realState(client));
    expect(queryStatusLabel(foldClient(events).queries.get('["todos"]')!.summary)).toBe('fetching');

    await vi.advanceTimersByTimeAsync(200);
    expect(foldedState(events)).toEqual(realState(client));
    expect(foldClient(events).queries.get('["todos"]')!.summary.fetchFailureCount).toBe(2);

    await vi.advanceTimersByTimeAsync(200);
    expect(client.getQueryState(['todos'])?.status).toBe('success');
    expect(foldedState(events)).toEqual(realState(client));
    const fresh = foldClient(events).queries.get('["todos"]')!.summary;
    expect(queryStatusLabel(fresh)).toBe('fresh');
    expect(JSON.parse(fresh.data!.text)).toEqual([{ id: 1, title: 'write tests' }]);
    expect(fresh).toMatchObject({ staleTime: 1000, gcTime: 3000, retry: 3, observerCount: 1 });

    // the retries, as the instrumentation reported them, with the limit added for the log
    const retries = events.filter((e) => e.kind === 'instrumentation' && e.event.type === 'retry').map(describeQueryEvent);
    expect(retries).toEqual(["['todos']: retry 1 of 3 in 200 ms", "['todos']: retry 2 of 3 in 200 ms"]);

    await vi.advanceTimersByTimeAsync(1001);
    expect(foldedState(events)).toEqual(realState(client));
    expect(queryStatusLabel(foldClient(events).queries.get('["todos"]')!.summary)).toBe('stale');
    expect(events.map(describeQueryEvent)).toContain("['todos']: became stale");

    await client.invalidateQueries({ queryKey: ['todos'], refetchType: 'none' });
    expect(foldedState(events)).toEqual(realState(client));
    expect(foldClient(events).queries.get('["todos"]')!.summary.isInvalidated).toBe(true);

    stop();
    await flushAll();
    expect(queryStatusLabel(foldClient(events).queries.get('["todos"]')!.summary)).toBe('inactive');
    expect([...foldClient(events).timers.values()].map((t) => t.timer)).toEqual(['gc']);
    await vi.advanceTimersByTimeAsync(3000);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
    const folded = foldClient(events);
    expect(folded.queries.size).toBe(0);
    expect(folded.removed.has('["todos"]')).toBe(true);
    expect(folded.timers.size).toBe(0);
    expect(events.map(describeQueryEvent)).toContain("['todos']: removed by gc after 3,000 ms");
  });

  it('reports an unset retry as the default it stands for', async () => {
    const { capture, sources } = fakeCapture();
    const lib = instrumentQueryModule(queryLib, capture);
    const client = new lib.QueryClient();
    const stop = new QueryObserver(client, { queryKey: ['d'], queryFn: async () => 1 }).subscribe(() => undefined);
    await flushAll();
    expect(foldClient(sources[0]!.events).queries.get('["d"]')!.summary.retry).toBe(3);
    stop();
  });

  it('records mutations with variables, data and paused state', async () => {
    const { capture, sources } = fakeCapture();
    const lib = instrumentQueryModule(queryLib, capture);
    const client = new lib.QueryClient();
    client.mount();
    onlineManager.setOnline(false);
    const mutation = new MutationObserver(client, { mutationKey: ['save'], mutationFn: async (name: string) => ({ saved: name }) });
    const done = mutation.mutate('Ada');
    await flushAll();
    let folded = foldClient(sources[0]!.events);
    expect(folded.online).toBe(false);
    expect([...folded.mutations.values()][0]!.summary).toMatchObject({ status: 'pending', isPaused: true, mutationKey: ['save'] });
    onlineManager.setOnline(true);
    await done;
    await flushAll();
    folded = foldClient(sources[0]!.events);
    const summary = [...folded.mutations.values()][0]!.summary;
    expect(summary).toMatchObject({ status: 'success', isPaused: false });
    expect(JSON.parse(summary.variables!.text)).toBe('Ada');
    expect(JSON.parse(summary.data!.text)).toEqual({ saved: 'Ada' });
    client.unmount();
  });

  it('sends only plain data, whatever the snippet puts in the cache', async () => {
    const { capture, sources } = fakeCapture();
    const lib = instrumentQueryModule(queryLib, capture);
    const client = new lib.QueryClient();
    const cyclic: Record<string, unknown> = { when: new Date(T0), fn: function load() {}, tags: new Map([['a', 1]]) };
    cyclic.self = cyclic;
    await client.fetchQuery({ queryKey: ['odd'], queryFn: async () => cyclic });
    await client.fetchQuery({ queryKey: ['bad'], retry: false, queryFn: async () => Promise.reject(new TypeError('nope')) }).catch(() => undefined);
    const events = sources[0]!.events;
    expect(() => structuredClone(events)).not.toThrow();
    const odd = foldClient(events).queries.get('["odd"]')!.summary;
    expect(JSON.parse(odd.data!.text)).toEqual({
      when: '2026-01-01T00:00:00.000Z',
      fn: '[Function load]',
      tags: { '[Map(1)]': [['a', 1]] },
      self: '[Circular]',
    });
    expect(foldClient(events).queries.get('["bad"]')!.summary).toMatchObject({ error: { text: 'TypeError: nope' }, retry: false });
    expect(odd.retry).toBe(false); // fetchQuery turns retries off unless asked, as in TanStack
  });

  describe('devtools actions change the live client', () => {
    async function setup() {
      const { capture, sources } = fakeCapture();
      const lib = instrumentQueryModule(queryLib, capture);
      const client = new lib.QueryClient();
      let n = 0;
      const observer = new QueryObserver(client, { queryKey: ['todos'], retry: false, staleTime: 60_000, queryFn: async () => ({ n: ++n }) });
      const stop = observer.subscribe(() => undefined);
      await flushAll();
      const source = sources[0]!;
      const hash = '["todos"]';
      const query = () => client.getQueryCache().get(hash)!;
      return { client, source, hash, query, stop, calls: () => n };
    }

    it('refetch and invalidate', async () => {
      const { source, hash, query, calls, client } = await setup();
      source.act({ type: 'refetch', queryHash: hash });
      await flushAll();
      expect(calls()).toBe(2);
      // staleTime keeps the other query fresh: invalidation must reach only the chosen one
      await client.prefetchQuery({ queryKey: ['todos', 2], queryFn: async () => 2 });
      source.act({ type: 'invalidate', queryHash: hash });
      expect(query().state.isInvalidated).toBe(true);
      expect(client.getQueryState(['todos', 2])?.isInvalidated).toBe(false);
      await flushAll();
      expect(calls()).toBe(3); // active, so invalidation refetched it
      expect(foldedState(source.events)).toEqual(realState(client));
    });

    it('trigger error, then restore', async () => {
      const { source, hash, query, client, calls } = await setup();
      source.act({ type: 'trigger-error', queryHash: hash });
      expect(query().state.status).toBe('error');
      expect((query().state.error as Error).message).toBe(DEVTOOLS_ERROR_MESSAGE);
      expect(foldClient(source.events).queries.get(hash)!.summary.error!.text).toBe(`Error: ${DEVTOOLS_ERROR_MESSAGE}`);
      source.act({ type: 'restore', queryHash: hash });
      await flushAll();
      expect(query().state.status).toBe('success');
      expect(query().state.data).toEqual({ n: calls() });
      expect(foldedState(source.events)).toEqual(realState(client));
    });

    it('trigger loading, then restore', async () => {
      const { source, hash, query, client, calls } = await setup();
      source.act({ type: 'trigger-loading', queryHash: hash });
      await flushAll();
      expect(query().state).toMatchObject({ status: 'pending', fetchStatus: 'fetching', data: undefined });
      expect(calls()).toBe(1); // the never-settling queryFn ran instead of the snippet's
      await vi.advanceTimersByTimeAsync(10_000);
      expect(query().state.status).toBe('pending');
      source.act({ type: 'restore', queryHash: hash });
      await flushAll();
      expect(query().state).toMatchObject({ status: 'success', fetchStatus: 'idle', data: { n: 2 } });
      expect(foldedState(source.events)).toEqual(realState(client));
    });

    it('reset and remove', async () => {
      const { source, hash, query, client } = await setup();
      source.act({ type: 'remove', queryHash: hash });
      expect(client.getQueryCache().get(hash)).toBeUndefined();
      expect(foldClient(source.events).queries.has(hash)).toBe(false);
      expect(() => source.act({ type: 'refetch', queryHash: hash })).toThrow(/no query with hash \["todos"\]/);
      await client.prefetchQuery({ queryKey: ['todos'], queryFn: async () => 'x' });
      client.setQueryData(['todos'], 'changed');
      source.act({ type: 'reset', queryHash: hash });
      expect(query().state).toMatchObject({ status: 'pending', data: undefined, dataUpdateCount: 0 });
    });

    it('offline and focus toggles', async () => {
      const { source } = await setup();
      source.act({ type: 'set-online', online: false });
      expect(onlineManager.isOnline()).toBe(false);
      source.act({ type: 'set-focused', focused: false });
      expect(focusManager.isFocused()).toBe(false);
      const folded = foldClient(source.events);
      expect({ online: folded.online, focused: folded.focused }).toEqual({ online: false, focused: false });
      expect(describeQueryEvent(source.events.at(-1)!)).toBe('network offline, window not focused');
    });
  });
});
