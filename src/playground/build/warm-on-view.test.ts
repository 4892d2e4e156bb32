import { describe, expect, it } from 'vitest';
import { IDLE_TIMEOUT_MS, warmWhenScrolledIntoView, type ViewWatchEnv } from './warm-on-view';

/** A page with a scroll event, one IntersectionObserver and idle callbacks the test fires by hand. */
function page() {
  const scrollListeners = new Set<() => void>();
  let observed: { callback: IntersectionObserverCallback; target: Element | null; disconnected: boolean } | undefined;
  const idle = new Map<number, () => void>();
  const idleTimeouts: number[] = [];
  let nextHandle = 1;
  class FakeObserver {
    constructor(callback: IntersectionObserverCallback) {
      observed = { callback, target: null, disconnected: false };
    }
    observe(target: Element) {
      observed!.target = target;
    }
    disconnect() {
      observed!.disconnected = true;
    }
  }
  const env: ViewWatchEnv = {
    addEventListener: (_type, listener) => void scrollListeners.add(listener),
    removeEventListener: (_type, listener) => void scrollListeners.delete(listener),
    IntersectionObserver: FakeObserver as unknown as typeof IntersectionObserver,
    requestIdleCallback: (callback, { timeout }) => {
      idleTimeouts.push(timeout);
      idle.set(nextHandle, callback);
      return nextHandle++;
    },
    cancelIdleCallback: (handle) => void idle.delete(handle),
    setTimeout: () => 0,
    clearTimeout: () => {},
  };
  return {
    env,
    scroll: () => [...scrollListeners].forEach((listener) => listener()),
    view: (isIntersecting: boolean) => observed!.callback([{ isIntersecting } as IntersectionObserverEntry], observed as unknown as IntersectionObserver),
    runIdle: () => {
      const callbacks = [...idle.values()];
      idle.clear();
      callbacks.forEach((callback) => callback());
    },
    get pendingIdle() {
      return idle.size;
    },
    idleTimeouts,
    get observed() {
      return observed!;
    },
    get scrollListeners() {
      return scrollListeners.size;
    },
  };
}

const el = {} as Element;

describe('warmWhenScrolledIntoView', () => {
  it('warms once the page was scrolled, the playground is in view and the main thread is idle, and then stops watching', () => {
    const p = page();
    let warmed = 0;
    warmWhenScrolledIntoView(el, () => warmed++, p.env);
    expect(p.observed.target).toBe(el);
    p.view(true);
    p.scroll();
    expect(warmed).toBe(0);
    expect(p.idleTimeouts).toEqual([IDLE_TIMEOUT_MS]);
    p.runIdle();
    expect(warmed).toBe(1);
    expect(p.observed.disconnected).toBe(true);
    expect(p.scrollListeners).toBe(0);
    p.view(false);
    p.view(true);
    p.runIdle();
    expect(warmed).toBe(1);
  });

  it('a playground visible when the page loads does not warm until the reader scrolls', () => {
    const p = page();
    let warmed = 0;
    warmWhenScrolledIntoView(el, () => warmed++, p.env);
    p.view(true);
    expect(p.pendingIdle).toBe(0);
    p.runIdle();
    expect(warmed).toBe(0);
    p.scroll();
    p.runIdle();
    expect(warmed).toBe(1);
  });

  it('a playground scrolled past before the main thread was idle does not warm', () => {
    const p = page();
    let warmed = 0;
    warmWhenScrolledIntoView(el, () => warmed++, p.env);
    p.scroll();
    p.view(true);
    expect(p.pendingIdle).toBe(1);
    p.view(false);
    expect(p.pendingIdle).toBe(0);
    p.runIdle();
    expect(warmed).toBe(0);
    p.view(true);
    p.runIdle();
    expect(warmed).toBe(1);
  });

  it('stopping (the island woke another way) cancels a pending warm-up', () => {
    const p = page();
    let warmed = 0;
    const stop = warmWhenScrolledIntoView(el, () => warmed++, p.env);
    p.scroll();
    p.view(true);
    stop();
    p.runIdle();
    expect(warmed).toBe(0);
    expect(p.observed.disconnected).toBe(true);
  });
});
