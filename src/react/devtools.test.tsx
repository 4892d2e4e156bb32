// @vitest-environment jsdom
/**
 * Differential: TanStack Query Devtools (@tanstack/query-devtools, the framework-neutral panel that
 * @tanstack/react-query-devtools wraps) mounted on a @tanstack/query-core client and on a roundtrip/query
 * client. The devtools import the core for types only and work through the client they are given, reading
 * well past the documented surface: `query.isDisabled()`, `isStatic()`, `getObserversCount()`, the Query
 * object's own fields (its "Query Explorer"), `query.setState` / `fetch(options)` / `cancel({ silent })`
 * for the Trigger Loading / Trigger Error buttons, and the mutation cache. What a user sees in the panel
 * after each step must be the same.
 *
 * jsdom has no layout: the stubs below give elements a size so the virtualised query list renders rows,
 * and supply the few browser APIs the panel touches (matchMedia, ResizeObserver, CSS highlights).
 */
import type * as React from 'react';
import { render } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as tanstack from '@tanstack/query-core';
import * as tanstackReact from '@tanstack/react-query';
import * as roundtrip from '../query/index';
import * as roundtripReact from './index';
import { loadReactDevtools } from '../query/diff/ecosystem';

type Core = typeof roundtrip;
const libs: Record<'theirs' | 'ours', Core> = { theirs: tanstack as unknown as Core, ours: roundtrip };

let Devtools: typeof import('@tanstack/query-devtools').TanstackQueryDevtools;

beforeAll(async () => {
  const size = (value: number) => ({ configurable: true, get: () => value });
  Object.defineProperty(Element.prototype, 'clientHeight', size(600));
  Object.defineProperty(Element.prototype, 'clientWidth', size(800));
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', size(600));
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', size(800));
  const w = window as any;
  w.matchMedia = (media: string) => ({ matches: false, media, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} });
  w.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  w.CSS = { ...w.CSS, highlights: new Map(), supports: () => false, escape: (s: string) => s };
  w.Highlight = class extends Set {};
  ({ TanstackQueryDevtools: Devtools } = await import('@tanstack/query-devtools'));
});

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const pause = (ms = 15) => new Promise((resolve) => setTimeout(resolve, ms));

function clickButton(root: ParentNode, text: string): void {
  const button = [...root.querySelectorAll('button')].find((b) => b.textContent?.trim() === text);
  if (!button) throw new Error(`no button "${text}" in the devtools panel`);
  button.click();
}

/** What the panel shows: status badges, the query list, the selected query's details, and the explorer. */
function view(root: HTMLElement): unknown {
  const labels = (selector: string) => [...root.querySelectorAll(selector)].map((el) => el.getAttribute('aria-label'));
  const rows = [...root.querySelectorAll('[aria-label^="Query key"], [aria-label^="Mutation submitted"]')].map(
    (el) => `${el.getAttribute('aria-label')} | ${el.textContent}`,
  );
  const heading = (name: string) => [...root.querySelectorAll('[role="heading"]')].find((h) => h.textContent === name);
  const section = (name: string) => {
    const el = heading(name)?.nextElementSibling;
    if (!el) return undefined;
    // values shown in inputs (the data explorer's editable leaves) are not in textContent
    const inputs = [...el.querySelectorAll('input')].map((input) => input.value).filter(Boolean);
    return `${el.textContent?.replace(/\s+/g, ' ').trim()}${inputs.length ? ` [${inputs.join(', ')}]` : ''}`;
  };
  return {
    badges: labels('button[aria-label*=": "]'),
    rows,
    details: section('Query Details') ?? section('Mutation Details'),
    actions: section('Actions'),
    data: section('Data Explorer'),
    explorer: section('Query Explorer') ?? section('Mutations Explorer'),
  };
}

type Script = (ctx: { client: any; lib: Core; root: HTMLElement; snap: (label: string) => Promise<void> }) => Promise<void>;
/** Puts the panel into `root` for `client`; returns how to take it down. */
type Mount = (client: any, lib: Core, root: HTMLElement) => Promise<() => void>;

const mountCore: Mount = async (client, lib, root) => {
  const devtools = new Devtools({ client, queryFlavor: 'React Query', version: '5', onlineManager: lib.onlineManager as any, initialIsOpen: true });
  devtools.mount(root);
  return () => devtools.unmount();
};

