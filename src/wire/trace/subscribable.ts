/**
 * A minimal observer primitive (CONTRIBUTING.md, 'Small primitives, one concern per file'): listeners are
 * kept in insertion order and each `subscribe` returns its own unsubscribe function. Listeners added while a
 * notification is running are not called for that notification (we iterate a snapshot), so the order of
 * delivery is deterministic.
 */
export type Unsubscribe = () => void;

export class Subscribable<TListener extends (...args: never[]) => void> {
  readonly #listeners = new Set<TListener>();

  subscribe(listener: TListener): Unsubscribe {
    this.#listeners.add(listener);
    this.onSubscribe();
    return () => {
      this.#listeners.delete(listener);
      this.onUnsubscribe();
    };
  }

  hasListeners(): boolean {
    return this.#listeners.size > 0;
  }

  protected notify(...args: Parameters<TListener>): void {
    const listeners = this.#listeners;
    // Most sources have no listener or one (a trace nobody watches emits hundreds of thousands of
    // events): neither needs the snapshot, since the one listener is picked before it runs.
    if (listeners.size === 0) return;
    if (listeners.size === 1) {
      for (const listener of listeners) return listener(...args);
    }
    for (const listener of [...listeners]) listener(...args);
  }

  protected onSubscribe(): void {}
  protected onUnsubscribe(): void {}
}

/** A Subscribable that its owner can fire: the event source of sockets and streams. */
export class Signal<T> extends Subscribable<(value: T) => void> {
  emit(value: T): void {
    this.notify(value);
  }
}
