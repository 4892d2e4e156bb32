/**
 * "Scrolled into view and idle": a reader who scrolls to a playground and stops there is likely to press Run,
 * so the `client:interaction` directive warms what Run needs (the island's code, hydration, the first sandbox
 * with its libraries) once the playground has come into view by scrolling and the main thread has a quiet
 * moment, instead of waiting for the pointer to arrive.
 *
 * Three conditions, each for a reason:
 * - the page was scrolled (a `scroll` event, which only the reader or a fragment link causes): a playground
 *   visible when the page loads does not warm by itself, so a page loads nothing but itself before the reader
 *   does something (the 50 KB initial budget, e2e/page-weight.spec.ts), and a lab tool that never scrolls
 *   (Lighthouse) measures the page a reader first gets;
 * - the playground intersects the viewport (IntersectionObserver), and is still in view when
 * - the main thread is idle (requestIdleCallback, with a timeout so a busy page still warms, just later): the
 *   warm-up's downloads and parsing do not compete with the reader's scrolling. A reader who scrolls past before
 *   that moment cancels it, so skimming a long page does not start every playground on it.
 *
 * Kept dependency-free and small: it ships inline with the directive on every page with a playground.
 */

/** Idle callbacks wait at most this long (ms) for a quiet moment; a reader who stops on a playground waits about a second before pressing Run. */
export const IDLE_TIMEOUT_MS = 500;

/** What the watcher needs from the page; a window, or a stand-in in tests. */
export interface ViewWatchEnv {
  addEventListener(type: 'scroll', listener: () => void, options: AddEventListenerOptions): void;
  removeEventListener(type: 'scroll', listener: () => void): void;
  IntersectionObserver?: typeof IntersectionObserver;
  requestIdleCallback?: (callback: () => void, options: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(handle: number): void;
}

/**
 * Calls `warm` once, when `el` is in view after the page has been scrolled and the main thread is idle.
 * Returns a function that stops watching (the island woke another way).
 */
export function warmWhenScrolledIntoView(el: Element, warm: () => void, env: ViewWatchEnv = window as unknown as ViewWatchEnv): () => void {
  const Observer = env.IntersectionObserver;
  if (!Observer) return () => {};
  let scrolled = false;
  let inView = false;
  let idle: { cancel(): void } | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    idle?.cancel();
    idle = undefined;
    observer.disconnect();
    env.removeEventListener('scroll', onScroll);
  };
  const consider = () => {
    if (stopped || !scrolled || !inView || idle) return;
    const fire = () => {
      idle = undefined;
      if (stopped || !inView) return;
      stop();
      warm();
    };
    if (env.requestIdleCallback && env.cancelIdleCallback) {
      const handle = env.requestIdleCallback(fire, { timeout: IDLE_TIMEOUT_MS });
      idle = { cancel: () => env.cancelIdleCallback?.(handle) };
    } else {
      // Safari has no requestIdleCallback: a short delay stands in for "after the scroll settled".
      const handle = env.setTimeout(fire, 200);
      idle = { cancel: () => env.clearTimeout(handle) };
    }
  };
  const onScroll = () => {
    scrolled = true;
    env.removeEventListener('scroll', onScroll);
    consider();
  };
  const observer = new Observer((entries) => {
    for (const entry of entries) inView = entry.isIntersecting;
    if (!inView) {
      idle?.cancel();
      idle = undefined;
    }
    consider();
  });
  observer.observe(el);
  env.addEventListener('scroll', onScroll, { passive: true });
  return stop;
}
