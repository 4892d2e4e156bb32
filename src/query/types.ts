/**
 * Public types, part 1: keys, tags, functions and options. Results live in `resultTypes.ts`.
 * Names and type parameters follow the TanStack Query v5 interface so code written against it
 * type-checks unchanged.
 */
import type { DehydrateOptions, HydrateOptions } from './hydration';
import type { MutationCache } from './mutationCache';
import type { FetchDirection, Query, QueryBehavior } from './query';
import type { QueryCache } from './queryCache';
import type { QueryClient } from './queryClient';
import type { RetryDelayValue, RetryValue } from './retryer';
import type { InfiniteQueryObserverResult } from './resultTypes';
import type { MutationObserverOptions } from './mutationTypes';
import type { SkipToken } from './utils';

export type * from './resultTypes';
export type * from './mutationTypes';

// ---------------------------------------------------------------- helpers

export type NonUndefinedGuard<T> = T extends undefined ? never : T;

export type DistributiveOmit<TObject, TKey extends keyof TObject> = TObject extends any ? Omit<TObject, TKey> : never;

/** `Omit` that, by default, only accepts keys the object really has (catches typos). */
export type OmitKeyof<
  TObject,
  TKey extends TStrictly extends 'safely'
    ? keyof TObject | (string & Record<never, never>) | (number & Record<never, never>) | (symbol & Record<never, never>)
    : keyof TObject,
  TStrictly extends 'strictly' | 'safely' = 'strictly',
> = Omit<TObject, TKey>;

export type Override<TTargetA, TTargetB> = {
  [AKey in keyof TTargetA]: AKey extends keyof TTargetB ? TTargetB[AKey] : TTargetA[AKey];
};

// biome-ignore lint/complexity/noBannedTypes: `{}` is "any value but null or undefined", as in TanStack's WithRequired
export type WithRequired<TTarget, TKey extends keyof TTarget> = TTarget & { [_ in TKey]: {} };

// biome-ignore lint/complexity/noBannedTypes: any callable, constructors included, is an updater, not a value
type NonFunctionGuard<T> = T extends Function ? never : T;

// ---------------------------------------------------------------- registry

/**
 * Augment this interface (declaration merging) to change library-wide types:
 * `defaultError`, `queryKey`, `mutationKey`, `queryMeta`, `mutationMeta`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose; only an interface can be augmented by declaration merging
export interface Register {}

export type DefaultError = Register extends { defaultError: infer TError } ? TError : Error;

type RegisteredKey<TName extends string> = Register extends { [K in TName]: infer TKey }
  ? TKey extends ReadonlyArray<unknown>
    ? TKey
    : TKey extends Array<unknown>
      ? TKey
      : ReadonlyArray<unknown>
  : ReadonlyArray<unknown>;

export type QueryKey = RegisteredKey<'queryKey'>;

type RegisteredMeta<TName extends string> = Register extends { [K in TName]: infer TMeta }
  ? TMeta extends Record<string, unknown>
    ? TMeta
    : Record<string, unknown>
  : Record<string, unknown>;

export type QueryMeta = RegisteredMeta<'queryMeta'>;

// ---------------------------------------------------------------- data tags

/** Type-only brand on a query key that remembers the data (and error) type of its query. */
export const dataTagSymbol: unique symbol = Symbol('roundtrip.dataTag');
export type dataTagSymbol = typeof dataTagSymbol;
export const dataTagErrorSymbol: unique symbol = Symbol('roundtrip.dataTagError');
export type dataTagErrorSymbol = typeof dataTagErrorSymbol;
/** "No error type was tagged": lets inference fall back to the default error. */
export const unsetMarker: unique symbol = Symbol('roundtrip.unset');
export type UnsetMarker = typeof unsetMarker;

export type AnyDataTag = { [dataTagSymbol]: any; [dataTagErrorSymbol]: any };

export type DataTag<TType, TValue, TError = UnsetMarker> = TType extends AnyDataTag ? TType : TType & { [dataTagSymbol]: TValue; [dataTagErrorSymbol]: TError };

export type QueryKeyWithDataTag<TQueryKey extends QueryKey = QueryKey, TQueryFnData = unknown, TError = DefaultError> = {
  queryKey: DataTag<TQueryKey, TQueryFnData, TError>;
};

