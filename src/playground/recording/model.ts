/**
 * What a run recorded, and the cursor the visualizers draw it at. Shared by the sandbox, which records
 * (sandbox/capture.ts), and the visualizers, which draw (viz/): it lives beside both so that neither imports
 * the other. The views' props are viz/views.ts's `ViewProps`.
 *
 * A run in the sandbox may create simulations (roundtrip/wire) and query clients (roundtrip/query). Each is a
 * *source*; the sandbox streams every source's events to the host as they happen (sandbox/protocol.ts), and the
 * host appends them to a `Recording`. Events keep their order of arrival across sources in `steps`, so one
 * cursor (a step index) addresses "the moment after this event" in every view at once.
 *
 * Views are pure functions of `(recording, cursor)`: they show each source as it was after `cursor` (its events
 * up to and including that step) and highlight the event at `cursor`. They never mutate the recording.
 *
 * Wire events are the engine's own TraceEvents (plain frozen data that survives structured clone). Query events
 * are made serializable in the sandbox first (errors and data become previews), see `QueryVizEvent`.
 */
import type { TraceEvent } from 'roundtrip/wire';
import type { InstrumentationEvent } from 'roundtrip/query';

/** A JSON-safe rendering of an arbitrary value (data, errors, keys), made in the sandbox. */
export interface ValuePreview {
  /** JSON text, pretty-printed and truncated; or a description such as 'Error: HTTP 500', '[Function fetchTodos]'. */
  readonly text: string;
  /** True when `text` was cut to fit. */
  readonly truncated: boolean;
}

/** A query as the devtools show it, captured in the sandbox after each cache notification. */
export interface QuerySummary {
  readonly queryHash: string;
  /** The key as JSON (keys are JSON-like by contract: hashKey). */
  readonly queryKey: readonly unknown[];
  readonly status: 'pending' | 'success' | 'error';
  readonly fetchStatus: 'fetching' | 'paused' | 'idle';
  readonly dataUpdatedAt: number;
  readonly errorUpdatedAt: number;
  readonly dataUpdateCount: number;
  readonly fetchFailureCount: number;
  readonly isInvalidated: boolean;
  readonly isStale: boolean;
  /** No observer, so gcTime is counting. */
  readonly isInactive: boolean;
  readonly isDisabled: boolean;
  readonly observerCount: number;
  readonly staleTime: number | 'static' | null;
  readonly gcTime: number | null;
  /** `retry` as configured when it is a number or boolean; null for a function. */
  readonly retry: number | boolean | null;
  readonly data: ValuePreview | null;
  readonly error: ValuePreview | null;
}

export interface MutationSummary {
  readonly mutationId: number;
  readonly mutationKey: readonly unknown[] | null;
  readonly status: 'idle' | 'pending' | 'success' | 'error';
  readonly isPaused: boolean;
  readonly failureCount: number;
  readonly submittedAt: number;
  readonly variables: ValuePreview | null;
  readonly data: ValuePreview | null;
  readonly error: ValuePreview | null;
}

/**
 * InstrumentationEvent with its `unknown` fields (error, fetchMeta) replaced by previews. Mapped per variant
 * (a conditional type distributes over the union): `keyof` of the union itself keeps only the common keys.
 */
type Serialized<E> = E extends unknown ? { readonly [K in keyof E]: K extends 'error' | 'fetchMeta' ? ValuePreview : E[K] } : never;
export type SerializedInstrumentationEvent = Serialized<InstrumentationEvent> & {
  /**
   * Facts the sandbox adds so one event can be told in words without the rest of the trace: on 'retry', how many
   * retries the query allows (when `retry` is a number); on 'gcFired', the gcTime that elapsed.
   */
  readonly notes?: { readonly retryLimit?: number; readonly gcDelay?: number };
};

/**
 * What the host records for a query client, in the order the sandbox saw it:
 * - 'instrumentation': one event of `Instrumentation.of(client)` (fetch, retry, pause, gc, timers...);
 * - 'query' / 'mutation': a cache notification, with the object's summary after it
 *   (`action` is the QueryCacheNotifyEvent / MutationCacheNotifyEvent type, e.g. 'added', 'updated', 'removed');
 * - 'environment': the onlineManager / focusManager state changed.
 * `at` is the sandbox's clock (timeoutManager's `now`, epoch ms unless the snippet injects a clock).
 */