async function runDevtools(lib: Core, script: Script, mount: Mount = mountCore) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  lib.onlineManager.setOnline(true);
  lib.focusManager.setFocused(true);
  const client = new lib.QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = document.createElement('div');
  document.body.appendChild(root);
  const snapshots: Array<unknown> = [];
  let unmount = () => {};
  try {
    unmount = await mount(client, lib, root);
    await vi.waitFor(() => expect(root.querySelector('[aria-label="Tanstack query devtools"]')).not.toBeNull(), { timeout: 3000 });
    const snap = async (label: string) => {
      await pause();
      const cache = client
        .getQueryCache()
        .getAll()
        .map((q: any) => [q.queryHash, q.state.status, q.state.fetchStatus, q.state.data]);
      snapshots.push({ label, view: view(root), cache });
    };
    await script({ client, lib, root, snap });
  } finally {
    unmount();
    root.remove();
    client.clear();
    localStorage.clear();
    lib.focusManager.setFocused(undefined);
    vi.useRealTimers();
  }
  return snapshots;
}

function devtoolsDiff(name: string, script: Script, mounts?: { theirs: () => Mount; ours: () => Mount }): void {
  it(name, async () => {
    const theirs = await runDevtools(libs.theirs, script, mounts?.theirs());
    const ours = await runDevtools(libs.ours, script, mounts?.ours());
    expect(JSON.stringify(theirs)).toMatch(/Query key|Mutation submitted/);
    expect(ours).toEqual(theirs);
  }, 90_000);
}

describe('differential: TanStack Query Devtools on both cores', () => {
  devtoolsDiff('the query list, status badges and the details of each query', async ({ client, lib, root, snap }) => {
    const todos = new lib.QueryObserver(client, { queryKey: ['todos'], queryFn: () => Promise.resolve(['milk']), staleTime: 60_000 });
    const stopTodos = todos.subscribe(() => {});
    const stale = new lib.QueryObserver(client, { queryKey: ['stale'], queryFn: () => Promise.resolve({ n: 1 }) });
    const stopStale = stale.subscribe(() => {});
    const off = new lib.QueryObserver(client, { queryKey: ['disabled'], queryFn: () => Promise.resolve(0), enabled: false });
    const stopOff = off.subscribe(() => {});
    const fixed = new lib.QueryObserver(client, { queryKey: ['static'], queryFn: () => Promise.resolve('s'), staleTime: 'static' });
    const stopFixed = fixed.subscribe(() => {});
    client.setQueryData(['inactive'], { nested: { list: [1, 2, 3] } });
    await client.prefetchQuery({ queryKey: ['broken'], queryFn: () => Promise.reject(new Error('boom')) });
    await snap('list');
    for (const row of [...root.querySelectorAll<HTMLElement>('[aria-label^="Query key"]')]) {
      row.click();
      await snap(`selected ${row.getAttribute('aria-label')}`);
    }
    stopTodos();
    stopStale();
    stopOff();
    stopFixed();
    await snap('observers gone');
  });

  devtoolsDiff('the action buttons: refetch, invalidate, trigger loading / error and restore, reset, remove', async ({ client, lib, root, snap }) => {
    let calls = 0;
    const observer = new lib.QueryObserver(client, { queryKey: ['acted'], queryFn: () => Promise.resolve(`fetch ${++calls}`), staleTime: 60_000 });
    const stop = observer.subscribe(() => {});
    await snap('start');
    root.querySelector<HTMLElement>('[aria-label^="Query key"]')!.click();
    await snap('selected');
    for (const action of ['Refetch', 'Invalidate', 'Trigger Loading', 'Restore Loading', 'Trigger Error', 'Restore Error', 'Reset', 'Remove']) {
      const available = [...root.querySelectorAll('button')].some((b) => b.textContent?.trim() === action);
      if (!available) {
        await snap(`no ${action} button`);
        continue;
      }
      clickButton(root, action);
      await snap(action);
    }
    stop();
  });

  devtoolsDiff('sorting and filtering the query list', async ({ client, lib, root, snap }) => {
    const stops: Array<() => void> = [];
    for (const [key, staleTime] of [
      ['b-fresh', 60_000],
      ['a-stale', 0],
      ['c-fresh', 60_000],
    ] as const) {
      const observer = new lib.QueryObserver(client, { queryKey: [key], queryFn: () => Promise.resolve({ name: key }), staleTime });
      stops.push(observer.subscribe(() => {}));
    }
    client.setQueryData(['d-inactive'], { name: 'needle' });
    await snap('by status');
    const sort = root.querySelector<HTMLSelectElement>('select[aria-label="Sort queries by"]')!;
    for (const value of ['query hash', 'last updated']) {
      sort.value = value;
      sort.dispatchEvent(new Event('change', { bubbles: true }));
      await snap(`by ${value}`);
    }
    root.querySelector<HTMLElement>('button[aria-label^="Sort order"]')!.click();
    await snap('descending');
    const filter = root.querySelector<HTMLInputElement>('input[aria-label^="Filter queries"]')!;
    filter.value = 'fresh';
    filter.dispatchEvent(new Event('input', { bubbles: true }));
    await snap('filtered by key');
    for (const stop of stops) stop();
  });

  devtoolsDiff('mock offline pauses fetches; clear empties the cache', async ({ client, lib, root, snap }) => {
    let calls = 0;
    const observer = new lib.QueryObserver(client, { queryKey: ['net'], queryFn: () => Promise.resolve(++calls) });
    const stop = observer.subscribe(() => {});
    await snap('online');
    root.querySelector<HTMLElement>('button[aria-label*="offline"]')!.click();
    await snap('offline');
    void observer.refetch();
    await snap('refetch while offline');
    root.querySelector<HTMLElement>('button[aria-label*="offline"]')!.click();
    await snap('back online');
    root.querySelector<HTMLElement>('[aria-label="Clear query cache"]')!.click();
    await snap('cleared');
    stop();
  });

  devtoolsDiff('the mutations view', async ({ client, lib, root, snap }) => {
    client.setQueryData(['seed'], 1);
    const ok = new lib.MutationObserver(client, { mutationKey: ['save'], mutationFn: (v: number) => Promise.resolve(v * 2) });
    await ok.mutate(21);
    const bad = new lib.MutationObserver(client, { mutationKey: ['fail'], mutationFn: () => Promise.reject(new Error('nope')) });
    await bad.mutate(undefined).catch(() => undefined);
    lib.onlineManager.setOnline(false);
    const paused = new lib.MutationObserver(client, { mutationFn: () => Promise.resolve('later') });
    void paused.mutate(undefined).catch(() => undefined);
    await pause();
    lib.onlineManager.setOnline(true);
    await pause();
    (root.querySelector('input[value="mutations"]') as HTMLInputElement).click();
    await snap('mutations');
    for (const row of [...root.querySelectorAll<HTMLElement>('[aria-label^="Mutation submitted"]')]) {
      row.click();
      await snap(`selected ${row.getAttribute('aria-label')}`);
    }
  });
});

