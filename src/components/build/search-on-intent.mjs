// @ts-check
/**
 * Starlight's search loads Pagefind's UI (about 26 KB gzip) as soon as the browser is idle, on every page, whether
 * or not the reader ever searches. That alone is more than our budget for a page's JavaScript before interaction
 * (20 KB gzip). This transform makes Starlight's own search script wait for intent instead: the pointer entering
 * or pressing the search button, focus on it, or the Ctrl/Cmd+K shortcut. The UI is ready well before a reader
 * can type, and pages that nobody searches from never pay for it.
 *
 * It rewrites one known line of Starlight's Search.astro script; if Starlight changes that line, the build fails
 * here rather than silently shipping the eager load again.
 */

const EAGER = 'const onIdle = window.requestIdleCallback || ((cb) => setTimeout(cb, 1));';

const ON_INTENT = `const onIdle = (cb) => {
  const button = this.querySelector('button[data-open-modal]');
  const dialog = this.querySelector('dialog');
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    await cb();
    if (dialog?.open) this.querySelector('input')?.focus();
  };
  for (const type of ['pointerenter', 'pointerdown', 'focus']) button?.addEventListener(type, start, { once: true });
  window.addEventListener('keydown', (e) => { if ((e.metaKey || e.ctrlKey) && e.key === 'k') void start(); });
};`;

/** @returns {import('vite').Plugin} */
export function searchOnIntent() {
  return {
    name: 'roundtrip:search-on-intent',
    enforce: 'pre',
    // Builds only: the script returns before loading Pagefind in dev (`import.meta.env.DEV`), and the dev
    // server serves it in a form that no longer holds the line, which made every dev page a 500.
    apply: 'build',
    transform(code, id) {
      if (!/@astrojs[\\/]starlight[\\/].*Search\.astro\?astro&type=script/.test(id)) return null;
      if (!code.includes(EAGER)) {
        throw new Error(
          `roundtrip:search-on-intent: Starlight's Search script no longer contains the line it rewrites (${id}). ` +
            'Check whether Pagefind still loads eagerly and update src/components/build/search-on-intent.mjs.',
        );
      }
      return { code: code.replace(EAGER, ON_INTENT), map: null };
    },
  };
}
