/**
 * Removable: garbage collection for cache entries. When the last observer leaves, the entry starts a
 * gcTime countdown; when it runs out the subclass decides whether it can really go (`optionalRemove`).
 * gcTime only ever grows: the longest gcTime any user asked for wins.
 */
import { isServerNow } from './environmentManager';
import { now, timeoutManager } from './timeoutManager';
import { isValidTimeout } from './utils';
import type { Instrumentation, InstrumentationSubject } from './instrumentation';
import type { ManagedTimerId } from './timeoutManager';

const CLIENT_GC_TIME = 5 * 60 * 1000;

export abstract class Removable {
  gcTime!: number;
  #gcTimeout?: ManagedTimerId;
  #gcProbeId = 0;

  /** Where gc events go; set by subclasses that know their client. */
  protected abstract get probe(): Instrumentation | undefined;
  protected abstract get subject(): InstrumentationSubject;

  destroy(): void {
    this.clearGcTimeout();
  }

  protected scheduleGc(): void {
    this.clearGcTimeout();
    if (!isValidTimeout(this.gcTime)) return;
    const delay = this.gcTime;
    this.#gcTimeout = timeoutManager.setTimeout(() => this.#gcFired(), delay);
    const probe = this.probe;
    if (probe?.enabled) {
      this.#gcProbeId = probe.timerScheduled('gc', this.subject, delay);
      probe.emit('gcScheduled', this.subject, { delay, dueAt: now() + delay });
    }
  }

  protected updateGcTime(newGcTime: number | undefined): void {
    this.gcTime = Math.max(this.gcTime || 0, newGcTime ?? (isServerNow() ? Infinity : CLIENT_GC_TIME));
  }

  protected clearGcTimeout(): void {
    if (this.#gcTimeout === undefined) return;
    timeoutManager.clearTimeout(this.#gcTimeout);
    this.#gcTimeout = undefined;
    const probe = this.probe;
    if (probe?.enabled && this.#gcProbeId) {
      probe.timerCleared(this.#gcProbeId);
      probe.emit('gcCancelled', this.subject, {});
    }
    this.#gcProbeId = 0;
  }

  #gcFired(): void {
    this.#gcTimeout = undefined;
    const probe = this.probe;
    const id = this.#gcProbeId;
    this.#gcProbeId = 0;
    if (probe?.enabled && id) probe.timerFired(id);
    const removed = this.optionalRemove();
    if (probe?.enabled) probe.emit('gcFired', this.subject, { removed: removed !== false });
  }

  /** Remove the entry if nothing still needs it; return false when it was kept. */
  protected abstract optionalRemove(): boolean | void;
}
