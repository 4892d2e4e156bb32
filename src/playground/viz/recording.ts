/**
 * The host's record of one run: an append-only store that turns the sandbox's `viz-source` / `viz-events`
 * messages into `Recording` snapshots for the views (recording/model.ts).
 *
 * Appends are cheap (push onto arrays this store owns); a snapshot, the immutable value views receive, is built
 * only when someone asks for one after a change, and is cached until the next change. Listeners are told after
 * every change; the panel coalesces those into one render per animation frame.
 *
 * The store enforces the same per-run cap as the sandbox (capture.ts): a sandbox is the snippet's realm, and
 * nothing it sends is trusted to be well-behaved.
 */
import { primeStepIndex, type Recording, type Source, type SourceInfo, type Step } from '../recording/model';

export const MAX_RECORDING_EVENTS = 50_000;

interface MutableSource {
  readonly info: SourceInfo;
  readonly events: unknown[];
  /** Step index of each event (the model's StepIndex entry for this source). */
  readonly positions: number[];
}

export type RecordingListener = () => void;

export class RecordingStore {
  readonly #sources: MutableSource[] = [];
  readonly #byId = new Map<string, MutableSource>();
  readonly #steps: Step[] = [];
  readonly #listeners = new Set<RecordingListener>();
  readonly #max: number;
  #snapshot: Recording | undefined;
  #dropped = 0;
  #finished = false;

  /** The run followed the wall clock (`// @playground real-time`) rather than the virtual one: it was watched as it happened. */
  readonly realTime: boolean;

  constructor(options: { maxEvents?: number; realTime?: boolean } = {}) {
    this.#max = options.maxEvents ?? MAX_RECORDING_EVENTS;
    this.realTime = options.realTime ?? false;
  }

  /** Registers a source; a second announcement of the same id is ignored. */
  addSource(info: SourceInfo): void {
    if (this.#byId.has(info.id)) return;
    const source: MutableSource = { info, events: [], positions: [] };
    this.#sources.push(source);
    this.#byId.set(info.id, source);
    this.#changed();
  }

  /**
   * Appends events of a known source, in order. Events for an unknown source are dropped (the sandbox always
   * announces a source first), as are events past the cap.
   */
  append(sourceId: string, events: readonly unknown[]): void {
    const source = this.#byId.get(sourceId);
    if (!source || events.length === 0) return;
    const room = Math.max(0, this.#max - this.#steps.length);
    const take = Math.min(room, events.length);
    this.#dropped += events.length - take;
    if (take === 0) return;
    for (let i = 0; i < take; i++) {
      const index = source.events.length;
      source.events.push(events[i]);
      source.positions.push(this.#steps.length);
      this.#steps.push(Object.freeze({ sourceId, index }));
    }
    this.#changed();
  }

  /**
   * The snippet's top level has finished (done, error or stopped). Events may still arrive afterwards from a
   * live query client or timers; the panel uses this to decide between replaying and following.
   */
  get finished(): boolean {
    return this.#finished;
  }

  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#changed();
  }

  /** Total steps recorded. */
  get length(): number {
    return this.#steps.length;
  }

  /** Events refused because the cap was reached. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The recording as of now; the same object until the next change. */
  snapshot(): Recording {
    if (this.#snapshot) return this.#snapshot;
    const sources = this.#sources.map((s) => Object.freeze({ ...s.info, events: Object.freeze(s.events.slice()) }) as unknown as Source);
    const recording: Recording = Object.freeze({ sources: Object.freeze(sources), steps: Object.freeze(this.#steps.slice()) });
    primeStepIndex(recording, new Map(this.#sources.map((s) => [s.info.id, s.positions.slice()])));
    this.#snapshot = recording;
    return recording;
  }

  subscribe(listener: RecordingListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #changed(): void {
    this.#snapshot = undefined;
    for (const listener of [...this.#listeners]) listener();
  }
}
