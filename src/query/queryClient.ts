/**
 * QueryClient: the façade users hold. It owns a QueryCache and a MutationCache, merges default
 * options (client-wide, then per-key defaults, then the call's own options), wires focus/online
 * events to the caches while mounted. Its instrumentation stream lives outside: `Instrumentation.of(client)`.
 */
import { CANCEL_REFETCH, FETCH_QUERY_RETRY, REFETCH_TYPE } from './defaults';
import { focusManager } from './focusManager';
import { MutationCache } from './mutationCache';
import { notifyManager } from './notifyManager';
import { onlineManager } from './onlineManager';
import { QueryCache } from './queryCache';
import { functionalUpdate, hashKey, hashQueryKeyByOptions, noop, partialMatchKey, resolveQueryValue, skipToken } from './utils';
import type { Query } from './query';
import type { QueryState } from './queryState';
import type {
  CancelOptions,
  DefaultError,
  DefaultOptions,
  DefaultedQueryObserverOptions,
  EnsureInfiniteQueryDataOptions,
  EnsureQueryDataOptions,
  FetchInfiniteQueryOptions,
  FetchQueryOptions,
  InferDataFromTag,
  InferErrorFromTag,
  InfiniteData,
  InfiniteQueryExecuteOptions,
  InvalidateOptions,
  InvalidateQueryFilters,
  MutationKey,
  MutationObserverOptions,
  MutationOptions,
  OmitKeyof,
  QueryClientConfig,
  QueryExecuteOptions,
  QueryKey,
  QueryObserverOptions,
  QueryOptions,
  RefetchOptions,
  RefetchQueryFilters,
  ResetOptions,
  SetDataOptions,
} from './types';
import type { MutationFilters, QueryFilters, Updater } from './utils';

type AnyDefaultedOptions = DefaultedQueryObserverOptions<any, any, any, any, any>;

interface KeyedDefaults<TKey, TOptions> {
  key: TKey;
  defaultOptions: TOptions;
}

const NO_DEFAULTS = Object.freeze({});

/** Merge every registered default whose key is a prefix of `key`, in registration order. */
function collectDefaults<TOptions extends object>(registry: Map<string, KeyedDefaults<QueryKey, TOptions>>, key: QueryKey): TOptions {
  if (registry.size === 0) return NO_DEFAULTS as TOptions;
  const merged = {} as TOptions;
  for (const entry of registry.values()) {
    if (partialMatchKey(key, entry.key)) Object.assign(merged, entry.defaultOptions);
  }
  return merged;
}

export class QueryClient {
  #queryCache: QueryCache;
  #mutationCache: MutationCache;
  #defaultOptions: DefaultOptions;
  #queryDefaults = new Map<string, KeyedDefaults<QueryKey, OmitKeyof<QueryOptions<any, any, any>, 'queryKey'>>>();
  #mutationDefaults = new Map<string, KeyedDefaults<MutationKey, MutationOptions<any, any, any, any>>>();
  #mountCount = 0;
  #unsubscribe?: () => void;

  constructor(config: QueryClientConfig = {}) {
    this.#queryCache = config.queryCache || new QueryCache();
    this.#mutationCache = config.mutationCache || new MutationCache();
    this.#defaultOptions = config.defaultOptions || {};
  }

