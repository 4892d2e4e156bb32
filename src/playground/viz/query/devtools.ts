/**
 * The devtools' list logic, apart from React: status counts, filtering by key text, sorting, and which actions
 * a query offers (with the reason when none can run).
 */
import type { QuerySummary } from '../../recording/model';
import { formatQueryKey, queryStatusLabel, type QueryStatusLabel } from './describe';
import type { QueryEntry } from './fold';

export const STATUS_ORDER: readonly QueryStatusLabel[] = ['fresh', 'fetching', 'paused', 'stale', 'inactive'];

export function statusCounts(entries: Iterable<QueryEntry>): Record<QueryStatusLabel, number> {
  const counts: Record<QueryStatusLabel, number> = { fresh: 0, fetching: 0, paused: 0, stale: 0, inactive: 0 };
  for (const entry of entries) counts[queryStatusLabel(entry.summary)] += 1;
  return counts;
}

export type SortBy = 'status' | 'key' | 'updated' | 'cache';

export const SORT_LABELS: Readonly<Record<SortBy, string>> = {
  status: 'Status',
  key: 'Query key',
  updated: 'Last updated',
  cache: 'Cache order',
};

/** What needs attention first: work in flight, then waiting work, then stale data, fresh, unused. */
const STATUS_RANK: Readonly<Record<QueryStatusLabel, number>> = { fetching: 0, paused: 1, stale: 2, fresh: 3, inactive: 4 };

const lastUpdated = (q: QuerySummary) => Math.max(q.dataUpdatedAt, q.errorUpdatedAt);

export function filterAndSort(entries: Iterable<QueryEntry>, filter: string, sortBy: SortBy, descending: boolean): QueryEntry[] {
  const needle = filter.trim().toLowerCase();
  const list = [...entries].filter(
    (e) => !needle || formatQueryKey(e.summary.queryKey).toLowerCase().includes(needle) || e.summary.queryHash.toLowerCase().includes(needle),
  );
  const byKey = (a: QueryEntry, b: QueryEntry) => (a.summary.queryHash < b.summary.queryHash ? -1 : a.summary.queryHash > b.summary.queryHash ? 1 : 0);
  const compare: Record<SortBy, (a: QueryEntry, b: QueryEntry) => number> = {
    status: (a, b) => STATUS_RANK[queryStatusLabel(a.summary)] - STATUS_RANK[queryStatusLabel(b.summary)] || byKey(a, b),
    key: byKey,
    updated: (a, b) => lastUpdated(b.summary) - lastUpdated(a.summary) || byKey(a, b),
    cache: (a, b) => a.addedEvent - b.addedEvent,
  };
  list.sort(compare[sortBy]);
  if (descending) list.reverse();
  return list;
}

export type QueryActionType = 'refetch' | 'invalidate' | 'reset' | 'remove' | 'trigger-loading' | 'trigger-error' | 'restore';

export interface ActionButton {
  readonly action: QueryActionType;
  readonly label: string;
  /** What the button does, for its accessible description. */
  readonly hint: string;
}

/**
 * The buttons for one query, as TanStack Query Devtools offers them: Trigger loading becomes Restore loading
 * while the query is pending, Trigger error becomes Restore error while it is in error.
 */
export function actionButtons(q: QuerySummary): ActionButton[] {
  return [
    { action: 'refetch', label: 'Refetch', hint: 'Run the query function again now.' },
    { action: 'invalidate', label: 'Invalidate', hint: 'Mark the data stale; an observed query refetches.' },
    { action: 'reset', label: 'Reset', hint: 'Back to the initial state; an observed query refetches.' },
    { action: 'remove', label: 'Remove', hint: 'Drop the query from the cache.' },
    q.status === 'pending'
      ? { action: 'restore', label: 'Restore loading', hint: 'End the simulated loading and fetch with the real query function.' }
      : { action: 'trigger-loading', label: 'Trigger loading', hint: 'Clear the data and fetch with a query function that never settles.' },
    q.status === 'error'
      ? { action: 'restore', label: 'Restore error', hint: 'Reset the query and fetch again.' }
      : { action: 'trigger-error', label: 'Trigger error', hint: 'Put the query in the error state with a devtools error.' },
  ];
}

/** Why actions are off for this query, or null when they can run. */
export function actionsDisabledReason(hasActions: boolean, inLiveCache: boolean): string | null {
  if (!hasActions) return 'Actions need a running sandbox: press Run, then use them on the live client.';
  if (!inLiveCache) return 'This query is no longer in the cache, so there is nothing to act on.';
  return null;
}
