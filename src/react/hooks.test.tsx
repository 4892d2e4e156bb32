// @vitest-environment jsdom
/** Provider, useQueries, useInfiniteQuery, mutations, mutation state, fetching counts, hydration, restoring. */
import * as React from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, dehydrate } from 'roundtrip/query';
import { HydrationBoundary } from './HydrationBoundary';
import { IsRestoringProvider, useIsRestoring } from './IsRestoringProvider';
import { QueryClientContext, QueryClientProvider, useQueryClient } from './QueryClientProvider';
import { infiniteQueryOptions, mutationOptions, queryOptions } from './queryOptions';
import { useIsFetching } from './useIsFetching';
import { useMutation } from './useMutation';
import { useIsMutating, useMutationState } from './useMutationState';
import { useQueries } from './useQueries';
import { useInfiniteQuery, useQuery } from './useQuery';
import type { UseMutationResult } from './types';
import { ErrorBoundary, advance, createClient, later, renderWithClient, sleep } from './test-utils';

let client: QueryClient;
beforeEach(() => {
  vi.useFakeTimers();
  client = createClient();
});
afterEach(() => {
  cleanup();
  client.clear();
  vi.useRealTimers();
});

describe('QueryClientProvider', () => {
  it('provides the client and mounts/unmounts it', () => {
    const mount = vi.spyOn(client, 'mount');
    const unmount = vi.spyOn(client, 'unmount');
    let seen: QueryClient | undefined;
    function Probe() {
      seen = useQueryClient();
      return null;
    }
    const view = render(
      <QueryClientProvider client={client}>
        <Probe />
      </QueryClientProvider>,
    );
    expect(seen).toBe(client);
    expect(mount).toHaveBeenCalledTimes(1);
    view.unmount();
    expect(unmount).toHaveBeenCalledTimes(1);
  });

  it('exposes the raw context, undefined outside a provider', () => {
    let value: unknown = 'unset';
    function Probe() {
      value = React.useContext(QueryClientContext);
      return null;
    }
    render(<Probe />);
    expect(value).toBeUndefined();
  });

  it('prefers an explicit client over the context one', () => {
    const other = new QueryClient();
    let seen: QueryClient | undefined;
    function Probe() {
      seen = useQueryClient(other);
      return null;
    }
    renderWithClient(client, <Probe />);
    expect(seen).toBe(other);
  });
});

describe('useQueries', () => {
  it('returns one result per query and follows a changing list', async () => {
    function Page({ ids }: { ids: Array<number> }) {
      const results = useQueries({ queries: ids.map((id) => ({ queryKey: ['u', id], queryFn: later(id, `#${id}`) })) });
      return <p>{results.map((r) => r.data ?? '?').join(' ')}</p>;
    }
    const view = renderWithClient(client, <Page ids={[1, 2]} />);
    expect(screen.getByText('? ?')).toBeTruthy();
    await advance(2);
    expect(screen.getByText('#1 #2')).toBeTruthy();
    view.rerender(<Page ids={[2, 3]} />);
    expect(screen.getByText('#2 ?')).toBeTruthy();
    await advance(3);
    expect(screen.getByText('#2 #3')).toBeTruthy();
  });

  it('keeps the combined result stable when nothing it reads changes', async () => {
    const combined: Array<unknown> = [];
    const combine = (results: Array<{ data?: number }>) => ({ sum: results.reduce((s, r) => s + (r.data ?? 0), 0) });
    function Page() {
      const value = useQueries({ queries: [{ queryKey: ['k1'], queryFn: () => sleep(1).then(() => 1) }], combine });
      combined.push(value);
      const [, force] = React.useState(0);
      return <button onClick={() => force((n) => n + 1)}>{`sum ${value.sum}`}</button>;
    }
    renderWithClient(client, <Page />);
    await advance(1);
    fireEvent.click(screen.getByText('sum 1'));
    expect(combined.at(-1)).toBe(combined.at(-2));
  });

  it('re-renders only for properties read from any of the results', async () => {
    let renders = 0;
    function Page() {
      const results = useQueries({
        queries: [
          { queryKey: ['ta'], queryFn: later(2, 'a') },
          { queryKey: ['tb'], queryFn: later(4, 'b') },
        ],
      });
      renders++;
      return <p>{results.map((r) => r.data ?? '-').join('')}</p>;
    }
    renderWithClient(client, <Page />);
    await advance(5);
    expect(screen.getByText('ab')).toBeTruthy();
    const settled = renders;
    // refetching flips isFetching on both, but only `data` is read and it does not change
    await act(async () => {
      void client.refetchQueries({ queryKey: ['ta'] });
      void client.refetchQueries({ queryKey: ['tb'] });
    });
    await advance(5);
    expect(renders).toBe(settled);
  });

  it('throws to the error boundary with throwOnError', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Page() {
      useQueries({
        queries: [
          { queryKey: ['ok'], queryFn: later(1, 'fine') },
          { queryKey: ['bad'], queryFn: () => sleep(1).then(() => Promise.reject(new Error('list failed'))), throwOnError: true },
        ],
      });
      return null;
    }
    renderWithClient(
      client,
      <ErrorBoundary fallback={(e) => <p>{e.message}</p>}>
        <Page />
      </ErrorBoundary>,
    );
    await advance(1);
    expect(screen.getByText('list failed')).toBeTruthy();
    spy.mockRestore();
  });
});

