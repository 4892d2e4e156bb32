/**
 * Instrumentation: a per-QueryClient stream of "what the library is doing and why", for the docs'
 * visualizers and for learners. It is not part of the TanStack interface.
 *
 *   const instrumentation = Instrumentation.of(client);
 *   const stop = instrumentation.subscribe((event) => console.log(event.type, event));
 *   instrumentation.getPendingTimers(); // timers set while someone was listening
 *
 * Every event is a frozen, discriminated value with `type`, `at` (the timeoutManager clock) and a
 * `subject` (which query or mutation). The core only reports raw facts through trace.ts; building events,
 * subjects and the pending-timer list happens here. An app that never calls `Instrumentation.of` does not
 * bundle this file and pays one counter read per trace() call; once a client is instrumented, a fact costs
 * a map lookup and, while nobody listens, nothing more.
 */
import { Subscribable } from './subscribable';
import { now } from './timeoutManager';
import { attachTrace, type TraceFact } from './trace';
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

/** What trace() owners look like from here (duck-typed: importing the classes would pull the core in). */
type Owner = {
  queryHash?: string;
  queryKey?: QueryKey;
  mutationId?: number;
  options?: { mutationKey?: MutationKey; retryDelay?: unknown };
  state?: { dataUpdatedAt: number; fetchMeta?: unknown; fetchStatus?: string };
  /** observers: their timers are about the query they watch */
  getCurrentQuery?: () => Owner;
};

const instances = new WeakMap<object, Instrumentation>();
const subjects = new WeakMap<object, InstrumentationSubject>();

/** Who an owner's events are about; one frozen value per query or mutation, so subjects compare by identity. */
function subjectOf(owner: Owner): InstrumentationSubject {
  if (owner.getCurrentQuery) return subjectOf(owner.getCurrentQuery());
  let subject = subjects.get(owner);
  if (!subject) {
    subject = owner.mutationId === undefined ? querySubject(owner.queryHash!, owner.queryKey!) : mutationSubject(owner.mutationId, owner.options?.mutationKey);
    subjects.set(owner, subject);
  }
  return subject;
}

export class Instrumentation extends Subscribable<InstrumentationListener> {
  /** True while at least one listener is subscribed; nothing is recorded otherwise. */
  enabled = false;
  #timers = new Map<number, PendingTimer>();
  /** The pending timer id per owner and kind (an observer has two kinds, a query or mutation gc and retry). */
  #timerIds = new WeakMap<object, Partial<Record<TimerKind, number>>>();
  #nextTimerId = 1;

