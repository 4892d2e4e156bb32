/**
 * roundtrip/react: React bindings for roundtrip/query, with the @tanstack/react-query v5 interface.
 * This file is the library's only public surface.
 *
 * Like the original, it re-exports the whole core, so an app imports everything from one place.
 */
export * from 'roundtrip/query';
// Named explicitly as well: the entry-point test checks this is the core's binding, not a copy.
export { QUERY_VERSION } from 'roundtrip/query';
export const REACT_BINDINGS_VERSION = '0.1.0';

export type {
  AnyUseBaseQueryOptions,
  UseBaseQueryOptions,
  UsePrefetchQueryOptions,
  UsePrefetchInfiniteQueryOptions,
  AnyUseQueryOptions,
  UseQueryOptions,
  AnyUseSuspenseQueryOptions,
  UseSuspenseQueryOptions,
  AnyUseInfiniteQueryOptions,
  UseInfiniteQueryOptions,
  AnyUseSuspenseInfiniteQueryOptions,
  UseSuspenseInfiniteQueryOptions,
  UseBaseQueryResult,
  UseQueryResult,
  UseSuspenseQueryResult,
  DefinedUseQueryResult,
  UseInfiniteQueryResult,
  DefinedUseInfiniteQueryResult,
  UseSuspenseInfiniteQueryResult,
  AnyUseMutationOptions,
  UseMutationOptions,
  UseMutateFunction,
  UseMutateAsyncFunction,
  UseBaseMutationResult,
  UseMutationResult,
} from './types';
export { useQueries } from './useQueries';
export type { QueriesResults, QueriesOptions } from './useQueries';
export { useQuery, useInfiniteQuery, useSuspenseQuery, useSuspenseInfiniteQuery } from './useQuery';
export { useSuspenseQueries } from './useSuspenseQueries';
export type { SuspenseQueriesResults, SuspenseQueriesOptions } from './useSuspenseQueries';
export { usePrefetchQuery, usePrefetchInfiniteQuery } from './usePrefetch';
export { queryOptions, infiniteQueryOptions, mutationOptions } from './queryOptions';
export type {
  DefinedInitialDataOptions,
  UndefinedInitialDataOptions,
  UnusedSkipTokenOptions,
  DefinedInitialDataInfiniteOptions,
  UndefinedInitialDataInfiniteOptions,
  UnusedSkipTokenInfiniteOptions,
} from './queryOptions';
export { QueryClientContext, QueryClientProvider, useQueryClient } from './QueryClientProvider';
export type { QueryClientProviderProps } from './QueryClientProvider';
export { HydrationBoundary } from './HydrationBoundary';
export type { HydrationBoundaryProps } from './HydrationBoundary';
export { QueryErrorResetBoundary, useQueryErrorResetBoundary } from './QueryErrorResetBoundary';
export type {
  QueryErrorResetBoundaryProps,
  QueryErrorClearResetFunction,
  QueryErrorIsResetFunction,
  QueryErrorResetBoundaryFunction,
  QueryErrorResetFunction,
} from './QueryErrorResetBoundary';
export { useIsFetching } from './useIsFetching';
export { useIsMutating, useMutationState } from './useMutationState';
export { useMutation } from './useMutation';
export { useIsRestoring, IsRestoringProvider } from './IsRestoringProvider';
