/**
 * QueryCache: the map from queryHash to Query, and the event bus every query change goes through.
 * Cache-level callbacks (onSuccess/onError/onSettled) run once per query outcome, whoever fetched.
 */
import { notifyManager } from './notifyManager';
import { KeyIndex } from './keyIndex';
import { Query } from './query';
import { Subscribable } from './subscribable';
import { hashQueryKeyByOptions, matchQuery } from './utils';
import type { Action, QueryState } from './queryState';
import type { QueryClient } from './queryClient';
import type { QueryObserver } from './queryObserver';
import type { DefaultError, NotifyEvent, QueryKey, QueryOptions, WithRequired } from './types';
import type { QueryFilters } from './utils';

// Hot path aliases (see queryObserver.ts): read imported bindings once, not on every call.
const matches = matchQuery;
const hashFor = hashQueryKeyByOptions;

export interface QueryCacheConfig {
  onError?: (error: DefaultError, query: Query<unknown, unknown, unknown>) => void;
  onSuccess?: (data: unknown, query: Query<unknown, unknown, unknown>) => void;
  onSettled?: (data: unknown | undefined, error: DefaultError | null, query: Query<unknown, unknown, unknown>) => void;
}

type AnyQuery = Query<any, any, any, any>;
type AnyObserver = QueryObserver<any, any, any, any, any>;

interface NotifyEventQueryAdded extends NotifyEvent {
  type: 'added';
  query: AnyQuery;
}
interface NotifyEventQueryRemoved extends NotifyEvent {
  type: 'removed';
  query: AnyQuery;
}
interface NotifyEventQueryUpdated extends NotifyEvent {
  type: 'updated';
  query: AnyQuery;
  action: Action<any, any>;
}
interface NotifyEventQueryObserverAdded extends NotifyEvent {
  type: 'observerAdded';
  query: AnyQuery;
  observer: AnyObserver;
}
interface NotifyEventQueryObserverRemoved extends NotifyEvent {
  type: 'observerRemoved';
  query: AnyQuery;
  observer: AnyObserver;
}
interface NotifyEventQueryObserverResultsUpdated extends NotifyEvent {
  type: 'observerResultsUpdated';
  query: AnyQuery;
}
interface NotifyEventQueryObserverOptionsUpdated extends NotifyEvent {
  type: 'observerOptionsUpdated';
  query: AnyQuery;
  observer: AnyObserver;
}

export type QueryCacheNotifyEvent =
  | NotifyEventQueryAdded
  | NotifyEventQueryRemoved
  | NotifyEventQueryUpdated
  | NotifyEventQueryObserverAdded
  | NotifyEventQueryObserverRemoved
  | NotifyEventQueryObserverResultsUpdated
  | NotifyEventQueryObserverOptionsUpdated;

type QueryCacheListener = (event: QueryCacheNotifyEvent) => void;

export interface QueryStore {
  has: (queryHash: string) => boolean;
  set: (queryHash: string, query: Query) => void;
  get: (queryHash: string) => Query | undefined;
  delete: (queryHash: string) => void;
  values: () => IterableIterator<Query>;
}

export class QueryCache extends Subscribable<QueryCacheListener> {
  #queries = new Map<string, Query>();
  /** Built on the first partial-key search, then kept up to date (pure setQueryData loads skip it). */
  #byKey?: KeyIndex<Query>;
  /** Queries with at least one observer. */
  #observed = new Set<Query>();
  #nextOrder = 0;

  constructor(public config: QueryCacheConfig = {}) {
    super();
  }

