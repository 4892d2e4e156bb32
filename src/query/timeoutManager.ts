/**
 * timeoutManager: the library's only door to time.
 *
 * Every timer (gc, stale expiry, retry backoff, refetch interval, notification flush) and every reading
 * of "now" goes through the singleton below. A playground swaps in a simulation's virtual clock with
 * `setTimeoutProvider(clock)`; if that provider also has `now()`, timestamps (dataUpdatedAt, submittedAt,
 * instrumentation `at`) follow the same virtual clock.
 *
 * The default provider calls the globals through lambdas, looked up at call time, so installing
 * `vi.useFakeTimers()` after this module was imported still works. Nothing here captures a global.
 */

// biome-ignore lint/suspicious/noConfusingVoidType: TanStack's exact type; `(_: void)` lets providers call it with or without an argument
export type TimeoutCallback = (_: void) => void;

/** Whatever the provider hands back as a timer handle; numbers in browsers, objects in Node. */
export type ManagedTimerId = number | { [Symbol.toPrimitive]: () => number };

export type TimeoutProvider<TTimerId extends ManagedTimerId = ManagedTimerId> = {
  readonly setTimeout: (callback: TimeoutCallback, delay: number) => TTimerId;
  readonly clearTimeout: (timeoutId: TTimerId | undefined) => void;
  readonly setInterval: (callback: TimeoutCallback, delay: number) => TTimerId;
  readonly clearInterval: (intervalId: TTimerId | undefined) => void;
  /** Optional clock reading in epoch milliseconds. Without it, `Date.now()` is used. */
  readonly now?: () => number;
};

type GlobalTimerId = ReturnType<typeof setTimeout>;

// A bare global name in a lambda is looked up when the lambda runs, so fake timers installed later apply.
export const defaultTimeoutProvider: TimeoutProvider = {
  setTimeout: (callback, delay) => setTimeout(callback, delay),
  clearTimeout: (id) => clearTimeout(id as GlobalTimerId | undefined),
  setInterval: (callback, delay) => setInterval(callback, delay),
  clearInterval: (id) => clearInterval(id as GlobalTimerId | undefined),
};

export class TimeoutManager implements Omit<TimeoutProvider, 'now'> {
  #provider: TimeoutProvider<any> = defaultTimeoutProvider;
  #used = false;

  /**
   * Route all timers (and, when the provider has `now`, all clock readings) through `provider`.
   * Switch before the first timer is set: handles from one provider mean nothing to another.
   */
  setTimeoutProvider<TTimerId extends ManagedTimerId>(provider: TimeoutProvider<TTimerId>): void {
    if (process.env.NODE_ENV !== 'production' && this.#used && provider !== this.#provider) {
      console.error(
        '[timeoutManager]: the timeout provider was replaced after timers were already scheduled with the previous one; ' +
          'those timers can no longer be cleared. Install the provider before creating clients.',
        { previous: this.#provider, provider },
      );
    }
    this.#provider = provider;
    this.#used = false;
  }

  setTimeout(callback: TimeoutCallback, delay: number): ManagedTimerId {
    this.#used = true;
    return this.#provider.setTimeout(callback, delay);
  }

  clearTimeout(timeoutId: ManagedTimerId | undefined): void {
    this.#provider.clearTimeout(timeoutId);
  }

  setInterval(callback: TimeoutCallback, delay: number): ManagedTimerId {
    this.#used = true;
    return this.#provider.setInterval(callback, delay);
  }

  clearInterval(intervalId: ManagedTimerId | undefined): void {
    this.#provider.clearInterval(intervalId);
  }

  /** Current time in epoch ms, from the provider's clock when it has one. */
  now(): number {
    return this.#provider.now?.() ?? Date.now();
  }
}

export const timeoutManager = new TimeoutManager();

/** Shorthand used across the library for "now" (timestamps and staleness). */
export const now = (): number => timeoutManager.now();
