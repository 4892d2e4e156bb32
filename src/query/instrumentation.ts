/**
 * Instrumentation: a per-QueryClient stream of "what the library is doing and why", for the docs'
 * visualizers and for learners. It is not part of the TanStack interface.
 *
 *   const stop = client.getInstrumentation().subscribe((event) => console.log(event.type, event));
 *   client.getInstrumentation().getPendingTimers(); // timers set while someone was listening
 *
 * Every event is a frozen, discriminated value with `type`, `at` (the timeoutManager clock) and a
 * `subject` (which query or mutation). Emitters check `enabled` before building anything, so with no
 * subscriber the cost is one property read per would-be event.
 */
import { Subscribable } from './subscribable';
import { now } from './timeoutManager';
import type { MutationKey } from './mutationTypes';
import type { QueryKey } from './types';

export type InstrumentationSubject =
  | { readonly kind: 'query'; readonly queryHash: string; readonly queryKey: QueryKey }
  | { readonly kind: 'mutation'; readonly mutationId: number; readonly mutationKey: MutationKey | undefined };

/** Which timer: gc removal, observer stale expiry, retry backoff, refetch interval. */
export type TimerKind = 'gc' | 'staleTime' | 'retry' | 'refetchInterval';

/** Why a retry waits as long as it does. */
export type RetryDelaySource = 'default-backoff' | 'retryDelay-number' | 'retryDelay-function';

/** Why a fetch or mutation is paused / cannot start. */
export type PauseReason = 'offline' | 'unfocused' | 'scope';

export interface PendingTimer {
  readonly id: number;
  readonly timer: TimerKind;
  readonly subject: InstrumentationSubject;
  readonly delay: number;
  readonly scheduledAt: number;
  /** When it will fire; for intervals, the next firing. */
  readonly dueAt: number;
}

type Common = { readonly at: number; readonly subject: InstrumentationSubject };

export type InstrumentationEvent = Common &
  (
    | { readonly type: 'fetchStart'; readonly fetchMeta: unknown; readonly fetchStatus: 'fetching' | 'paused' }
    | { readonly type: 'fetchEnd'; readonly outcome: 'success' | 'error' | 'cancelled' }
    | { readonly type: 'success'; readonly dataUpdatedAt: number; readonly manual: boolean }
    | { readonly type: 'error'; readonly error: unknown }
    | {
        readonly type: 'retry';
        /** 1 for the first retry. */
        readonly attempt: number;
        readonly delay: number;
        readonly dueAt: number;
        readonly delaySource: RetryDelaySource;
        readonly error: unknown;
      }
    | { readonly type: 'retryGiveUp'; readonly failureCount: number; readonly reason: 'retry-exhausted' | 'retry-cancelled' }
    | { readonly type: 'pause'; readonly reason: PauseReason }
    | { readonly type: 'continue' }
    | { readonly type: 'cancel'; readonly revert: boolean; readonly silent: boolean }
    | { readonly type: 'invalidate' }
    | { readonly type: 'observerAdded'; readonly observerCount: number }
    | { readonly type: 'observerRemoved'; readonly observerCount: number }
    | { readonly type: 'gcScheduled'; readonly delay: number; readonly dueAt: number }
    | { readonly type: 'gcCancelled' }
    | { readonly type: 'gcFired'; readonly removed: boolean }
    | { readonly type: 'timerScheduled'; readonly timer: PendingTimer }
    | { readonly type: 'timerCleared'; readonly timer: PendingTimer }
    | { readonly type: 'timerFired'; readonly timer: PendingTimer }
  );

export type InstrumentationEventType = InstrumentationEvent['type'];

export type InstrumentationPayload<T extends InstrumentationEventType> = Omit<Extract<InstrumentationEvent, { type: T }>, 'at' | 'subject' | 'type'>;

export type InstrumentationListener = (event: InstrumentationEvent) => void;

export class Instrumentation extends Subscribable<InstrumentationListener> {
  /** True while at least one listener is subscribed; emitters read it before building events. */
  enabled = false;
  #timers = new Map<number, PendingTimer>();
  #nextTimerId = 1;

  protected override onSubscribe(): void {
    this.enabled = true;
  }

  protected override onUnsubscribe(): void {
    this.enabled = this.hasListeners();
    if (!this.enabled) this.#timers.clear();
  }

  emit<T extends InstrumentationEventType>(type: T, subject: InstrumentationSubject, payload: InstrumentationPayload<T>): void {
    if (!this.enabled) return;
    const event = Object.freeze({ type, at: now(), subject, ...payload }) as InstrumentationEvent;
    for (const listener of this.listeners) listener(event);
  }

  /** Timers set while someone listens, with their due times. */
  getPendingTimers(): ReadonlyArray<PendingTimer> {
    return [...this.#timers.values()];
  }

  /** Record a new timer; returns its id, or 0 when nobody listens. */
  timerScheduled(timer: TimerKind, subject: InstrumentationSubject, delay: number): number {
    if (!this.enabled) return 0;
    const at = now();
    const entry: PendingTimer = Object.freeze({
      id: this.#nextTimerId++,
      timer,
      subject,
      delay,
      scheduledAt: at,
      dueAt: at + delay,
    });
    this.#timers.set(entry.id, entry);
    this.emit('timerScheduled', subject, { timer: entry });
    return entry.id;
  }

  timerCleared(id: number): void {
    this.#timerEnded(id, 'timerCleared', false);
  }

  /** An interval keeps its entry, moved to the next due time. */
  timerFired(id: number, repeats = false): void {
    this.#timerEnded(id, 'timerFired', repeats);
  }

  #timerEnded(id: number, type: 'timerCleared' | 'timerFired', repeats: boolean): void {
    const entry = this.#timers.get(id);
    if (!entry) return;
    if (repeats) {
      const at = now();
      this.#timers.set(id, Object.freeze({ ...entry, scheduledAt: at, dueAt: at + entry.delay }));
    } else {
      this.#timers.delete(id);
    }
    this.emit(type, entry.subject, { timer: entry });
  }
}

/** Something whose events go to a client's instrumentation: queries and mutations. */
export interface Traced {
  /** @internal the client's instrumentation, when the entry knows its client */
  readonly probe: Instrumentation | undefined;
  /** @internal who the entry's events are about */
  readonly subject: InstrumentationSubject;
}

/** The source's instrumentation while someone listens, else undefined: `tracer(x)?.emit(...)` builds nothing otherwise. */
export function tracer(source: Traced): Instrumentation | undefined {
  const probe = source.probe;
  return probe?.enabled ? probe : undefined;
}

export function querySubject(queryHash: string, queryKey: QueryKey): InstrumentationSubject {
  return Object.freeze({ kind: 'query', queryHash, queryKey });
}

export function mutationSubject(mutationId: number, mutationKey: MutationKey | undefined): InstrumentationSubject {
  return Object.freeze({ kind: 'mutation', mutationId, mutationKey });
}
