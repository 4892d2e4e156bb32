/**
 * QueryObserver: one subscriber's view of one query. It picks (or switches) the query for its options,
 * decides when to fetch (see observerRules.ts), derives the result object its listeners get
 * (select, placeholderData, status flags), and owns two timers: stale expiry and refetch interval.
 *
 * Listeners are only told about results that changed in a property they use: `notifyOnChangeProps`,
 * or the properties read through `trackResult`, or everything when neither is set.
 */
import { CANCEL_REFETCH, REFETCH_INTERVAL } from './defaults';
import { isServerNow } from './environmentManager';
import { focusManager } from './focusManager';
import { notifyManager } from './notifyManager';
import { isStale, shouldFetchOn, shouldFetchOnMount, shouldFetchOptionally } from './observerRules';
import { fetchState } from './queryState';
import { Subscribable } from './subscribable';
import { timeoutManager } from './timeoutManager';
import { now } from './timeoutManager';
import { isValidTimeout, noop, replaceData, resolveQueryValue, shallowEqualObjects, timeUntilStale } from './utils';
import { trace } from './trace';
import type { FetchOptions, Query } from './query';
import type { QueryState } from './queryState';
import type { QueryClient } from './queryClient';
import type { ManagedTimerId } from './timeoutManager';
import type {
  DefaultError,
  DefaultedQueryObserverOptions,
  PlaceholderDataFunction,
  QueryKey,
  QueryObserverBaseResult,
  QueryObserverOptions,
  QueryObserverResult,
  RefetchOptions,
} from './types';

type QueryObserverListener<TData, TError> = (result: QueryObserverResult<TData, TError>) => void;

/** An observer's timers, named by the option that sets them (the names instrumentation reports). */
type ObserverTimer = 'staleTime' | 'refetchInterval';

interface ObserverFetchOptions extends FetchOptions {
  throwOnError?: boolean;
}