describe('differential: ReactQueryDevtools (@tanstack/react-query-devtools) on both React bindings', () => {
  // the component takes its client from the bindings' useQueryClient: on our side that must be our context
  let components: { theirs: Awaited<ReturnType<typeof loadReactDevtools>>; ours: Awaited<ReturnType<typeof loadReactDevtools>> };
  beforeAll(async () => {
    components = { theirs: await loadReactDevtools(), ours: await loadReactDevtools(roundtripReact) };
  });
  const viaReact =
    (side: 'theirs' | 'ours'): Mount =>
    async (client, _lib, root) => {
      const bindings = (side === 'ours' ? roundtripReact : tanstackReact) as typeof roundtripReact;
      const Panel = components[side].ReactQueryDevtools as React.FC<{ initialIsOpen?: boolean }>;
      const view = render(
        <bindings.QueryClientProvider client={client}>
          <Panel initialIsOpen />
        </bindings.QueryClientProvider>,
        { container: root },
      );
      return () => view.unmount();
    };

  devtoolsDiff(
    'the panel finds the client through QueryClientProvider and shows its queries',
    async ({ client, lib, root, snap }) => {
      const observer = new lib.QueryObserver(client, { queryKey: ['via', 'react'], queryFn: () => Promise.resolve('hello') });
      const stop = observer.subscribe(() => {});
      client.setQueryData(['other'], 2);
      await snap('list');
      root.querySelector<HTMLElement>('[aria-label^="Query key"]')!.click();
      await snap('selected');
      clickButton(root, 'Invalidate');
      await snap('invalidated');
      stop();
    },
    { theirs: () => viaReact('theirs'), ours: () => viaReact('ours') },
  );
});
