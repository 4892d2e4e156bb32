/**
 * A Subscribable fed by an outside event source (the page's visibility, the network). The source's setup runs
 * when the first listener subscribes and is torn down when the last one leaves, and `setEventListener`
 * replaces it (tests, React Native, a playground's simulated network). focusManager and onlineManager differ
 * only in what a signal from the source means, which each says in `emitter()`.
 */
import { Subscribable } from './subscribable';

export type EventSetup<TEmit> = (emit: TEmit) => (() => void) | undefined;

// biome-ignore lint/complexity/noBannedTypes: passes the constraint through to Subscribable, which mirrors TanStack's
export abstract class EventSourced<TListener extends Function, TEmit> extends Subscribable<TListener> {
  #teardown?: () => void;
  #setup: EventSetup<TEmit>;

  constructor(setup: EventSetup<TEmit>) {
    super();
    this.#setup = setup;
  }

  /** What the source calls when something changes. */
  protected abstract emitter(): TEmit;

  protected override onSubscribe(): void {
    if (!this.#teardown) this.setEventListener(this.#setup);
  }

  protected override onUnsubscribe(): void {
    if (this.hasListeners()) return;
    this.#teardown?.();
    this.#teardown = undefined;
  }

  setEventListener(setup: EventSetup<TEmit>): void {
    this.#setup = setup;
    this.#teardown?.();
    this.#teardown = setup(this.emitter());
  }
}
