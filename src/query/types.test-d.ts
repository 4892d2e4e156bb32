import { describe, expectTypeOf, it } from 'vitest';
import {
  InfiniteQueryObserver,
  MutationObserver,
  QueriesObserver,
  QueryClient,
  QueryObserver,
  skipToken,
  type DataTag,
  type DefaultError,
  type InfiniteData,
  type QueryFunctionContext,
  type QueryKey,
  type QueryObserverResult,
  type QueryState,
  type SkipToken,
} from './index';

interface Todo {
  id: number;
  title: string;
}

const client = new QueryClient();

describe('QueryObserver results narrow on status flags', () => {
  const observer = new QueryObserver(client, { queryKey: ['todos'], queryFn: async () => [{ id: 1, title: 'a' }] as Array<Todo> });
  const result = observer.getCurrentResult();

  it('infers data from queryFn', () => {
    expectTypeOf(result.data).toEqualTypeOf<Array<Todo> | undefined>();
    expectTypeOf(result.error).toEqualTypeOf<Error | null>();
  });

  it('narrows on isSuccess / status success', () => {
    if (result.isSuccess) {
      expectTypeOf(result.data).toEqualTypeOf<Array<Todo>>();
      expectTypeOf(result.error).toEqualTypeOf<null>();
    }
    if (result.status === 'success') expectTypeOf(result.data).toEqualTypeOf<Array<Todo>>();
  });

  it('narrows on isPending and isError', () => {
    if (result.isPending) {
      expectTypeOf(result.data).toEqualTypeOf<undefined>();
      expectTypeOf(result.status).toEqualTypeOf<'pending'>();
    }
    if (result.isError) {
      expectTypeOf(result.error).toEqualTypeOf<Error>();
      expectTypeOf(result.data).toEqualTypeOf<Array<Todo> | undefined>();
    }
    if (result.isLoadingError) expectTypeOf(result.data).toEqualTypeOf<undefined>();
    if (result.isRefetchError) expectTypeOf(result.data).toEqualTypeOf<Array<Todo>>();
  });

  it('select changes the data type; TError is generic', () => {
    const selected = new QueryObserver<Array<Todo>, TypeError, number>(client, {
      queryKey: ['todos'],
      select: (todos) => todos.length,
    }).getCurrentResult();
    expectTypeOf(selected.data).toEqualTypeOf<number | undefined>();
    if (selected.isError) expectTypeOf(selected.error).toEqualTypeOf<TypeError>();
  });

  it('placeholder results are success with data', () => {
    if (result.isPlaceholderData) expectTypeOf(result.data).toEqualTypeOf<Array<Todo>>();
  });

  it('refetch resolves with a result', () => {
    expectTypeOf(result.refetch).returns.resolves.toEqualTypeOf<QueryObserverResult<Array<Todo>, Error>>();
  });
});

describe('DataTag inference on the client', () => {
  const todosKey = ['todos'] as DataTag<Array<string>, Array<Todo>, TypeError>;

  it('getQueryData / setQueryData / getQueryState infer from a tagged key', () => {
    expectTypeOf(client.getQueryData(todosKey)).toEqualTypeOf<Array<Todo> | undefined>();
    client.setQueryData(todosKey, (old) => {
      expectTypeOf(old).toEqualTypeOf<Array<Todo> | undefined>();
      return old;
    });
    // @ts-expect-error the tag says the data is Array<Todo>
    client.setQueryData(todosKey, 'nope');
    const state = client.getQueryState(todosKey);
    expectTypeOf(state).toEqualTypeOf<QueryState<Array<Todo>, TypeError> | undefined>();
  });

  it('untagged keys fall back to the explicit or unknown type', () => {
    expectTypeOf(client.getQueryData(['x'])).toEqualTypeOf<unknown>();
    expectTypeOf(client.getQueryData<number>(['x'])).toEqualTypeOf<number | undefined>();
  });

  it('fetchQuery and ensureQueryData resolve with the queryFn data', () => {
    expectTypeOf(client.fetchQuery({ queryKey: ['n'], queryFn: () => 1 })).resolves.toEqualTypeOf<number>();
    expectTypeOf(client.ensureQueryData({ queryKey: ['n'], queryFn: async () => 'a' })).resolves.toEqualTypeOf<string>();
    expectTypeOf(client.prefetchQuery({ queryKey: ['n'], queryFn: () => 1 })).resolves.toEqualTypeOf<void>();
  });
});