export type InferDataFromTag<TQueryFnData, TTaggedQueryKey extends QueryKey> =
  TTaggedQueryKey extends DataTag<unknown, infer TaggedValue, unknown> ? TaggedValue : TQueryFnData;

export type InferErrorFromTag<TError, TTaggedQueryKey extends QueryKey> =
  TTaggedQueryKey extends DataTag<unknown, unknown, infer TaggedError> ? (TaggedError extends UnsetMarker ? TError : TaggedError) : TError;

// ---------------------------------------------------------------- query functions

export type QueryFunction<T = unknown, TQueryKey extends QueryKey = QueryKey, TPageParam = never> = (
  context: QueryFunctionContext<TQueryKey, TPageParam>,
) => T | Promise<T>;

/** 'static': never stale, not even after invalidation. */
export type StaleTime = number | 'static';

export type StaleTimeFunction<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey> =
  | StaleTime
  | ((query: Query<TQueryFnData, TError, TData, TQueryKey>) => StaleTime);

export type QueryBooleanOption<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey> =
  | boolean
  | ((query: Query<TQueryFnData, TError, TData, TQueryKey>) => boolean);

export type QueryPersister<T = unknown, TQueryKey extends QueryKey = QueryKey, TPageParam = never> = [TPageParam] extends [never]
  ? (queryFn: QueryFunction<T, TQueryKey, never>, context: QueryFunctionContext<TQueryKey>, query: Query) => T | Promise<T>
  : (queryFn: QueryFunction<T, TQueryKey, TPageParam>, context: QueryFunctionContext<TQueryKey>, query: Query) => T | Promise<T>;

/** What a queryFn receives. Infinite queries (a real TPageParam) also get pageParam and direction. */
export type QueryFunctionContext<TQueryKey extends QueryKey = QueryKey, TPageParam = never> = [TPageParam] extends [never]
  ? {
      client: QueryClient;
      queryKey: TQueryKey;
      signal: AbortSignal;
      meta: QueryMeta | undefined;
      pageParam?: unknown;
      /** @deprecated only meaningful for infinite queries */
      direction?: unknown;
    }
  : {
      client: QueryClient;
      queryKey: TQueryKey;
      signal: AbortSignal;
      pageParam: TPageParam;
      /** @deprecated read the direction from your own pageParam instead */
      direction: FetchDirection;
      meta: QueryMeta | undefined;
    };

export type InitialDataFunction<T> = () => T | undefined;

export type PlaceholderDataFunction<TQueryFnData = unknown, TError = DefaultError, TQueryData = TQueryFnData, TQueryKey extends QueryKey = QueryKey> = (
  previousData: TQueryData | undefined,
  previousQuery: Query<TQueryFnData, TError, TQueryData, TQueryKey> | undefined,
) => TQueryData | undefined;

export type QueriesPlaceholderDataFunction<TQueryData> = (previousData: undefined, previousQuery: undefined) => TQueryData | undefined;

export type QueryKeyHashFunction<TQueryKey extends QueryKey> = (queryKey: TQueryKey) => string;

export type GetPreviousPageParamFunction<TPageParam, TQueryFnData = unknown> = (
  firstPage: TQueryFnData,
  allPages: Array<TQueryFnData>,
  firstPageParam: TPageParam,
  allPageParams: Array<TPageParam>,
) => TPageParam | undefined | null;

export type GetNextPageParamFunction<TPageParam, TQueryFnData = unknown> = (
  lastPage: TQueryFnData,
  allPages: Array<TQueryFnData>,
  lastPageParam: TPageParam,
  allPageParams: Array<TPageParam>,
) => TPageParam | undefined | null;

export interface InfiniteData<TData, TPageParam = unknown> {
  pages: Array<TData>;
  pageParams: Array<TPageParam>;
}

export type NetworkMode = 'online' | 'always' | 'offlineFirst';

export type NotifyOnChangeProps =
  | Array<keyof InfiniteQueryObserverResult>
  | 'all'
  | undefined
  | (() => Array<keyof InfiniteQueryObserverResult> | 'all' | undefined);

// ---------------------------------------------------------------- query options

