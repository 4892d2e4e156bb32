/**
 * The sandbox's side of the visualizers: every simulation or query client a snippet creates becomes a
 * *source*, and its events stream to the host (recording/model.ts has the model, sandbox/protocol.ts the messages).
 *
 * Events are batched: `push` queues, and one flush per task sends what queued, one `viz-events` message
 * per run of consecutive events from the same source. A simulation that emits 10,000 events inside one task
 * (its virtual clock runs in microtasks) costs one message, not 10,000; interleaved sources still arrive in
 * the exact order they happened, which is what the host's single cursor relies on.
 *
 * Two exceptions keep the panel from waiting for the end of that task, which on auto drive is often the end of
 * the whole snippet: the run's first event goes out at once (what the reader waits for after pressing Run,
 * issue #7), and a task that keeps recording sends what queued every `sliceMs` (so a long run streams in
 * pieces instead of arriving all at the end). Both cost a message or two, not one per event.
 *
 * A run records at most `maxEvents` events (all sources together); past that the capture says so once on the
 * console and drops the rest, so a snippet that loops over fetches cannot exhaust the host's memory.
 *
 * Query sources take devtools actions from the host (refetch, invalidate, offline...): the module that creates
 * the source registers a handler with `onAction`, and the runtime routes `devtools` messages to `dispatch`.
 */
import type { DevtoolsAction, SourceInfo, SourceKind } from '../recording/model';
import type { SandboxToHost, VizEventPayload } from './protocol';
import { runClock, type RunClock } from './virtual-time';

/** Events one run may record, all sources together. */
export const MAX_RECORDED_EVENTS = 50_000;

export type SourceOptions = NonNullable<SourceInfo['options']>;

export interface CaptureSource {
  /** 'sim-1', 'client-1', ... */
  readonly id: string;
  /** Queues one event; it must survive structured clone (plain data). Sent at the end of the current task. */
  push(event: VizEventPayload): void;
  /** Handles devtools actions the host sends for this source (query sources); replaces any earlier handler. */
  onAction(handler: (action: DevtoolsAction) => void): void;
}

/** What capture-wire.ts and capture-query.ts build sources with. */
export interface Capture {
  addSource(kind: SourceKind, label: string, options?: SourceOptions): CaptureSource;
}

export interface CaptureController extends Capture {
  /** Routes a devtools action to its source's handler; false when the source has none. */
  dispatch(sourceId: string, action: DevtoolsAction): boolean;
  /** Sends whatever is queued now (before 'done', so the host has every event when the run ends). */
  flush(): void;
  /** Events recorded so far (after the cap, stays at the cap). */
  readonly recorded: number;
}

export interface CaptureOptions {
  readonly runId: number;
  readonly send: (message: SandboxToHost) => void;
  /** Tells the reader something on the run's console (the cap notice, a failed action). */
  readonly warn: (text: string) => void;
  /** Runs `flush` after the current task; injected so tests control it. Default: setTimeout(0). */
  readonly schedule?: (flush: () => void) => void;
  /** Milliseconds on a monotonic clock, for `sliceMs`; injected so tests control it. Default: performance.now. */
  readonly now?: () => number;
  /**
   * How long one task may keep recording before what it queued is sent anyway. Default SLICE_MS. Infinity sends
   * only at the end of each task (and the run's first event at once).
   */
  readonly sliceMs?: number;
  readonly maxEvents?: number;
  /**
   * The run's clock, which each simulation's events catch up (virtual-time.ts, RunClock). Default: the one
   * installed in this realm when the simulation is created, if any.
   */
  readonly clock?: RunClock;
}

/**
 * Default `sliceMs`: about three frames. Short enough that a run which records for seconds without yielding
 * shows progress several times a second; long enough that the messages stay few (each is cloned whole).
 */
export const SLICE_MS = 50;

/** Source ids by kind, matching what readers see in code: simulations and query clients. */
const PREFIX: Record<SourceKind, string> = { wire: 'sim', query: 'client' };

