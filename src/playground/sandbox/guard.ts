/**
 * Catches what a snippet throws inside its callbacks (timers, animation frames, microtasks), to report it as
 * an uncaught error with its message and line.
 *
 * The browser cannot always tell us itself: the sandbox's document has an opaque origin, so every script from
 * the site counts as cross-origin to it, and the browser "mutes" the errors of those fetched without CORS (HTML,
 * muted errors): `window.onerror` gets only "Script error." and their unhandled promise rejections are not
 * reported at all. The snippet runs as a script of the page (execute.ts, evaluateAsScript) and the libraries
 * are loaded with CORS where the host allows it (runtime.ts, loadChunk), but the runtime core is not, and a
 * host may refuse CORS. Wrapping each callback where it is scheduled keeps the error object whoever calls it.
 *
 * A caught error stops there, as an uncaught one would in a page: the timer's other callbacks keep running.
 */
type Callback = (...args: unknown[]) => unknown;

/** The scheduling functions of a window (or anything shaped like one, for tests). */
export interface Schedulers {
  setTimeout: (handler: Callback, timeout?: number, ...args: unknown[]) => number;
  setInterval: (handler: Callback, timeout?: number, ...args: unknown[]) => number;
  queueMicrotask?: (callback: () => void) => void;
  requestAnimationFrame?: (callback: (time: number) => void) => number;
}

function guarded<F extends Callback>(callback: F, report: (error: unknown) => void): F {
  return function (this: unknown, ...args: unknown[]) {
    try {
      return callback.apply(this, args);
    } catch (error) {
      report(error);
      return undefined;
    }
  } as F;
}

/** Replaces `target`'s schedulers with ones whose callbacks report what they throw to `report`. */
export function guardCallbacks(target: Schedulers, report: (error: unknown) => void): void {
  const { setTimeout: timeout, setInterval: interval, queueMicrotask: microtask, requestAnimationFrame: frame } = target;
  // A string handler is code to evaluate, not a callback: passed on as it is.
  const wrap = (handler: unknown) => (typeof handler === 'function' ? guarded(handler as Callback, report) : handler) as Callback;
  target.setTimeout = (handler, ms, ...args) => timeout.call(target, wrap(handler), ms, ...args);
  target.setInterval = (handler, ms, ...args) => interval.call(target, wrap(handler), ms, ...args);
  if (microtask) target.queueMicrotask = (callback) => microtask.call(target, wrap(callback) as () => void);
  if (frame) target.requestAnimationFrame = (callback) => frame.call(target, wrap(callback) as (time: number) => void);
}