export interface QueryOptions<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey, TPageParam = never> {
  /** false: never; true: forever; n: up to n retries; fn: ask. Default 3 (0 on the server). */
  retry?: RetryValue<TError>;
  /** Default: min(1000 * 2^failureCount, 30000) ms. */
  retryDelay?: RetryDelayValue<TError>;
  networkMode?: NetworkMode;
  /** How long an unused query stays cached. Default 5 minutes (Infinity on the server). */
  gcTime?: number;
  queryFn?: QueryFunction<TQueryFnData, TQueryKey, TPageParam> | SkipToken;
  persister?: QueryPersister<TQueryFnData, NoInfer<TQueryKey>, TPageParam>;
  queryHash?: string;
  queryKey?: TQueryKey;
  queryKeyHashFn?: QueryKeyHashFunction<TQueryKey>;
  initialData?: TData | InitialDataFunction<TData>;
  initialDataUpdatedAt?: number | (() => number | undefined);
  behavior?: QueryBehavior<TQueryFnData, TError, TData, TQueryKey>;
  structuralSharing?: boolean | ((oldData: unknown | undefined, newData: unknown) => unknown);
  _defaulted?: boolean;
  _type?: 'infinite';
  meta?: QueryMeta;
  /** Infinite queries: keep at most this many pages (0 or undefined: no limit). */
  maxPages?: number;
}

export interface InitialPageParam<TPageParam = unknown> {
  initialPageParam: TPageParam;
}

export interface InfiniteQueryPageParamsOptions<TQueryFnData = unknown, TPageParam = unknown> extends InitialPageParam<TPageParam> {
  getPreviousPageParam?: GetPreviousPageParamFunction<TPageParam, TQueryFnData>;
  getNextPageParam: GetNextPageParamFunction<TPageParam, TQueryFnData>;
}

export type ThrowOnError<TQueryFnData, TError, TQueryData, TQueryKey extends QueryKey> =
  | boolean
  | ((error: TError, query: Query<TQueryFnData, TError, TQueryData, TQueryKey>) => boolean);

type QueryTrigger<TQueryFnData, TError, TQueryData, TQueryKey extends QueryKey> =
  | boolean
  | 'always'
  | ((query: Query<TQueryFnData, TError, TQueryData, TQueryKey>) => boolean | 'always');

export interface QueryObserverOptions<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = never,
> extends WithRequired<QueryOptions<TQueryFnData, TError, TQueryData, TQueryKey, TPageParam>, 'queryKey'> {
  enabled?: QueryBooleanOption<TQueryFnData, TError, TQueryData, TQueryKey>;
  staleTime?: StaleTimeFunction<TQueryFnData, TError, TQueryData, TQueryKey>;
  /** ms between refetches; false or 0 turns polling off. */
  refetchInterval?: number | false | ((query: Query<TQueryFnData, TError, TQueryData, TQueryKey>) => number | false | undefined);
  refetchIntervalInBackground?: boolean;
  refetchOnWindowFocus?: QueryTrigger<TQueryFnData, TError, TQueryData, TQueryKey>;
  refetchOnReconnect?: QueryTrigger<TQueryFnData, TError, TQueryData, TQueryKey>;
  refetchOnMount?: QueryTrigger<TQueryFnData, TError, TQueryData, TQueryKey>;
  retryOnMount?: QueryBooleanOption<TQueryFnData, TError, TQueryData, TQueryKey>;
  notifyOnChangeProps?: NotifyOnChangeProps;
  throwOnError?: ThrowOnError<TQueryFnData, TError, TQueryData, TQueryKey>;
  select?: (data: TQueryData) => TData;
  suspense?: boolean;
  placeholderData?: NonFunctionGuard<TQueryData> | PlaceholderDataFunction<NonFunctionGuard<TQueryData>, TError, NonFunctionGuard<TQueryData>, TQueryKey>;
  _optimisticResults?: 'optimistic' | 'isRestoring';
}

export type DefaultedQueryObserverOptions<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
> = WithRequired<QueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>, 'throwOnError' | 'refetchOnReconnect' | 'queryHash'>;

export interface InfiniteQueryObserverOptions<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
> extends QueryObserverOptions<TQueryFnData, TError, TData, InfiniteData<TQueryFnData, TPageParam>, TQueryKey, TPageParam>,
    InfiniteQueryPageParamsOptions<TQueryFnData, TPageParam> {}

export type DefaultedInfiniteQueryObserverOptions<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
> = WithRequired<InfiniteQueryObserverOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>, 'throwOnError' | 'refetchOnReconnect' | 'queryHash'>;

