/**
 * usePrefetchQuery / usePrefetchInfiniteQuery: start a fetch during render, before a suspending child asks
 * for the same data, so siblings do not fetch in a waterfall. Only when the cache has never seen the key;
 * the result is ignored (errors included): the component that reads the data owns them.
 */
import { noop } from 'roundtrip/query';
import type { DefaultError, InfiniteData, QueryClient, QueryKey } from 'roundtrip/query';
import { useQueryClient } from './QueryClientProvider';
import type { UsePrefetchInfiniteQueryOptions, UsePrefetchQueryOptions } from './types';

export function usePrefetchQuery<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
>(options: UsePrefetchQueryOptions<TQueryFnData, TError, TData, TQueryData, TQueryKey>, queryClient?: QueryClient): void {
  const client = useQueryClient(queryClient);
  if (!client.getQueryState(options.queryKey)) void client.query(options).catch(noop);
}

export function usePrefetchInfiniteQuery<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = InfiniteData<TQueryFnData>,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
>(options: UsePrefetchInfiniteQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>, queryClient?: QueryClient): void {
  const client = useQueryClient(queryClient);
  if (!client.getQueryState(options.queryKey)) void client.infiniteQuery(options).catch(noop);
}
