/**
 * useQueries: a dynamic list of queries behind one QueriesObserver, with an optional `combine` that folds
 * the results into one value (memoised by the observer, so a stable `combine` yields a stable result).
 *
 * The type machinery walks the options tuple one element at a time (up to a depth of 20, as the original
 * does, to stay clear of TypeScript's recursion limit) and infers each result from its queryFn, select and
 * throwOnError, or from an explicit `{ queryFnData, error, data }` / `[TQueryFnData, TError, TData]` hint.
 */
import * as React from 'react';
import { QueriesObserver, QueryObserver, noop, notifyManager } from 'roundtrip/query';
import type {
  DefaultError,
  OmitKeyof,
  QueriesObserverOptions,
  QueriesPlaceholderDataFunction,
  QueryClient,
  QueryFunction,
  QueryKey,
  QueryObserverOptions,
  ThrowOnError,
} from 'roundtrip/query';
import { useIsRestoring } from './IsRestoringProvider';
import { useQueryClient } from './QueryClientProvider';
import { useQueryErrorResetBoundary } from './QueryErrorResetBoundary';
import {
  applySuspenseTimers,
  preventRetryUntilReset,
  shouldSuspend,
  shouldThrowToBoundary,
  suspendOn,
  useClearReset,
} from './errorBoundary';
import type { DefinedUseQueryResult, UseQueryOptions, UseQueryResult } from './types';

// In a list, placeholderData functions get no previous data (there is no "previous query" per slot).
type UseQueryOptionsForUseQueries<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
> = OmitKeyof<UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>, 'placeholderData' | 'subscribed'> & {
  placeholderData?: TQueryFnData | QueriesPlaceholderDataFunction<TQueryFnData>;
};

type MAXIMUM_DEPTH = 20;

// skipToken widened to symbol, so that inference still works when it is not a `unique symbol` at the use site.
type SkipTokenForUseQueries = symbol;

type GetUseQueryOptionsForUseQueries<T> = T extends { queryFnData: infer TQueryFnData; error?: infer TError; data: infer TData }
  ? UseQueryOptionsForUseQueries<TQueryFnData, TError, TData>
  : T extends { queryFnData: infer TQueryFnData; error?: infer TError }
    ? UseQueryOptionsForUseQueries<TQueryFnData, TError>
    : T extends { data: infer TData; error?: infer TError }
      ? UseQueryOptionsForUseQueries<unknown, TError, TData>
      : T extends [infer TQueryFnData, infer TError, infer TData]
        ? UseQueryOptionsForUseQueries<TQueryFnData, TError, TData>
        : T extends [infer TQueryFnData, infer TError]
          ? UseQueryOptionsForUseQueries<TQueryFnData, TError>
          : T extends [infer TQueryFnData]
            ? UseQueryOptionsForUseQueries<TQueryFnData>
            : T extends {
                  queryFn?: QueryFunction<infer TQueryFnData, infer TQueryKey> | SkipTokenForUseQueries;
                  select?: (data: any) => infer TData;
                  throwOnError?: ThrowOnError<any, infer TError, any, any>;
                }
              ? UseQueryOptionsForUseQueries<
                  TQueryFnData,
                  unknown extends TError ? DefaultError : TError,
                  unknown extends TData ? TQueryFnData : TData,
                  TQueryKey
                >
              : UseQueryOptionsForUseQueries;

// A defined initialData makes `data` defined, exactly as the useQuery overloads do.
type GetDefinedOrUndefinedQueryResult<T, TData, TError = unknown> = T extends { initialData?: infer TInitialData }
  ? unknown extends TInitialData
    ? UseQueryResult<TData, TError>
    : TInitialData extends TData
      ? DefinedUseQueryResult<TData, TError>
      : TInitialData extends () => infer TInitialDataResult
        ? unknown extends TInitialDataResult
          ? UseQueryResult<TData, TError>
          : TInitialDataResult extends TData
            ? DefinedUseQueryResult<TData, TError>
            : UseQueryResult<TData, TError>
        : UseQueryResult<TData, TError>
  : UseQueryResult<TData, TError>;

type GetUseQueryResult<T> = T extends { queryFnData: any; error?: infer TError; data: infer TData }
  ? GetDefinedOrUndefinedQueryResult<T, TData, TError>
  : T extends { queryFnData: infer TQueryFnData; error?: infer TError }
    ? GetDefinedOrUndefinedQueryResult<T, TQueryFnData, TError>
    : T extends { data: infer TData; error?: infer TError }
      ? GetDefinedOrUndefinedQueryResult<T, TData, TError>
      : T extends [any, infer TError, infer TData]
        ? GetDefinedOrUndefinedQueryResult<T, TData, TError>
        : T extends [infer TQueryFnData, infer TError]
          ? GetDefinedOrUndefinedQueryResult<T, TQueryFnData, TError>
          : T extends [infer TQueryFnData]
            ? GetDefinedOrUndefinedQueryResult<T, TQueryFnData>
            : T extends {
                  queryFn?: QueryFunction<infer TQueryFnData, any> | SkipTokenForUseQueries;
                  select?: (data: any) => infer TData;
                  throwOnError?: ThrowOnError<any, infer TError, any, any>;
                }
              ? GetDefinedOrUndefinedQueryResult<
                  T,
                  unknown extends TData ? TQueryFnData : TData,
                  unknown extends TError ? DefaultError : TError
                >
              : UseQueryResult;

