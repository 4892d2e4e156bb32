// @vitest-environment jsdom
/**
 * Differential: patterns from TanStack Query v5's own guides, written the way the guides write them
 * (through useQueryClient, callbacks, effects and event handlers), against @tanstack/react-query.
 * Optimistic updates through the cache with rollback, optimistic UI from useMutationState with the
 * invalidation promise returned from onSettled, dependent queries (useQuery and useQueries), paginated
 * queries that keep the previous page and prefetch the next, prefetch on hover, cancellation through
 * the AbortSignal, and initialData taken from a list query with initialDataUpdatedAt.
 */
import * as React from 'react';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { later, ours, pick, runScenario, sleep, theirs } from './differential.harness';
import type { Scenario } from './differential.harness';

interface Todo {
  id: number;
  title: string;
}

/** A tiny fake server the scenarios share: a todo list with latency, and a switch to make writes fail. */
function server() {
  const todos: Array<Todo> = [{ id: 1, title: 'milk' }];
  let failWrites = false;
  return {
    list: () => sleep(20).then(() => todos.map((t) => ({ ...t }))),
    add: (title: string) =>
      sleep(15).then(() => {
        if (failWrites) throw new Error(`could not add ${title}`);
        const todo = { id: todos.length + 1, title };
        todos.push(todo);
        return todo;
      }),
    failNextWrites: (on: boolean) => void (failWrites = on),
  };
}

const titles = (todos: Array<Todo> | undefined) => todos?.map((t) => t.title).join(',');

