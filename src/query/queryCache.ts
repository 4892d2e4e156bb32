/**
 * QueryCache: the map from queryHash to Query, and the event bus every query change goes through.
 * Cache-level callbacks (onSuccess/onError/onSettled) run once per query outcome, whoever fetched.
 */
import { notifyManager } from './notifyManager';
import { Query } from './query';
import { Subscribable } from './subscribable';
import { hashQueryKeyByOptions, matchQuery } from './utils';
import type { Action, QueryState } from './queryState';
import type { QueryClient } from './queryClient';
import type { QueryObserver } from './queryObserver';
import type { DefaultError, NotifyEvent, QueryKey, QueryOptions, WithRequired } from './types';
import type { QueryFilters } from './utils';

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

/**
 * A partial-key filter's leading primitive elements. partialMatchKey compares those with `===`, so a query
 * whose key differs at one of them cannot match: findAll checks them first, inline, which rules out most
 * queries several times faster than the full matcher (which still decides every survivor).
 */
function leadingPrimitives(key: unknown): Array<unknown> {
  const head: Array<unknown> = [];
  if (Array.isArray(key)) {
    for (const element of key) {
      if ((typeof element === 'object' && element !== null) || typeof element === 'function') break;
      head.push(element);
    }
  }
  return head;
}

/** Does `key` begin with exactly these elements? */
function startsWith(key: QueryKey, head: Array<unknown>): boolean {
  for (let i = 0; i < head.length; i++) if (key[i] !== head[i]) return false;
  return true;
}

export class QueryCache extends Subscribable<QueryCacheListener> {
  #queries = new Map<string, Query>();

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
    const queryHash = options.queryHash ?? hashQueryKeyByOptions(queryKey, options);
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
    this.notify({ type: 'added', query });
  }

  remove(query: AnyQuery): void {
    if (this.#queries.get(query.queryHash) !== query) return;
    query.destroy();
    this.#queries.delete(query.queryHash);
    this.notify({ type: 'removed', query });
  }

  clear(): void {
    this.#forEachInBatch((query) => this.remove(query));
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
      if (matchQuery(defaulted, query)) return query as unknown as Query<TQueryFnData, TError, TData>;
    }
    return undefined;
  }

  findAll(filters: QueryFilters<any> = {}): Array<Query> {
    const head = filters.exact ? [] : leadingPrimitives(filters.queryKey);
    // an active query has an enabled observer, so unobserved ones (usually most) skip the matcher
    const observedOnly = filters.type === 'active';
    const found: Array<Query> = [];
    for (const query of this.#queries.values()) {
      if (observedOnly && query.observers.length === 0) continue;
      if (startsWith(query.queryKey, head) && matchQuery(filters, query)) found.push(query);
    }
    return found;
  }

  notify(event: QueryCacheNotifyEvent): void {
    if (this.listeners.size === 0) return;
    notifyManager.batch(() => {
      for (const listener of this.listeners) listener(event);
    });
  }

  onFocus(): void {
    this.#forEachInBatch((query) => query.onFocus());
  }

  onOnline(): void {
    this.#forEachInBatch((query) => query.onOnline());
  }

  /** Visit a snapshot of the cache (visits may remove queries), with one notification at the end. */
  #forEachInBatch(visit: (query: Query) => void): void {
    notifyManager.batch(() => this.getAll().forEach(visit));
  }
}
