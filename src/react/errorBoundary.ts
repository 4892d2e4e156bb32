/**
 * When a query result goes to the nearest error boundary, and the suspense rules that come with it.
 *
 * - `throwOnError` (true, or a predicate on the error and query) throws a settled error into the boundary;
 *   suspense hooks always throw when there is no data to show.
 * - Until the boundary is reset, a query that already threw must not retry on mount, or the boundary
 *   would loop: fail, throw, remount, fetch, fail...
 * - During suspense, staleTime is raised to at least 1 s (and gcTime likewise): the component that
 *   suspended remounts right after the fetch, and must not see the data it waited for as stale.
 */
import { React } from './reactNamespace';
import { shouldThrowError } from 'roundtrip/query';
import type { DefaultedQueryObserverOptions, Query, QueryKey, QueryObserver, QueryObserverResult, ThrowOnError } from 'roundtrip/query';
import type { QueryErrorResetBoundaryValue } from './QueryErrorResetBoundary';

type AnyDefaulted = DefaultedQueryObserverOptions<any, any, any, any, any>;

/** Suspense hooks throw only when there is nothing to render; a failed background refetch keeps the data. */
export const throwWhenNoData = (_error: unknown, query: Query<any, any, any, any>): boolean => query.state.data === undefined;

// The floor used by @tanstack/react-query v5 (MIN_SUSPENSE_TIME_MS); long enough to survive the remount.
const SUSPENSE_MIN_MS = 1000;

export function applySuspenseTimers(options: AnyDefaulted): void {
  if (!options.suspense) return;
  const clamp = (value: number | 'static' | undefined): number | 'static' => (value === 'static' ? value : Math.max(value ?? SUSPENSE_MIN_MS, SUSPENSE_MIN_MS));
  const staleTime = options.staleTime;
  options.staleTime = typeof staleTime === 'function' ? (query) => clamp(staleTime(query)) : clamp(staleTime);
  if (typeof options.gcTime === 'number') options.gcTime = Math.max(options.gcTime, SUSPENSE_MIN_MS);
}

export const shouldSuspend = (options: AnyDefaulted | undefined, result: QueryObserverResult<any, any>): boolean => !!options?.suspense && result.isPending;

/** The promise a suspending component throws; a failure clears the reset flag so the retry can throw again. */
export const suspendOn = <TQueryFnData, TError, TData, TQueryData, TQueryKey extends QueryKey>(
  options: DefaultedQueryObserverOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>,
  observer: QueryObserver<TQueryFnData, TError, TData, TQueryData, TQueryKey>,
  resetBoundary: QueryErrorResetBoundaryValue,
): Promise<unknown> => observer.fetchOptimistic(options).catch(() => resetBoundary.clearReset());

export function preventRetryUntilReset(options: AnyDefaulted, resetBoundary: QueryErrorResetBoundaryValue, query: Query<any, any, any, any> | undefined): void {
  const throwOnError =
    query?.state.status === 'error' && typeof options.throwOnError === 'function'
      ? shouldThrowError(options.throwOnError, [query.state.error, query])
      : options.throwOnError;
  if ((options.suspense || throwOnError) && !resetBoundary.isReset()) options.retryOnMount = false;
}

/** After a render commits, the reset (if any) has been consumed. */
export function useClearReset(resetBoundary: QueryErrorResetBoundaryValue): void {
  React.useEffect(() => {
    resetBoundary.clearReset();
  }, [resetBoundary]);
}

export function shouldThrowToBoundary<TError>(
  result: QueryObserverResult<unknown, TError>,
  resetBoundary: QueryErrorResetBoundaryValue,
  { throwOnError, suspense }: { throwOnError?: ThrowOnError<any, TError, any, any>; suspense?: boolean },
  query: Query<any, TError, any, any> | undefined,
): boolean {
  return (
    result.isError &&
    !resetBoundary.isReset() &&
    !result.isFetching &&
    query !== undefined &&
    ((!!suspense && result.data === undefined) || shouldThrowError(throwOnError, [result.error as TError, query]))
  );
}
