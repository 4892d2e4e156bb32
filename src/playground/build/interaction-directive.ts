/**
 * `client:interaction`: hydrate an island on the reader's first touch of it, or first sign of intent, not before.
 *
 * A docs page with playgrounds then ships no React, no editor and no sandbox until the pointer enters a
 * playground, a finger touches it, focus moves into it, or a key is pressed in it. Waking on intent (the pointer
 * arriving) rather than on the click itself matters: the island then hydrates and starts its first sandbox
 * while the reader aims at Run, so the click finds a sandbox that is ready or nearly so.
 *
 * A press (pointer down, Enter or Space) that arrives before the island has hydrated is remembered in
 * `data-wake-action` (the nearest `[data-action]`; every such press, in order: build/wake-actions.ts), so the
 * island performs the clicks that woke it instead of swallowing them. An island also wakes at once when the URL fragment carries share state addressed to it
 * (`#pg=<id>&...`).
 *
 * Waking also requests, in parallel, every module the island's hydration will load (`data-rt-preload`, which
 * the build writes: build/island-preload.mjs), so `load()` does not discover them one level of imports at a time.
 *
 * Waking also opens the playground's first sandbox (`data-sandbox-src` on the playground), right away rather
 * than after the island's code has downloaded and hydrated: a sandbox takes longer to start than the island,
 * and the reader's Run needs both. The island's host adopts it (sandbox/spare.ts).
 *
 * Scrolling the playground into view and leaving it there until the main thread is idle wakes it too, as intent
 * does (build/warm-on-view.ts): a reader who scrolled to a playground finds Run ready. Nothing wakes before the
 * reader scrolls or touches the page.
 *
 * A press on Run before the island has hydrated also starts the run itself in that sandbox, when the page's
 * snippet was compiled at build time (`data-compiled`) and no share link changes what would run: the realm
 * starts and the snippet runs while the island hydrates, and the island's Run takes over that run (its output
 * waits for it) instead of starting another, so the press still runs exactly once.
 */
import type { ClientDirective } from 'astro';
import { canMoveIframes, handOver, openSandbox, parkingLot, peekHandedOver, startEarlyRun } from '../sandbox/spare';
import { missingTargetNotice, readShareHash } from '../share/hash';
import { warmWhenScrolledIntoView } from './warm-on-view';
import { forgetLatestWakeAction, rememberWakeAction } from './wake-actions';

/**
 * Signs that the reader is about to use the playground: hydrate and warm up, but perform nothing. `rt-wake` is
 * a page's own sign, dispatched on the island: /inspect/ sends it when a file is dragged or dropped anywhere on
 * the page (inspect/early-files.ts).
 */
const INTENT_EVENTS = ['pointerenter', 'touchstart', 'focusin', 'rt-wake'] as const;
/** Presses: they wake the island too, and the control pressed is performed once it has hydrated. */
const PRESS_EVENTS = ['pointerdown', 'keydown'] as const;
/** How long after a press its click may come (a press held longer than this is not worth deduplicating). */
const PRESS_TO_CLICK_MS = 1000;

/**
 * Adds a `<link rel="modulepreload">` for each module `el` lists in `data-rt-preload` and the page does not
 * preload already (another playground on the page may share them).
 */
