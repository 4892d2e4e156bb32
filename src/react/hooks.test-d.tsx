import { describe, expectTypeOf, it } from 'vitest';
import { QueryClient, skipToken } from 'roundtrip/query';
import type { DataTag, InfiniteData, MutationState, QueryKey } from 'roundtrip/query';
import {
  infiniteQueryOptions,
  mutationOptions,
  queryOptions,
  useInfiniteQuery,
  useIsFetching,
  useIsMutating,
  useMutation,
  useMutationState,
  useQueries,
  useQuery,
  useQueryClient,
  useSuspenseInfiniteQuery,
  useSuspenseQueries,
  useSuspenseQuery,
} from './index';
import type { DefinedUseQueryResult, UseQueryOptions, UseQueryResult, UseSuspenseQueryOptions } from './index';

const fetchUser = (): Promise<{ id: number; name: string }> => Promise.resolve({ id: 1, name: 'ada' });
type User = { id: number; name: string };

describe('useQuery', () => {
  it('infers data from queryFn, possibly undefined', () => {
    const result = useQuery({ queryKey: ['user'], queryFn: fetchUser });
    expectTypeOf(result.data).toEqualTypeOf<User | undefined>();
    expectTypeOf(result.error).toEqualTypeOf<Error | null>();
    expectTypeOf(result).toEqualTypeOf<UseQueryResult<User, Error>>();
  });

  it('narrows data on status and isSuccess', () => {
    const result = useQuery({ queryKey: ['user'], queryFn: fetchUser });
    if (result.isSuccess) expectTypeOf(result.data).toEqualTypeOf<User>();
    if (result.status === 'error') expectTypeOf(result.error).toEqualTypeOf<Error>();
    if (result.isPending) expectTypeOf(result.data).toEqualTypeOf<undefined>();
  });

  it('makes data defined with defined initialData', () => {
    const result = useQuery({ queryKey: ['user'], queryFn: fetchUser, initialData: { id: 0, name: '' } });
    expectTypeOf(result.data).toEqualTypeOf<User>();
    expectTypeOf(result).toEqualTypeOf<DefinedUseQueryResult<User, Error>>();
    const fromFn = useQuery({ queryKey: ['user'], queryFn: fetchUser, initialData: () => ({ id: 0, name: '' }) });
    expectTypeOf(fromFn.data).toEqualTypeOf<User>();
  });

  it('keeps data optional when initialData may return undefined', () => {
    const result = useQuery({
      queryKey: ['user'],
      queryFn: fetchUser,
      initialData: () => undefined as User | undefined,
    });
    expectTypeOf(result.data).toEqualTypeOf<User | undefined>();
  });

  it('applies select to data', () => {
    const result = useQuery({ queryKey: ['user'], queryFn: fetchUser, select: (user) => user.name.length });
    expectTypeOf(result.data).toEqualTypeOf<number | undefined>();
  });

  it('accepts explicit generics, skipToken, and a custom error type', () => {
    const result = useQuery<User, TypeError>({ queryKey: ['u'], queryFn: skipToken });
    expectTypeOf(result.error).toEqualTypeOf<TypeError | null>();
    expectTypeOf(result.data).toEqualTypeOf<User | undefined>();
  });

  it('has no suspense option', () => {
    // @ts-expect-error suspense is chosen by the hook, not an option
    useQuery({ queryKey: ['x'], queryFn: fetchUser, suspense: true });
    expectTypeOf<UseQueryOptions>().not.toHaveProperty('suspense');
  });

  it('refetch resolves to the result', () => {
    const { refetch } = useQuery({ queryKey: ['user'], queryFn: fetchUser });
    expectTypeOf(refetch).returns.resolves.toEqualTypeOf<UseQueryResult<User, Error>>();
  });
});

describe('queryOptions', () => {
  it('tags the query key with the data type', () => {
    const options = queryOptions({ queryKey: ['user', 1], queryFn: fetchUser });
    expectTypeOf(options.queryKey).toEqualTypeOf<(string | number)[] & { [dataTagSymbol]: User; [dataTagErrorSymbol]: Error }>;
    const client = new QueryClient();
    expectTypeOf(client.getQueryData(options.queryKey)).toEqualTypeOf<User | undefined>();
    expectTypeOf(useQuery(options).data).toEqualTypeOf<User | undefined>();
  });

  it('keeps defined initialData through useQuery', () => {
    const options = queryOptions({ queryKey: ['user'], queryFn: fetchUser, initialData: { id: 0, name: '' } });
    expectTypeOf(useQuery(options).data).toEqualTypeOf<User>();
  });

  it('rejects unknown keys', () => {
    // @ts-expect-error not an option
    queryOptions({ queryKey: ['user'], queryFn: fetchUser, stallTime: 1 });
  });
});

