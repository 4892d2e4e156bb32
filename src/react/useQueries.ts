/**
 * useQueries: a dynamic list of queries behind one QueriesObserver, with an optional `combine` that folds
 * the results into one value (memoised by the observer, so a stable `combine` yields a stable result).
 *
 * The type machinery (each element's options and result inferred on its own) lives in queriesTypes.ts,
 * shared with useSuspenseQueries.
 */
import { React } from './reactNamespace';
import { QueriesObserver, QueryObserver, noop, notifyManager } from 'roundtrip/query';
import type { QueriesObserverOptions, QueryClient, QueryObserverOptions } from 'roundtrip/query';
import { useIsRestoring } from './IsRestoringProvider';
import { useQueryClient } from './QueryClientProvider';
import { useQueryErrorResetBoundary } from './QueryErrorResetBoundary';
import { applySuspenseTimers, preventRetryUntilReset, shouldSuspend, shouldThrowToBoundary, suspendOn, useClearReset } from './errorBoundary';
import type { GetUseQueryOptionsForUseQueries, OptionsWalk, ResultsWalk } from './queriesTypes';

/** The options tuple, each element typed from its own inference (see queriesTypes.ts). */
export type QueriesOptions<T extends Array<any>, TResults extends Array<any> = [], TDepth extends ReadonlyArray<number> = []> = OptionsWalk<
  T,
  'plain',
  TResults,
  TDepth
>;

/** The results tuple, parallel to QueriesOptions. */
export type QueriesResults<T extends Array<any>, TResults extends Array<any> = [], TDepth extends ReadonlyArray<number> = []> = ResultsWalk<
  T,
  'plain',
  TResults,
  TDepth
>;

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

  const [optimisticResult, getCombinedResult, trackResult] = observer.getOptimisticResult(defaultedQueries, observerOptions.combine);

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
    return opts !== undefined && shouldThrowToBoundary(result, resetBoundary, opts, client.getQueryCache().get(opts.queryHash));
  });
  if (failed) throw failed.error;

  return getCombinedResult(trackResult());
}