export function createCapture(options: CaptureOptions): CaptureController {
  const { runId, send, warn } = options;
  const maxEvents = options.maxEvents ?? MAX_RECORDED_EVENTS;
  // Taken before the snippet runs, so a snippet that replaces or fakes setTimeout cannot hold back our flushes.
  const realSetTimeout = globalThis.setTimeout.bind(globalThis);
  const schedule = options.schedule ?? ((flush: () => void) => void realSetTimeout(flush, 0));
  const now = options.now ?? performance.now.bind(performance);
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const counters: Record<SourceKind, number> = { wire: 0, query: 0 };
  const handlers = new Map<string, (action: DevtoolsAction) => void>();
  /** Runs of consecutive events from one source, in order. */
  const queue: { sourceId: string; events: VizEventPayload[] }[] = [];
  let scheduled = false;
  let recorded = 0;
  let capped = false;
  /** When the oldest event still queued was queued: the start of the slice that `sliceMs` bounds. */
  let sliceStart: number | undefined;

  const flush = (): void => {
    scheduled = false;
    sliceStart = undefined;
    for (const batch of queue.splice(0)) post(batch.sourceId, batch.events);
  };

  const post = (sourceId: string, events: VizEventPayload[]): void => {
    try {
      send({ v: 1, type: 'viz-events', runId, sourceId, events });
    } catch {
      // A DataCloneError: some event holds a function or a class instance. Send the ones that clone.
      const clean = events.filter((event) => {
        try {
          structuredClone(event);
          return true;
        } catch {
          return false;
        }
      });
      warn(`Visualizer: ${events.length - clean.length} event(s) of ${sourceId} could not be copied to the page and were left out.`);
      if (clean.length > 0) send({ v: 1, type: 'viz-events', runId, sourceId, events: clean });
    }
  };

  const enqueue = (sourceId: string, event: VizEventPayload): void => {
    if (recorded >= maxEvents) {
      if (!capped) {
        capped = true;
        warn(
          `Visualizer: this run recorded ${maxEvents.toLocaleString('en')} events, the most one run keeps; later events are not shown (the snippet keeps running).`,
        );
      }
      return;
    }
    recorded += 1;
    const last = queue[queue.length - 1];
    if (last && last.sourceId === sourceId) last.events.push(event);
    else queue.push({ sourceId, events: [event] });
    // The first event of the run is what the reader is waiting for: it goes now, not at the end of the task.
    if (recorded === 1) return flush();
    const at = now();
    sliceStart ??= at;
    if (at - sliceStart >= sliceMs) return flush();
    if (!scheduled) {
      scheduled = true;
      schedule(flush);
    }
  };

  return {
    addSource(kind, label, sourceOptions) {
      counters[kind] += 1;
      const id = `${PREFIX[kind]}-${counters[kind]}`;
      // Events queued for earlier sources go first, so the host knows every source before its events.
      flush();
      const source: SourceInfo = { id, kind, label, ...(sourceOptions ? { options: sourceOptions } : {}) };
      send({ v: 1, type: 'viz-source', runId, source });
      // One clock for the run: a simulation's time t is the run clock's time at its creation plus t.
      const clock = kind === 'wire' ? (options.clock ?? runClock()) : undefined;
      const origin = clock?.now() ?? 0;
      return {
        id,
        push: clock
          ? (event) => {
              const at = (event as { at?: unknown }).at;
              if (typeof at === 'number') clock.catchUp(origin + at);
              enqueue(id, event);
            }
          : (event) => enqueue(id, event),
        onAction: (handler) => void handlers.set(id, handler),
      };
    },
    dispatch(sourceId, action) {
      const handler = handlers.get(sourceId);
      if (!handler) return false;
      try {
        handler(action);
      } catch (error) {
        warn(`Devtools action "${action.type}" failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      return true;
    },
    flush,
    get recorded() {
      return recorded;
    },
  };
}
