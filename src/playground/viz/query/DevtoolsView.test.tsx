// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as queryLib from 'roundtrip/query';
import type { Query, QueryClient } from 'roundtrip/query';
import { stepOf, type QuerySource } from '../../recording/model';
import DevtoolsView from './DevtoolsView';
import { formatQueryKey } from './describe';
import { recorder, useQueryTestEnvironment } from './test-recording';

const { QueryObserver, onlineManager } = queryLib;

/** TanStack Query Devtools' status label, computed from the live Query object. */
function realLabel(q: Query): string {
  if (q.state.fetchStatus === 'fetching') return 'fetching';
  if (q.getObserversCount() === 0) return 'inactive';
  if (q.state.fetchStatus === 'paused') return 'paused';
  return q.isStale() ? 'stale' : 'fresh';
}

function rows() {
  const list = screen.getByRole('list', { name: 'Queries' });
  return within(list)
    .getAllByRole('button')
    .map((b) => ({ chip: b.querySelector('.rt-q-chip')!.textContent, key: b.querySelector('.rt-q-key')!.textContent }));
}

function realRows(client: QueryClient) {
  return client
    .getQueryCache()
    .getAll()
    .map((q) => ({ chip: realLabel(q), key: formatQueryKey(q.queryKey) }));
}

const byKey = <T extends { key: string | null }>(list: T[]) => [...list].sort((a, b) => String(a.key).localeCompare(String(b.key)));

