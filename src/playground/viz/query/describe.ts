/**
 * Query events told in words: one line per event for the aria-live log, the event list and tooltips,
 * e.g. "['todos']: retry 2 of 3 in 2,000 ms". Each line stands alone (a screen-reader user hears them one by
 * one), so it names its query or mutation and never says "it".
 */
import type { InstrumentationSubject, TimerKind } from 'roundtrip/query';
import type { MutationSummary, QuerySummary, QueryVizEvent, SerializedInstrumentationEvent } from '../../recording/model';
import { formatNumber } from '../number';

/** 2000 -> '2,000 ms'. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return ms > 0 ? 'never' : '0 ms';
  return `${formatNumber(ms)} ms`;
}

function formatKeyPart(part: unknown): string {
  if (typeof part === 'string') return `'${part.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(part)) return `[${part.map(formatKeyPart).join(', ')}]`;
  if (part && typeof part === 'object') {
    const entries = Object.entries(part as Record<string, unknown>).map(
      ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : formatKeyPart(k)}: ${formatKeyPart(v)}`,
    );
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return String(part);
}

/** A query key the way it is written in code: ['todos', { page: 2 }]. */
export function formatQueryKey(key: readonly unknown[]): string {
  return formatKeyPart(key);
}

export function formatSubject(subject: InstrumentationSubject): string {
  if (subject.kind === 'query') return formatQueryKey(subject.queryKey);
  return formatMutation(subject.mutationId, subject.mutationKey ?? null);
}

function formatMutation(mutationId: number, mutationKey: readonly unknown[] | null | undefined): string {
  return mutationKey ? `mutation ${formatQueryKey(mutationKey)} #${mutationId}` : `mutation #${mutationId}`;
}

export const TIMER_LABELS: Readonly<Record<TimerKind, string>> = {
  staleTime: 'stale time',
  gc: 'gc time',
  retry: 'retry backoff',
  refetchInterval: 'refetch interval',
};

const PAUSE_REASONS = { offline: 'offline', unfocused: 'window not focused', scope: 'waiting for its scope' } as const;

function describeInstrumentation(e: SerializedInstrumentationEvent): string {
  switch (e.type) {
    case 'fetchStart':
      return e.fetchStatus === 'paused' ? 'fetch queued, paused before the first attempt' : 'fetch started';
    case 'fetchEnd':
      return e.outcome === 'success' ? 'fetch finished' : e.outcome === 'error' ? 'fetch failed' : 'fetch cancelled';
    case 'success':
      return e.manual ? 'data set by hand' : 'succeeded, data updated';
    case 'error':
      return `failed with ${e.error.text}`;
    case 'retry': {
      const limit = e.notes?.retryLimit;
      return `retry ${e.attempt}${limit !== undefined ? ` of ${limit}` : ''} in ${formatMs(e.delay)}`;
    }
    case 'retryGiveUp':
      return e.reason === 'retry-exhausted'
        ? `gave up after ${e.failureCount} failed attempt${e.failureCount === 1 ? '' : 's'}`
        : `stopped retrying after ${e.failureCount} failed attempt${e.failureCount === 1 ? '' : 's'} (no one is watching)`;
    case 'pause':
      return `paused: ${PAUSE_REASONS[e.reason]}`;
    case 'continue':
      return 'continued';
    case 'cancel':
      return e.revert ? 'cancelled, state reverted' : 'cancelled';
    case 'invalidate':
      return 'invalidated';
    case 'observerAdded':
      return `observer added (${e.observerCount} watching)`;
    case 'observerRemoved':
      return e.observerCount === 0 ? 'last observer removed, now inactive' : `observer removed (${e.observerCount} watching)`;
    case 'gcScheduled':
      return `gc in ${formatMs(e.delay)}`;
    case 'gcCancelled':
      return 'gc cancelled';
    case 'gcFired': {
      const after = e.notes?.gcDelay !== undefined ? ` after ${formatMs(e.notes.gcDelay)}` : '';
      return e.removed ? `removed by gc${after}` : `gc time ran out${after}, kept (still in use)`;
    }
    case 'timerScheduled':
      return `${TIMER_LABELS[e.timer.timer]} timer set for ${formatMs(e.timer.delay)}`;
    case 'timerCleared':
      return `${TIMER_LABELS[e.timer.timer]} timer cleared`;
    case 'timerFired':
      if (e.timer.timer === 'staleTime') return 'became stale';
      if (e.timer.timer === 'refetchInterval') return `refetch interval of ${formatMs(e.timer.delay)} elapsed`;
      return `${TIMER_LABELS[e.timer.timer]} timer fired`;
  }
}

