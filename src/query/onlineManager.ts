/**
 * onlineManager: is the network reachable? Starts optimistic (online) and listens to the window's
 * online/offline events once someone subscribes. `networkMode: 'online'` fetches pause while offline.
 */
import { EventSourced, type EventSetup } from './eventSourced';

type Listener = (online: boolean) => void;
type SetupFn = EventSetup<Listener>;

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

export class OnlineManager extends EventSourced<Listener, Listener> {
  #online = true;

  constructor() {
    super(windowSetup);
  }

  protected override emitter(): Listener {
    return (online) => this.setOnline(online);
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
