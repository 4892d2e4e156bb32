/**
 * Removable: garbage collection for cache entries. When the last observer leaves, the entry starts a
 * gcTime countdown; when it runs out the subclass decides whether it can really go (`optionalRemove`).
 * gcTime only ever grows: the longest gcTime any user asked for wins.
 */
import { GC_TIME, SERVER_GC_TIME } from './defaults';
import { isServerNow } from './environmentManager';
import { now, timeoutManager } from './timeoutManager';
import { isValidTimeout } from './utils';
import { tracer } from './instrumentation';
import type { Instrumentation, InstrumentationSubject, Traced } from './instrumentation';
import type { ManagedTimerId } from './timeoutManager';

export abstract class Removable implements Traced {
  gcTime!: number;
  #gcTimeout?: ManagedTimerId;
  #gcProbeId = 0;

  /** @internal Where this entry's events go (gc here; fetches, retries, mutations in subclasses). */
  abstract get probe(): Instrumentation | undefined;
  /** @internal */
  abstract get subject(): InstrumentationSubject;

  destroy(): void {
    this.clearGcTimeout();
  }

  protected scheduleGc(): void {
    this.clearGcTimeout();
    if (!isValidTimeout(this.gcTime)) return;
    const delay = this.gcTime;
    this.#gcTimeout = timeoutManager.setTimeout(() => this.#gcFired(), delay);
    const probe = tracer(this);
    if (probe) {
      this.#gcProbeId = probe.timerScheduled('gc', this.subject, delay);
      probe.emit('gcScheduled', this.subject, { delay, dueAt: now() + delay });
    }
  }

  protected updateGcTime(newGcTime: number | undefined): void {
    this.gcTime = Math.max(this.gcTime || 0, newGcTime ?? (isServerNow() ? SERVER_GC_TIME : GC_TIME));
  }

  protected clearGcTimeout(): void {
    if (this.#gcTimeout === undefined) return;
    timeoutManager.clearTimeout(this.#gcTimeout);
    this.#gcTimeout = undefined;
    if (this.#gcProbeId) {
      tracer(this)?.timerCleared(this.#gcProbeId);
      tracer(this)?.emit('gcCancelled', this.subject, {});
    }
    this.#gcProbeId = 0;
  }

  #gcFired(): void {
    this.#gcTimeout = undefined;
    const id = this.#gcProbeId;
    this.#gcProbeId = 0;
    if (id) tracer(this)?.timerFired(id);
    const removed = this.optionalRemove();
    tracer(this)?.emit('gcFired', this.subject, { removed: removed !== false });
  }

  /** Remove the entry if nothing still needs it; return false when it was kept. */
  protected abstract optionalRemove(): boolean | void;
}
