/**
 * Makes every QueryClient a snippet creates a 'query' source of the visualizers ('QueryClient 1', ...), and lets
 * the host's devtools act on it. Runs in the sandbox realm.
 *
 * The `roundtrip/query` module handed to snippets is the real one with `QueryClient` replaced by a subclass that
 * changes nothing the snippet can observe, with one exception: its constructor subscribes to the client's
 * instrumentation stream, its query and mutation caches and the online / focus managers (which makes those
 * managers listen to the window, as they do anyway once a client is mounted), and forwards what happens as
 * QueryVizEvents. Each run gets a fresh sandbox, so the subscriptions end with it.
 * Query and mutation states travel as summaries with previews (recording/preview.ts): live data never leaves the
 * sandbox, and nothing that fails structured clone is pushed.
 *
 * Devtools actions do what TanStack Query Devtools' buttons do, on the live client: Refetch runs `query.fetch()`;
 * Invalidate, Reset and Remove go through the client's own methods, narrowed to exactly this query (the
 * devtools pass the query as a key filter, which also hits longer keys sharing its prefix); Trigger loading
 * swaps in a queryFn that never settles and clears the data, Trigger error sets an error state; Restore puts the
 * old options back and refetches (after loading) or resets the query (after an error).
 */
import type * as QueryLib from 'roundtrip/query';
import type { InstrumentationEvent, InstrumentationSubject, Mutation, Query, QueryClient } from 'roundtrip/query';
import type { DevtoolsAction, MutationSummary, QuerySummary, QueryVizEvent, SerializedInstrumentationEvent, ValuePreview } from '../recording/model';
import { jsonSafeKey, previewValue } from '../recording/preview';
import type { Capture, CaptureSource } from './capture';

type QueryModule = typeof QueryLib;
type AnyQuery = Query<any, any, any, any>;
type AnyMutation = Mutation<any, any, any, any>;

/** The error Trigger error puts in a query; a snippet's error handling sees this message. */
export const DEVTOOLS_ERROR_MESSAGE = 'Error triggered from the devtools';

/** Previews of the same object are made once: data is re-summarised on every notification of its query. */
class PreviewCache {
  #objects = new WeakMap<object, ValuePreview>();
  of(value: unknown): ValuePreview | null {
    if (value === undefined || value === null) return value === null ? previewValue(null) : null;
    if (typeof value !== 'object' && typeof value !== 'function') return previewValue(value);
    let preview = this.#objects.get(value);
    if (!preview) this.#objects.set(value, (preview = previewValue(value)));
    return preview;
  }
}

const freezeSubject = (subject: InstrumentationSubject): InstrumentationSubject =>
  subject.kind === 'query'
    ? { kind: 'query', queryHash: subject.queryHash, queryKey: jsonSafeKey(subject.queryKey) }
    : { kind: 'mutation', mutationId: subject.mutationId, mutationKey: subject.mutationKey ? jsonSafeKey(subject.mutationKey) : undefined };

function resolveStaleTime(query: AnyQuery): number | 'static' | null {
  // Observers carry staleTime (the query itself does not use it); the first observer's value is what the
  // devtools' own staleness check (query.isStale) mostly reflects.
  const source: unknown = query.observers[0]?.options.staleTime ?? (query.options as { staleTime?: unknown }).staleTime;
  const value = typeof source === 'function' ? source(query) : source;
  return value === 'static' || typeof value === 'number' ? value : query.observers.length ? 0 : null;
}

/** `defaultRetry`: what an unset `retry` means here (retryer.ts: 3 in a browser, 0 on a server). */
export function summarizeQuery(query: AnyQuery, previews: PreviewCache = new PreviewCache(), defaultRetry = 3): QuerySummary {
  const state = query.state;
  const retry = query.options.retry ?? defaultRetry;
  return {
    queryHash: query.queryHash,
    queryKey: jsonSafeKey(query.queryKey),
    status: state.status,
    fetchStatus: state.fetchStatus,
    dataUpdatedAt: state.dataUpdatedAt,
    errorUpdatedAt: state.errorUpdatedAt,
    dataUpdateCount: state.dataUpdateCount,
    fetchFailureCount: state.fetchFailureCount,
    isInvalidated: state.isInvalidated,
    isStale: query.isStale(),
    isInactive: query.getObserversCount() === 0,
    isDisabled: query.isDisabled(),
    observerCount: query.getObserversCount(),
    staleTime: resolveStaleTime(query),
    gcTime: Number.isFinite(query.gcTime) ? query.gcTime : null,
    retry: typeof retry === 'number' || typeof retry === 'boolean' ? retry : null,
    data: previews.of(state.data),
    error: state.error == null ? null : previews.of(state.error),
  };
}

