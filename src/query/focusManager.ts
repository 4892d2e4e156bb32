/**
 * focusManager: is the page visible? Drives refetchOnWindowFocus and pauses retries in background tabs.
 * The DOM is reached only through the replaceable `setEventListener` setup, installed lazily when the
 * first listener subscribes.
 */
import { Subscribable } from './subscribable';

type Listener = (focused: boolean) => void;
type SetupFn = (setFocused: (focused?: boolean) => void) => (() => void) | undefined;

const visibilitySetup: SetupFn = (handleFocus) => {
  const target = typeof window !== 'undefined' ? window : undefined;
  if (!target?.addEventListener) return undefined;
  const onChange = () => handleFocus();
  target.addEventListener('visibilitychange', onChange, false);
  return () => target.removeEventListener('visibilitychange', onChange);
};

export class FocusManager extends Subscribable<Listener> {
  #override?: boolean;
  #teardown?: () => void;
  #setup: SetupFn = visibilitySetup;

  protected override onSubscribe(): void {
    if (!this.#teardown) this.setEventListener(this.#setup);
  }

  protected override onUnsubscribe(): void {
    if (this.hasListeners()) return;
    this.#teardown?.();
    this.#teardown = undefined;
  }

  setEventListener(setup: SetupFn): void {
    this.#setup = setup;
    this.#teardown?.();
    this.#teardown = setup((focused) => {
      if (typeof focused === 'boolean') this.setFocused(focused);
      else this.onFocus();
    });
  }

  /** Force a value; `undefined` goes back to reading `document.visibilityState`. */
  setFocused(focused?: boolean): void {
    if (this.#override === focused) return;
    this.#override = focused;
    this.onFocus();
  }

  onFocus(): void {
    const focused = this.isFocused();
    for (const listener of this.listeners) listener(focused);
  }

  isFocused(): boolean {
    if (typeof this.#override === 'boolean') return this.#override;
    return (globalThis as { document?: { visibilityState?: string } }).document?.visibilityState !== 'hidden';
  }
}

export const focusManager = new FocusManager();
