/**
 * The one hook behind useQuery, useInfiniteQuery and their suspense variants.
 *
 * Order matters, and follows @tanstack/react-query v5:
 * 1. default the options and mark them optimistic, so the first render already says "fetching";
 * 2. apply the suspense and error-boundary rules to the options (errorBoundary.ts);
 * 3. read the optimistic result *before* useSyncExternalStore, so render and store agree;
 * 4. hand new options to the observer in an effect (never during render: that could notify other components);
 * 5. subscribe through useSyncExternalStore; on subscribe, refresh the result so nothing that happened between
 *    render and commit is missed;
 * 6. suspend (throw a promise) or throw to the error boundary;
 * 7. return a tracking proxy unless `notifyOnChangeProps` says which properties matter.
 */
import { React } from './reactNamespace';
import { noop, notifyManager } from 'roundtrip/query';
import type { QueryClient, QueryKey, QueryObserver, QueryObserverResult } from 'roundtrip/query';
import { useIsRestoring } from './IsRestoringProvider';
import { useQueryClient } from './QueryClientProvider';
import { useQueryErrorResetBoundary } from './QueryErrorResetBoundary';
import { applySuspenseTimers, preventRetryUntilReset, shouldSuspend, shouldThrowToBoundary, suspendOn, useClearReset } from './errorBoundary';
import type { UseBaseQueryOptions } from './types';

export function useBaseQuery<TQueryFnData, TError, TData, TQueryData, TQueryKey extends QueryKey>(
  options: UseBaseQueryOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>,
  Observer: typeof QueryObserver,
  queryClient?: QueryClient,
): QueryObserverResult<TData, TError> {
  // Messages match @tanstack/react-query word for word: they are part of the interface people search for.
  if (process.env.NODE_ENV !== 'production' && (typeof options !== 'object' || Array.isArray(options))) {
    throw new Error(
      'Bad argument type. Starting with v5, only the "Object" form is allowed when calling query related functions. Please use the error stack to find the culprit call. More info here: https://tanstack.com/query/latest/docs/react/guides/migrating-to-v5#supports-a-single-signature-one-object',
    );
  }

  const isRestoring = useIsRestoring();
  const resetBoundary = useQueryErrorResetBoundary();
  const client = useQueryClient(queryClient);
  const defaulted = client.defaultQueryOptions(options);
  const query = client.getQueryCache().get<TQueryFnData, TError, TQueryData, TQueryKey>(defaulted.queryHash);

  if (process.env.NODE_ENV !== 'production' && !defaulted.queryFn) {
    console.error(
      `[${defaulted.queryHash}]: No queryFn was passed as an option, and no default queryFn was found. The queryFn parameter is only optional when using a default queryFn. More info here: https://tanstack.com/query/latest/docs/framework/react/guides/default-query-function`,
    );
  }

  const subscribed = options.subscribed !== false;
  defaulted._optimisticResults = isRestoring ? 'isRestoring' : subscribed ? 'optimistic' : undefined;

  applySuspenseTimers(defaulted);
  preventRetryUntilReset(defaulted, resetBoundary, query);
  useClearReset(resetBoundary);

  const [observer] = React.useState(() => new Observer<TQueryFnData, TError, TData, TQueryData, TQueryKey>(client, defaulted));

  const result = observer.getOptimisticResult(defaulted);

  React.useEffect(() => {
    observer.setOptions(defaulted);
  }, [defaulted, observer]);

  const shouldSubscribe = !isRestoring && subscribed;
  const getSnapshot = () => observer.getCurrentResult();
  React.useSyncExternalStore(
    React.useCallback(
      (onStoreChange: () => void) => {
        const unsubscribe = shouldSubscribe ? observer.subscribe(notifyManager.batchCalls(onStoreChange)) : noop;
        observer.updateResult();
        return unsubscribe;
      },
      [observer, shouldSubscribe],
    ),
    getSnapshot,
    getSnapshot,
  );

  if (shouldSuspend(defaulted, result)) {
    throw suspendOn(defaulted, observer, resetBoundary);
  }

  if (shouldThrowToBoundary(result, resetBoundary, defaulted, query)) throw result.error;

  return defaulted.notifyOnChangeProps ? result : observer.trackResult(result);
}
