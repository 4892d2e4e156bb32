/**
 * onlineManager: is the network reachable? Starts optimistic (online) and listens to the window's
 * online/offline events once someone subscribes. `networkMode: 'online'` fetches pause while offline.
 */
import { Subscribable } from './subscribable';

type Listener = (online: boolean) => void;
type SetupFn = (setOnline: Listener) => (() => void) | undefined;

const windowSetup: SetupFn = (setOnline) => {
  const target = typeof window !== 'undefined' ? window : undefined;
  if (!target?.addEventListener) return undefined;
  const goOnline = () => setOnline(true);
  const goOffline = () => setOnline(false);
  target.addEventListener('online', goOnline, false);
  target.addEventListener('offline', goOffline, false);
  return () => {
    target.removeEventListener('online', goOnline);
    target.removeEventListener('offline', goOffline);
  };
};

export class OnlineManager extends Subscribable<Listener> {
  #online = true;
  #teardown?: () => void;
  #setup: SetupFn = windowSetup;

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
    this.#teardown = setup((online) => this.setOnline(online));
  }

  setOnline(online: boolean): void {
    if (this.#online === online) return;
    this.#online = online;
    for (const listener of this.listeners) listener(online);
  }

  isOnline(): boolean {
    return this.#online;
  }
}

export const onlineManager = new OnlineManager();