describe('skipToken', () => {
  it('is a unique symbol accepted as queryFn', () => {
    expectTypeOf(skipToken).toEqualTypeOf<SkipToken>();
    const enabled = Math.random() > 0.5;
    const observer = new QueryObserver(client, {
      queryKey: ['maybe'],
      queryFn: enabled ? async () => 42 : skipToken,
    });
    expectTypeOf(observer.getCurrentResult().data).toEqualTypeOf<number | undefined>();
  });

  it('narrows away in a queryFn union', () => {
    const fn = (Math.random() > 0.5 ? async () => 1 : skipToken) as (() => Promise<number>) | SkipToken;
    if (fn !== skipToken) expectTypeOf(fn).toEqualTypeOf<() => Promise<number>>();
  });
});

describe('infinite queries', () => {
  it('types pages, pageParams and the queryFn context', () => {
    const observer = new InfiniteQueryObserver(client, {
      queryKey: ['pages'],
      queryFn: ({ pageParam }) => {
        expectTypeOf(pageParam).toEqualTypeOf<number>();
        return Promise.resolve({ items: [pageParam], next: pageParam + 1 });
      },
      initialPageParam: 0,
      getNextPageParam: (last) => last.next,
    });
    const result = observer.getCurrentResult();
    expectTypeOf(result.data).toEqualTypeOf<InfiniteData<{ items: Array<number>; next: number }, unknown> | undefined>();
    expectTypeOf(result.hasNextPage).toEqualTypeOf<boolean>();
    if (result.isSuccess) expectTypeOf(result.data.pages).toEqualTypeOf<Array<{ items: Array<number>; next: number }>>();
  });

  it('context for plain queries has no typed pageParam', () => {
    expectTypeOf<QueryFunctionContext<QueryKey>['pageParam']>().toEqualTypeOf<unknown>();
    expectTypeOf<QueryFunctionContext<QueryKey, number>['pageParam']>().toEqualTypeOf<number>();
  });
});

describe('mutations', () => {
  it('infers data and variables; result narrows on status', () => {
    const observer = new MutationObserver(client, {
      mutationFn: async (variables: { title: string }) => ({ id: 1, title: variables.title }) as Todo,
      onMutate: () => ({ snapshot: 1 }),
      onError: (error, variables, onMutateResult) => {
        expectTypeOf(error).toEqualTypeOf<DefaultError>();
        expectTypeOf(variables).toEqualTypeOf<{ title: string }>();
        expectTypeOf(onMutateResult).toEqualTypeOf<{ snapshot: number } | undefined>();
      },
    });
    const result = observer.getCurrentResult();
    if (result.isSuccess) {
      expectTypeOf(result.data).toEqualTypeOf<Todo>();
      expectTypeOf(result.variables).toEqualTypeOf<{ title: string }>();
    }
    if (result.isIdle) expectTypeOf(result.data).toEqualTypeOf<undefined>();
    if (result.status === 'error') expectTypeOf(result.error).toEqualTypeOf<Error>();
    expectTypeOf(observer.mutate).parameter(0).toEqualTypeOf<{ title: string }>();
    expectTypeOf(observer.mutate({ title: 'x' })).resolves.toEqualTypeOf<Todo>();
  });
});

describe('QueriesObserver', () => {
  it('combine decides the combined type', () => {
    const observer = new QueriesObserver(client, [{ queryKey: ['a'] }], { combine: (results) => results.length });
    const [, combine] = observer.getOptimisticResult([], (results) => results.length);
    expectTypeOf(combine()).toEqualTypeOf<number>();
  });
});