export interface QueryExecuteOptions<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = never,
> extends WithRequired<QueryOptions<TQueryFnData, TError, TQueryData, TQueryKey, TPageParam>, 'queryKey'> {
  initialPageParam?: never;
  select?: (data: TQueryData) => TData;
  staleTime?: StaleTimeFunction<TQueryFnData, TError, TQueryData, TQueryKey>;
}

export interface FetchQueryOptions<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = never,
> extends WithRequired<QueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>, 'queryKey'> {
  initialPageParam?: never;
  /** Cached data younger than this is returned without fetching. */
  staleTime?: StaleTimeFunction<TQueryFnData, TError, TData, TQueryKey>;
}

export interface EnsureQueryDataOptions<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = never,
> extends FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam> {
  /** Also start a background refetch when the cached data is stale. */
  revalidateIfStale?: boolean;
}

export type EnsureInfiniteQueryDataOptions<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
> = FetchInfiniteQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam> & { revalidateIfStale?: boolean };

/** Prefetching several pages at once needs to know how to get from one page to the next. */
type InfiniteQueryPages<TQueryFnData = unknown, TPageParam = unknown> =
  | { pages?: never }
  | { pages: number; getNextPageParam: GetNextPageParamFunction<TPageParam, TQueryFnData> };

export type InfiniteQueryExecuteOptions<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = InfiniteData<TQueryFnData>,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
> = Omit<QueryExecuteOptions<TQueryFnData, TError, TData, InfiniteData<TQueryFnData, TPageParam>, TQueryKey, TPageParam>, 'initialPageParam'> &
  InitialPageParam<TPageParam> &
  InfiniteQueryPages<TQueryFnData, TPageParam>;

export type FetchInfiniteQueryOptions<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
> = Omit<FetchQueryOptions<TQueryFnData, TError, InfiniteData<TData, TPageParam>, TQueryKey, TPageParam>, 'initialPageParam'> &
  InitialPageParam<TPageParam> &
  InfiniteQueryPages<TQueryFnData, TPageParam>;

// ---------------------------------------------------------------- commands

export interface ResultOptions {
  throwOnError?: boolean;
}

export interface RefetchOptions extends ResultOptions {
  /** true (default): cancel a running fetch and start over; false: join the running fetch. */
  cancelRefetch?: boolean;
}

export interface InvalidateQueryFilters<TQueryKey extends QueryKey = QueryKey> extends QueryFilters<TQueryKey> {
  refetchType?: QueryTypeFilter | 'none';
}

export interface RefetchQueryFilters<TQueryKey extends QueryKey = QueryKey> extends QueryFilters<TQueryKey> {}

export interface InvalidateOptions extends RefetchOptions {}
export interface ResetOptions extends RefetchOptions {}

export interface FetchNextPageOptions extends ResultOptions {
  cancelRefetch?: boolean;
}

export interface FetchPreviousPageOptions extends ResultOptions {
  cancelRefetch?: boolean;
}

export type QueryStatus = 'pending' | 'error' | 'success';
export type FetchStatus = 'fetching' | 'paused' | 'idle';

// ---------------------------------------------------------------- client

export interface QueryClientConfig {
  queryCache?: QueryCache;
  mutationCache?: MutationCache;
  defaultOptions?: DefaultOptions;
}

export interface DefaultOptions<TError = DefaultError> {
  queries?: OmitKeyof<QueryObserverOptions<unknown, TError>, 'suspense' | 'queryKey'>;
  mutations?: MutationObserverOptions<unknown, TError, unknown, unknown>;
  hydrate?: HydrateOptions['defaultOptions'];
  dehydrate?: DehydrateOptions;
}

export interface CancelOptions {
  /** Put the state back to how it was before the fetch started. */
  revert?: boolean;
  /** Do not surface the CancelledError to observers or cache callbacks. */
  silent?: boolean;
}

export interface SetDataOptions {
  updatedAt?: number;
}

export type NotifyEventType = 'added' | 'removed' | 'updated' | 'observerAdded' | 'observerRemoved' | 'observerResultsUpdated' | 'observerOptionsUpdated';

export interface NotifyEvent {
  type: NotifyEventType;
}

import type { QueryFilters, QueryTypeFilter } from './utils';