  /** The client's instrumentation, attached on first use (events start with the first listener). */
  static of(client: object): Instrumentation {
    let instrumentation = instances.get(client);
    if (!instrumentation) {
      instrumentation = new Instrumentation();
      instances.set(client, instrumentation);
      attachTrace(client, (...fact) => instrumentation!.enabled && instrumentation!.#fact(...fact));
    }
    return instrumentation;
  }

  protected override onSubscribe(): void {
    this.enabled = true;
  }

  protected override onUnsubscribe(): void {
    this.enabled = this.hasListeners();
    if (!this.enabled) {
      this.#timers.clear();
      this.#timerIds = new WeakMap();
    }
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

  /**
   * One fact from the core (see the trace() calls in query.ts, mutation.ts, retryer.ts, removable.ts,
   * queryObserver.ts). The fact's name narrows its arguments (trace.ts, TraceFacts), so each case reads them
   * with their own types.
   */
  #fact(...[type, owner, a, b, c]: TraceFact<Owner>): void {
    const subject = subjectOf(owner);
    switch (type) {
      case 'gcScheduled':
        this.#timerScheduled(owner, 'gc', a);
        return this.emit('gcScheduled', subject, { delay: a, dueAt: now() + a });
      case 'gcCancelled':
        if (this.#timerEnded(owner, 'gc', 'timerCleared')) this.emit('gcCancelled', subject, {});
        return;
      case 'gcTimerFired':
        this.#timerEnded(owner, 'gc', 'timerFired');
        return;
      case 'gcFired':
        return this.emit('gcFired', subject, { removed: a });
      case 'retry': {
        const retryDelay = owner.options?.retryDelay;
        const delaySource: RetryDelaySource =
          retryDelay === undefined ? 'default-backoff' : typeof retryDelay === 'function' ? 'retryDelay-function' : 'retryDelay-number';
        this.#timerScheduled(owner, 'retry', b);
        return this.emit('retry', subject, { attempt: a, delay: b, dueAt: now() + b, delaySource, error: c });
      }
      case 'retryFired':
        this.#timerEnded(owner, 'retry', 'timerFired');
        return;
      case 'timerScheduled':
        this.#timerScheduled(owner, a, b);
        return;
      case 'timerFired':
        this.#timerEnded(owner, a, type, b);
        return;
      case 'timerCleared':
        this.#timerEnded(owner, a, type);
        return;
      case 'dispatch':
        if (a.type === 'success') {
          // a mutation's state has no dataUpdatedAt: its success happens now
          const dataUpdatedAt = owner.mutationId === undefined ? owner.state!.dataUpdatedAt : now();
          this.emit('success', subject, { dataUpdatedAt, manual: !!a.manual });
        } else if (a.type === 'error') {
          this.emit('error', subject, { error: a.error });
        } else if (a.type === 'continue' || a.type === 'invalidate') {
          this.emit(a.type, subject, {});
        }
        return;
      case 'fetchStart':
        return this.emit('fetchStart', subject, {
          fetchMeta: owner.state!.fetchMeta,
          fetchStatus: owner.state!.fetchStatus === 'paused' ? 'paused' : 'fetching',
        });
      case 'fetchEnd':
        return this.emit('fetchEnd', subject, { outcome: a });
      case 'cancel':
        return this.emit('cancel', subject, { revert: !!a?.revert, silent: !!a?.silent });
      case 'observerAdded':
      case 'observerRemoved':
        return this.emit(type, subject, { observerCount: a });
      case 'pause':
        return this.emit('pause', subject, { reason: a });
      case 'retryGiveUp':
        return this.emit('retryGiveUp', subject, { failureCount: a, reason: b });
    }
  }

  #timerScheduled(owner: Owner, timer: TimerKind, delay: number): void {
    const at = now();
    const entry: PendingTimer = Object.freeze({
      id: this.#nextTimerId++,
      timer,
      subject: subjectOf(owner),
      delay,
      scheduledAt: at,
      dueAt: at + delay,
    });
    let ids = this.#timerIds.get(owner);
    if (!ids) this.#timerIds.set(owner, (ids = {}));
    ids[timer] = entry.id;
    this.#timers.set(entry.id, entry);
    this.emit('timerScheduled', entry.subject, { timer: entry });
  }

  /** Ends the owner's pending `timer` if one was recorded; an interval keeps its entry, moved to the next due time. */
  #timerEnded(owner: Owner, timer: TimerKind, type: 'timerCleared' | 'timerFired', repeats = false): boolean {
    const ids = this.#timerIds.get(owner);
    const id = ids?.[timer];
    const entry = id === undefined ? undefined : this.#timers.get(id);
    if (!entry) return false;
    if (repeats) {
      const at = now();
      this.#timers.set(entry.id, Object.freeze({ ...entry, scheduledAt: at, dueAt: at + entry.delay }));
    } else {
      this.#timers.delete(entry.id);
      delete ids![timer];
    }
    this.emit(type, entry.subject, { timer: entry });
    return true;
  }
}

function querySubject(queryHash: string, queryKey: QueryKey): InstrumentationSubject {
  return Object.freeze({ kind: 'query', queryHash, queryKey });
}

function mutationSubject(mutationId: number, mutationKey: MutationKey | undefined): InstrumentationSubject {
  return Object.freeze({ kind: 'mutation', mutationId, mutationKey });
}
