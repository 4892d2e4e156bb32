/**
 * `client:interaction`: hydrate an island on the reader's first touch of it, not before.
 *
 * A docs page with playgrounds then ships no React, no editor and no sandbox until someone presses a key, clicks
 * or focuses inside a playground. The control that woke the island is remembered in `data-wake-action` (from
 * the nearest `[data-action]`), so the island performs the click that hydrated it instead of swallowing it.
 * An island also wakes at once when the URL fragment carries share state addressed to it (`#pg=<id>&...`).
 */
import type { ClientDirective } from 'astro';

const WAKE_EVENTS = ['pointerdown', 'focusin', 'keydown'] as const;

const interaction: ClientDirective = (load, _options, el) => {
  let woken = false;
  const wake = async (event?: Event) => {
    if (woken) return;
    woken = true;
    for (const type of WAKE_EVENTS) el.removeEventListener(type, wake);
    const target = event?.target instanceof Element ? event.target.closest<HTMLElement>('[data-action]') : null;
    const pressed = event?.type === 'pointerdown' || (event instanceof KeyboardEvent && (event.key === 'Enter' || event.key === ' '));
    if (target && pressed) el.dataset.wakeAction = target.dataset.action;
    const hydrate = await load();
    await hydrate();
  };
  const island = el.querySelector<HTMLElement>('[data-playground-id]');
  const id = island?.dataset.playgroundId;
  const hashTargetsUs = () => id !== undefined && new URLSearchParams(location.hash.slice(1)).get('pg') === id;
  if (hashTargetsUs()) {
    void wake();
    return;
  }
  window.addEventListener('hashchange', () => hashTargetsUs() && void wake());
  for (const type of WAKE_EVENTS) el.addEventListener(type, wake, { passive: true });
};

export default interaction;