export function summarizeMutation(mutation: AnyMutation, previews: PreviewCache = new PreviewCache()): MutationSummary {
  const state = mutation.state;
  const key = mutation.options.mutationKey;
  return {
    mutationId: mutation.mutationId,
    mutationKey: key ? jsonSafeKey(key) : null,
    status: state.status,
    isPaused: state.isPaused,
    failureCount: state.failureCount,
    submittedAt: state.submittedAt,
    variables: previews.of(state.variables),
    data: previews.of(state.data),
    error: state.error == null ? null : previews.of(state.error),
  };
}

/** Serialisable fields of two summaries equal (previews by text)? Skips notifications that changed nothing. */
function sameSummary(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key of Object.keys(x)) {
    const u = x[key];
    const v = y[key];
    if (u === v) continue;
    if (u && v && typeof u === 'object' && typeof v === 'object' && 'text' in u && 'text' in v) {
      if ((u as ValuePreview).text === (v as ValuePreview).text) continue;
    }
    if (Array.isArray(u) && Array.isArray(v) && JSON.stringify(u) === JSON.stringify(v)) continue;
    return false;
  }
  return true;
}

/** What Restore undoes, per query: TanStack keeps it in fetchMeta; a side table keeps the query's state clean. */
type Triggered = { readonly kind: 'loading' | 'error'; readonly options: AnyQuery['options'] };