  /** Start reacting to focus and reconnect (the React provider calls this on mount). */
  mount(): void {
    this.#mountCount++;
    if (this.#mountCount !== 1) return;
    // On focus and on reconnect, paused mutations resume first, then the queries refetch.
    const whenTrue = (then: () => void) => async (value: boolean) => {
      if (!value) return;
      await this.resumePausedMutations();
      then();
    };
    const unsubscribeFocus = focusManager.subscribe(whenTrue(() => this.#queryCache.onFocus()));
    const unsubscribeOnline = onlineManager.subscribe(whenTrue(() => this.#queryCache.onOnline()));
    this.#unsubscribe = () => {
      unsubscribeFocus();
      unsubscribeOnline();
    };
  }

  unmount(): void {
    this.#mountCount--;
    if (this.#mountCount !== 0) return;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  isFetching(filters?: Omit<QueryFilters, 'fetchStatus'>): number {
    return this.#queryCache.findAll({ ...filters, fetchStatus: 'fetching' }).length;
  }

  isMutating<TMutationFilters extends MutationFilters<any, any> = MutationFilters<any, any>>(filters?: NoInfer<Omit<TMutationFilters, 'status'>>): number {
    return this.#mutationCache.findAll({ ...filters, status: 'pending' }).length;
  }

  getQueryData<TQueryFnData = unknown, TTaggedQueryKey extends QueryKey = QueryKey, TInferredQueryFnData = InferDataFromTag<TQueryFnData, TTaggedQueryKey>>(
    queryKey: TTaggedQueryKey,
  ): TInferredQueryFnData | undefined {
    return this.getQueryState<TInferredQueryFnData>(queryKey)?.data;
  }

  /**
   * Cached data if there is any, stale or not (refetched in the background with `revalidateIfStale`),
   * otherwise a fetch.
   * @deprecated As in @tanstack/query-core 5.108: call `query({ ...options, staleTime: 'static' })`, which
   * answers from any cached data the same way. To go in the next major version.
   */
  ensureQueryData<TQueryFnData, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
    options: EnsureQueryDataOptions<TQueryFnData, TError, TData, TQueryKey>,
  ): Promise<TData> {
    const defaulted = this.defaultQueryOptions(options);
    const query = this.#queryCache.build(this, defaulted);
    const cached = query.state.data;
    if (cached === undefined) return this.fetchQuery(options);
    if (options.revalidateIfStale && query.isStaleByTime(resolveQueryValue(defaulted.staleTime, query))) {
      void this.prefetchQuery(defaulted);
    }
    return Promise.resolve(cached);
  }

  getQueriesData<TQueryFnData = unknown, TQueryFilters extends QueryFilters<any> = QueryFilters>(
    filters: TQueryFilters,
  ): Array<[QueryKey, TQueryFnData | undefined]> {
    return this.#queryCache.findAll(filters).map(({ queryKey, state }) => [queryKey, state.data as TQueryFnData | undefined]);
  }

  setQueryData<TQueryFnData = unknown, TTaggedQueryKey extends QueryKey = QueryKey, TInferredQueryFnData = InferDataFromTag<TQueryFnData, TTaggedQueryKey>>(
    queryKey: TTaggedQueryKey,
    updater: Updater<InferDataFromTag<NoInfer<TQueryFnData>, TTaggedQueryKey> | undefined, NoInfer<TInferredQueryFnData> | undefined>,
    options?: SetDataOptions,
  ): NoInfer<TInferredQueryFnData> | undefined {
    const defaulted = this.defaultQueryOptions<any, any, unknown, any, QueryKey>({ queryKey });
    const query = this.#queryCache.get<InferDataFromTag<NoInfer<TQueryFnData>, TTaggedQueryKey>>(defaulted.queryHash);
    const data = functionalUpdate(updater, query?.state.data);
    if (data === undefined) return undefined;
    return (query ?? this.#queryCache.build(this, defaulted)).setData(data as any, { ...options, manual: true });
  }

  setQueriesData<TQueryFnData, TQueryFilters extends QueryFilters<any> = QueryFilters>(
    filters: TQueryFilters,
    updater: Updater<NoInfer<TQueryFnData> | undefined, NoInfer<TQueryFnData> | undefined>,
    options?: SetDataOptions,
  ): Array<[QueryKey, TQueryFnData | undefined]> {
    return notifyManager.batch(() =>
      this.#queryCache.findAll(filters).map(({ queryKey }) => [queryKey, this.setQueryData<TQueryFnData>(queryKey, updater, options)]),
    );
  }

  getQueryState<
    TQueryFnData = unknown,
    TError = DefaultError,
    TTaggedQueryKey extends QueryKey = QueryKey,
    TInferredQueryFnData = InferDataFromTag<TQueryFnData, TTaggedQueryKey>,
    TInferredError = InferErrorFromTag<TError, TTaggedQueryKey>,
  >(queryKey: TTaggedQueryKey): QueryState<TInferredQueryFnData, TInferredError> | undefined {
    const options = this.defaultQueryOptions({ queryKey });
    return this.#queryCache.get<TInferredQueryFnData, TInferredError>(options.queryHash)?.state;
  }

  removeQueries<TTaggedQueryKey extends QueryKey = QueryKey>(filters?: QueryFilters<TTaggedQueryKey>): void {
    const cache = this.#queryCache;
    notifyManager.batch(() => {
      for (const query of cache.findAll(filters)) cache.remove(query);
    });
  }

  resetQueries<TTaggedQueryKey extends QueryKey = QueryKey>(filters?: QueryFilters<TTaggedQueryKey>, options?: ResetOptions): Promise<void> {
    return notifyManager.batch(() => {
      const matched = this.#queryCache.findAll(filters);
      const toRefetch = new Set(matched);
      for (const query of matched) query.reset();
      return this.refetchQueries({ type: 'active', predicate: (query) => toRefetch.has(query) }, options);
    });
  }

  cancelQueries<TTaggedQueryKey extends QueryKey = QueryKey>(filters?: QueryFilters<TTaggedQueryKey>, cancelOptions: CancelOptions = {}): Promise<void> {
    const defaulted = { revert: true, ...cancelOptions };
    const promises = notifyManager.batch(() => this.#queryCache.findAll(filters).map((query) => query.cancel(defaulted)));
    return Promise.all(promises).then(noop).catch(noop);
  }

  invalidateQueries<TTaggedQueryKey extends QueryKey = QueryKey>(
    filters?: InvalidateQueryFilters<TTaggedQueryKey>,
    options: InvalidateOptions = {},
  ): Promise<void> {
    return notifyManager.batch(() => {
      for (const query of this.#queryCache.findAll(filters)) query.invalidate();
      if (filters?.refetchType === 'none') return Promise.resolve();
      return this.refetchQueries({ ...filters, type: filters?.refetchType ?? filters?.type ?? REFETCH_TYPE }, options);
    });
  }

  refetchQueries<TTaggedQueryKey extends QueryKey = QueryKey>(filters?: RefetchQueryFilters<TTaggedQueryKey>, options: RefetchOptions = {}): Promise<void> {
    const fetchOptions = { ...options, cancelRefetch: options.cancelRefetch ?? CANCEL_REFETCH };
    const promises = notifyManager.batch(() => {
      const started: Array<Promise<unknown>> = [];
      for (const query of this.#queryCache.findAll(filters)) {
        if (query.isDisabled() || query.isStatic()) continue;
        let promise: Promise<unknown> = query.fetch(undefined, fetchOptions);
        // a paused fetch may wait forever (offline); do not hold the caller hostage to it
        const paused = query.state.fetchStatus === 'paused';
        if (!fetchOptions.throwOnError || paused) promise = promise.catch(noop);
        started.push(paused ? Promise.resolve() : promise);
      }
      return started;
    });
    return Promise.all(promises).then(noop);
  }

  /**
   * The data for `options`: the cached data when it is fresh by `staleTime`, otherwise a fetch (not retried
   * unless `retry` says so), with `select` applied either way. Rejects with the fetch's or `select`'s error.
   * Replaces `fetchQuery`, and with `staleTime: 'static'` `ensureQueryData` (@tanstack/query-core 5.102).
   */
  async query<TQueryFnData, TError = DefaultError, TData = TQueryFnData, TQueryData = TQueryFnData, TQueryKey extends QueryKey = QueryKey, TPageParam = never>(
    options: QueryExecuteOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey, TPageParam>,
  ): Promise<TData> {
    const [query, fetching, defaulted] = this.#fetchIfStale(options);
    const queryData = fetching ? await fetching : query.state.data;
    return defaulted.select ? defaulted.select(queryData) : queryData;
  }

  /**
   * Cached data when fresh by `staleTime`, otherwise a fetch (not retried unless asked); `select` is not applied.
   * @deprecated As in @tanstack/query-core 5.108: call `query(options)`. To go in the next major version.
   */
  fetchQuery<TQueryFnData, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey, TPageParam = never>(
    options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
  ): Promise<TData> {
    const [query, fetching] = this.#fetchIfStale(options);
    return fetching ?? Promise.resolve(query.state.data);
  }

  /** query() and fetchQuery(): the query for `options` (not retried unless asked) and its fetch, if stale. */
  #fetchIfStale(options: object): [Query<any, any, any, any>, Promise<any> | undefined, AnyDefaultedOptions] {
    const defaulted = this.defaultQueryOptions(options as any) as AnyDefaultedOptions;
    if (defaulted.retry === undefined) defaulted.retry = FETCH_QUERY_RETRY;
    const query = this.#queryCache.build(this, defaulted);
    const stale = query.isStaleByTime(resolveQueryValue(defaulted.staleTime, query));
    return [query, stale ? query.fetch(defaulted) : undefined, defaulted];
  }

  /**
   * `fetchQuery` whose promise resolves to nothing and never rejects.
   * @deprecated As in @tanstack/query-core 5.108: call `query(options)`, adding `.catch(noop)` where a
   * failure should be ignored. To go in the next major version.
   */
  prefetchQuery<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
    options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
  ): Promise<void> {
    return this.fetchQuery(options).then(noop).catch(noop);
  }

  /**
   * `query` for an infinite query: `initialPageParam` is required, and `pages` with `getNextPageParam`
   * refetches that many pages from the first. Replaces `fetchInfiniteQuery`, and with `staleTime: 'static'`
   * `ensureInfiniteQueryData` (@tanstack/query-core 5.102).
   */
  infiniteQuery<TQueryFnData, TError = DefaultError, TData = InfiniteData<TQueryFnData>, TQueryKey extends QueryKey = QueryKey, TPageParam = unknown>(
    options: InfiniteQueryExecuteOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
  ): Promise<Array<TData> extends Array<InfiniteData<TQueryFnData>> ? InfiniteData<TQueryFnData, TPageParam> : TData> {
    (options as { _type?: 'infinite' })._type = 'infinite';
    return this.query(options as any) as any;
  }

  /** @deprecated As in @tanstack/query-core 5.108: call `infiniteQuery(options)`. To go in the next major version. */
  fetchInfiniteQuery<TQueryFnData, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey, TPageParam = unknown>(
    options: FetchInfiniteQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
  ): Promise<InfiniteData<TData, TPageParam>> {
    (options as { _type?: 'infinite' })._type = 'infinite';
    return this.fetchQuery(options as any);
  }

  /**
   * @deprecated As in @tanstack/query-core 5.108: call `infiniteQuery(options)`, adding `.catch(noop)` where a
   * failure should be ignored. To go in the next major version.
   */
  prefetchInfiniteQuery<TQueryFnData, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey, TPageParam = unknown>(
    options: FetchInfiniteQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
  ): Promise<void> {
    return this.fetchInfiniteQuery(options).then(noop).catch(noop);
  }

  /**
   * @deprecated As in @tanstack/query-core 5.108: call `infiniteQuery({ ...options, staleTime: 'static' })`. To go
   * in the next major version.
   */
  ensureInfiniteQueryData<TQueryFnData, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey, TPageParam = unknown>(
    options: EnsureInfiniteQueryDataOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
  ): Promise<InfiniteData<TData, TPageParam>> {
    (options as { _type?: 'infinite' })._type = 'infinite';
    return this.ensureQueryData(options as any);
  }

  resumePausedMutations(): Promise<unknown> {
    return onlineManager.isOnline() ? this.#mutationCache.resumePausedMutations() : Promise.resolve();
  }

  getQueryCache(): QueryCache {
    return this.#queryCache;
  }

  getMutationCache(): MutationCache {
    return this.#mutationCache;
  }

  getDefaultOptions(): DefaultOptions {
    return this.#defaultOptions;
  }

  setDefaultOptions(options: DefaultOptions): void {
    this.#defaultOptions = options;
  }

  setQueryDefaults<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryData = TQueryFnData>(
    queryKey: QueryKey,
    options: Partial<OmitKeyof<QueryObserverOptions<TQueryFnData, TError, TData, TQueryData>, 'queryKey'>>,
  ): void {
    this.#queryDefaults.set(hashKey(queryKey), { key: queryKey, defaultOptions: options as any });
  }

  getQueryDefaults(queryKey: QueryKey): OmitKeyof<QueryObserverOptions<any, any, any, any, any>, 'queryKey'> {
    return collectDefaults(this.#queryDefaults, queryKey) as OmitKeyof<QueryObserverOptions<any, any, any, any, any>, 'queryKey'>;
  }

  setMutationDefaults<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown>(
    mutationKey: MutationKey,
    options: OmitKeyof<MutationObserverOptions<TData, TError, TVariables, TOnMutateResult>, 'mutationKey'>,
  ): void {
    this.#mutationDefaults.set(hashKey(mutationKey), { key: mutationKey, defaultOptions: options as any });
  }

  getMutationDefaults(mutationKey: MutationKey): OmitKeyof<MutationObserverOptions<any, any, any, any>, 'mutationKey'> {
    return collectDefaults(this.#mutationDefaults, mutationKey);
  }

  defaultQueryOptions<
    TQueryFnData = unknown,
    TError = DefaultError,
    TData = TQueryFnData,
    TQueryData = TQueryFnData,
    TQueryKey extends QueryKey = QueryKey,
    TPageParam = never,
  >(
    options:
      | QueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey, TPageParam>
      | DefaultedQueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>,
  ): DefaultedQueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey> {
    if (options._defaulted) {
      return options as DefaultedQueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>;
    }
    const defaulted: Record<string, any> = {
      ...this.#defaultOptions.queries,
      ...this.getQueryDefaults(options.queryKey),
      ...options,
      _defaulted: true,
    };
    if (!defaulted.queryHash) defaulted.queryHash = hashQueryKeyByOptions(defaulted.queryKey, defaulted);
    // reconnecting means nothing to a query that ignores the network
    if (defaulted.refetchOnReconnect === undefined) defaulted.refetchOnReconnect = defaulted.networkMode !== 'always';
    if (defaulted.throwOnError === undefined) defaulted.throwOnError = !!defaulted.suspense;
    if (!defaulted.networkMode && defaulted.persister) defaulted.networkMode = 'offlineFirst';
    if (defaulted.queryFn === skipToken) defaulted.enabled = false;
    return defaulted as DefaultedQueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>;
  }

  defaultMutationOptions<T extends MutationOptions<any, any, any, any>>(options?: T): T {
    if (options?._defaulted) return options;
    return {
      ...this.#defaultOptions.mutations,
      ...(options?.mutationKey && this.getMutationDefaults(options.mutationKey)),
      ...options,
      _defaulted: true,
    } as T;
  }

  clear(): void {
    this.#queryCache.clear();
    this.#mutationCache.clear();
  }
}
