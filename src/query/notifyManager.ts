/**
 * notifyManager: batching of listener calls.
 *
 * `batch(fn)` opens a transaction; callbacks handed to `schedule` (or wrapped with `batchCalls`) inside
 * it are queued and flushed together on a later tick, wrapped in `batchNotifyFunction` (React bindings
 * plug `unstable_batchedUpdates` in there). Outside a transaction each scheduled callback gets its own
 * tick. Core listeners are called synchronously; only UI callbacks go through `schedule`.
 *
 * Departure from TanStack: the default scheduler defers through `timeoutManager`, not the global
 * `setTimeout`, so a virtual clock also owns notification ticks.
 */
import { timeoutManager } from './timeoutManager';

type NotifyCallback = () => void;
type NotifyFunction = (callback: () => void) => void;
type BatchNotifyFunction = (callback: () => void) => void;
type BatchCallsCallback<T extends Array<unknown>> = (...args: T) => void;
type ScheduleFunction = (callback: () => void) => void;

export const defaultScheduler: ScheduleFunction = (callback) => {
  timeoutManager.setTimeout(callback, 0);
};

export function createNotifyManager() {
  let pending: Array<NotifyCallback> = [];
  let depth = 0;
  let notifyFn: NotifyFunction = (callback) => callback();
  let batchNotifyFn: BatchNotifyFunction = (callback) => callback();
  let scheduleFn: ScheduleFunction = defaultScheduler;

  const schedule = (callback: NotifyCallback): void => {
    if (depth) pending.push(callback);
    else scheduleFn(() => notifyFn(callback));
  };

  return {
    batch<T>(callback: () => T): T {
      depth++;
      try {
        return callback();
      } finally {
        depth--;
        // the outermost batch hands everything queued inside it to one scheduled flush
        const queued = pending;
        if (!depth && queued.length) {
          pending = [];
          scheduleFn(() =>
            batchNotifyFn(() => {
              for (const callback of queued) notifyFn(callback);
            }),
          );
        }
      }
    },
    batchCalls<T extends Array<unknown>>(callback: BatchCallsCallback<T>): BatchCallsCallback<T> {
      return (...args) => schedule(() => callback(...args));
    },
    schedule,
    /** How each queued callback is invoked (e.g. inside `act()` in tests). */
    setNotifyFunction(fn: NotifyFunction): void {
      notifyFn = fn;
    },
    /** How a whole flushed batch is wrapped (e.g. React's batched updates). */
    setBatchNotifyFunction(fn: BatchNotifyFunction): void {
      batchNotifyFn = fn;
    },
    /** When a flush runs; default is the next timeoutManager tick. */
    setScheduler(fn: ScheduleFunction): void {
      scheduleFn = fn;
    },
  } as const;
}

export type NotifyManager = ReturnType<typeof createNotifyManager>;

export const notifyManager = createNotifyManager();