  /** Get the query for these options, creating (and announcing) it if absent. */
  build<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
    client: QueryClient,
    options: WithRequired<QueryOptions<TQueryFnData, TError, TData, TQueryKey>, 'queryKey'>,
    state?: QueryState<TData, TError>,
  ): Query<TQueryFnData, TError, TData, TQueryKey> {
    const queryKey = options.queryKey;
    const queryHash = options.queryHash ?? hashFor(queryKey, options);
    let query = this.get<TQueryFnData, TError, TData, TQueryKey>(queryHash);
    if (!query) {
      query = new Query({
        client,
        queryKey,
        queryHash,
        options: client.defaultQueryOptions(options),
        state,
        defaultOptions: client.getQueryDefaults(queryKey),
      });
      this.add(query);
    }
    return query;
  }

  add(query: AnyQuery): void {
    if (this.#queries.has(query.queryHash)) return;
    this.#queries.set(query.queryHash, query);
    if (this.#byKey && Array.isArray(query.queryKey)) this.#byKey.add(query.queryKey, query);
    query.cacheOrder = this.#nextOrder++;
    if (query.getObserversCount() > 0) this.#observed.add(query);
    this.notify({ type: 'added', query });
  }

  remove(query: AnyQuery): void {
    if (this.#queries.get(query.queryHash) !== query) return;
    query.destroy();
    this.#queries.delete(query.queryHash);
    if (this.#byKey && Array.isArray(query.queryKey)) this.#byKey.delete(query.queryKey, query);
    this.#observed.delete(query);
    this.notify({ type: 'removed', query });
  }

  clear(): void {
    notifyManager.batch(() => {
      for (const query of this.getAll()) this.remove(query);
    });
  }

  get<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
    queryHash: string,
  ): Query<TQueryFnData, TError, TData, TQueryKey> | undefined {
    return this.#queries.get(queryHash) as Query<TQueryFnData, TError, TData, TQueryKey> | undefined;
  }

  getAll(): Array<Query> {
    return [...this.#queries.values()];
  }

  /** First match; `exact` defaults to true here. */
  find<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData>(
    filters: WithRequired<QueryFilters, 'queryKey'>,
  ): Query<TQueryFnData, TError, TData> | undefined {
    const defaulted = { exact: true, ...filters };
    for (const query of this.#queries.values()) {
      if (matches(defaulted, query)) return query as unknown as Query<TQueryFnData, TError, TData>;
    }
    return undefined;
  }

  findAll(filters: QueryFilters<any> = {}): Array<Query> {
    if (Object.keys(filters).length === 0) return this.getAll();
    // partial-key filters only need to look at queries sharing the key's leading primitives
    const key = filters.queryKey;
    let pool: Array<Query>;
    if (filters.type === 'active' && this.#observed.size * 4 < this.#queries.size) {
      // active queries are observed ones; when few are observed, start from those (in cache order)
      pool = [...this.#observed].sort((a, b) => a.cacheOrder - b.cacheOrder);
    } else {
      const candidates = key && !filters.exact && Array.isArray(key) ? this.#keyIndex().candidates(key) : undefined;
      pool = candidates ? Array.from(candidates) : this.getAll();
    }
    const found: Array<Query> = [];
    for (let i = 0; i < pool.length; i++) {
      const query = pool[i] as Query;
      if (matches(filters, query)) found.push(query);
    }
    return found;
  }

  #keyIndex(): KeyIndex<Query> {
    if (!this.#byKey) {
      this.#byKey = new KeyIndex<Query>();
      for (const query of this.#queries.values()) {
        if (Array.isArray(query.queryKey)) this.#byKey.add(query.queryKey, query);
      }
    }
    return this.#byKey;
  }

  /** Called by a query when it gains its first observer or loses its last one. */
  observedChanged(query: AnyQuery, observed: boolean): void {
    if (this.#queries.get(query.queryHash) !== query) return;
    if (observed) this.#observed.add(query);
    else this.#observed.delete(query);
  }

  notify(event: QueryCacheNotifyEvent): void {
    if (this.listeners.size === 0) return;
    notifyManager.batch(() => {
      for (const listener of this.listeners) listener(event);
    });
  }

  onFocus(): void {
    notifyManager.batch(() => {
      for (const query of this.getAll()) query.onFocus();
    });
  }

  onOnline(): void {
    notifyManager.batch(() => {
      for (const query of this.getAll()) query.onOnline();
    });
  }
}
