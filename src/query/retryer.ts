/**
 * Retryer: runs one attempt function until it succeeds, retries are exhausted, or it is cancelled.
 *
 *   pending --attempt ok--------------------------------> resolved
 *   pending --attempt fails, retry allowed--> backoff --> (paused?) --> next attempt
 *   pending --attempt fails, no retry / cancelRetry----> rejected
 *   pending --cancel()----------------------------------> rejected with CancelledError
 *
 * Between attempts it sleeps `retryDelay`, then pauses while the window is unfocused or (networkMode
 * 'online') the network is down, or the owner says it cannot run (mutation scopes). `continue()` wakes a
 * paused retryer when the condition may have changed. Sleeping uses timeoutManager, so virtual time works.
 *
 * The retryer traces its own pauses, retries (with the backoff timer) and give-ups for the owner
 * (trace.ts), so queries and mutations share those call sites.
 */
import { NETWORK_MODE, RETRY, RETRY_DELAY_BASE, RETRY_DELAY_MAX, SERVER_RETRY } from './defaults';
import { isServerNow } from './environmentManager';
import { focusManager } from './focusManager';
import { onlineManager } from './onlineManager';
import { trace, type TraceFacts, type TraceType } from './trace';
import { noop, sleep } from './utils';
import type { PauseReason } from './instrumentation';
import type { CancelOptions, DefaultError, NetworkMode } from './types';

type ShouldRetryFunction<TError = DefaultError> = (failureCount: number, error: TError) => boolean;
type RetryDelayFunction<TError = DefaultError> = (failureCount: number, error: TError) => number;

export type RetryValue<TError> = boolean | number | ShouldRetryFunction<TError>;
export type RetryDelayValue<TError> = number | RetryDelayFunction<TError>;

interface RetryerConfig<TData = unknown, TError = DefaultError> {
  fn: () => TData | Promise<TData>;
  /** Used instead of `fn` for the first attempt (hydrated or streamed promises). */
  initialPromise?: Promise<TData>;
  onCancel?: (error: TError) => void;
  /** Tells the owner's state machine about failed attempts and pauses (query and mutation share these actions). */
  dispatch: (action: RetryerAction<TError>) => void;
  /** The query or mutation, and its client, whose instrumentation hears about pauses, retries and give-ups. */
  owner: object;
  client: object;
  retry?: RetryValue<TError>;
  retryDelay?: RetryDelayValue<TError>;
  networkMode: NetworkMode | undefined;
  canRun: () => boolean;
}

export type RetryerAction<TError> = { type: 'failed'; failureCount: number; error: TError } | { type: 'pause' } | { type: 'continue' };

export interface Retryer<TData = unknown> {
  promise: Promise<TData>;
  cancel: (cancelOptions?: CancelOptions) => void;
  continue: () => Promise<unknown>;
  cancelRetry: () => void;
  continueRetry: () => void;
  canStart: () => boolean;
  start: () => Promise<TData>;
  status: () => 'pending' | 'resolved' | 'rejected';
}

/** 1 s, 2 s, 4 s ... capped at 30 s (failureCount starts at 0 for the first retry). */
function defaultRetryDelay(failureCount: number): number {
  return Math.min(RETRY_DELAY_BASE * 2 ** failureCount, RETRY_DELAY_MAX);
}

/** May a fetch in this network mode start right now? Only 'online' cares about connectivity. */
export function canFetch(networkMode: NetworkMode | undefined): boolean {
  return (networkMode ?? NETWORK_MODE) === 'online' ? onlineManager.isOnline() : true;
}

/** Why can't work continue right now? (For instrumentation; undefined when it can.) */
export function pauseReason(networkMode: NetworkMode | undefined, canRun: () => boolean): PauseReason | undefined {
  if (!focusManager.isFocused()) return 'unfocused';
  if (networkMode !== 'always' && !onlineManager.isOnline()) return 'offline';
  return canRun() ? undefined : 'scope';
}

export class CancelledError extends Error {
  declare revert?: boolean;
  declare silent?: boolean;
  constructor(options?: CancelOptions) {
    super('CancelledError');
    this.revert = options?.revert;
    this.silent = options?.silent;
  }
}

export function isCancelledError(value: any): value is CancelledError {
  return value instanceof CancelledError;
}

