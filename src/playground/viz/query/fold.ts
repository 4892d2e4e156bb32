/**
 * The state of one query client as of a cursor, folded from its recorded QueryVizEvents. Pure: the views call
 * it with `eventsAt(recording, source, cursor)` and draw what comes out, so scrubbing back shows the cache as
 * it was, not as it is.
 */
import type { PendingTimer } from 'roundtrip/query';
import type { MutationSummary, QuerySource, QuerySummary, QueryVizEvent, Recording } from '../model';
import { eventsAt } from '../model';

export interface QueryEntry {
  readonly summary: QuerySummary;
  /** Index (in the source's events) of the last event that touched this query. */
  readonly lastEvent: number;
  /** Index of the 'added' event: the devtools' default order is cache order. */
  readonly addedEvent: number;
}

export interface ClientState {
  /** Queries in the cache, by queryHash, in cache (insertion) order. */
  readonly queries: ReadonlyMap<string, QueryEntry>;
  /** Queries that left the cache, with their last summary and the event that removed them. */
  readonly removed: ReadonlyMap<string, QueryEntry>;
  readonly mutations: ReadonlyMap<number, { readonly summary: MutationSummary; readonly lastEvent: number }>;
  readonly online: boolean;
  readonly focused: boolean;
  /** Timers pending at `now`, by instrumentation timer id. */
  readonly timers: ReadonlyMap<number, PendingTimer>;
  /** `at` of the last event folded (the sandbox clock), or null before the first. */
  readonly now: number | null;
  /** `at` of the first event, the origin the views measure from. */
  readonly start: number | null;
}

export function foldClient(events: readonly QueryVizEvent[]): ClientState {
  const queries = new Map<string, QueryEntry>();
  const removed = new Map<string, QueryEntry>();
  const mutations = new Map<number, { summary: MutationSummary; lastEvent: number }>();
  const timers = new Map<number, PendingTimer>();
  let online = true;
  let focused = true;
  let now: number | null = null;
  let start: number | null = null;
  events.forEach((event, index) => {
    now = event.at;
    start ??= event.at;
    switch (event.kind) {
      case 'environment':
        online = event.online;
        focused = event.focused;
        break;
      case 'query': {
        const hash = event.query.queryHash;
        const previous = queries.get(hash);
        if (event.action === 'removed') {
          queries.delete(hash);
          removed.set(hash, { summary: event.query, lastEvent: index, addedEvent: previous?.addedEvent ?? index });
        } else {
          removed.delete(hash);
          queries.set(hash, { summary: event.query, lastEvent: index, addedEvent: previous?.addedEvent ?? index });
        }
        break;
      }
      case 'mutation':
        if (event.action === 'removed') mutations.delete(event.mutation.mutationId);
        else mutations.set(event.mutation.mutationId, { summary: event.mutation, lastEvent: index });
        break;
      case 'instrumentation': {
        const e = event.event;
        if (e.type === 'timerScheduled') timers.set(e.timer.id, e.timer);
        else if (e.type === 'timerCleared') timers.delete(e.timer.id);
        else if (e.type === 'timerFired') {
          // An interval keeps its entry and moves to the next due time (instrumentation.ts, timerFired).
          if (e.timer.timer === 'refetchInterval') {
            timers.set(e.timer.id, { ...e.timer, scheduledAt: event.at, dueAt: event.at + e.timer.delay });
          } else timers.delete(e.timer.id);
        }
        break;
      }
    }
  });
  return { queries, removed, mutations, online, focused, timers, now, start };
}

/** The query sources of a recording. */
export function querySources(recording: Recording): QuerySource[] {
  return recording.sources.filter((s): s is QuerySource => s.kind === 'query');
}

/** One source's state as of `cursor`. */
export function clientAt(recording: Recording, source: QuerySource, cursor: number): ClientState {
  return foldClient(eventsAt(recording, source, cursor));
}

/** Index (in `source.events`) of the event at `cursor`, when the cursor is on this source; else -1. */
export function eventIndexAt(recording: Recording, source: QuerySource, cursor: number): number {
  const step = recording.steps[cursor];
  return step && step.sourceId === source.id ? step.index : -1;
}