declare const dataTagSymbol: unique symbol;
declare const dataTagErrorSymbol: unique symbol;

describe('useSuspenseQuery', () => {
  it('always has data', () => {
    const result = useSuspenseQuery({ queryKey: ['user'], queryFn: fetchUser });
    expectTypeOf(result.data).toEqualTypeOf<User>();
    expectTypeOf(result).not.toHaveProperty('isPlaceholderData');
  });

  it('does not accept enabled, placeholderData, throwOnError or skipToken', () => {
    // @ts-expect-error enabled is not an option of suspense hooks
    useSuspenseQuery({ queryKey: ['x'], queryFn: fetchUser, enabled: false });
    // @ts-expect-error placeholderData is not an option of suspense hooks
    useSuspenseQuery({ queryKey: ['x'], queryFn: fetchUser, placeholderData: { id: 0, name: '' } });
    // @ts-expect-error skipToken cannot suspend
    useSuspenseQuery({ queryKey: ['x'], queryFn: skipToken });
    expectTypeOf<UseSuspenseQueryOptions>().not.toHaveProperty('throwOnError');
  });
});

describe('useInfiniteQuery', () => {
  it('infers pages and page params', () => {
    const result = useInfiniteQuery({
      queryKey: ['pages'],
      queryFn: ({ pageParam }) => {
        expectTypeOf(pageParam).toEqualTypeOf<number>();
        return Promise.resolve(`page ${pageParam}`);
      },
      initialPageParam: 0,
      getNextPageParam: (_last, _all, lastParam) => lastParam + 1,
    });
    expectTypeOf(result.data).toEqualTypeOf<InfiniteData<string, unknown> | undefined>();
    expectTypeOf(result.hasNextPage).toEqualTypeOf<boolean>();
  });

  it('suspense variant has data', () => {
    const result = useSuspenseInfiniteQuery({
      queryKey: ['pages'],
      queryFn: () => Promise.resolve(1),
      initialPageParam: 0,
      getNextPageParam: () => undefined,
    });
    expectTypeOf(result.data).toEqualTypeOf<InfiniteData<number, unknown>>();
  });

  it('infiniteQueryOptions tags the key with InfiniteData', () => {
    const options = infiniteQueryOptions({
      queryKey: ['feed'],
      queryFn: () => Promise.resolve('item'),
      initialPageParam: 0,
      getNextPageParam: () => 1,
    });
    const client = new QueryClient();
    expectTypeOf(client.getQueryData(options.queryKey)).toEqualTypeOf<InfiniteData<string, unknown> | undefined>();
  });
});