describe('DevtoolsView', () => {
  useQueryTestEnvironment();

  /** Four queries in four different states, and a paused one. */
  async function scripted() {
    const rec = recorder();
    const client = new rec.lib.QueryClient();
    const observe = (key: string, options: Record<string, unknown>) =>
      new QueryObserver(client, { queryKey: [key], queryFn: async () => `${key} data`, ...options }).subscribe(() => undefined);
    observe('fresh', { staleTime: 60_000 });
    observe('stale', { staleTime: 0 });
    observe('slow', { queryFn: () => new Promise((r) => setTimeout(() => r('late'), 10_000)) });
    await client.prefetchQuery({ queryKey: ['unused'], queryFn: async () => 1 });
    // fetching with nobody watching: the devtools call that 'fetching', not 'inactive'
    void client.prefetchQuery({ queryKey: ['prefetch'], queryFn: () => new Promise((r) => setTimeout(() => r('p'), 10_000)) });
    await vi.advanceTimersByTimeAsync(1);
    return { rec, client };
  }

  it('lists each query with the chip the real client state gives it, and counts per status', async () => {
    const { rec, client } = await scripted();
    const recording = rec.recording();
    render(<DevtoolsView recording={recording} cursor={recording.steps.length - 1} />);
    expect(byKey(rows())).toEqual(byKey(realRows(client)));
    expect(new Set(rows().map((r) => r.chip))).toEqual(new Set(['fresh', 'stale', 'fetching', 'inactive']));
    const counts = within(screen.getByRole('list', { name: 'Queries per status' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(counts).toEqual(['fresh 1', 'fetching 2', 'paused 0', 'stale 1', 'inactive 1']);
  });

  it('shows the cache as of the cursor, not as it is now', async () => {
    const { rec } = await scripted();
    const recording = rec.recording();
    const source = recording.sources[0] as QuerySource;
    // the step right after ['fresh'] was added: one query, fetching
    const added = source.events.findIndex((e) => e.kind === 'query' && e.action === 'added');
    render(<DevtoolsView recording={recording} cursor={stepOf(recording, source.id, added)} />);
    expect(rows()).toEqual([{ chip: 'inactive', key: "['fresh']" }]);
    expect(screen.getByRole('button', { name: 'Queries (1)' })).toBeTruthy();
  });

  it('filters by key text and sorts', async () => {
    const { rec } = await scripted();
    const recording = rec.recording();
    render(<DevtoolsView recording={recording} cursor={recording.steps.length - 1} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'key' } });
    expect(rows().map((r) => r.key)).toEqual(["['fresh']", "['prefetch']", "['slow']", "['stale']", "['unused']"]);
    fireEvent.click(screen.getByRole('button', { name: 'Ascending' }));
    expect(rows().map((r) => r.key)).toEqual(["['unused']", "['stale']", "['slow']", "['prefetch']", "['fresh']"]);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter by key' }), { target: { value: 'st' } });
    expect(rows().map((r) => r.key)).toEqual(["['stale']"]);
  });

  it('disables actions with a reason when there is no live sandbox', async () => {
    const { rec } = await scripted();
    const recording = rec.recording();
    render(<DevtoolsView recording={recording} cursor={recording.steps.length - 1} />);
    const refetch = screen.getByRole('button', { name: 'Refetch' }) as HTMLButtonElement;
    expect(refetch.disabled).toBe(true);
    expect(refetch.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(refetch.getAttribute('aria-describedby')!)!.textContent).toMatch(/press Run/);
    expect((screen.getByRole('checkbox', { name: 'Offline' }) as HTMLInputElement).disabled).toBe(true);
  });

  it('Invalidate, Trigger error and Restore act on the live client, and the view follows', async () => {
    const { rec, client } = await scripted();
    const onAction = vi.fn((sourceId: string, action: Parameters<typeof rec.act>[1]) => rec.act(sourceId, action));
    const view = (r = rec.recording()) => <DevtoolsView recording={r} cursor={r.steps.length - 1} onAction={onAction} />;
    const { rerender } = render(view());
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'key' } });
    fireEvent.click(screen.getByRole('button', { name: /\['fresh'\]/ }));
    expect(screen.getByRole('region', { name: 'Query details' }).textContent).toContain("['fresh']");

    fireEvent.click(screen.getByRole('button', { name: 'Invalidate' }));
    expect(onAction).toHaveBeenLastCalledWith('client-1', { type: 'invalidate', queryHash: '["fresh"]' });
    expect(client.getQueryState(['fresh'])?.isInvalidated).toBe(true);
    rerender(view());
    // invalidating an observed query refetches it at once
    expect(rows().find((r) => r.key === "['fresh']")!.chip).toBe('fetching');
    await vi.advanceTimersByTimeAsync(1);
    rerender(view());
    expect(byKey(rows())).toEqual(byKey(realRows(client)));

    fireEvent.click(screen.getByRole('button', { name: 'Trigger error' }));
    expect(client.getQueryState(['fresh'])?.status).toBe('error');
    rerender(view());
    const details = screen.getByRole('region', { name: 'Query details' });
    expect(details.textContent).toContain('Error triggered from the devtools');
    fireEvent.click(within(details).getByRole('button', { name: 'Restore error' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(client.getQueryState(['fresh'])?.status).toBe('success');
    rerender(view());
    expect(within(screen.getByRole('region', { name: 'Query details' })).getByRole('button', { name: 'Trigger error' })).toBeTruthy();
  });

  it('the offline toggle reaches the onlineManager and shows the recorded state', async () => {
    const { rec } = await scripted();
    const view = (r = rec.recording()) => <DevtoolsView recording={r} cursor={r.steps.length - 1} onAction={rec.act} />;
    const { rerender } = render(view());
    fireEvent.click(screen.getByRole('checkbox', { name: 'Offline' }));
    expect(onlineManager.isOnline()).toBe(false);
    rerender(view());
    expect((screen.getByRole('checkbox', { name: 'Offline' }) as HTMLInputElement).checked).toBe(true);
  });

  it('the toggles show the live client state even with the cursor in the past, and say what the step shown had', async () => {
    const { rec } = await scripted();
    const view = (cursor: number, r = rec.recording()) => <DevtoolsView recording={r} cursor={cursor} onAction={rec.act} />;
    const { rerender } = render(view(rec.recording().steps.length - 1));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Offline' }));
    expect(onlineManager.isOnline()).toBe(false);
    // Back at the first step the client was online; the toggle still says what the live client is.
    rerender(view(0));
    expect((screen.getByRole('checkbox', { name: 'Offline' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('devtools-then').textContent).toBe('At the step shown: online, window focused.');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Offline' }));
    expect(onlineManager.isOnline()).toBe(true);
    rerender(view(0));
    expect((screen.getByRole('checkbox', { name: 'Offline' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByTestId('devtools-then')).toBeNull();
  });

  it('the data explorer shows the query data as expandable JSON; Remove leaves the details with a reason', async () => {
    const rec = recorder();
    const client = new rec.lib.QueryClient();
    await client.prefetchQuery({ queryKey: ['todo', 1], queryFn: async () => ({ id: 1, tags: ['a', 'b'] }) });
    const view = (r = rec.recording()) => <DevtoolsView recording={r} cursor={r.steps.length - 1} onAction={rec.act} />;
    const { rerender } = render(view());
    const data = screen.getByRole('group', { name: 'Data' });
    expect(data.querySelectorAll('details')).toHaveLength(2); // the object and its tags array
    expect(data.textContent).toContain('tags: Array(2)');
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(client.getQueryCache().getAll()).toHaveLength(0);
    rerender(view());
    expect(screen.getByText('No queries in the cache at this step.')).toBeTruthy();
  });

  it('lists mutations on the Mutations tab', async () => {
    const rec = recorder();
    const client = new rec.lib.QueryClient();
    await client
      .getMutationCache()
      .build(client, { mutationKey: ['add'], mutationFn: async (n: number) => n * 2 })
      .execute(21);
    const recording = rec.recording();
    render(<DevtoolsView recording={recording} cursor={recording.steps.length - 1} />);
    fireEvent.click(screen.getByRole('button', { name: 'Mutations (1)' }));
    const details = screen.getByRole('region', { name: 'Mutation #1' });
    expect(details.textContent).toContain("['add']");
    expect(within(details).getByLabelText('Variables').textContent).toBe('21');
    expect(within(details).getByLabelText('Data').textContent).toBe('42');
  });
});