export class QueryObserver<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
> extends Subscribable<QueryObserverListener<TData, TError>> {
  #client: QueryClient;
  #currentQuery: Query<TQueryFnData, TError, TQueryData, TQueryKey> = undefined!;
  #currentQueryInitialState: QueryState<TQueryData, TError> = undefined!;
  #currentResult: QueryObserverResult<TData, TError> = undefined!;
  #currentResultState?: QueryState<TQueryData, TError>;
  #currentResultOptions?: QueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>;
  // select is memoised on (input data, select function)
  #selectError: TError | null = null;
  #selectFn?: (data: TQueryData) => TData;
  #selectResult?: TData;
  /** Source of `previousData` for placeholderData functions (keepPreviousData). */
  #lastQueryWithDefinedData?: Query<TQueryFnData, TError, TQueryData, TQueryKey>;
  #staleTimeoutId?: ManagedTimerId;
  #refetchIntervalId?: ManagedTimerId;
  #currentRefetchInterval?: number | false;
  #trackedProps = new Set<keyof QueryObserverResult>();
  /** Every result this observer builds has the same keys; remember them for cheap comparisons. */
  #resultKeys?: Array<string>;

  constructor(
    client: QueryClient,
    public options: QueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>,
  ) {
    super();
    this.#client = client;
    this.bindMethods();
    this.setOptions(options);
  }

  protected bindMethods(): void {
    this.refetch = this.refetch.bind(this);
  }

  protected override onSubscribe(): void {
    if (this.listeners.size !== 1) return;
    this.#currentQuery.addObserver(this);
    if (shouldFetchOnMount(this.#currentQuery, this.options)) this.#executeFetch();
    else this.updateResult();
    this.#updateTimers();
  }

  protected override onUnsubscribe(): void {
    if (!this.hasListeners()) this.destroy();
  }

  // refetchOnReconnect is always set (QueryClient.defaultQueryOptions); refetchOnWindowFocus left undefined
  // counts as true (see observerRules.ts)
  shouldFetchOnReconnect(): boolean {
    return shouldFetchOn(this.#currentQuery, this.options, this.options.refetchOnReconnect);
  }

  shouldFetchOnWindowFocus(): boolean {
    return shouldFetchOn(this.#currentQuery, this.options, this.options.refetchOnWindowFocus);
  }

  destroy(): void {
    this.listeners = new Set();
    this.#clearStaleTimeout();
    this.#clearRefetchInterval();
    this.#currentQuery.removeObserver(this);
  }

  setOptions(options: QueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>): void {
    const prevOptions = this.options;
    const prevQuery = this.#currentQuery;
    this.options = this.#client.defaultQueryOptions(options);

    const enabled = this.options.enabled;
    if (enabled !== undefined && typeof enabled !== 'boolean' && typeof enabled !== 'function') {
      throw new Error('Expected enabled to be a boolean or a callback that returns a boolean');
    }

    this.#updateQuery();
    this.#currentQuery.setOptions(this.options);

    if (prevOptions._defaulted && !shallowEqualObjects(this.options, prevOptions)) {
      this.#client.getQueryCache().notify({ type: 'observerOptionsUpdated', query: this.#currentQuery, observer: this });
    }

    const mounted = this.hasListeners();
    if (mounted && shouldFetchOptionally(this.#currentQuery, prevQuery, this.options, prevOptions)) {
      this.#executeFetch();
    }
    this.updateResult();

    const query = this.#currentQuery;
    const enabledChanged = resolveQueryValue(this.options.enabled, query) !== resolveQueryValue(prevOptions.enabled, query);
    if (
      mounted &&
      (query !== prevQuery || enabledChanged || resolveQueryValue(this.options.staleTime, query) !== resolveQueryValue(prevOptions.staleTime, query))
    ) {
      this.#updateStaleTimeout();
    }
    const nextInterval = this.#computeRefetchInterval();
    if (mounted && (query !== prevQuery || enabledChanged || nextInterval !== this.#currentRefetchInterval)) {
      this.#updateRefetchInterval(nextInterval);
    }
  }

  /** The result a component should render right now, before subscribing (may build the query). */
  getOptimisticResult(options: DefaultedQueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>): QueryObserverResult<TData, TError> {
    const query = this.#client.getQueryCache().build(this.#client, options);
    const result = this.createResult(query, options);
    if (!shallowEqualObjects(this.getCurrentResult(), result)) {
      this.#currentResult = result;
      this.#currentResultOptions = this.options;
      this.#currentResultState = this.#currentQuery.state;
    }
    return result;
  }

  getCurrentResult(): QueryObserverResult<TData, TError> {
    return this.#currentResult;
  }

  /** Wrap a result so that reading a property subscribes this observer to changes of it. */
  trackResult(result: QueryObserverResult<TData, TError>, onPropTracked?: (key: keyof QueryObserverResult) => void): QueryObserverResult<TData, TError> {
    return new Proxy(result, {
      get: (target, key) => {
        this.trackProp(key as keyof QueryObserverResult);
        onPropTracked?.(key as keyof QueryObserverResult);
        return Reflect.get(target, key);
      },
    });
  }

  trackProp(key: keyof QueryObserverResult): void {
    this.#trackedProps.add(key);
  }

  getCurrentQuery(): Query<TQueryFnData, TError, TQueryData, TQueryKey> {
    return this.#currentQuery;
  }

  refetch(options?: RefetchOptions): Promise<QueryObserverResult<TData, TError>> {
    return this.fetch({ ...options });
  }

  /** Fetch for suspense: resolves with a result as soon as the query has data. */
  fetchOptimistic(options: QueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>): Promise<QueryObserverResult<TData, TError>> {
    const defaulted = this.#client.defaultQueryOptions(options);
    const cache = this.#client.getQueryCache();
    const query = cache.build(this.#client, defaulted);
    let unsubscribe: () => void = noop;
    let resolveEarly: ((result: QueryObserverResult<TData, TError>) => void) | undefined;
    const dataArrived = new Promise<QueryObserverResult<TData, TError>>((resolve) => {
      resolveEarly = resolve;
      unsubscribe = cache.subscribe((event) => {
        if (event.type === 'updated' && event.query.queryHash === query.queryHash && query.state.data !== undefined) {
          unsubscribe();
          resolve(this.createResult(query, defaulted));
        }
      });
    });
    const fetched = query
      .fetch(defaulted)
      .then(() => {
        const result = this.createResult(query, defaulted);
        resolveEarly?.(result);
        return result;
      })
      .finally(() => unsubscribe());
    return Promise.race([fetched, dataArrived]);
  }

  protected fetch(fetchOptions: ObserverFetchOptions): Promise<QueryObserverResult<TData, TError>> {
    return this.#executeFetch({ ...fetchOptions, cancelRefetch: fetchOptions.cancelRefetch ?? CANCEL_REFETCH }).then(() => {
      this.updateResult();
      return this.#currentResult;
    });
  }

  #executeFetch(fetchOptions?: Omit<ObserverFetchOptions, 'initialPromise'>): Promise<TQueryData | undefined> {
    this.#updateQuery();
    const promise: Promise<TQueryData | undefined> = this.#currentQuery.fetch(this.options as never, fetchOptions);
    return fetchOptions?.throwOnError ? promise : promise.catch(noop);
  }

  // ------------------------------------------------------------ timers

  #shouldScheduleTimer(timeout: unknown): timeout is number {
    return !isServerNow() && resolveQueryValue(this.options.enabled, this.#currentQuery) !== false && isValidTimeout(timeout);
  }

  #updateStaleTimeout(): void {
    this.#clearStaleTimeout();
    const staleTime = resolveQueryValue(this.options.staleTime, this.#currentQuery);
    if (this.#currentResult.isStale || !this.#shouldScheduleTimer(staleTime)) return;
    // +1: at exactly updatedAt + staleTime the data is not stale yet (strict comparison)
    const delay = timeUntilStale(this.#currentResult.dataUpdatedAt, staleTime) + 1;
    this.#staleTimeoutId = this.#startTimer('staleTime', delay, () => {
      if (!this.#currentResult.isStale) this.updateResult();
    });
  }

  #computeRefetchInterval(): number | false {
    return resolveQueryValue(this.options.refetchInterval, this.#currentQuery) ?? REFETCH_INTERVAL;
  }

  #updateRefetchInterval(nextInterval: number | false): void {
    this.#clearRefetchInterval();
    this.#currentRefetchInterval = nextInterval;
    if (nextInterval === 0 || !this.#shouldScheduleTimer(nextInterval)) return;
    this.#refetchIntervalId = this.#startTimer('refetchInterval', nextInterval, () => {
      if (this.options.refetchIntervalInBackground || focusManager.isFocused()) this.#executeFetch();
    });
  }

  #updateTimers(): void {
    this.#updateStaleTimeout();
    this.#updateRefetchInterval(this.#computeRefetchInterval());
  }

  /** Both timers start here, so each is traced the same way (scheduled, then fired). */
  #startTimer(kind: ObserverTimer, delay: number, onFire: () => void): ManagedTimerId {
    const repeat = kind === 'refetchInterval';
    const id = timeoutManager[repeat ? 'setInterval' : 'setTimeout'](() => {
      trace(this.#client, 'timerFired', this, kind, repeat || undefined);
      onFire();
    }, delay);
    trace(this.#client, 'timerScheduled', this, kind, delay);
    return id;
  }

  // Two functions, not one keyed by timer: these run twice per observer on every query update, and a
  // keyed lookup measured 6% slower on one setQueryData notifying 1,000 observers.
  #clearStaleTimeout(): void {
    if (this.#staleTimeoutId === undefined) return;
    timeoutManager.clearTimeout(this.#staleTimeoutId);
    this.#staleTimeoutId = undefined;
    trace(this.#client, 'timerCleared', this, 'staleTime');
  }

  #clearRefetchInterval(): void {
    if (this.#refetchIntervalId === undefined) return;
    timeoutManager.clearInterval(this.#refetchIntervalId);
    this.#refetchIntervalId = undefined;
    trace(this.#client, 'timerCleared', this, 'refetchInterval');
  }

  // ------------------------------------------------------------ results

  protected createResult(
    query: Query<TQueryFnData, TError, TQueryData, TQueryKey>,
    options: QueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>,
  ): QueryObserverResult<TData, TError> {
    const prevQuery = this.#currentQuery;
    const prevOptions = this.options;
    const prevResult = this.#currentResult as QueryObserverResult<TData, TError> | undefined;
    const prevResultState = this.#currentResultState;
    const prevResultOptions = this.#currentResultOptions;
    const queryInitialState = query !== prevQuery ? query.state : this.#currentQueryInitialState;
    const { state } = query;
    let newState = state;
    let isPlaceholderData = false;

    // Optimistic results already show the fetch that subscribing (or the option change) will start.
    if (options._optimisticResults) {
      const mounted = this.hasListeners();
      const fetchOnMount = !mounted && shouldFetchOnMount(query, options);
      const fetchOptionally = mounted && shouldFetchOptionally(query, prevQuery, options, prevOptions);
      if (fetchOnMount || fetchOptionally) newState = { ...newState, ...fetchState(state.data, query.options) };
      if (options._optimisticResults === 'isRestoring') newState = { ...newState, fetchStatus: 'idle' };
    }

    let { error, errorUpdatedAt, status } = newState;
    let data = newState.data as unknown as TData | undefined;
    let skipSelect = false;

    if (options.placeholderData !== undefined && data === undefined && status === 'pending') {
      let placeholderData: unknown;
      if (prevResult?.isPlaceholderData && options.placeholderData === prevResultOptions?.placeholderData) {
        // same placeholder as last time: reuse it, already selected
        placeholderData = prevResult.data;
        skipSelect = true;
      } else {
        placeholderData =
          typeof options.placeholderData === 'function'
            ? (options.placeholderData as unknown as PlaceholderDataFunction<TQueryData>)(
                this.#lastQueryWithDefinedData?.state.data,
                this.#lastQueryWithDefinedData as any,
              )
            : options.placeholderData;
      }
      if (placeholderData !== undefined) {
        status = 'success';
        data = replaceData(prevResult?.data as unknown, placeholderData, options) as TData;
        isPlaceholderData = true;
      }
    }

    if (options.select && data !== undefined && !skipSelect) {
      if (prevResult && data === (prevResultState?.data as unknown) && options.select === this.#selectFn) {
        data = this.#selectResult;
      } else {
        try {
          this.#selectFn = options.select;
          data = options.select(data as unknown as TQueryData);
          data = replaceData(prevResult?.data, data, options);
          this.#selectResult = data;
          this.#selectError = null;
        } catch (selectError) {
          this.#selectError = selectError as TError;
        }
      }
    } else if (data === undefined) {
      this.#selectError = null;
    }

    if (this.#selectError) {
      error = this.#selectError;
      data = this.#selectResult;
      errorUpdatedAt = prevResult?.error === (error as unknown) ? prevResult!.errorUpdatedAt : now();
      status = 'error';
      isPlaceholderData = false;
    }

    const fetchStatus = newState.fetchStatus;
    const isFetching = fetchStatus === 'fetching';
    const isPending = status === 'pending';
    const isError = status === 'error';
    const isLoading = isPending && isFetching;
    const hasData = data !== undefined;

    const result: QueryObserverBaseResult<TData, TError> = {
      status,
      fetchStatus,
      isPending,
      isSuccess: status === 'success',
      isError,
      isInitialLoading: isLoading,
      isLoading,
      data,
      dataUpdatedAt: newState.dataUpdatedAt,
      error,
      errorUpdatedAt,
      failureCount: newState.fetchFailureCount,
      failureReason: newState.fetchFailureReason,
      errorUpdateCount: newState.errorUpdateCount,
      isFetched: query.isFetched(),
      isFetchedAfterMount: newState.dataUpdateCount > queryInitialState.dataUpdateCount || newState.errorUpdateCount > queryInitialState.errorUpdateCount,
      isFetching,
      isRefetching: isFetching && !isPending,
      isLoadingError: isError && !hasData,
      isPaused: fetchStatus === 'paused',
      isPlaceholderData,
      isRefetchError: isError && hasData,
      isStale: isStale(query, options),
      refetch: this.refetch,
      isEnabled: resolveQueryValue(options.enabled, query) !== false,
    };
    return result as QueryObserverResult<TData, TError>;
  }

  updateResult(): void {
    const prevResult = this.#currentResult as QueryObserverResult<TData, TError> | undefined;
    const nextResult = this.createResult(this.#currentQuery, this.options);
    this.#currentResultState = this.#currentQuery.state;
    this.#currentResultOptions = this.options;
    if (this.#currentResultState.data !== undefined) this.#lastQueryWithDefinedData = this.#currentQuery;
    if (prevResult && this.#sameResult(nextResult, prevResult)) return;
    this.#currentResult = nextResult;

    const notifyListeners = this.listeners.size > 0 && (!prevResult || this.#usesChangedProps(prevResult));
    const cache = this.#client.getQueryCache();
    if (!notifyListeners && !cache.hasListeners()) return;
    notifyManager.batch(() => {
      if (notifyListeners) {
        for (const listener of this.listeners) listener(this.#currentResult);
      }
      cache.notify({ query: this.#currentQuery, type: 'observerResultsUpdated' });
    });
  }

  /**
   * shallowEqualObjects for two results built by createResult (same keys by construction). Measured: with
   * shallowEqualObjects, which lists both objects' keys on every call, one setQueryData notifying 1,000
   * observers runs a third slower.
   */
  #sameResult(next: QueryObserverResult<TData, TError>, prev: QueryObserverResult<TData, TError>): boolean {
    const keys = (this.#resultKeys ??= Object.keys(next));
    const a = next as unknown as Record<string, unknown>;
    const b = prev as unknown as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (a[key] !== b[key]) return false;
    }
    return true;
  }

  #usesChangedProps(prevResult: QueryObserverResult<TData, TError>): boolean {
    const { notifyOnChangeProps } = this.options;
    const props = typeof notifyOnChangeProps === 'function' ? notifyOnChangeProps() : notifyOnChangeProps;
    if (props === 'all' || (!props && !this.#trackedProps.size)) return true;
    // an error that would be thrown to a boundary must always get through
    if (this.options.throwOnError && this.#currentResult.error !== prevResult.error) return true;
    const current = this.#currentResult as unknown as Record<string, unknown>;
    const previous = prevResult as unknown as Record<string, unknown>;
    for (const key of props ?? this.#trackedProps) {
      if (current[key] !== previous[key]) return true;
    }
    return false;
  }

  #updateQuery(): void {
    const query = this.#client.getQueryCache().build(this.#client, this.options);
    if (query === this.#currentQuery) return;
    const prevQuery = this.#currentQuery as Query<TQueryFnData, TError, TQueryData, TQueryKey> | undefined;
    this.#currentQuery = query;
    this.#currentQueryInitialState = query.state;
    if (this.hasListeners()) {
      prevQuery?.removeObserver(this);
      query.addObserver(this);
    }
  }

  /** Called by the query after each state change. */
  onQueryUpdate(): void {
    this.updateResult();
    if (this.hasListeners()) this.#updateTimers();
  }
}
