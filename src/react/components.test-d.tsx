import type * as React from 'react';
import { describe, expectTypeOf, it } from 'vitest';
import * as tanstack from '@tanstack/react-query';
import { type QueryClient, skipToken } from 'roundtrip/query';
import type { DehydratedState } from 'roundtrip/query';
import {
  HydrationBoundary,
  IsRestoringProvider,
  QueryClientProvider,
  QueryErrorResetBoundary,
  useInfiniteQuery,
  usePrefetchQuery,
  useQueries,
  useQuery,
  useQueryErrorResetBoundary,
  useIsRestoring,
  useSuspenseQuery,
} from './index';
import type { HydrationBoundaryProps, QueryClientProviderProps, QueryErrorResetBoundaryProps } from './index';

describe('components', () => {
  it('QueryClientProvider needs a client', () => {
    expectTypeOf<QueryClientProviderProps['client']>().toEqualTypeOf<QueryClient>();
    // @ts-expect-error client is required
    void (<QueryClientProvider />);
  });

  it('QueryErrorResetBoundary takes nodes or a render function', () => {
    void (
      <QueryErrorResetBoundary>
        {({ reset, isReset, clearReset }) => {
          expectTypeOf(reset).toEqualTypeOf<() => void>();
          expectTypeOf(isReset).returns.toEqualTypeOf<boolean>();
          expectTypeOf(clearReset).toEqualTypeOf<() => void>();
          return null;
        }}
      </QueryErrorResetBoundary>
    );
    expectTypeOf<QueryErrorResetBoundaryProps['children']>().toExtend<React.ReactNode | ((value: never) => React.ReactNode)>();
    expectTypeOf(useQueryErrorResetBoundary().reset).toEqualTypeOf<() => void>();
  });

  it('HydrationBoundary accepts dehydrated state, null or undefined, but not mutation defaults', () => {
    expectTypeOf<HydrationBoundaryProps['state']>().toEqualTypeOf<DehydratedState | null | undefined>();
    void (<HydrationBoundary state={null} options={{ defaultOptions: { queries: { gcTime: 1 } } }} />);
    // @ts-expect-error mutations are not hydrated by the boundary
    void (<HydrationBoundary state={null} options={{ defaultOptions: { mutations: {} } }} />);
  });

  it('IsRestoringProvider takes a boolean', () => {
    void (<IsRestoringProvider value={true} />);
    expectTypeOf(useIsRestoring()).toEqualTypeOf<boolean>();
  });

  it('usePrefetchQuery refuses skipToken', () => {
    // @ts-expect-error a prefetch needs a query function
    usePrefetchQuery({ queryKey: ['x'], queryFn: skipToken });
    expectTypeOf(usePrefetchQuery({ queryKey: ['x'], queryFn: () => 1 })).toEqualTypeOf<void>();
  });
});

// Differential types: the same call through both libraries gives structurally equal types.
describe('parity with @tanstack/react-query', () => {
  const user = () => Promise.resolve({ id: 1, tags: ['a'] });

  it('useQuery data and error', () => {
    const ours = useQuery({ queryKey: ['u'], queryFn: user, select: (u) => u.tags });
    const theirs = tanstack.useQuery({ queryKey: ['u'], queryFn: user, select: (u) => u.tags });
    expectTypeOf(ours.data).toEqualTypeOf(theirs.data);
    expectTypeOf(ours.error).toEqualTypeOf(theirs.error);
    expectTypeOf(ours.status).toEqualTypeOf(theirs.status);
  });

  it('useSuspenseQuery data', () => {
    expectTypeOf(useSuspenseQuery({ queryKey: ['u'], queryFn: user }).data).toEqualTypeOf(tanstack.useSuspenseQuery({ queryKey: ['u'], queryFn: user }).data);
  });

  it('useInfiniteQuery data', () => {
    const options = {
      queryKey: ['p'],
      queryFn: ({ pageParam }: { pageParam: number }) => Promise.resolve([pageParam]),
      initialPageParam: 0,
      getNextPageParam: (last: Array<number>) => last[0],
    };
    expectTypeOf(useInfiniteQuery(options).data).toEqualTypeOf(tanstack.useInfiniteQuery(options).data);
  });

  it('useQueries tuple', () => {
    const ours = useQueries({
      queries: [
        { queryKey: ['a'], queryFn: () => Promise.resolve(1) },
        { queryKey: ['b'], queryFn: () => Promise.resolve('b'), initialData: 'x' },
      ],
    });
    const theirs = tanstack.useQueries({
      queries: [
        { queryKey: ['a'], queryFn: () => Promise.resolve(1) },
        { queryKey: ['b'], queryFn: () => Promise.resolve('b'), initialData: 'x' },
      ],
    });
    expectTypeOf(ours[0].data).toEqualTypeOf(theirs[0].data);
    expectTypeOf(ours[1].data).toEqualTypeOf(theirs[1].data);
  });

  it('option and result type names', () => {
    expectTypeOf<import('./index').UseQueryResult<number, Error>['data']>().toEqualTypeOf<tanstack.UseQueryResult<number, Error>['data']>();
    expectTypeOf<keyof import('./index').UseQueryOptions>().toEqualTypeOf<keyof tanstack.UseQueryOptions>();
    expectTypeOf<keyof import('./index').UseSuspenseQueryOptions>().toEqualTypeOf<keyof tanstack.UseSuspenseQueryOptions>();
    expectTypeOf<keyof import('./index').UseInfiniteQueryOptions>().toEqualTypeOf<keyof tanstack.UseInfiniteQueryOptions>();
    expectTypeOf<keyof import('./index').UseMutationOptions>().toEqualTypeOf<keyof tanstack.UseMutationOptions>();
    expectTypeOf<keyof import('./index').UseMutationResult>().toEqualTypeOf<keyof tanstack.UseMutationResult>();
  });
});