/** The options tuple, each element typed from its own inference. */
export type QueriesOptions<
  T extends Array<any>,
  TResults extends Array<any> = [],
  TDepth extends ReadonlyArray<number> = [],
> = TDepth['length'] extends MAXIMUM_DEPTH
  ? Array<UseQueryOptionsForUseQueries>
  : T extends []
    ? []
    : T extends [infer Head]
      ? [...TResults, GetUseQueryOptionsForUseQueries<Head>]
      : T extends [infer Head, ...infer Tails]
        ? QueriesOptions<[...Tails], [...TResults, GetUseQueryOptionsForUseQueries<Head>], [...TDepth, 1]>
        : ReadonlyArray<unknown> extends T
          ? T
          : // a homogeneous array, e.g. from ids.map(...): infer once for all elements
            T extends Array<UseQueryOptionsForUseQueries<infer TQueryFnData, infer TError, infer TData, infer TQueryKey>>
            ? Array<UseQueryOptionsForUseQueries<TQueryFnData, TError, TData, TQueryKey>>
            : Array<UseQueryOptionsForUseQueries>;

/** The results tuple, parallel to QueriesOptions. */
export type QueriesResults<
  T extends Array<any>,
  TResults extends Array<any> = [],
  TDepth extends ReadonlyArray<number> = [],
> = TDepth['length'] extends MAXIMUM_DEPTH
  ? Array<UseQueryResult>
  : T extends []
    ? []
    : T extends [infer Head]
      ? [...TResults, GetUseQueryResult<Head>]
      : T extends [infer Head, ...infer Tails]
        ? QueriesResults<[...Tails], [...TResults, GetUseQueryResult<Head>], [...TDepth, 1]>
        : { [K in keyof T]: GetUseQueryResult<T[K]> };

export function useQueries<T extends Array<any>, TCombinedResult = QueriesResults<T>>(
  {
    queries,
    ...options
  }: {
    queries: readonly [...QueriesOptions<T>] | readonly [...{ [K in keyof T]: GetUseQueryOptionsForUseQueries<T[K]> }];
    combine?: (result: QueriesResults<T>) => TCombinedResult;
    subscribed?: boolean;
  },
  queryClient?: QueryClient,
): TCombinedResult {
  const client = useQueryClient(queryClient);
  const isRestoring = useIsRestoring();
  const resetBoundary = useQueryErrorResetBoundary();
  const subscribed = options.subscribed !== false;
  const observerOptions = options as QueriesObserverOptions<TCombinedResult>;

  const defaultedQueries = React.useMemo(
    () =>
      queries.map((opts) => {
        const defaulted = client.defaultQueryOptions(opts as QueryObserverOptions);
        defaulted._optimisticResults = isRestoring ? 'isRestoring' : subscribed ? 'optimistic' : undefined;
        return defaulted;
      }),
    [queries, client, isRestoring, subscribed],
  );

  for (const defaulted of defaultedQueries) {
    applySuspenseTimers(defaulted);
    preventRetryUntilReset(defaulted, resetBoundary, client.getQueryCache().get(defaulted.queryHash));
  }
  useClearReset(resetBoundary);

  const [observer] = React.useState(() => new QueriesObserver<TCombinedResult>(client, defaultedQueries, observerOptions));

  const [optimisticResult, getCombinedResult, trackResult] = observer.getOptimisticResult(
    defaultedQueries,
    observerOptions.combine,
  );

  React.useEffect(() => {
    observer.setQueries(defaultedQueries, observerOptions);
  }, [defaultedQueries, observerOptions, observer]);

  const shouldSubscribe = !isRestoring && subscribed;
  React.useSyncExternalStore(
    React.useCallback(
      (onStoreChange: () => void) => (shouldSubscribe ? observer.subscribe(notifyManager.batchCalls(onStoreChange)) : noop),
      [observer, shouldSubscribe],
    ),
    () => observer.getCurrentResult(),
    () => observer.getCurrentResult(),
  );

  // Suspend on every query that needs it at once, so they fetch in parallel rather than in a waterfall.
  const pending: Array<Promise<unknown>> = [];
  optimisticResult.forEach((result, index) => {
    const opts = defaultedQueries[index];
    if (opts && shouldSuspend(opts, result)) pending.push(suspendOn(opts, new QueryObserver(client, opts), resetBoundary));
  });
  if (pending.length > 0) throw Promise.all(pending);

  const failed = optimisticResult.find((result, index) => {
    const opts = defaultedQueries[index];
    return (
      opts !== undefined &&
      shouldThrowToBoundary({
        result,
        resetBoundary,
        throwOnError: opts.throwOnError,
        query: client.getQueryCache().get(opts.queryHash),
        suspense: opts.suspense,
      })
    );
  });
  if (failed) throw failed.error;

  return getCombinedResult(trackResult());
}
