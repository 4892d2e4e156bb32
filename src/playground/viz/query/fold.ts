/**
 * The state of one query client as of a cursor, folded from its recorded QueryVizEvents. Pure: the views call
 * it with `eventsAt(recording, source, cursor)` and draw what comes out, so scrubbing back shows the cache as
 * it was, not as it is.
 */
import type { PendingTimer } from 'roundtrip/query';
import type { MutationSummary, QuerySource, QuerySummary, QueryVizEvent, Recording } from '../../recording/model';
import { eventsAt } from '../../recording/model';

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

type MutationEntry = { readonly summary: MutationSummary; readonly lastEvent: number };

/** A fold in progress: apply events in order, read the state, or copy it to resume elsewhere. */
class Folder {
  queries = new Map<string, QueryEntry>();
  removed = new Map<string, QueryEntry>();
  mutations = new Map<number, MutationEntry>();
  timers = new Map<number, PendingTimer>();
  online = true;
  focused = true;
  now: number | null = null;
  start: number | null = null;

  apply(event: QueryVizEvent, index: number): void {
    this.now = event.at;
    this.start ??= event.at;
    switch (event.kind) {
      case 'environment':
        this.online = event.online;
        this.focused = event.focused;
        break;
      case 'query': {
        const hash = event.query.queryHash;
        const previous = this.queries.get(hash);
        if (event.action === 'removed') {
          this.queries.delete(hash);
          this.removed.set(hash, { summary: event.query, lastEvent: index, addedEvent: previous?.addedEvent ?? index });
        } else {
          this.removed.delete(hash);
          this.queries.set(hash, { summary: event.query, lastEvent: index, addedEvent: previous?.addedEvent ?? index });
        }
        break;
      }
      case 'mutation':
        if (event.action === 'removed') this.mutations.delete(event.mutation.mutationId);
        else this.mutations.set(event.mutation.mutationId, { summary: event.mutation, lastEvent: index });
        break;
      case 'instrumentation': {
        const e = event.event;
        if (e.type === 'timerScheduled') this.timers.set(e.timer.id, e.timer);
        else if (e.type === 'timerCleared') this.timers.delete(e.timer.id);
        else if (e.type === 'timerFired') {
          // An interval keeps its entry and moves to the next due time (instrumentation.ts, timerFired).
          if (e.timer.timer === 'refetchInterval') {
            this.timers.set(e.timer.id, { ...e.timer, scheduledAt: event.at, dueAt: event.at + e.timer.delay });
          } else this.timers.delete(e.timer.id);
        }
        break;
      }
    }
  }

  /** An independent copy (Maps keep insertion order, so cache order survives). */
  copy(): Folder {
    const out = new Folder();
    out.queries = new Map(this.queries);
    out.removed = new Map(this.removed);
    out.mutations = new Map(this.mutations);
    out.timers = new Map(this.timers);
    out.online = this.online;
    out.focused = this.focused;
    out.now = this.now;
    out.start = this.start;
    return out;
  }

  state(): ClientState {
    const { queries, removed, mutations, online, focused, timers, now, start } = this;
    return { queries, removed, mutations, online, focused, timers, now, start };
  }
}

export function foldClient(events: readonly QueryVizEvent[]): ClientState {
  const folder = new Folder();
  events.forEach((event, index) => folder.apply(event, index));
  return folder.state();
}

/**
 * The client's state after any prefix of its events, without folding from the first event on every call:
 * a scrub asks for the state at each step in turn, and refolding 1,000+ events per frame grew with the cursor
 * (issue #8). Built once per source: a copy of the fold every `every` events; `at(count)` resumes from the
 * copy at or before `count` and folds fewer than `every` events.
 */
export interface ClientFoldIndex {
  /** The state after the first `count` events (clamped to the events there are); the same as foldClient of them. */
  at(count: number): ClientState;
}

/** Checkpoint spacing: ~60 Map entries copied per checkpoint against at most 63 events folded per step. */
const CHECKPOINT_EVERY = 64;

export function indexClientFold(events: readonly QueryVizEvent[], every = CHECKPOINT_EVERY): ClientFoldIndex {
  if (!Number.isInteger(every) || every < 1) throw new RangeError(`indexClientFold: "every" must be a positive integer, got ${every}`);
  const checkpoints: Folder[] = [new Folder()];
  const folder = new Folder();
  events.forEach((event, index) => {
    folder.apply(event, index);
    if ((index + 1) % every === 0) checkpoints.push(folder.copy());
  });
  return {
    at(count) {
      const n = Math.max(0, Math.min(Math.floor(count), events.length));
      const base = Math.floor(n / every);
      const resumed = checkpoints[base]!.copy();
      for (let i = base * every; i < n; i++) resumed.apply(events[i]!, i);
      return resumed.state();
    },
  };
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