export type QueryVizEvent =
  | { readonly kind: 'instrumentation'; readonly at: number; readonly event: SerializedInstrumentationEvent }
  | { readonly kind: 'query'; readonly at: number; readonly action: string; readonly query: QuerySummary }
  | { readonly kind: 'mutation'; readonly at: number; readonly action: string; readonly mutation: MutationSummary }
  | { readonly kind: 'environment'; readonly at: number; readonly online: boolean; readonly focused: boolean };

export type SourceKind = 'wire' | 'query';

export interface SourceInfo {
  /** Unique within a run: 'sim-1', 'client-1', ... in creation order. */
  readonly id: string;
  readonly kind: SourceKind;
  /** What the reader sees: 'Simulation 1 (HTTP/2, TLS 1.3, 100 ms RTT)', 'QueryClient 1'. */
  readonly label: string;
  /** For wire sources: the simulation's resolved options that matter for display (httpVersion, tls, rtt, loss...). */
  readonly options?: Readonly<Record<string, string | number | boolean | null>>;
}

export interface WireSource extends SourceInfo {
  readonly kind: 'wire';
  readonly events: readonly TraceEvent[];
}

export interface QuerySource extends SourceInfo {
  readonly kind: 'query';
  readonly events: readonly QueryVizEvent[];
}

export type Source = WireSource | QuerySource;

/** One recorded event: which source, and its index in that source's `events`. */
export interface Step {
  readonly sourceId: string;
  readonly index: number;
}

export interface Recording {
  readonly sources: readonly Source[];
  /** Every event of every source, in arrival order. The cursor indexes this array. */
  readonly steps: readonly Step[];
}

export const EMPTY_RECORDING: Recording = Object.freeze({ sources: Object.freeze([]), steps: Object.freeze([]) });

/**
 * For each source, the step index of each of its events, ascending (`positions[i]` is the step of event `i`).
 * Views call visibleCount for every source on every frame while a reader scrubs, so it must not walk `steps`:
 * with this index it is a binary search. Built once per Recording object (recordings are immutable snapshots)
 * and cached; the host's RecordingStore hands over the index it keeps anyway (primeStepIndex).
 */
export type StepIndex = ReadonlyMap<string, readonly number[]>;

const stepIndexes = new WeakMap<Recording, StepIndex>();

export function stepIndex(recording: Recording): StepIndex {
  let index = stepIndexes.get(recording);
  if (!index) {
    const built = new Map<string, number[]>();
    recording.steps.forEach((step, i) => {
      let positions = built.get(step.sourceId);
      if (!positions) built.set(step.sourceId, (positions = []));
      positions[step.index] = i;
    });
    index = built;
    stepIndexes.set(recording, index);
  }
  return index;
}

/** Lets whoever builds `recording` supply its index (it must match `recording.steps`). */
export function primeStepIndex(recording: Recording, index: StepIndex): void {
  stepIndexes.set(recording, index);
}

/** Number of events of `sourceId` visible at `cursor` (events 0 .. count-1). */
export function visibleCount(recording: Recording, sourceId: string, cursor: number): number {
  const positions = stepIndex(recording).get(sourceId);
  if (!positions) return 0;
  // The number of positions <= cursor: the first index whose step is past the cursor.
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (positions[mid]! <= cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The events of a source as of `cursor`. */
export function eventsAt<S extends Source>(recording: Recording, source: S, cursor: number): S['events'] {
  return source.events.slice(0, visibleCount(recording, source.id, cursor)) as S['events'];
}

/** The step index of event `index` of `sourceId`, or -1. Lets a view turn a clicked event into a cursor. */
export function stepOf(recording: Recording, sourceId: string, index: number): number {
  return stepIndex(recording).get(sourceId)?.[index] ?? -1;
}

/** The source and event at step `cursor`, or undefined outside the recording. */
export function eventAt(recording: Recording, cursor: number): { source: Source; index: number; event: Source['events'][number] } | undefined {
  const step = recording.steps[cursor];
  if (!step) return undefined;
  const source = recording.sources.find((s) => s.id === step.sourceId);
  const event = source?.events[step.index];
  return source && event ? { source, index: step.index, event } : undefined;
}

/** What the query devtools ask the sandbox to do (host -> sandbox); mirrors TanStack Query Devtools' actions. */
export type DevtoolsAction =
  | {
      readonly type: 'refetch' | 'invalidate' | 'reset' | 'remove' | 'trigger-loading' | 'trigger-error' | 'restore';
      readonly queryHash: string;
    }
  | { readonly type: 'set-online'; readonly online: boolean }
  | { readonly type: 'set-focused'; readonly focused: boolean };