function shouldRetry<TError>(retry: RetryValue<TError>, failureCount: number, error: TError): boolean {
  if (retry === true) return true;
  if (typeof retry === 'number') return failureCount < retry;
  return typeof retry === 'function' && retry(failureCount, error);
}

export function createRetryer<TData = unknown, TError = DefaultError>(config: RetryerConfig<TData, TError>): Retryer<TData> {
  let status: 'pending' | 'resolved' | 'rejected' = 'pending';
  let failureCount = 0;
  let retryCancelled = false;
  let wake: ((value?: unknown) => void) | undefined;
  let settleOk!: (data: TData) => void;
  let settleFail!: (error: TError) => void;

  const promise = new Promise<TData>((resolve, reject) => {
    settleOk = resolve;
    settleFail = reject;
  });
  promise.catch(noop); // callers attach their own handlers; never report this one as unhandled

  const settled = () => status !== 'pending';
  const tracePoint = <T extends TraceType>(type: T, ...facts: TraceFacts[T]) => trace(config.client, type, config.owner, ...facts);

  const resolve = (value: TData) => {
    if (settled()) return;
    wake?.();
    status = 'resolved';
    settleOk(value);
  };

  const reject = (error: TError) => {
    if (settled()) return;
    wake?.();
    status = 'rejected';
    settleFail(error);
  };

  // focused, online unless networkMode 'always', and the owner allows it: pauseReason's checks, in its order
  const canContinue = () => !pauseReason(config.networkMode, config.canRun);

  const canStart = () => canFetch(config.networkMode) && config.canRun();

  /** Wait until `canResume()` holds (checked whenever someone calls `continue()`), or until settled. */
  const pause = (canResume: () => boolean) =>
    new Promise((release) => {
      wake = (value) => {
        if (settled() || canResume()) release(value);
      };
      tracePoint('pause', pauseReason(config.networkMode, config.canRun) ?? 'offline');
      config.dispatch({ type: 'pause' });
    }).then(() => {
      wake = undefined;
      if (!settled()) config.dispatch({ type: 'continue' });
    });

  /**
   * `failed`: attempts that failed in all, TanStack's fetchFailureCount once the error lands (`failureCount` here
   * counts only the failures that were retried, so the last failure is one more when it is what gives up).
   */
  const giveUp = (error: TError, reason: 'retry-exhausted' | 'retry-cancelled', failed: number) => {
    tracePoint('retryGiveUp', failed, reason);
    reject(error);
  };

  const attempt = (): void => {
    if (settled()) return;
    let outcome: TData | Promise<TData>;
    const initial = failureCount === 0 ? config.initialPromise : undefined;
    try {
      outcome = initial ?? config.fn();
    } catch (error) {
      outcome = Promise.reject(error);
    }
    Promise.resolve(outcome)
      .then(resolve)
      .catch((error: TError) => {
        if (settled()) return;
        const retry = config.retry ?? (isServerNow() ? SERVER_RETRY : RETRY);
        const retryDelay = config.retryDelay ?? defaultRetryDelay;
        const delay = typeof retryDelay === 'function' ? retryDelay(failureCount, error) : retryDelay;
        if (retryCancelled || !shouldRetry(retry, failureCount, error)) {
          giveUp(error, retryCancelled ? 'retry-cancelled' : 'retry-exhausted', failureCount + 1);
          return;
        }
        failureCount++;
        config.dispatch({ type: 'failed', failureCount, error });
        tracePoint('retry', failureCount, delay, error);
        sleep(delay)
          .then(() => {
            tracePoint('retryFired');
            return settled() || canContinue() ? undefined : pause(canContinue);
          })
          .then(() => {
            // the failure that led here was counted before the wait: no attempt has run since
            if (retryCancelled) giveUp(error, 'retry-cancelled', failureCount);
            else attempt();
          });
      });
  };

  return {
    promise,
    status: () => status,
    cancel: (cancelOptions) => {
      if (settled()) return;
      const error = new CancelledError(cancelOptions) as TError;
      reject(error);
      config.onCancel?.(error);
    },
    continue: () => {
      wake?.();
      return promise;
    },
    cancelRetry: () => {
      retryCancelled = true;
    },
    continueRetry: () => {
      retryCancelled = false;
    },
    canStart,
    start: () => {
      if (canStart()) attempt();
      else pause(canStart).then(attempt);
      return promise;
    },
  };
}