describe('useInfiniteQuery', () => {
  it('fetches the next page and reports hasNextPage', async () => {
    function Page() {
      const { data, fetchNextPage, hasNextPage, isFetchingNextPage } = useInfiniteQuery({
        queryKey: ['pages'],
        queryFn: ({ pageParam }) => sleep(2).then(() => [pageParam, pageParam + 1]),
        initialPageParam: 0,
        getNextPageParam: (last) => (last[1]! < 3 ? last[1]! + 1 : undefined),
      });
      return <button onClick={() => void fetchNextPage()}>{`${data?.pages.flat().join(',') ?? '-'}|${hasNextPage}|${isFetchingNextPage}`}</button>;
    }
    renderWithClient(client, <Page />);
    await advance(2);
    expect(screen.getByRole('button').textContent).toBe('0,1|true|false');
    fireEvent.click(screen.getByRole('button'));
    await advance(0);
    expect(screen.getByRole('button').textContent).toBe('0,1|true|true');
    await advance(2);
    expect(screen.getByRole('button').textContent).toBe('0,1,2,3|false|false');
  });
});

describe('useMutation', () => {
  it('goes idle -> pending -> success, and mutate swallows errors', async () => {
    const statuses: Array<string> = [];
    let result: UseMutationResult<number, Error, number> | undefined;
    function Page() {
      const mutation = useMutation({
        mutationFn: (n: number): Promise<number> => sleep(2).then(() => (n > 0 ? n : Promise.reject(new Error('neg')))),
      });
      result = mutation;
      statuses.push(mutation.status);
      return null;
    }
    renderWithClient(client, <Page />);
    await act(async () => result!.mutate(5));
    await advance(2);
    expect(result!.data).toBe(5);
    await act(async () => result!.mutate(-1));
    await advance(2);
    expect(result!.error?.message).toBe('neg');
    expect(statuses).toEqual(['idle', 'pending', 'success', 'pending', 'error']);
  });

  it('mutateAsync rejects for the caller', async () => {
    let mutateAsync: ((n: number) => Promise<number>) | undefined;
    function Page() {
      mutateAsync = useMutation({
        mutationFn: (_n: number): Promise<number> => sleep(1).then(() => Promise.reject(new Error('no'))),
      }).mutateAsync;
      return null;
    }
    renderWithClient(client, <Page />);
    let caught: unknown;
    await act(async () => {
      mutateAsync!(1).catch((e) => (caught = e));
    });
    await advance(1);
    expect((caught as Error).message).toBe('no');
  });

  it('picks up new options (callbacks) without a new observer', async () => {
    const calls: Array<string> = [];
    let mutate: (() => void) | undefined;
    function Page({ label }: { label: string }) {
      mutate = useMutation({ mutationFn: later(1, 'ok'), onSuccess: () => void calls.push(label) }).mutate;
      return null;
    }
    const view = renderWithClient(client, <Page label="first" />);
    view.rerender(<Page label="second" />);
    await act(async () => mutate!());
    await advance(1);
    expect(calls).toEqual(['second']);
  });

  it('useIsMutating and useMutationState follow the mutation cache', async () => {
    const counts: Array<number> = [];
    const variables: Array<Array<unknown>> = [];
    function Watcher() {
      counts.push(useIsMutating({ mutationKey: ['save'] }));
      variables.push(useMutationState({ filters: { mutationKey: ['save'] }, select: (m) => m.state.variables }));
      return null;
    }
    function Form() {
      const { mutate } = useMutation({ mutationKey: ['save'], mutationFn: (v: string) => sleep(3).then(() => v) });
      return <button onClick={() => mutate('draft')}>save</button>;
    }
    renderWithClient(
      client,
      <>
        <Watcher />
        <Form />
      </>,
    );
    fireEvent.click(screen.getByText('save'));
    await advance(0);
    await advance(3);
    expect(counts.at(0)).toBe(0);
    expect(counts).toContain(1);
    expect(counts.at(-1)).toBe(0);
    expect(variables.at(-1)).toEqual(['draft']);
  });

  it('useMutationState keeps the same array while nothing changes', async () => {
    const seen: Array<unknown> = [];
    function Watcher() {
      seen.push(useMutationState());
      const [, force] = React.useState(0);
      return <button onClick={() => force((n) => n + 1)}>render</button>;
    }
    renderWithClient(client, <Watcher />);
    fireEvent.click(screen.getByText('render'));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
  });
});