const scenarios: Array<Scenario> = [
  {
    name: 'optimistic update through the cache: cancel, snapshot, write; roll back on error; invalidate on settle',
    setup: ({ lib, log }) => {
      const api = server();
      function Todos() {
        const client = lib.useQueryClient();
        const todos = lib.useQuery({ queryKey: ['todos'], queryFn: api.list });
        const add = lib.useMutation({
          mutationFn: api.add,
          onMutate: async (title: string, context) => {
            await context.client.cancelQueries({ queryKey: ['todos'] });
            const previous = context.client.getQueryData<Array<Todo>>(['todos']);
            context.client.setQueryData<Array<Todo>>(['todos'], (old = []) => [...old, { id: -1, title }]);
            log({ onMutate: titles(previous) });
            return { previous };
          },
          onError: (error, title, onMutateResult) => {
            log({ onError: (error as Error).message, title });
            client.setQueryData(['todos'], onMutateResult?.previous);
          },
          onSettled: (_data, _error, _title, _result, context) => context.client.invalidateQueries({ queryKey: ['todos'] }),
        });
        log({ todos: titles(todos.data), fetching: todos.isFetching, mutation: add.status, context: add.context });
        return (
          <>
            <button onClick={() => add.mutate('eggs')}>add eggs</button>
            <button onClick={() => (api.failNextWrites(true), add.mutate('bread'))}>add bread</button>
          </>
        );
      }
      return <Todos />;
    },
    drive: async (d, { client }) => {
      await d.advance(30);
      await d.click('add eggs');
      for (let i = 0; i < 6; i++) await d.advance(10);
      // a refetch is in flight when the next optimistic write lands: onMutate's cancelQueries stops it
      await d.act(() => void client.refetchQueries({ queryKey: ['todos'] }));
      await d.advance(5);
      await d.click('add bread');
      for (let i = 0; i < 8; i++) await d.advance(10);
    },
  },
  {
    name: 'optimistic UI from useMutationState: pending variables until the invalidation settles',
    setup: ({ lib, log }) => {
      const api = server();
      function AddTodo() {
        const client = lib.useQueryClient();
        const add = lib.useMutation({
          mutationKey: ['addTodo'],
          mutationFn: api.add,
          // returned, so the mutation stays pending until the list has been refetched
          onSettled: () => client.invalidateQueries({ queryKey: ['todos'] }),
        });
        log({ add: pick(add, ['status', 'variables', 'isPending', 'submittedAt']) });
        return <button onClick={() => add.mutate('jam')}>add jam</button>;
      }
      function List() {
        const todos = lib.useQuery({ queryKey: ['todos'], queryFn: api.list });
        const pending = lib.useMutationState<string>({
          filters: { mutationKey: ['addTodo'], status: 'pending' },
          select: (mutation) => mutation.state.variables as string,
        });
        log({ list: titles(todos.data), optimistic: pending });
        return null;
      }
      return (
        <>
          <List />
          <AddTodo />
        </>
      );
    },
    drive: async (d) => {
      await d.advance(30);
      await d.click('add jam');
      for (let i = 0; i < 6; i++) await d.advance(10);
    },
  },
  {
    name: 'dependent queries: enabled waits for the user; useQueries fans out once the ids are known',
    setup: ({ lib, log }) => {
      function Projects() {
        const user = lib.useQuery({ queryKey: ['user', 'ann@example.com'], queryFn: later(10, { id: 7, projectIds: [1, 2] }) });
        const userId = user.data?.id;
        const projects = lib.useQuery({
          queryKey: ['projects', userId],
          queryFn: () => sleep(10).then(() => `projects of ${userId}`),
          enabled: !!userId,
        });
        const details = lib.useQueries({
          queries: (user.data?.projectIds ?? []).map((id) => ({
            queryKey: ['project', id],
            queryFn: () => sleep(5 * id).then(() => `project ${id}`),
          })),
        });
        log({
          user: pick(user, ['status', 'fetchStatus']),
          projects: pick(projects, ['status', 'fetchStatus', 'data', 'isLoading']),
          details: details.map((r) => r.data ?? r.status),
        });
        return null;
      }
      return <Projects />;
    },
    drive: async (d) => {
      for (let i = 0; i < 5; i++) await d.advance(5);
    },
  },
  {
    name: 'paginated: keepPreviousData while the next page loads, prefetch the page after it',
    setup: ({ lib, log }) => {
      const fetchPage = (page: number) => sleep(10).then(() => ({ page, rows: [`row ${page}a`, `row ${page}b`], hasMore: page < 2 }));
      function Pages() {
        const client = lib.useQueryClient();
        const [page, setPage] = React.useState(0);
        const r = lib.useQuery({ queryKey: ['rows', page], queryFn: () => fetchPage(page), placeholderData: lib.keepPreviousData, staleTime: 5000 });
        React.useEffect(() => {
          if (!r.isPlaceholderData && r.data?.hasMore) {
            void client.prefetchQuery({ queryKey: ['rows', page + 1], queryFn: () => fetchPage(page + 1), staleTime: 5000 });
          }
        }, [r.data, r.isPlaceholderData, page, client]);
        log({ page, ...pick(r, ['status', 'data', 'isPlaceholderData', 'isFetching']) });
        return (
          <>
            <button onClick={() => setPage((p) => p - 1)}>previous</button>
            <button onClick={() => setPage((p) => p + 1)}>next</button>
          </>
        );
      }
      return <Pages />;
    },
    drive: async (d, { client }) => {
      await d.advance(15);
      await d.advance(15);
      await d.click('next'); // page 1 was prefetched: no placeholder; page 2's prefetch starts
      await d.click('next'); // page 2 still in flight: page 1 stays on screen as placeholder
      await d.advance(15);
      await d.act(() => void client.removeQueries({ queryKey: ['rows', 0] }));
      await d.click('previous');
      await d.click('previous'); // page 0 was removed: page 1 is the placeholder while it loads
      await d.advance(15);
    },
  },
  {
    name: 'prefetch on hover with ensureQueryData; the detail view then renders without a loading state',
    setup: ({ lib, log }) => {
      let calls = 0;
      const detail = (id: number) => ({
        queryKey: ['todo', id],
        queryFn: () => (calls++, sleep(20).then(() => ({ id, title: `todo ${id}` }))),
        staleTime: 60_000,
      });
      function Detail({ id }: { id: number }) {
        const r = lib.useQuery(detail(id));
        log({ detail: pick(r, ['status', 'data', 'isFetching']), calls });
        return null;
      }
      function Page() {
        const client = lib.useQueryClient();
        const [open, setOpen] = React.useState<number | null>(null);
        return (
          <>
            {/* biome-ignore lint/a11y/useValidAnchor: the guide's prefetch-on-hover pattern is a link that also handles clicks */}
            <a
              href="#1"
              onMouseEnter={() => void client.ensureQueryData(detail(1)).then((data) => log({ ensured: data, calls }))}
              onClick={(e) => (e.preventDefault(), setOpen(1))}
            >
              todo one
            </a>
            {open !== null && <Detail id={open} />}
          </>
        );
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.act(() => fireEvent.mouseEnter(screen.getByText('todo one')));
      await d.advance(10);
      // hovering again while the first prefetch runs does not start a second request
      await d.act(() => fireEvent.mouseEnter(screen.getByText('todo one')));
      await d.advance(15);
      await d.click('todo one');
      await d.advance(5);
      await d.act(() => fireEvent.mouseEnter(screen.getByText('todo one')));
      await d.advance(5);
    },
  },
  {
    name: 'cancellation: unmounting aborts a fetch that consumed the signal; remounting fetches again',
    setup: ({ lib, log }) => {
      const search = ({ signal, queryKey }: { signal: AbortSignal; queryKey: ReadonlyArray<unknown> }) =>
        new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => resolve(`results for ${String(queryKey[1])}`), 30);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            log({ aborted: queryKey[1], reason: (signal.reason as Error | undefined)?.constructor?.name });
            reject(signal.reason);
          });
        });
      function Results() {
        log({ results: pick(lib.useQuery({ queryKey: ['search', 'cats'], queryFn: search }), ['status', 'fetchStatus', 'data', 'error']) });
        return null;
      }
      function Page() {
        const [shown, setShown] = React.useState(true);
        return (
          <>
            <button onClick={() => setShown((s) => !s)}>toggle</button>
            {shown && <Results />}
          </>
        );
      }
      return <Page />;
    },
    drive: async (d, { client, log }) => {
      await d.advance(10);
      await d.click('toggle');
      await d.advance(1);
      log({ afterUnmount: pick(client.getQueryState(['search', 'cats']) ?? {}, ['status', 'fetchStatus', 'data']) });
      await d.click('toggle');
      await d.advance(40);
      // manual cancel from outside, the guide's other route
      await d.act(() => void client.refetchQueries({ queryKey: ['search'] }));
      await d.advance(10);
      await d.act(() => client.cancelQueries({ queryKey: ['search'] }));
      await d.advance(40);
    },
  },
  {
    name: 'initialData from the list query, aged by initialDataUpdatedAt, refetched once stale',
    setup: ({ lib, log }) => {
      const api = server();
      function Detail() {
        const client = lib.useQueryClient();
        const r = lib.useQuery({
          queryKey: ['todo', 1],
          queryFn: () => sleep(10).then(() => ({ id: 1, title: 'milk (from server)' })),
          initialData: () => client.getQueryData<Array<Todo>>(['todos'])?.find((t) => t.id === 1),
          initialDataUpdatedAt: () => client.getQueryState(['todos'])?.dataUpdatedAt,
          staleTime: 100,
        });
        log({ detail: pick(r, ['status', 'data', 'dataUpdatedAt', 'isStale', 'isFetching']) });
        return null;
      }
      function Page() {
        const list = lib.useQuery({ queryKey: ['todos'], queryFn: api.list, staleTime: Infinity });
        const [show, setShow] = React.useState(false);
        log({ list: titles(list.data) });
        return (
          <>
            <button onClick={() => setShow(true)}>open</button>
            {show && <Detail />}
          </>
        );
      }
      return <Page />;
    },
    drive: async (d) => {
      await d.advance(25);
      await d.advance(50);
      await d.click('open'); // list data is 55 ms old: fresh for the detail, no fetch
      await d.advance(60);
      await d.act(() => fireEvent.focus(window));
      await d.act(() => window.dispatchEvent(new Event('visibilitychange')));
      await d.advance(20);
    },
  },
];

// Apps run in StrictMode during development: double renders and double effects must not change what is seen.
for (const scenario of [...scenarios]) scenarios.push({ ...scenario, name: `${scenario.name} (StrictMode)`, strict: true });

describe('differential: patterns from the TanStack Query guides', () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const theirLog = await runScenario(theirs, scenario);
      const ourLog = await runScenario(ours, scenario);
      expect(theirLog.length).toBeGreaterThan(2);
      expect(ourLog).toEqual(theirLog);
    });
  }
});
