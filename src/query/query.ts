/**
 * Query: one cache entry (one queryHash). It owns the state (through `queryReducer`), the running
 * fetch (a Retryer), the list of observers and its own garbage collection.
 *
 * Concurrency rules for `fetch`:
 * - a fetch is already running: join it, unless `cancelRefetch` and there is data, then restart;
 * - a new fetch records the state it started from, so `cancel({ revert: true })` can go back to it;
 * - a silent cancel (used when restarting) hands callers the promise of the fetch that replaced it.
 */
import { STALE_TIME } from './defaults';
import { infiniteQueryBehavior } from './infiniteQueryBehavior';
import { trace } from './trace';
import { notifyManager } from './notifyManager';
import { getDefaultState, queryReducer, successState } from './queryState';
import { Removable } from './removable';
import { CancelledError, createRetryer } from './retryer';
import { ensureQueryFn, fetchSignal, noop, replaceData, resolveQueryValue, skipToken, timeUntilStale } from './utils';
import type { QueryCache } from './queryCache';
import type { QueryClient } from './queryClient';
import type { QueryObserver } from './queryObserver';
import type { Action, QueryState } from './queryState';
import type { Retryer } from './retryer';
import type { CancelOptions, DefaultError, OmitKeyof, QueryFunctionContext, QueryKey, QueryMeta, QueryOptions, SetDataOptions, StaleTime } from './types';

export type { Action, QueryState } from './queryState';
export { fetchState } from './queryState';

interface QueryConfig<TQueryFnData, TError, TData, TQueryKey extends QueryKey = QueryKey> {
  client: QueryClient;
  queryKey: TQueryKey;
  queryHash: string;
  options?: QueryOptions<TQueryFnData, TError, TData, TQueryKey>;
  defaultOptions?: QueryOptions<TQueryFnData, TError, TData, TQueryKey>;
  state?: QueryState<TData, TError>;
}

export interface FetchContext<TQueryFnData, TError, TData, TQueryKey extends QueryKey = QueryKey> {
  fetchFn: () => unknown | Promise<unknown>;
  fetchOptions?: FetchOptions;
  signal: AbortSignal;
  options: QueryOptions<TQueryFnData, TError, TData, any>;
  client: QueryClient;
  queryKey: TQueryKey;
  state: QueryState<TData, TError>;
}

/** A hook that may replace how a query fetches (infinite queries use it to fetch page by page). */
export interface QueryBehavior<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey> {
  onFetch: (context: FetchContext<TQueryFnData, TError, TData, TQueryKey>, query: Query) => void;
}

export type FetchDirection = 'forward' | 'backward';

export interface FetchMeta {
  fetchMore?: { direction: FetchDirection };
}

export interface FetchOptions<TData = unknown> {
  cancelRefetch?: boolean;
  meta?: FetchMeta;
  initialPromise?: Promise<TData>;
}

export class Query<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey> extends Removable {
  // `declare`: assigned in the constructor, so no separate field initializer is emitted
  declare queryKey: TQueryKey;
  declare queryHash: string;
  declare options: QueryOptions<TQueryFnData, TError, TData, TQueryKey>;
  declare state: QueryState<TData, TError>;
  declare observers: Array<QueryObserver<any, any, any, any, any>>;

  #queryType?: 'infinite';
  #initialState: QueryState<TData, TError>;
  #revertState?: QueryState<TData, TError>;
  #cache: QueryCache;
  #client: QueryClient;
  #retryer?: Retryer<TData>;
  #fetchPromise?: Promise<TData>;
  #defaultOptions?: QueryOptions<TQueryFnData, TError, TData, TQueryKey>;
  /** Did the running queryFn read `signal`? Then losing all observers aborts it instead of finishing. */
  #abortSignalConsumed = false;

  constructor(config: QueryConfig<TQueryFnData, TError, TData, TQueryKey>) {
    super(config.client);
    this.#defaultOptions = config.defaultOptions;
    this.#client = config.client;
    this.#cache = config.client.getQueryCache();
    // Own fields in TanStack's order (options, gcTime, observers, queryKey, queryHash, state): devtools'
    // Query Explorer lists them as they come.
    this.setOptions(config.options);
    this.observers = [];
    this.queryKey = config.queryKey;
    this.queryHash = config.queryHash;
    this.#initialState = getDefaultState(this.options);
    this.state = config.state ?? this.#initialState;
    this.scheduleGc();
  }

