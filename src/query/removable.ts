/**
 * Removable: garbage collection for cache entries. When the last observer leaves, the entry starts a
 * gcTime countdown; when it runs out the subclass decides whether it can really go (`optionalRemove`).
 * gcTime only ever grows: the longest gcTime any user asked for wins.
 */
import { GC_TIME, SERVER_GC_TIME } from './defaults';
import { isServerNow } from './environmentManager';
import { timeoutManager } from './timeoutManager';
import { isValidTimeout } from './utils';
import { trace } from './trace';
import type { ManagedTimerId } from './timeoutManager';

export abstract class Removable {
  /** Set by the subclass constructor through `updateGcTime`. */
  declare gcTime: number;
  #gcTimeout?: ManagedTimerId;
  /** Whose instrumentation hears about this entry's gc timer (see trace.ts). */
  #client?: object;

  constructor(client?: object) {
    this.#client = client;
  }

  destroy(): void {
    this.clearGcTimeout();
  }

  protected scheduleGc(): void {
    this.clearGcTimeout();
    if (!isValidTimeout(this.gcTime)) return;
    const delay = this.gcTime;
    this.#gcTimeout = timeoutManager.setTimeout(() => {
      this.#gcTimeout = undefined;
      // the timer ends before the removal it causes (the cache's 'removed' comes after 'timerFired')
      trace(this.#client, 'gcTimerFired', this);
      trace(this.#client, 'gcFired', this, this.optionalRemove());
    }, delay);
    trace(this.#client, 'gcScheduled', this, delay);
  }

  protected updateGcTime(newGcTime: number | undefined): void {
    this.gcTime = Math.max(this.gcTime || 0, newGcTime ?? (isServerNow() ? SERVER_GC_TIME : GC_TIME));
  }

  protected clearGcTimeout(): void {
    if (this.#gcTimeout === undefined) return;
    timeoutManager.clearTimeout(this.#gcTimeout);
    this.#gcTimeout = undefined;
    trace(this.#client, 'gcCancelled', this);
  }

  /** Remove the entry if nothing still needs it; return false when it was kept. */
  protected abstract optionalRemove(): boolean;
}
