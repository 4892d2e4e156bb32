/**
 * Type-level compatibility with @tanstack/query-core for the data shapes (classes are nominal because
 * of their private fields, so only plain result/state types are compared, in both directions).
 */
import type * as ref from '@tanstack/query-core';
import { describe, expectTypeOf, it } from 'vitest';
import type * as ours from './index';

type Todo = { id: number };

describe('result and state types are mutually assignable with the reference', () => {
  it('query observer results', () => {
    expectTypeOf<ours.QueryObserverResult<Todo, TypeError>>().toMatchTypeOf<ref.QueryObserverResult<Todo, TypeError>>();
    expectTypeOf<ref.QueryObserverResult<Todo, TypeError>>().toMatchTypeOf<ours.QueryObserverResult<Todo, TypeError>>();
    expectTypeOf<ours.DefinedQueryObserverResult<Todo>>().toMatchTypeOf<ref.DefinedQueryObserverResult<Todo>>();
    expectTypeOf<ref.QueryObserverSuccessResult<Todo>>().toMatchTypeOf<ours.QueryObserverSuccessResult<Todo>>();
  });

  it('infinite results', () => {
    type Data = ours.InfiniteData<Todo, number>;
    expectTypeOf<ours.InfiniteQueryObserverResult<Data>>().toMatchTypeOf<ref.InfiniteQueryObserverResult<Data>>();
    expectTypeOf<ref.InfiniteQueryObserverResult<Data>>().toMatchTypeOf<ours.InfiniteQueryObserverResult<Data>>();
  });

  it('query state and mutation state', () => {
    expectTypeOf<ours.QueryState<Todo>>().toEqualTypeOf<ref.QueryState<Todo>>();
    expectTypeOf<ours.MutationState<Todo, Error, string, number>>().toEqualTypeOf<ref.MutationState<Todo, Error, string, number>>();
  });

  it('status unions and small option types are identical', () => {
    expectTypeOf<ours.QueryStatus>().toEqualTypeOf<ref.QueryStatus>();
    expectTypeOf<ours.FetchStatus>().toEqualTypeOf<ref.FetchStatus>();
    expectTypeOf<ours.MutationStatus>().toEqualTypeOf<ref.MutationStatus>();
    expectTypeOf<ours.NetworkMode>().toEqualTypeOf<ref.NetworkMode>();
    expectTypeOf<ours.StaleTime>().toEqualTypeOf<ref.StaleTime>();
    expectTypeOf<ours.NotifyEventType>().toEqualTypeOf<ref.NotifyEventType>();
    expectTypeOf<ours.CancelOptions>().toEqualTypeOf<ref.CancelOptions>();
    expectTypeOf<ours.RefetchOptions>().toEqualTypeOf<ref.RefetchOptions>();
    expectTypeOf<ours.MutationScope>().toEqualTypeOf<ref.MutationScope>();
    expectTypeOf<ours.QueryKey>().toEqualTypeOf<ref.QueryKey>();
  });

  it('queryClient.query() and infiniteQuery() resolve to the same types', () => {
    const oursClient = {} as ours.QueryClient;
    const refClient = {} as ref.QueryClient;
    const todo = { queryKey: ['todo', 1] as const, queryFn: async (): Promise<Todo> => ({ id: 1 }) };
    expectTypeOf(oursClient.query(todo)).toEqualTypeOf(refClient.query(todo));
    expectTypeOf(oursClient.query(todo)).toEqualTypeOf<Promise<Todo>>();
    const selected = { ...todo, select: (t: Todo) => String(t.id) };
    expectTypeOf(oursClient.query(selected)).toEqualTypeOf(refClient.query(selected));
    expectTypeOf(oursClient.query(selected)).toEqualTypeOf<Promise<string>>();
    const pages = {
      queryKey: ['todos'] as const,
      queryFn: async ({ pageParam }: { pageParam: number }): Promise<Todo[]> => [{ id: pageParam }],
      initialPageParam: 0,
    };
    expectTypeOf(oursClient.infiniteQuery(pages)).toEqualTypeOf<Promise<ours.InfiniteData<Todo[], number>>>();
    expectTypeOf(oursClient.infiniteQuery(pages)).toEqualTypeOf(refClient.infiniteQuery(pages));
  });

  it('mutation observer results', () => {
    // `mutate` mentions the client class (nominal), so compare everything else
    type R1 = Omit<ours.MutationObserverResult<Todo, Error, string, number>, 'mutate'>;
    type R2 = Omit<ref.MutationObserverResult<Todo, Error, string, number>, 'mutate'>;
    expectTypeOf<R1>().toMatchTypeOf<R2>();
    expectTypeOf<R2>().toMatchTypeOf<R1>();
  });
});
