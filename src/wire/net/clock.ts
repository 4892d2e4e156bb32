/**
 * A deterministic virtual clock (time is injected: CONTRIBUTING.md, 'Time').
 *
 * Time only moves when the owner calls `advance`, `step` or `runUntilIdle`; nothing here reads
 * `Date.now()` or schedules a real timer. Timers fire in order of due time, and timers due at the same
 * time fire in the order they were scheduled, so a run is reproducible. A callback that schedules a
 * timer due "now" (delay 0) gets it run in the same `advance`, after the callbacks already due.
 *
 * Times are kept in whole microseconds: a timer's due time is rounded when it is set (`roundTime`), so
 * `now()` is always a multiple of 0.001 ms.
 *
 * The clock implements the same five methods as the host (`now`, `setTimeout`, `clearTimeout`,
 * `setInterval`, `clearInterval`), so anything that takes a `Clock` can run on real or virtual time.
 */
import { roundTime } from '../transport/time';

export type TimerId = number;

/** Rounds a time or duration to whole microseconds (transport/time.ts, shared with the QUIC engine). */
export { roundTime };

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, delayMs?: number): TimerId;
  clearTimeout(id: TimerId | undefined): void;
  setInterval(callback: () => void, intervalMs: number): TimerId;
  clearInterval(id: TimerId | undefined): void;
}

interface Timer {
  readonly id: TimerId;
  due: number;
  /** Insertion order among timers with the same due time. */
  order: number;
  readonly callback: () => void;
  /** For intervals: the period; undefined for one-shot timers. */
  readonly every: number | undefined;
}

function checkDelay(ms: number | undefined, what: string): number {
  const value = ms ?? 0;
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${what} expects a finite delay >= 0 in virtual milliseconds, got ${String(ms)}.`);
  }
  return value;
}

export class VirtualClock implements Clock {
  #now: number;
  #nextId = 1;
  #nextOrder = 0;
  readonly #timers = new Map<TimerId, Timer>();

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, delayMs?: number): TimerId {
    return this.#add(callback, checkDelay(delayMs, 'setTimeout'), undefined);
  }

  clearTimeout(id: TimerId | undefined): void {
    if (id !== undefined) this.#timers.delete(id);
  }

  setInterval(callback: () => void, intervalMs: number): TimerId {
    const every = checkDelay(intervalMs, 'setInterval');
    // A zero period would make `advance` loop forever at one instant; hosts clamp too (HTML: >= 1 ms).
    return this.#add(callback, Math.max(every, 1), Math.max(every, 1));
  }

  clearInterval(id: TimerId | undefined): void {
    this.clearTimeout(id);
  }

  /** Number of scheduled timers (intervals count once). */
  get pending(): number {
    return this.#timers.size;
  }

  /** Due time of the next timer, or undefined when none is scheduled. */
  nextDue(): number | undefined {
    return this.#next()?.due;
  }

  /**
   * Jumps to the next timer's due time and runs that one timer. Returns false when nothing is scheduled
   * (time does not move then).
   */
  step(): boolean {
    const timer = this.#next();
    if (!timer) return false;
    this.#now = Math.max(this.#now, timer.due);
    this.#fire(timer);
    return true;
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way, in order. */
  advance(ms: number): void {
    const target = roundTime(this.#now + checkDelay(ms, 'advance'));
    for (let timer = this.#next(); timer && timer.due <= target; timer = this.#next()) {
      this.#now = Math.max(this.#now, timer.due);
      this.#fire(timer);
    }
    this.#now = target;
  }

  /**
   * Runs timers until none is left. Throws after `maxSteps` timers, which catches intervals that are
   * never cleared (they would make "idle" unreachable).
   */
  runUntilIdle(maxSteps = 100_000): number {
    let steps = 0;
    while (this.step()) {
      if (++steps >= maxSteps) {
        throw new Error(`runUntilIdle gave up after ${maxSteps} timers; is an interval never cleared?`);
      }
    }
    return steps;
  }

  #add(callback: () => void, delay: number, every: number | undefined): TimerId {
    const id = this.#nextId++;
    this.#timers.set(id, { id, due: roundTime(this.#now + delay), order: this.#nextOrder++, callback, every });
    return id;
  }

  #next(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.#timers.values()) {
      if (!best || t.due < best.due || (t.due === best.due && t.order < best.order)) best = t;
    }
    return best;
  }

  #fire(timer: Timer): void {
    if (timer.every === undefined) {
      this.#timers.delete(timer.id);
    } else {
      timer.due = roundTime(timer.due + timer.every);
      timer.order = this.#nextOrder++;
    }
    timer.callback();
  }
}
