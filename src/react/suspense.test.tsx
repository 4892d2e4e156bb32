// @vitest-environment jsdom
import * as React from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueryClient } from 'roundtrip/query';
import { QueryErrorResetBoundary, useQueryErrorResetBoundary } from './QueryErrorResetBoundary';
import { useQuery, useSuspenseInfiniteQuery, useSuspenseQuery } from './useQuery';
import { useSuspenseQueries } from './useSuspenseQueries';
import { usePrefetchInfiniteQuery, usePrefetchQuery } from './usePrefetch';
import { ErrorBoundary, advance, createClient, later, renderWithClient, sleep } from './test-utils';

let client: QueryClient;
let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.useFakeTimers();
  client = createClient();
  // React reports errors caught by boundaries on console.error
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  client.clear();
  consoleError.mockRestore();
  vi.useRealTimers();
});

describe('suspense', () => {
  it('shows the fallback, then the data, with one fetch', async () => {
    const queryFn = vi.fn(later(10, 'ready'));
    let renders = 0;
    function Data() {
      const { data } = useSuspenseQuery({ queryKey: ['s1'], queryFn });
      renders++;
      return <p>{data}</p>;
    }
    renderWithClient(
      client,
      <React.Suspense fallback={<p>loading</p>}>
        <Data />
      </React.Suspense>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    await advance(10);
    expect(screen.getByText('ready')).toBeTruthy();
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(renders).toBe(1);
  });

  it('raises staleTime to 1 s while suspending, so a quick remount does not refetch', async () => {
    const queryFn = vi.fn(later(5, 'x'));
    function Data() {
      return <p>{useSuspenseQuery({ queryKey: ['s2'], queryFn, staleTime: 0 }).data}</p>;
    }
    const ui = (
      <React.Suspense fallback={<p>loading</p>}>
        <Data />
      </React.Suspense>
    );
    const { unmount } = renderWithClient(client, ui);
    await advance(5);
    unmount();
    renderWithClient(client, ui);
    await advance(500);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(
      client
        .getQueryCache()
        .find({ queryKey: ['s2'] })!
        .isStale(),
    ).toBe(false);
    await advance(600);
    expect(
      client
        .getQueryCache()
        .find({ queryKey: ['s2'] })!
        .isStale(),
    ).toBe(true);
  });

  it('keeps showing data when a background refetch fails', async () => {
    let calls = 0;
    const queryFn = () => sleep(2).then(() => (++calls === 1 ? 'first' : Promise.reject(new Error('later failure'))));
    function Data() {
      const { data, isError } = useSuspenseQuery({ queryKey: ['s3'], queryFn });
      return <p>{`${data}/${isError}`}</p>;
    }
    renderWithClient(
      client,
      <ErrorBoundary fallback={(e) => <p>boundary {e.message}</p>}>
        <React.Suspense fallback={<p>loading</p>}>
          <Data />
        </React.Suspense>
      </ErrorBoundary>,
    );
    await advance(2);
    void client.refetchQueries({ queryKey: ['s3'] });
    await advance(5);
    expect(screen.getByText('first/true')).toBeTruthy();
  });

  it('throws to the error boundary and retries after a reset', async () => {
    let fail = true;
    const queryFn = vi.fn(() => sleep(3).then(() => (fail ? Promise.reject(new Error('down')) : 'up')));
    function Data() {
      return <p>{useSuspenseQuery({ queryKey: ['s4'], queryFn }).data}</p>;
    }
    renderWithClient(
      client,
      <QueryErrorResetBoundary>
        {({ reset }) => (
          <ErrorBoundary onReset={reset} fallback={(e, retry) => <button onClick={retry}>{e.message}</button>}>
            <React.Suspense fallback={<p>loading</p>}>
              <Data />
            </React.Suspense>
          </ErrorBoundary>
        )}
      </QueryErrorResetBoundary>,
    );
    await advance(3);
    expect(screen.getByText('down')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByText('down'));
    expect(screen.getByText('loading')).toBeTruthy();
    await advance(3);
    expect(screen.getByText('up')).toBeTruthy();
    expect(queryFn).toHaveBeenCalledTimes(2);
  });

  it('without a reset, a remounted throwOnError query does not retry (no boundary loop)', async () => {
    const queryFn = vi.fn(() => sleep(1).then(() => Promise.reject(new Error('bad'))));
    function Data() {
      useQuery({ queryKey: ['s5'], queryFn, throwOnError: true });
      return <p>fine</p>;
    }
    renderWithClient(
      client,
      <ErrorBoundary fallback={(e, retry) => <button onClick={retry}>{e.message}</button>}>
        <Data />
      </ErrorBoundary>,
    );
    await advance(1);
    fireEvent.click(screen.getByText('bad'));
    await advance(5);
    expect(screen.getByText('bad')).toBeTruthy();
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('useQueryErrorResetBoundary gives the nearest boundary value', () => {
    const values: Array<unknown> = [];
    function Probe() {
      values.push(useQueryErrorResetBoundary());
      return null;
    }
    render(
      <>
        <Probe />
        <QueryErrorResetBoundary>
          <Probe />
        </QueryErrorResetBoundary>
      </>,
    );
    expect(values[0]).not.toBe(values[1]);
    const inner = values[1] as ReturnType<typeof useQueryErrorResetBoundary>;
    expect(inner.isReset()).toBe(false);
    inner.reset();
    expect(inner.isReset()).toBe(true);
    inner.clearReset();
    expect(inner.isReset()).toBe(false);
  });

  it('useSuspenseQueries fetches all queries in parallel', async () => {
    const started: Array<string> = [];
    const fn = (k: string, ms: number) => () => {
      started.push(k);
      return sleep(ms).then(() => k.toUpperCase());
    };
    function Data() {
      const [a, b] = useSuspenseQueries({
        queries: [
          { queryKey: ['pa'], queryFn: fn('a', 5) },
          { queryKey: ['pb'], queryFn: fn('b', 8) },
        ],
      });
      return <p>{a.data + b.data}</p>;
    }
    renderWithClient(
      client,
      <React.Suspense fallback={<p>loading</p>}>
        <Data />
      </React.Suspense>,
    );
    expect(started).toEqual(['a', 'b']);
    await advance(8);
    expect(screen.getByText('AB')).toBeTruthy();
  });

  it('useSuspenseQueries applies combine', async () => {
    function Data() {
      const total = useSuspenseQueries({
        queries: [1, 2, 3].map((n) => ({ queryKey: ['c', n], queryFn: later(n, n) })),
        combine: (results) => results.reduce((sum, r) => sum + r.data, 0),
      });
      return <p>{`total ${total}`}</p>;
    }
    renderWithClient(
      client,
      <React.Suspense fallback={<p>loading</p>}>
        <Data />
      </React.Suspense>,
    );
    await advance(3);
    expect(screen.getByText('total 6')).toBeTruthy();
  });

  it('useSuspenseInfiniteQuery renders the first page', async () => {
    function Data() {
      const { data } = useSuspenseInfiniteQuery({
        queryKey: ['si'],
        queryFn: ({ pageParam }) => sleep(2).then(() => `p${pageParam}`),
        initialPageParam: 0,
        getNextPageParam: () => undefined,
      });
      return <p>{data.pages.join(',')}</p>;
    }
    renderWithClient(
      client,
      <React.Suspense fallback={<p>loading</p>}>
        <Data />
      </React.Suspense>,
    );
    await advance(2);
    expect(screen.getByText('p0')).toBeTruthy();
  });

  it('logs when skipToken is passed to a suspense hook', async () => {
    const { skipToken } = await import('roundtrip/query');
    function Data() {
      useSuspenseQuery({ queryKey: ['skip'], queryFn: skipToken as any });
      return null;
    }
    renderWithClient(
      client,
      <React.Suspense fallback={null}>
        <Data />
      </React.Suspense>,
    );
    expect(consoleError.mock.calls.some(([m]: Array<unknown>) => m === 'skipToken is not allowed for useSuspenseQuery')).toBe(true);
  });

  it('usePrefetchQuery and usePrefetchInfiniteQuery fetch only for unknown keys, ignoring errors', async () => {
    const queryFn = vi.fn(later(1, 'p'));
    const pageFn = vi.fn(() => Promise.reject(new Error('ignored')));
    function Page() {
      usePrefetchQuery({ queryKey: ['pre'], queryFn });
      usePrefetchInfiniteQuery({ queryKey: ['pre-inf'], queryFn: pageFn, initialPageParam: 0 });
      const [, force] = React.useState(0);
      return <button onClick={() => force((n) => n + 1)}>again</button>;
    }
    renderWithClient(client, <Page />);
    await advance(1);
    fireEvent.click(screen.getByText('again'));
    await advance(1);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(pageFn).toHaveBeenCalledTimes(1);
    expect(client.getQueryData(['pre'])).toBe('p');
    expect(client.getQueryState(['pre-inf'])?.status).toBe('error');
  });
});