  get meta(): QueryMeta | undefined {
    return this.options.meta;
  }

  get queryType(): 'infinite' | undefined {
    return this.#queryType;
  }

  /** The promise of the running fetch, if any. */
  get promise(): Promise<TData> | undefined {
    return this.#retryer?.promise;
  }

  setOptions(options?: QueryOptions<TQueryFnData, TError, TData, TQueryKey>): void {
    this.options = { ...this.#defaultOptions, ...options };
    if (options?._type) this.#queryType = options._type;
    this.updateGcTime(this.options.gcTime);
    // initialData arriving later (a new observer) fills a query that still has no data
    if (this.state && this.state.data === undefined) {
      const defaults = getDefaultState(this.options);
      if (defaults.data !== undefined) {
        this.setState(successState(defaults.data, defaults.dataUpdatedAt));
        this.#initialState = defaults;
      }
    }
  }

  protected override optionalRemove(): boolean {
    if (this.observers.length === 0 && this.state.fetchStatus === 'idle') {
      this.#cache.remove(this);
      return true;
    }
    return false;
  }

  setData(newData: TData, options?: SetDataOptions & { manual: boolean }): TData {
    const data = replaceData(this.state.data, newData, this.options);
    this.#dispatch({ data, type: 'success', dataUpdatedAt: options?.updatedAt, manual: options?.manual });
    return data;
  }

  setState(state: Partial<QueryState<TData, TError>>): void {
    this.#dispatch({ type: 'setState', state });
  }

  cancel(options?: CancelOptions): Promise<void> {
    const retryer = this.#retryer;
    const promise = retryer?.promise;
    if (retryer?.status() === 'pending') trace(this.#client, 'cancel', this, options);
    retryer?.cancel(options);
    return promise ? promise.then(noop).catch(noop) : Promise.resolve();
  }

  override destroy(): void {
    super.destroy();
    this.cancel({ silent: true });
  }

  get resetState(): QueryState<TData, TError> {
    return this.#initialState;
  }

  reset(): void {
    this.destroy();
    this.setState(this.resetState);
  }

  /** Has at least one observer that is enabled. */
  isActive(): boolean {
    return this.observers.some((observer) => resolveQueryValue(observer.options.enabled, this as any) !== false);
  }

  isDisabled(): boolean {
    if (this.observers.length > 0) return !this.isActive();
    return this.options.queryFn === skipToken || !this.isFetched();
  }

  isFetched(): boolean {
    return this.state.dataUpdateCount + this.state.errorUpdateCount > 0;
  }

  /** Some observer declared the data static (staleTime: 'static'): never refetched by the client. */
  isStatic(): boolean {
    if (this.state.data === undefined || this.observers.length === 0) return false;
    return this.observers.some((observer) => resolveQueryValue(observer.options.staleTime, this as any) === 'static');
  }

  isStale(): boolean {
    if (this.observers.length > 0) return this.observers.some((observer) => observer.getCurrentResult().isStale);
    return this.state.data === undefined || this.state.isInvalidated;
  }

  isStaleByTime(staleTime: StaleTime = STALE_TIME): boolean {
    if (this.state.data === undefined) return true;
    if (staleTime === 'static') return false;
    if (this.state.isInvalidated) return true;
    return !timeUntilStale(this.state.dataUpdatedAt, staleTime);
  }

  onFocus(): void {
    this.#resume((observer) => observer.shouldFetchOnWindowFocus());
  }

  onOnline(): void {
    this.#resume((observer) => observer.shouldFetchOnReconnect());
  }

  /** On focus or reconnect: refetch through the first observer that wants it, and let a paused retryer go on. */
  #resume(wantsRefetch: (observer: QueryObserver<any, any, any, any, any>) => boolean): void {
    this.observers.find(wantsRefetch)?.refetch({ cancelRefetch: false });
    this.#retryer?.continue();
  }

  addObserver(observer: QueryObserver<any, any, any, any, any>): void {
    if (this.observers.includes(observer)) return;
    this.observers.push(observer);
    this.clearGcTimeout();
    this.#observerEvent('observerAdded', observer);
  }

  removeObserver(observer: QueryObserver<any, any, any, any, any>): void {
    const index = this.observers.indexOf(observer);
    if (index === -1) return;
    this.observers.splice(index, 1);
    if (this.observers.length === 0) {
      if (this.#retryer) {
        // Nobody is left to see the result: abort if the queryFn can be aborted (or never started),
        // otherwise let it finish but stop retrying.
        const pausedBeforeData = this.state.fetchStatus === 'paused' && this.state.status === 'pending';
        if (this.#abortSignalConsumed || pausedBeforeData) {
          const revert = { revert: true };
          // A retryer that has settled ignores the cancel (retryer.ts): only a running fetch is reported cancelled.
          if (this.#retryer.status() === 'pending') trace(this.#client, 'cancel', this, revert);
          this.#retryer.cancel(revert);
        } else {
          this.#retryer.cancelRetry();
        }
      }
      this.scheduleGc();
    }
    this.#observerEvent('observerRemoved', observer);
  }

  /** Instrumentation hears the new observer count, cache listeners which observer came or went. */
  #observerEvent(type: 'observerAdded' | 'observerRemoved', observer: QueryObserver<any, any, any, any, any>): void {
    trace(this.#client, type, this, this.observers.length);
    this.#cache.notify({ type, query: this, observer });
  }

  getObserversCount(): number {
    return this.observers.length;
  }

  invalidate(): void {
    if (!this.state.isInvalidated) this.#dispatch({ type: 'invalidate' });
  }

  fetch(options?: QueryOptions<TQueryFnData, TError, TData, TQueryKey>, fetchOptions?: FetchOptions<TQueryFnData>): Promise<TData> {
    if (this.state.fetchStatus !== 'idle' && this.#retryer?.status() !== 'rejected') {
      if (this.state.data !== undefined && fetchOptions?.cancelRefetch) {
        this.cancel({ silent: true });
      } else if (this.#retryer && this.#fetchPromise) {
        // join the running fetch, and let it retry again if it had been told to stop
        this.#retryer.continueRetry();
        return this.#fetchPromise;
      }
    }
    if (options) this.setOptions(options);
    // A query built by setQueryData/prefetch may not know its queryFn; borrow it from an observer.
    if (!this.options.queryFn) {
      const observer = this.observers.find((candidate) => candidate.options.queryFn);
      if (observer) this.setOptions(observer.options);
    }
    // Dev-only warnings are dropped from production bundles (as in TanStack): bundlers replace NODE_ENV.
    if (process.env.NODE_ENV !== 'production' && !Array.isArray(this.options.queryKey)) {
      console.error(`As of v4, queryKey needs to be an Array. If you are using a string like 'repoData', please change it to an Array, e.g. ['repoData']`);
    }

    const abortController = new AbortController();
    const context = this.#fetchContext(abortController, fetchOptions);
    const behavior =
      this.#queryType === 'infinite'
        ? (infiniteQueryBehavior((this.options as { pages?: number }).pages) as unknown as QueryBehavior<TQueryFnData, TError, TData, TQueryKey>)
        : this.options.behavior;
    behavior?.onFetch(context, this as unknown as Query);

    this.#revertState = this.state;
    if (this.state.fetchStatus === 'idle' || this.state.fetchMeta !== context.fetchOptions?.meta) {
      this.#dispatch({ type: 'fetch', meta: context.fetchOptions?.meta });
    }
    trace(this.#client, 'fetchStart', this);

    const retryer = this.#createRetryer(context, abortController, fetchOptions);
    this.#retryer = retryer;
    const fetchPromise = this.#settle(retryer);
    this.#fetchPromise = fetchPromise;
    retryer.start();
    return fetchPromise;
  }

  /** Turn the retryer's outcome into state, cache callbacks and the promise callers get. */
  async #settle(retryer: Retryer<TData>): Promise<TData> {
    const cacheConfig = this.#cache.config;
    const self = this as Query<any, any, any, any>;
    try {
      const data = await retryer.promise;
      if (data === undefined) {
        if (process.env.NODE_ENV !== 'production') {
          console.error(
            `Query data cannot be undefined. Please make sure to return a value other than undefined from your query function. Affected query key: ${this.queryHash}`,
          );
        }
        throw new Error(`${this.queryHash} data is undefined`);
      }
      this.setData(data);
      trace(this.#client, 'fetchEnd', this, 'success');
      cacheConfig.onSuccess?.(data, self);
      cacheConfig.onSettled?.(data, this.state.error as any, self);
      return data;
    } catch (error) {
      if (error instanceof CancelledError) {
        if (error.silent) {
          // restarted by a newer fetch: callers of the old one get the new one's result
          if (this.#retryer !== retryer && this.#fetchPromise) return this.#fetchPromise;
          trace(this.#client, 'fetchEnd', this, 'cancelled');
          throw error;
        }
        if (error.revert) {
          trace(this.#client, 'fetchEnd', this, 'cancelled');
          if (this.state.data === undefined) throw error;
          return this.state.data;
        }
      }
      this.#dispatch({ type: 'error', error: error as TError });
      trace(this.#client, 'fetchEnd', this, 'error');
      cacheConfig.onError?.(error as any, self);
      cacheConfig.onSettled?.(this.state.data, error as any, self);
      throw error;
    } finally {
      if (this.#retryer === retryer) {
        this.#retryer = undefined;
        this.#fetchPromise = undefined;
      }
      this.scheduleGc();
    }
  }

  #fetchContext(abortController: AbortController, fetchOptions: FetchOptions<TQueryFnData> | undefined): FetchContext<TQueryFnData, TError, TData, TQueryKey> {
    // `signal` is a getter so the query knows whether the queryFn cares about cancellation.
    const addSignal = (object: object) => {
      Object.defineProperties(object, {
        [fetchSignal]: { value: abortController.signal, enumerable: true },
        signal: {
          enumerable: true,
          get: () => {
            this.#abortSignalConsumed = true;
            return abortController.signal;
          },
        },
      });
    };
    const fetchFn = () => {
      const queryFn = ensureQueryFn(this.options, fetchOptions);
      const queryFnContext: OmitKeyof<QueryFunctionContext<TQueryKey>, 'signal'> = {
        client: this.#client,
        queryKey: this.queryKey,
        meta: this.meta,
      };
      addSignal(queryFnContext);
      this.#abortSignalConsumed = false;
      const persister = this.options.persister;
      return persister
        ? persister(queryFn as any, queryFnContext as QueryFunctionContext<TQueryKey>, this as unknown as Query)
        : queryFn(queryFnContext as QueryFunctionContext<TQueryKey>);
    };
    const context: OmitKeyof<FetchContext<TQueryFnData, TError, TData, TQueryKey>, 'signal'> = {
      fetchOptions,
      options: this.options,
      queryKey: this.queryKey,
      client: this.#client,
      state: this.state,
      fetchFn,
    };
    addSignal(context);
    return context as FetchContext<TQueryFnData, TError, TData, TQueryKey>;
  }

  #createRetryer(
    context: FetchContext<TQueryFnData, TError, TData, TQueryKey>,
    abortController: AbortController,
    fetchOptions: FetchOptions<TQueryFnData> | undefined,
  ): Retryer<TData> {
    return createRetryer<TData, TError>({
      initialPromise: fetchOptions?.initialPromise as Promise<TData> | undefined,
      fn: context.fetchFn as () => Promise<TData>,
      onCancel: (error) => {
        if (error instanceof CancelledError && error.revert) {
          this.setState({ ...this.#revertState, fetchStatus: 'idle' as const });
        }
        abortController.abort();
      },
      dispatch: (action) => this.#dispatch(action),
      client: this.#client,
      owner: this,
      retry: context.options.retry,
      retryDelay: context.options.retryDelay,
      networkMode: context.options.networkMode,
      canRun: () => true,
    });
  }

  /** The one place state changes: reduce, then notify observers and the cache in one batch. */
  #dispatch(action: Action<TData, TError>): void {
    this.state = queryReducer(this.state, action, this);
    if (action.type === 'success') {
      // a manual write becomes the new baseline a cancelled fetch reverts to
      this.#revertState = action.manual ? this.state : undefined;
    }
    trace(this.#client, 'dispatch', this, action);
    // nobody to tell (e.g. bulk invalidation of unobserved queries): skip the batch altogether
    if (this.observers.length === 0 && !this.#cache.hasListeners()) return;
    notifyManager.batch(() => {
      for (const observer of this.observers.slice()) observer.onQueryUpdate();
      this.#cache.notify({ query: this, type: 'updated', action });
    });
  }
}