/** The devtools' one-word status of a query: what the chip says. */
export type QueryStatusLabel = 'fresh' | 'fetching' | 'paused' | 'stale' | 'inactive';

/**
 * Same precedence as TanStack Query Devtools: a running fetch wins, then "nobody is watching", then a paused
 * fetch, then staleness.
 */
export function queryStatusLabel(q: QuerySummary): QueryStatusLabel {
  if (q.fetchStatus === 'fetching') return 'fetching';
  if (q.observerCount === 0) return 'inactive';
  if (q.fetchStatus === 'paused') return 'paused';
  return q.isStale ? 'stale' : 'fresh';
}

function describeQuerySummary(action: string, q: QuerySummary): string {
  switch (action) {
    case 'added':
      return 'added to the cache';
    case 'removed':
      return 'removed from the cache';
    case 'observerAdded':
    case 'observerRemoved':
      return `${q.observerCount} observer${q.observerCount === 1 ? '' : 's'}, ${queryStatusLabel(q)}`;
    case 'observerOptionsUpdated':
      return 'observer options changed';
    default:
      return `${q.status}, ${q.fetchStatus}${q.isInvalidated ? ', invalidated' : ''} (${queryStatusLabel(q)})`;
  }
}

function describeMutationSummary(action: string, m: MutationSummary): string {
  if (action === 'added') return 'added';
  if (action === 'removed') return 'removed from the cache';
  if (m.isPaused) return 'paused';
  if (m.status === 'error' && m.error) return `error: ${m.error.text}`;
  if (m.failureCount > 0 && m.status === 'pending') return `pending, ${m.failureCount} failed attempt${m.failureCount === 1 ? '' : 's'}`;
  return m.status;
}

export function describeQueryEvent(event: QueryVizEvent): string {
  switch (event.kind) {
    case 'instrumentation':
      return `${formatSubject(event.event.subject)}: ${describeInstrumentation(event.event)}`;
    case 'query':
      return `${formatQueryKey(event.query.queryKey)}: ${describeQuerySummary(event.action, event.query)}`;
    case 'mutation':
      return `${formatMutation(event.mutation.mutationId, event.mutation.mutationKey)}: ${describeMutationSummary(event.action, event.mutation)}`;
    case 'environment':
      return `network ${event.online ? 'online' : 'offline'}, window ${event.focused ? 'focused' : 'not focused'}`;
  }
}

/**
 * Events that repeat what a neighbouring event already says (the timer bookkeeping behind gc and retry, and
 * the cache's own copy of an instrumentation milestone). A log may leave them out; the event list shows them
 * on request.
 */
export function isRoutineQueryEvent(event: QueryVizEvent): boolean {
  if (event.kind === 'instrumentation') {
    const e = event.event;
    if (e.type === 'timerScheduled' || e.type === 'timerCleared') return true;
    if (e.type === 'timerFired') return e.timer.timer === 'gc' || e.timer.timer === 'retry';
    return e.type === 'fetchEnd' && e.outcome === 'success';
  }
  if (event.kind === 'query')
    return event.action === 'updated' || event.action === 'observerResultsUpdated' || event.action === 'observerAdded' || event.action === 'observerRemoved';
  return false;
}
