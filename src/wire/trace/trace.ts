/**
 * The trace: an append-only log of TraceEvents for one simulation, subscribable live.
 *
 * One notify point (ARCHITECTURE.md, 'One notify point'): `emit` stamps the event with the next `seq` and the virtual
 * time, freezes it (deeply), appends it and then tells subscribers. Events are never changed after they are
 * built; a listener receives the same frozen object that `events` holds. `emitPrebuilt` (internal, for the
 * HTTP/2 tracer's hundreds of thousands of events) is the same step for an event whose parts are frozen
 * already, so only the event itself is frozen.
 */
import { Subscribable } from './subscribable';
import type { TraceEvent, TraceEventInit, TraceEventOf, TraceEventType } from './events';

export type TraceListener = (event: TraceEvent) => void;

export interface TraceJson {
  readonly format: 'roundtrip-trace';
  readonly version: 1;
  readonly events: readonly TraceEvent[];
}

/**
 * Freezes `value` and everything reachable from it. Values already frozen are skipped with their
 * contents: emitters share frozen constants (flag lists, byte-range layouts) across thousands of events.
 * Arrays are walked by index and plain objects with `for...in` (events are plain data, no prototypes
 * with enumerable keys): both avoid the key array `Object.keys` builds for every nested value.
 */
function deepFreeze<T>(value: T): T {
  const object = value as unknown as Record<string, unknown>;
  Object.freeze(object);
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length; i++) {
      const item: unknown = object[i];
      if (item !== null && typeof item === 'object' && !Object.isFrozen(item)) deepFreeze(item);
    }
  } else {
    for (const key in object) {
      const item = object[key];
      if (item !== null && typeof item === 'object' && !Object.isFrozen(item)) deepFreeze(item);
    }
  }
  return value;
}

/** An event its emitter built whole: `seq: 0, at: 0` in place, and every object it reaches already frozen. */
export type PrebuiltEvent = TraceEvent;

let appendPrebuilt: (trace: Trace, event: PrebuiltEvent) => TraceEvent;

export class Trace extends Subscribable<TraceListener> {
  readonly #now: () => number;
  readonly #events: TraceEvent[] = [];

  static {
    // The event's parts are frozen by its emitter, so freezing the event itself is enough.
    appendPrebuilt = (trace, event) => trace.#append(event, Object.freeze);
  }

  /** `now` is the simulation's virtual clock; the trace never reads real time. */
  constructor(now: () => number) {
    super();
    this.#now = now;
  }

  /**
   * Stamps, freezes, records and announces one event. The trace takes ownership of `init`: emitters
   * build it as a fresh literal, so it becomes the event itself (stamped in place) instead of being
   * copied; a frozen `init` (an event emitted again) is copied first. Copying every one of the hundreds
   * of thousands of events a big simulation makes cost as much as building them.
   */
  emit(init: TraceEventInit): TraceEvent {
    if (typeof (init as { type?: unknown }).type !== 'string') {
      throw new TypeError('A trace event needs a string `type`.');
    }
    return this.#append((Object.isFrozen(init) ? { ...init } : init) as unknown as TraceEvent, deepFreeze);
  }

  /** The one notify point: stamps `event` in place with the next seq and the time, freezes, records, announces. */
  #append(event: TraceEvent, freeze: (event: TraceEvent) => TraceEvent): TraceEvent {
    const target = event as unknown as { seq: number; at: number };
    target.seq = this.#events.length + 1;
    target.at = this.#now();
    freeze(event);
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

/**
 * `emit` for the hottest emitters (the HTTP/2 tracer: two thirds of a big simulation's events), not
 * re-exported from the library. The event arrives complete, with `seq: 0` and `at: 0` as placeholders,
 * so stamping it keeps the shape of the literal (adding two properties would give every event a second
 * allocation), and only the event itself needs freezing: its emitter guarantees that each object it
 * refers to is frozen already (shared constants, or lists frozen once for both ends of a connection), so
 * the deep walk of `emit` would find nothing to do. The result is as immutable as an `emit`ted event;
 * sim/http2/trace.test.ts checks that on whole traces.
 */
export function emitPrebuilt(trace: Trace, event: PrebuiltEvent): TraceEvent {
  return appendPrebuilt(trace, event);
}
