// @vitest-environment jsdom
import type * as React from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
afterEach(cleanup);
import { type QueryClient, keepPreviousData, skipToken } from 'roundtrip/query';
import type { UseQueryResult } from './types';
import { useQuery } from './useQuery';
import { QueryClientProvider, useQueryClient } from './QueryClientProvider';
import { advance, createClient, later, renderWithClient, sleep } from './test-utils';

let client: QueryClient;
beforeEach(() => {
  vi.useFakeTimers();
  client = createClient();
});
afterEach(() => {
  client.clear();
  vi.useRealTimers();
});

describe('useQuery', () => {
  it('renders pending, then success, from one fetch', async () => {
    const states: Array<string> = [];
    function Page() {
      const { status, fetchStatus, data } = useQuery({ queryKey: ['a'], queryFn: later(10, 'hello') });
      states.push(`${status}/${fetchStatus}/${data}`);
      return <p>{data ?? 'loading'}</p>;
    }
    renderWithClient(client, <Page />);
    expect(screen.getByText('loading')).toBeTruthy();
    await advance(10);
    expect(screen.getByText('hello')).toBeTruthy();
    expect(states).toEqual(['pending/fetching/undefined', 'success/idle/hello']);
  });

  it('throws the original message when there is no QueryClient', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Page() {
      useQuery({ queryKey: ['x'], queryFn: () => 1 });
      return null;
    }
    expect(() => render(<Page />)).toThrow('No QueryClient set, use QueryClientProvider to set one');
    spy.mockRestore();
  });

  it('rejects the v4 positional signature with the original message', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Page() {
      (useQuery as any)(['x'], () => 1);
      return null;
    }
    expect(() => renderWithClient(client, <Page />)).toThrow(/Bad argument type. Starting with v5/);
    spy.mockRestore();
  });

  it('throws the same messages as @tanstack/react-query', async () => {
    const tanstack = await import('@tanstack/react-query');
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const messageOf = (ui: React.ReactElement): string => {
      try {
        render(ui);
      } catch (error) {
        return (error as Error).message;
      } finally {
        cleanup();
      }
      return 'no error';
    };
    const noClient = (hook: (o: object) => unknown) => () => {
      hook({ queryKey: ['m'], queryFn: () => 1 });
      return null;
    };
    const positional = (hook: (...args: Array<unknown>) => unknown) => () => {
      hook(['m'], () => 1);
      return null;
    };
    const NoClientOurs = noClient(useQuery as never);
    const NoClientTheirs = noClient(tanstack.useQuery as never);
    expect(messageOf(<NoClientOurs />)).toBe('No QueryClient set, use QueryClientProvider to set one');
    expect(messageOf(<NoClientOurs />)).toBe(messageOf(<NoClientTheirs />));
    const PositionalOurs = positional(useQuery as never);
    const PositionalTheirs = positional(tanstack.useQuery as never);
    const theirClient = new tanstack.QueryClient();
    const ourMessage = messageOf(<QueryClientProvider client={client}>{<PositionalOurs />}</QueryClientProvider>);
    expect(ourMessage).toMatch(/^Bad argument type\. Starting with v5/);
    expect(ourMessage).toBe(messageOf(<tanstack.QueryClientProvider client={theirClient}>{<PositionalTheirs />}</tanstack.QueryClientProvider>));
    spy.mockRestore();
  });

  it('logs when there is no queryFn and no default one', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Page() {
      useQuery({ queryKey: ['nofn'], enabled: false });
      return null;
    }
    renderWithClient(client, <Page />);
    expect(spy.mock.calls.some(([msg]) => String(msg).startsWith('[["nofn"]]: No queryFn was passed as an option'))).toBe(true);
    spy.mockRestore();
  });

  it('accepts an explicit client instead of the context', async () => {
    function Page() {
      const { data } = useQuery({ queryKey: ['explicit'], queryFn: later(1, 'direct') }, client);
      return <p>{data ?? '-'}</p>;
    }
    render(<Page />);
    await advance(1);
    expect(screen.getByText('direct')).toBeTruthy();
  });

  it('re-renders only for the properties the component reads', async () => {
    let renders = 0;
    function Page() {
      const { data } = useQuery({ queryKey: ['tracked'], queryFn: later(5, 'same') });
      renders++;
      return <p>{data ?? '-'}</p>;
    }
    renderWithClient(client, <Page />);
    await advance(5);
    expect(renders).toBe(2);
    // A refetch flips isFetching/fetchStatus twice, but data does not change: no render.
    await act(async () => {
      void client.refetchQueries({ queryKey: ['tracked'] });
    });
    await advance(5);
    expect(renders).toBe(2);
  });

  it('re-renders for a fetching flag once it is read', async () => {
    let renders = 0;
    function Page() {
      const { data, isFetching } = useQuery({ queryKey: ['tracked2'], queryFn: later(5, 'same') });
      renders++;
      return <p>{`${data}-${isFetching}`}</p>;
    }
    renderWithClient(client, <Page />);
    await advance(5);
    expect(renders).toBe(2);
    await act(async () => {
      void client.refetchQueries({ queryKey: ['tracked2'] });
    });
    await advance(5);
    expect(renders).toBe(4);
  });

  it('with notifyOnChangeProps, re-renders only for the listed properties', async () => {
    let renders = 0;
    function Page() {
      const result = useQuery({ queryKey: ['nocp'], queryFn: later(5, 'v'), notifyOnChangeProps: ['data'] });
      renders++;
      // reads isFetching, but it is not listed: no tracking happens with an explicit list
      return <p>{`${result.data}-${result.isFetching}`}</p>;
    }
    renderWithClient(client, <Page />);
    await advance(5);
    expect(renders).toBe(2);
    await act(async () => {
      void client.refetchQueries({ queryKey: ['nocp'] });
    });
    await advance(5);
    expect(renders).toBe(2);
  });

  it('notifyOnChangeProps "all" re-renders on every change', async () => {
    let renders = 0;
    function Page() {
      const { data } = useQuery({ queryKey: ['all'], queryFn: later(5, 'v'), notifyOnChangeProps: 'all' });
      renders++;
      return <p>{data}</p>;
    }
    renderWithClient(client, <Page />);
    await advance(5);
    const before = renders;
    await act(async () => {
      void client.refetchQueries({ queryKey: ['all'] });
    });
    await advance(5);
    expect(renders).toBeGreaterThan(before);
  });

  it('follows a key change, keeping previous data with keepPreviousData', async () => {
    const seen: Array<string> = [];
    function Page({ id }: { id: number }) {
      const { data, isPlaceholderData } = useQuery({
        queryKey: ['item', id],
        queryFn: later(10, `item ${id}`),
        placeholderData: keepPreviousData,
      });
      seen.push(`${data}|${isPlaceholderData}`);
      return null;
    }
    const { rerender } = renderWithClient(client, <Page id={1} />);
    await advance(10);
    rerender(<Page id={2} />);
    await advance(10);
    expect(seen).toEqual(['undefined|false', 'item 1|false', 'item 1|true', 'item 2|false']);
  });

  it('does not fetch while disabled, or with skipToken', async () => {
    const queryFn = vi.fn(later(1, 'x'));
    function Page({ enabled }: { enabled: boolean }) {
      const a = useQuery({ queryKey: ['d'], queryFn, enabled });
      const b = useQuery({ queryKey: ['s'], queryFn: enabled ? queryFn : skipToken });
      return <p>{`${a.fetchStatus}/${b.fetchStatus}/${a.data}`}</p>;
    }
    const { rerender } = renderWithClient(client, <Page enabled={false} />);
    await advance(5);
    expect(screen.getByText('idle/idle/undefined')).toBeTruthy();
    expect(queryFn).not.toHaveBeenCalled();
    rerender(<Page enabled={true} />);
    await advance(5);
    expect(queryFn).toHaveBeenCalledTimes(2);
    expect(screen.getByText('idle/idle/x')).toBeTruthy();
  });

  it('applies select, and narrows nothing else', async () => {
    function Page() {
      const { data } = useQuery({ queryKey: ['sel'], queryFn: () => sleep(1).then(() => [1, 2, 3]), select: (xs) => xs.length });
      return <p>{`n=${data}`}</p>;
    }
    renderWithClient(client, <Page />);
    await advance(1);
    expect(screen.getByText('n=3')).toBeTruthy();
  });

  it('shows setQueryData updates and refetch() results', async () => {
    let n = 0;
    let latest: UseQueryResult<number> | undefined;
    function Page() {
      latest = useQuery({ queryKey: ['count'], queryFn: () => sleep(1).then(() => ++n) });
      const qc = useQueryClient();
      return <button onClick={() => qc.setQueryData(['count'], 100)}>{String(latest.data)}</button>;
    }
    renderWithClient(client, <Page />);
    await advance(1);
    expect(screen.getByRole('button').textContent).toBe('1');
    fireEvent.click(screen.getByRole('button'));
    await advance(0);
    expect(screen.getByRole('button').textContent).toBe('100');
    await act(async () => {
      void latest!.refetch();
    });
    await advance(1);
    expect(screen.getByRole('button').textContent).toBe('2');
  });

  it('polls with refetchInterval and stops on unmount', async () => {
    const queryFn = vi.fn(() => 'tick');
    function Page() {
      useQuery({ queryKey: ['poll'], queryFn, refetchInterval: 100 });
      return null;
    }
    const { unmount } = renderWithClient(client, <Page />);
    await advance(350);
    expect(queryFn).toHaveBeenCalledTimes(4);
    unmount();
    await advance(500);
    expect(queryFn).toHaveBeenCalledTimes(4);
  });

  it('with subscribed: false renders the cache once and ignores updates', async () => {
    client.setQueryData(['sub'], 'cached');
    let renders = 0;
    function Page() {
      const { data } = useQuery({ queryKey: ['sub'], queryFn: later(1, 'fresh'), subscribed: false, staleTime: Infinity });
      renders++;
      return <p>{data}</p>;
    }
    renderWithClient(client, <Page />);
    await act(async () => {
      client.setQueryData(['sub'], 'changed');
    });
    await advance(5);
    expect(renders).toBe(1);
    expect(screen.getByText('cached')).toBeTruthy();
  });

  it('shares one fetch between two components with the same key', async () => {
    const queryFn = vi.fn(later(5, 'shared'));
    function A() {
      return <p>{useQuery({ queryKey: ['dup'], queryFn }).data ?? '-'}</p>;
    }
    renderWithClient(
      client,
      <>
        <A />
        <A />
      </>,
    );
    await advance(5);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(screen.getAllByText('shared')).toHaveLength(2);
  });
});
