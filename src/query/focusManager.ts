/**
 * focusManager: is the page visible? Drives refetchOnWindowFocus and pauses retries in background tabs.
 * The DOM is reached only through the replaceable `setEventListener` setup, installed lazily when the
 * first listener subscribes.
 */
import { EventSourced, type EventSetup } from './eventSourced';

type Listener = (focused: boolean) => void;
type Emit = (focused?: boolean) => void;
type SetupFn = EventSetup<Emit>;

const visibilitySetup: SetupFn = (handleFocus) => {
  const target = typeof window !== 'undefined' ? window : undefined;
  if (!target?.addEventListener) return undefined;
  const onChange = () => handleFocus();
  target.addEventListener('visibilitychange', onChange, false);
  return () => target.removeEventListener('visibilitychange', onChange);
};

export class FocusManager extends EventSourced<Listener, Emit> {
  #override?: boolean;

  constructor() {
    super(visibilitySetup);
  }

  protected override emitter(): Emit {
    return (focused) => {
      if (typeof focused === 'boolean') this.setFocused(focused);
      else this.onFocus();
    };
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
