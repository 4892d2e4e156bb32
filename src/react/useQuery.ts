/**
 * useQuery and useInfiniteQuery, with and without suspense: thin typed entry points into useBaseQuery.
 * Overloads pick the result type: with `initialData` that is never undefined, `data` is never undefined.
 */
import { InfiniteQueryObserver, QueryObserver, skipToken } from 'roundtrip/query';
import type { DefaultError, InfiniteData, QueryClient, QueryKey } from 'roundtrip/query';
import { throwWhenNoData } from './errorBoundary';
import type {
  DefinedInitialDataInfiniteOptions,
  DefinedInitialDataOptions,
  UndefinedInitialDataInfiniteOptions,
  UndefinedInitialDataOptions,
} from './queryOptions';
import type {
  DefinedUseInfiniteQueryResult,
  DefinedUseQueryResult,
  UseInfiniteQueryOptions,
  UseInfiniteQueryResult,
  UseQueryOptions,
  UseQueryResult,
  UseSuspenseInfiniteQueryOptions,
  UseSuspenseInfiniteQueryResult,
  UseSuspenseQueryOptions,
  UseSuspenseQueryResult,
} from './types';
import { useBaseQuery } from './useBaseQuery';

export function useQuery<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
  options: DefinedInitialDataOptions<TQueryFnData, TError, TData, TQueryKey>,
  queryClient?: QueryClient,
): DefinedUseQueryResult<TData, TError>;
export function useQuery<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
  options: UndefinedInitialDataOptions<TQueryFnData, TError, TData, TQueryKey>,
  queryClient?: QueryClient,
): UseQueryResult<TData, TError>;
export function useQuery<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
  options: UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
  queryClient?: QueryClient,
): UseQueryResult<TData, TError>;
export function useQuery(options: UseQueryOptions, queryClient?: QueryClient): UseQueryResult {
  return useBaseQuery(options, QueryObserver, queryClient);
}

export function useInfiniteQuery<
  TQueryFnData,
  TError = DefaultError,
  TData = InfiniteData<TQueryFnData>,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
>(
  options: DefinedInitialDataInfiniteOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
  queryClient?: QueryClient,
): DefinedUseInfiniteQueryResult<TData, TError>;
export function useInfiniteQuery<
  TQueryFnData,
  TError = DefaultError,
  TData = InfiniteData<TQueryFnData>,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
>(
  options: UndefinedInitialDataInfiniteOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
  queryClient?: QueryClient,
): UseInfiniteQueryResult<TData, TError>;
export function useInfiniteQuery<
  TQueryFnData,
  TError = DefaultError,
  TData = InfiniteData<TQueryFnData>,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
>(options: UseInfiniteQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>, queryClient?: QueryClient): UseInfiniteQueryResult<TData, TError>;
export function useInfiniteQuery(options: UseInfiniteQueryOptions, queryClient?: QueryClient): UseInfiniteQueryResult {
  return useBaseQuery(options as any, InfiniteQueryObserver as typeof QueryObserver, queryClient) as UseInfiniteQueryResult;
}

/** What every suspense hook forces, whatever the caller passed. */
export const suspenseOverrides = {
  enabled: true,
  suspense: true,
  throwOnError: throwWhenNoData,
  placeholderData: undefined,
} as const;

export function useSuspenseQuery<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
  options: UseSuspenseQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
  queryClient?: QueryClient,
): UseSuspenseQueryResult<TData, TError> {
  if (process.env.NODE_ENV !== 'production' && (options.queryFn as unknown) === skipToken) {
    console.error('skipToken is not allowed for useSuspenseQuery');
  }
  return useBaseQuery({ ...options, ...suspenseOverrides }, QueryObserver, queryClient) as UseSuspenseQueryResult<TData, TError>;
}

export function useSuspenseInfiniteQuery<
  TQueryFnData,
  TError = DefaultError,
  TData = InfiniteData<TQueryFnData>,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
>(
  options: UseSuspenseInfiniteQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
  queryClient?: QueryClient,
): UseSuspenseInfiniteQueryResult<TData, TError> {
  if (process.env.NODE_ENV !== 'production' && (options.queryFn as unknown) === skipToken) {
    console.error('skipToken is not allowed for useSuspenseInfiniteQuery');
  }
  return useBaseQuery(
    { ...options, ...suspenseOverrides } as any,
    InfiniteQueryObserver as typeof QueryObserver,
    queryClient,
  ) as unknown as UseSuspenseInfiniteQueryResult<TData, TError>;
}
