/**
 * The core's one instrumentation seam. Queries, mutations, observers and the retryer report what they do
 * as `trace(client, type, owner, ...facts)`: raw facts, no event objects. An `Instrumentation` (see
 * instrumentation.ts) attaches a hook per client and turns the facts into events; the core never imports
 * it, so an app that does not instrument pays for this file and the call sites only, the way TanStack's
 * devtools live outside query-core.
 *
 * `TraceFacts` names every fact and the arguments it carries, so a call site that passes the wrong thing, or
 * a handler that reads a fact as something it is not, fails to compile. The types cost nothing at run time:
 * `trace` keeps three positional arguments (no rest array on the hot paths), and only its signature is typed.
 */
import type { PauseReason } from './instrumentation';

/** The timers an observer traces itself (gc and retry timers are traced by their own facts). */
export type ObserverTimerKind = 'staleTime' | 'refetchInterval';

/** The part of a query's or mutation's reducer action that instrumentation reads. */
export interface TracedAction {
  readonly type: string;
  readonly manual?: boolean;
  readonly error?: unknown;
}

/** Every fact the core reports, by name, with the arguments that follow its owner. */
export interface TraceFacts {
  /** A query's or mutation's gc timer started (removable.ts). */
  gcScheduled: [delay: number];
  gcCancelled: [];
  /** The gc timer ran out; `gcFired` follows with whether the owner was removed. */
  gcTimerFired: [];
  gcFired: [removed: boolean];
  /** The retryer waits `delay` ms before attempt `attempt` (1 for the first retry) after `error`. */
  retry: [attempt: number, delay: number, error: unknown];
  retryFired: [];
  /** `failureCount`: every failed attempt, the first included (TanStack's fetchFailureCount): retry: 1 gives up after 2. */
  retryGiveUp: [failureCount: number, reason: 'retry-exhausted' | 'retry-cancelled'];
  pause: [reason: PauseReason];
  timerScheduled: [timer: ObserverTimerKind, delay: number];
  /** `repeats`: an interval, which stays scheduled. */
  timerFired: [timer: ObserverTimerKind, repeats?: true];
  timerCleared: [timer: ObserverTimerKind];
  /** Every reducer action of a query or mutation. */
  dispatch: [action: TracedAction];
  fetchStart: [];
  fetchEnd: [outcome: 'success' | 'error' | 'cancelled'];
  cancel: [options: { readonly revert?: boolean; readonly silent?: boolean } | undefined];
  observerAdded: [observerCount: number];
  observerRemoved: [observerCount: number];
}

export type TraceType = keyof TraceFacts;

/** One fact as a hook receives it: its name, its owner, then its arguments. */
export type TraceFact<O = object> = { [T in TraceType]: [type: T, owner: O, ...facts: TraceFacts[T]] }[TraceType];

/** A per-client receiver of facts (instrumentation.ts attaches one). */
export type TraceHook = (...fact: TraceFact) => void;

type AnyHook = (type: TraceType, owner: object, a?: unknown, b?: unknown, c?: unknown) => void;

const hooks = new WeakMap<object, AnyHook>();
// Until some client is instrumented, a trace is one read of this counter (no map lookup on hot paths).
let attached = 0;

export function trace<T extends TraceType>(client: object | undefined, type: T, owner: object, ...facts: TraceFacts[T]): void;
export function trace(client: object | undefined, type: TraceType, owner: object, a?: unknown, b?: unknown, c?: unknown): void {
  if (attached) hooks.get(client!)?.(type, owner, a, b, c);
}

/** @internal Instrumentation's side of the seam: one hook per client. */
export function attachTrace(client: object, hook: TraceHook): void {
  // The hook is called with a fact's arguments positionally, exactly as a TraceFact spreads them.
  hooks.set(client, hook as AnyHook);
  attached++;
}
