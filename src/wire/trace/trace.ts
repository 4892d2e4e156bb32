/**
 * The trace: an append-only log of TraceEvents for one simulation, subscribable live.
 *
 * One notify point (STYLE.md practice 6): `emit` stamps the event with the next `seq` and the virtual
 * time, freezes it, appends it and then tells subscribers. Events are never changed after they are
 * built; a listener receives the same frozen object that `events` holds.
 */
import { Subscribable } from './subscribable';
import type { TraceEvent, TraceEventInit, TraceEventOf, TraceEventType } from './events';

export type TraceListener = (event: TraceEvent) => void;

export interface TraceJson {
  readonly format: 'roundtrip-trace';
  readonly version: 1;
  readonly events: readonly TraceEvent[];
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

export class Trace extends Subscribable<TraceListener> {
  readonly #now: () => number;
  readonly #events: TraceEvent[] = [];

  /** `now` is the simulation's virtual clock; the trace never reads real time. */
  constructor(now: () => number) {
    super();
    this.#now = now;
  }

  emit(init: TraceEventInit): TraceEvent {
    if (typeof (init as { type?: unknown }).type !== 'string') {
      throw new TypeError('A trace event needs a string `type`.');
    }
    const event = deepFreeze({ ...init, seq: this.#events.length + 1, at: this.#now() } as TraceEvent);
    this.#events.push(event);
    this.notify(event);
    return event;
  }

  get events(): readonly TraceEvent[] {
    return this.#events;
  }

  /** All events of one type, narrowed. */
  ofType<T extends TraceEventType>(type: T): TraceEventOf<T>[] {
    return this.#events.filter((e): e is TraceEventOf<T> => e.type === type);
  }

  toJSON(): TraceJson {
    return { format: 'roundtrip-trace', version: 1, events: [...this.#events] };
  }
}