export function preloadIslandModules(el: HTMLElement): void {
  const list = el.getAttribute('data-rt-preload');
  if (!list) return;
  const present = new Set([...document.querySelectorAll('link[rel="modulepreload"]')].map((link) => link.getAttribute('href')));
  for (const href of list.split(' ')) {
    if (!href || present.has(href)) continue;
    present.add(href);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}

/**
 * A press on the static code before the island has hydrated makes that code editable in place
 * (contenteditable, plain text only), so the reader's click puts a text cursor there at once and what they type
 * is kept: the island, once hydrated, opens its editor with this text and selection (Playground.tsx), instead of
 * the reader typing into nothing while React and the editor load. Returns the element made editable.
 */
export function editInPlace(code: HTMLElement): HTMLElement | undefined {
  const pre = code.querySelector<HTMLElement>('pre');
  if (!pre || pre.isContentEditable) return undefined;
  // plaintext-only: Enter inserts a newline and pasted text arrives unformatted (Chromium, WebKit, Firefox 136+);
  // where it is not supported the attribute is ignored and the island's editor comes a moment later instead.
  pre.setAttribute('contenteditable', 'plaintext-only');
  pre.spellcheck = false;
  pre.setAttribute('aria-label', 'Code (loading the editor)');
  return pre;
}

/**
 * A share link naming a playground this page does not have says so above `first` (the page's first playground
 * island) instead of leaving the reader to wonder where the shared code went. Here rather than in a page script:
 * this directive runs on every page with playgrounds anyway, before any island code loads.
 */
export function showMissingTarget(first: HTMLElement): void {
  document.querySelector('.rt-missing-target')?.remove();
  const ids = [...document.querySelectorAll<HTMLElement>('[data-playground-id]')].map((el) => el.dataset.playgroundId ?? '');
  const notice = missingTargetNotice(location.hash, ids);
  if (!notice) return;
  const p = document.createElement('p');
  p.className = 'rt-notice rt-missing-target not-content';
  p.setAttribute('role', 'status');
  p.textContent = notice;
  first.before(p);
  p.scrollIntoView?.({ block: 'center' });
}

/**
 * Brings the playground a share link addresses into view and moves focus to its title, the moment the page
 * renders: a playground can sit thousands of pixels down a docs page, and the reader who followed the link (or a
 * damaged link, whose explanation appears inside the playground) would otherwise wait at the top for the island
 * to hydrate, and then still not see it.
 */
export function revealPlayground(island: HTMLElement): void {
  island.scrollIntoView?.({ block: 'start' });
  island.querySelector<HTMLElement>('.rt-title')?.focus({ preventScroll: true });
}

const interaction: ClientDirective = (load, _options, el) => {
  /** Listening for presses until the island's code is in; after that the island handles them itself. */
  let phase: 'asleep' | 'loading' | 'hydrating' = 'asleep';
  let stopWatchingView = () => {};
  const wake = async () => {
    if (phase !== 'asleep') return;
    phase = 'loading';
    stopWatchingView();
    for (const type of INTENT_EVENTS) el.removeEventListener(type, wake);
    const sandboxSrc = island?.dataset.sandboxSrc;
    if (id !== undefined && sandboxSrc && canMoveIframes) handOver(id, openSandbox(sandboxSrc, parkingLot()));
    preloadIslandModules(el);
    const hydrate = await load();
    for (const type of PRESS_EVENTS) el.removeEventListener(type, onPress);
    phase = 'hydrating';
    await hydrate();
  };
  const onPress = (event: Event) => {
    if (phase === 'hydrating') return;
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-action]') : null;
    const pressed = event.type === 'pointerdown' || (event instanceof KeyboardEvent && (event.key === 'Enter' || event.key === ' '));
    if (target && pressed) {
      if (target.dataset.action) rememberWakeAction(el, target.dataset.action);
      pressedAt = event.timeStamp;
      // The pointer pressed on the code itself (not the Edit button): edit it in place until the editor is up.
      if (event.type === 'pointerdown' && target.classList.contains('rt-code')) editInPlace(target);
    }
    void wake();
    const js = island?.dataset.compiled;
    const sandbox = id === undefined ? undefined : peekHandedOver(id);
    if (target && pressed && target.dataset.action === 'run' && js && sandbox && !hashTargetsUs()) startEarlyRun(sandbox, js);
  };
  // The click that follows a remembered press must happen once, not twice. If the island hydrated between the
  // press and its click, either the island has not yet performed the presses (then React handles the click and
  // the latest remembered press, this click's, is dropped) or it already has (then the click is stopped here,
  // before React's own listener on this element sees it).
  let pressedAt = -Infinity;
  el.addEventListener(
    'click',
    (event) => {
      const recent = event.timeStamp - pressedAt <= PRESS_TO_CLICK_MS;
      pressedAt = -Infinity;
      if (!recent || phase !== 'hydrating') return;
      if (!forgetLatestWakeAction(el)) event.stopImmediatePropagation();
    },
    { capture: true },
  );
  const island = el.querySelector<HTMLElement>('[data-playground-id]');
  const id = island?.dataset.playgroundId;
  const hashTargetsUs = () => id !== undefined && readShareHash(location.hash)?.id === id;
  if (island && document.querySelector('[data-playground-id]') === island) {
    showMissingTarget(el);
    window.addEventListener('hashchange', () => showMissingTarget(el));
  }
  // Asleep, a link wakes the island (which loads its state); awake, the island loads it on its own hashchange.
  window.addEventListener('hashchange', () => {
    if (!hashTargetsUs()) return;
    revealPlayground(island!);
    void wake();
  });
  if (hashTargetsUs()) {
    revealPlayground(island!);
    void wake();
    return;
  }
  for (const type of INTENT_EVENTS) el.addEventListener(type, wake, { passive: true });
  for (const type of PRESS_EVENTS) el.addEventListener(type, onPress, { passive: true });
  // A reader who scrolled to the playground and stopped there gets the same warm-up, without the pointer.
  // (The section, not `el`: an astro-island is display: contents and has no box to intersect.)
  if (island) stopWatchingView = warmWhenScrolledIntoView(island, () => void wake());
};

export default interaction;