describe('useIsFetching', () => {
  it('counts fetching queries matching the filters', async () => {
    const counts: Array<number> = [];
    function Counter() {
      counts.push(useIsFetching({ queryKey: ['f'] }));
      return null;
    }
    function Fetcher() {
      useQuery({ queryKey: ['f', 1], queryFn: later(4, 1) });
      useQuery({ queryKey: ['other'], queryFn: later(4, 1) });
      return null;
    }
    renderWithClient(
      client,
      <>
        <Counter />
        <Fetcher />
      </>,
    );
    await advance(5);
    expect(counts[0]).toBe(0);
    expect(Math.max(...counts)).toBe(1);
    expect(counts.at(-1)).toBe(0);
  });
});

describe('HydrationBoundary', () => {
  it('hydrates new queries before the children render', () => {
    const server = new QueryClient();
    server.setQueryData(['post', 1], { title: 'from the server' });
    const state = JSON.parse(JSON.stringify(dehydrate(server)));
    const renders: Array<unknown> = [];
    function Post() {
      const { data } = useQuery({ queryKey: ['post', 1], queryFn: later(1, { title: 'client' }), staleTime: Infinity });
      renders.push(data);
      return <p>{data?.title}</p>;
    }
    renderWithClient(
      client,
      <HydrationBoundary state={state}>
        <Post />
      </HydrationBoundary>,
    );
    expect(renders[0]).toEqual({ title: 'from the server' });
  });

  it('hydrates newer data for existing queries only after commit, and ignores older data', async () => {
    client.setQueryData(['doc'], 'client copy');
    vi.advanceTimersByTime(10);
    const server = new QueryClient();
    server.setQueryData(['doc'], 'server copy');
    const newer = dehydrate(server);
    const seen: Array<unknown> = [];
    function Doc() {
      const { data } = useQuery({ queryKey: ['doc'], queryFn: later(1, 'fetched'), staleTime: Infinity });
      seen.push(data);
      return null;
    }
    renderWithClient(
      client,
      <HydrationBoundary state={newer}>
        <Doc />
      </HydrationBoundary>,
    );
    await advance(0);
    expect(seen[0]).toBe('client copy');
    expect(seen.at(-1)).toBe('server copy');

    // now the client is ahead: older server state is ignored
    vi.advanceTimersByTime(10);
    client.setQueryData(['doc'], 'client edit');
    const view = renderWithClient(
      client,
      <HydrationBoundary state={newer}>
        <Doc />
      </HydrationBoundary>,
    );
    await advance(0);
    expect(client.getQueryData(['doc'])).toBe('client edit');
    view.unmount();
  });

  it('tolerates null, undefined and malformed state', () => {
    function Child() {
      return <p>child</p>;
    }
    renderWithClient(
      client,
      <>
        <HydrationBoundary state={null}>
          <Child />
        </HydrationBoundary>
        <HydrationBoundary state={undefined}>
          <Child />
        </HydrationBoundary>
        <HydrationBoundary state={{} as any}>
          <Child />
        </HydrationBoundary>
      </>,
    );
    expect(screen.getAllByText('child')).toHaveLength(3);
  });
});

describe('IsRestoringProvider', () => {
  it('holds fetches while restoring and reports it', async () => {
    const queryFn = vi.fn(later(1, 'data'));
    let restoring: boolean | undefined;
    function Data() {
      restoring = useIsRestoring();
      const { fetchStatus } = useQuery({ queryKey: ['r'], queryFn });
      return <p>{fetchStatus}</p>;
    }
    const view = renderWithClient(
      client,
      <IsRestoringProvider value={true}>
        <Data />
      </IsRestoringProvider>,
    );
    await advance(2);
    expect(restoring).toBe(true);
    expect(queryFn).not.toHaveBeenCalled();
    expect(screen.getByText('idle')).toBeTruthy();
    view.rerender(
      <IsRestoringProvider value={false}>
        <Data />
      </IsRestoringProvider>,
    );
    await advance(2);
    expect(queryFn).toHaveBeenCalledTimes(1);
  });
});

describe('option helpers', () => {
  it('return their argument unchanged', () => {
    const q = { queryKey: ['x'], queryFn: () => 1 };
    const i = { queryKey: ['y'], queryFn: () => 1, initialPageParam: 0, getNextPageParam: () => undefined };
    const m = { mutationKey: ['z'], mutationFn: () => Promise.resolve(1) };
    expect(queryOptions(q)).toBe(q);
    expect(infiniteQueryOptions(i)).toBe(i);
    expect(mutationOptions(m)).toBe(m);
  });

  it('work end to end with useQuery and getQueryData', async () => {
    const opts = queryOptions({ queryKey: ['shared'], queryFn: later(1, 42) });
    function Page() {
      return <p>{`v${useQuery(opts).data}`}</p>;
    }
    renderWithClient(client, <Page />);
    await advance(1);
    expect(client.getQueryData(opts.queryKey)).toBe(42);
    expect(screen.getByText('v42')).toBeTruthy();
  });
});

describe('public surface', () => {
  it('exports every runtime name @tanstack/react-query exports', async () => {
    const ours = await import('./index');
    const theirs = await import('@tanstack/react-query');
    const missing = Object.keys(theirs).filter((name) => !(name in ours));
    expect(missing).toEqual([]);
  });
});
