/**
 * Subscribable: the smallest observable. A set of listeners plus two hooks that tell the subclass when
 * the first listener arrives (start work) and when one leaves (maybe stop work). Every manager, cache
 * and observer in the library is built on it.
 */
// biome-ignore lint/complexity/noBannedTypes: the constraint is TanStack's public one; a call signature would be narrower than the API we mirror
export class Subscribable<TListener extends Function> {
  protected listeners = new Set<TListener>();

  constructor() {
    // Bound once so `observer.subscribe` can be handed around (e.g. to useSyncExternalStore).
    this.subscribe = this.subscribe.bind(this);
  }

  subscribe(listener: TListener): () => void {
    this.listeners.add(listener);
    this.onSubscribe();
    return () => {
      this.listeners.delete(listener);
      this.onUnsubscribe();
    };
  }

  hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  protected onSubscribe(): void {}

  protected onUnsubscribe(): void {}
}
