/**
 * useSuspenseQueries: useQueries with every query forced into suspense; the component renders only when
 * all of them have data, and the result types say so (`data` is never undefined).
 */
import { skipToken } from 'roundtrip/query';
import type { QueryClient } from 'roundtrip/query';
import type { GetUseSuspenseQueryOptions, OptionsWalk, ResultsWalk } from './queriesTypes';
import { useQueries } from './useQueries';
import { suspenseOverrides } from './useQuery';

export type SuspenseQueriesOptions<T extends Array<any>, TResults extends Array<any> = [], TDepth extends ReadonlyArray<number> = []> = OptionsWalk<
  T,
  'suspense',
  TResults,
  TDepth
>;

export type SuspenseQueriesResults<T extends Array<any>, TResults extends Array<any> = [], TDepth extends ReadonlyArray<number> = []> = ResultsWalk<
  T,
  'suspense',
  TResults,
  TDepth
>;

export function useSuspenseQueries<T extends Array<any>, TCombinedResult = SuspenseQueriesResults<T>>(
  options: {
    queries: readonly [...SuspenseQueriesOptions<T>] | readonly [...{ [K in keyof T]: GetUseSuspenseQueryOptions<T[K]> }];
    combine?: (result: SuspenseQueriesResults<T>) => TCombinedResult;
  },
  queryClient?: QueryClient,
): TCombinedResult;
export function useSuspenseQueries<T extends Array<any>, TCombinedResult = SuspenseQueriesResults<T>>(
  options: {
    queries: readonly [...SuspenseQueriesOptions<T>];
    combine?: (result: SuspenseQueriesResults<T>) => TCombinedResult;
  },
  queryClient?: QueryClient,
): TCombinedResult;
export function useSuspenseQueries(options: any, queryClient?: QueryClient): unknown {
  return useQueries(
    {
      ...options,
      queries: options.queries.map((query: any) => {
        if (process.env.NODE_ENV !== 'production' && query.queryFn === skipToken) {
          console.error('skipToken is not allowed for useSuspenseQueries');
        }
        return { ...query, ...suspenseOverrides };
      }),
    },
    queryClient,
  );
}