function attachClient(client: QueryClient, lib: QueryModule, source: CaptureSource): void {
  const { onlineManager, focusManager, timeoutManager, environmentManager, Instrumentation } = lib;
  const previews = new PreviewCache();
  const push = (event: QueryVizEvent) => source.push(event);
  const lastQuery = new Map<string, QuerySummary>();
  const gcDelays = new Map<string, number>();
  const triggered = new WeakMap<AnyQuery, Triggered>();
  let environment = { online: onlineManager.isOnline(), focused: focusManager.isFocused() };

  const subjectKey = (s: InstrumentationSubject) => (s.kind === 'query' ? `q${s.queryHash}` : `m${s.mutationId}`);

  const retryLimit = (subject: InstrumentationSubject): number | undefined => {
    const retry =
      subject.kind === 'query'
        ? client.getQueryCache().get(subject.queryHash)?.options.retry
        : (client
            .getMutationCache()
            .getAll()
            .find((m) => m.mutationId === subject.mutationId)?.options.retry ?? 0);
    if (typeof retry === 'number') return retry;
    // retryer.ts: no `retry` means 3 in a browser and 0 on a server
    if (retry === undefined) return environmentManager.isServer() ? 0 : 3;
    return undefined; // true (no limit) or a function: nothing to count against
  };

  const serialize = (e: InstrumentationEvent): SerializedInstrumentationEvent => {
    const out: Record<string, unknown> = { ...e, subject: freezeSubject(e.subject) };
    if ('error' in e) out.error = previewValue(e.error);
    if ('fetchMeta' in e) out.fetchMeta = previewValue(e.fetchMeta);
    if ('timer' in e) out.timer = { ...e.timer, subject: freezeSubject(e.timer.subject) };
    if (e.type === 'retry') {
      const limit = retryLimit(e.subject);
      if (limit !== undefined) out.notes = { retryLimit: limit };
    } else if (e.type === 'gcScheduled') {
      gcDelays.set(subjectKey(e.subject), e.delay);
    } else if (e.type === 'gcFired') {
      const delay = gcDelays.get(subjectKey(e.subject));
      if (delay !== undefined) out.notes = { gcDelay: delay };
    }
    return out as SerializedInstrumentationEvent;
  };

  const pushEnvironment = () => {
    const next = { online: onlineManager.isOnline(), focused: focusManager.isFocused() };
    if (next.online === environment.online && next.focused === environment.focused) return;
    environment = next;
    push({ kind: 'environment', at: timeoutManager.now(), ...next });
  };

  push({ kind: 'environment', at: timeoutManager.now(), ...environment });
  Instrumentation.of(client).subscribe((event) => push({ kind: 'instrumentation', at: event.at, event: serialize(event) }));
  client.getQueryCache().subscribe((event) => {
    const summary = summarizeQuery(event.query, previews, environmentManager.isServer() ? 0 : 3);
    const previous = lastQuery.get(summary.queryHash);
    const quiet = event.type === 'observerResultsUpdated' || event.type === 'observerOptionsUpdated';
    if (quiet && previous && sameSummary(summary, previous)) return;
    if (event.type === 'removed') lastQuery.delete(summary.queryHash);
    else lastQuery.set(summary.queryHash, summary);
    push({ kind: 'query', at: timeoutManager.now(), action: event.type, query: summary });
  });
  client.getMutationCache().subscribe((event) => {
    if (!event.mutation) return; // observerOptionsUpdated before the observer's first mutate
    push({ kind: 'mutation', at: timeoutManager.now(), action: event.type, mutation: summarizeMutation(event.mutation, previews) });
  });
  onlineManager.subscribe(pushEnvironment);
  focusManager.subscribe(pushEnvironment);

  const only = (query: AnyQuery) => ({ predicate: (candidate: AnyQuery) => candidate === query });
  const swallow = (promise: Promise<unknown> | undefined) => void promise?.catch(() => undefined);

  source.onAction((action: DevtoolsAction) => {
    if (action.type === 'set-online') return onlineManager.setOnline(action.online);
    if (action.type === 'set-focused') return focusManager.setFocused(action.focused);
    const query = client.getQueryCache().get(action.queryHash) as AnyQuery | undefined;
    if (!query) throw new Error(`no query with hash ${action.queryHash} in the cache (it was removed)`);
    switch (action.type) {
      case 'refetch':
        return swallow(query.fetch());
      case 'invalidate':
        return swallow(client.invalidateQueries(only(query)));
      case 'reset':
        triggered.delete(query);
        return swallow(client.resetQueries(only(query)));
      case 'remove':
        return client.removeQueries(only(query));
      case 'trigger-loading': {
        const options = triggered.get(query)?.options ?? query.options;
        triggered.set(query, { kind: 'loading', options });
        // A fetch that never settles keeps fetchStatus 'fetching'; cancelRefetch replaces a running one.
        swallow(query.fetch({ ...options, queryFn: () => new Promise<never>(() => undefined) }, { cancelRefetch: true }));
        return query.setState({ data: undefined, status: 'pending' });
      }
      case 'trigger-error': {
        triggered.set(query, { kind: 'error', options: triggered.get(query)?.options ?? query.options });
        return query.setState({ status: 'error', error: new Error(DEVTOOLS_ERROR_MESSAGE), errorUpdatedAt: timeoutManager.now() });
      }
      case 'restore': {
        const was = triggered.get(query);
        triggered.delete(query);
        if (was?.kind === 'loading') {
          void query.cancel({ silent: true });
          query.setState({ fetchStatus: 'idle' });
          return swallow(query.fetch(was.options, { cancelRefetch: true }));
        }
        // After an error (triggered or real) the devtools reset the query: initial state, refetch if observed.
        if (was) query.setOptions(was.options);
        return swallow(client.resetQueries(only(query)));
      }
    }
  });
}

/** The `roundtrip/query` module for a run's snippet: the same exports, with QueryClient recording into `capture`. */
export function instrumentQueryModule(queryModule: QueryModule, capture: Capture): QueryModule {
  const Base = queryModule.QueryClient;
  let count = 0;
  class QueryClient extends Base {
    constructor(...args: ConstructorParameters<typeof Base>) {
      super(...args);
      count += 1;
      attachClient(this, queryModule, capture.addSource('query', `QueryClient ${count}`));
    }
  }
  return Object.freeze({ ...queryModule, QueryClient }) as QueryModule;
}