describe('useQueries', () => {
  it('infers a tuple of results', () => {
    const [a, b] = useQueries({
      queries: [
        { queryKey: ['a'], queryFn: () => Promise.resolve(1) },
        { queryKey: ['b'], queryFn: () => Promise.resolve('b'), select: (s: string) => s.length > 0 },
      ],
    });
    expectTypeOf(a.data).toEqualTypeOf<number | undefined>();
    expectTypeOf(b.data).toEqualTypeOf<boolean | undefined>();
  });

  it('infers a homogeneous array from map', () => {
    const results = useQueries({
      queries: [1, 2].map((id) => ({ queryKey: ['item', id], queryFn: () => Promise.resolve({ id }) })),
    });
    expectTypeOf(results[0]!.data).toEqualTypeOf<{ id: number } | undefined>();
  });

  it('types combine from the results', () => {
    const total = useQueries({
      queries: [
        { queryKey: ['a'], queryFn: () => Promise.resolve(1) },
        { queryKey: ['b'], queryFn: () => Promise.resolve(2) },
      ],
      combine: (results) => results.map((r) => r.data ?? 0).reduce((x, y) => x + y, 0),
    });
    expectTypeOf(total).toEqualTypeOf<number>();
  });

  it('defined initialData gives a defined result', () => {
    const [a] = useQueries({ queries: [{ queryKey: ['a'], queryFn: () => Promise.resolve(1), initialData: 0 }] });
    expectTypeOf(a.data).toEqualTypeOf<number>();
  });

  it('useSuspenseQueries results always have data', () => {
    const [a, b] = useSuspenseQueries({
      queries: [
        { queryKey: ['a'], queryFn: () => Promise.resolve(1) },
        { queryKey: ['b'], queryFn: () => Promise.resolve('x'), select: (s: string) => s.split('') },
      ],
    });
    expectTypeOf(a.data).toEqualTypeOf<number>();
    expectTypeOf(b.data).toEqualTypeOf<Array<string>>();
  });

  // useQueries and useSuspenseQueries share one walk over the options (queriesTypes.ts): each kind must
  // still get its own element types, for tuples, explicit hints and homogeneous arrays alike.
  it('explicit type hints, per kind', () => {
    const [a, b] = useQueries<[{ queryFnData: number; error: Error; data: string }, [boolean]]>({
      queries: [
        { queryKey: ['a'], queryFn: () => Promise.resolve(1), select: (n) => String(n) },
        { queryKey: ['b'], queryFn: () => Promise.resolve(true) },
      ],
    });
    expectTypeOf(a.data).toEqualTypeOf<string | undefined>();
    expectTypeOf(a.error).toEqualTypeOf<Error | null>();
    expectTypeOf(b.data).toEqualTypeOf<boolean | undefined>();
    const [c] = useSuspenseQueries<[[number, Error, string]]>({
      queries: [{ queryKey: ['c'], queryFn: () => Promise.resolve(1), select: (n) => String(n) }],
    });
    expectTypeOf(c.data).toEqualTypeOf<string>();
  });

  it('useSuspenseQueries infers a homogeneous array from map, with data always defined', () => {
    const results = useSuspenseQueries({
      queries: [1, 2].map((id) => ({ queryKey: ['item', id], queryFn: () => Promise.resolve({ id }) })),
    });
    expectTypeOf(results[0]!.data).toEqualTypeOf<{ id: number }>();
  });
});

describe('mutations', () => {
  it('useMutation infers data, variables and context', () => {
    const m = useMutation({
      mutationFn: (input: { title: string }) => Promise.resolve({ id: 1, ...input }),
      onMutate: () => ({ snapshot: 'before' }),
      onError: (_error, _variables, onMutateResult) => {
        expectTypeOf(onMutateResult).toEqualTypeOf<{ snapshot: string } | undefined>();
      },
    });
    expectTypeOf(m.data).toEqualTypeOf<{ id: number; title: string } | undefined>();
    expectTypeOf(m.mutate).parameter(0).toEqualTypeOf<{ title: string }>();
    expectTypeOf(m.mutate).returns.toEqualTypeOf<void>();
    expectTypeOf(m.mutateAsync).returns.resolves.toEqualTypeOf<{ id: number; title: string }>();
    if (m.isError) expectTypeOf(m.error).toEqualTypeOf<Error>();
  });

  it('mutationOptions keeps the mutation key required when given', () => {
    const options = mutationOptions({ mutationKey: ['save'], mutationFn: (n: number) => Promise.resolve(n) });
    expectTypeOf(options.mutationKey).toEqualTypeOf<ReadonlyArray<unknown>>();
    expectTypeOf(useMutation(options).data).toEqualTypeOf<number | undefined>();
  });

  it('useMutationState returns states, or what select returns', () => {
    expectTypeOf(useMutationState()).toEqualTypeOf<Array<MutationState<unknown, Error, unknown, unknown>>>();
    const vars = useMutationState({ select: (mutation) => mutation.state.variables as string });
    expectTypeOf(vars).toEqualTypeOf<Array<string>>();
  });

  it('counters are numbers', () => {
    expectTypeOf(useIsFetching()).toEqualTypeOf<number>();
    expectTypeOf(useIsMutating({ mutationKey: ['x'] })).toEqualTypeOf<number>();
    expectTypeOf(useQueryClient()).toEqualTypeOf<QueryClient>();
  });
});

// Keep imported type-only names used (tag types are checked through getQueryData above).
type _Unused = DataTag<QueryKey, unknown> | UseQueryOptions;
