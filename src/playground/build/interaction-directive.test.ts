// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';

// jsdom has no state-preserving move; Chromium does. Without it the directive rightly opens no sandbox ahead.
vi.hoisted(() => {
  Object.defineProperty(Element.prototype, 'moveBefore', { configurable: true, value: Element.prototype.insertBefore });
});

import interaction from './interaction-directive';
import { peekHandedOver, takeHandedOver } from '../sandbox/spare';

/** An island with a Run button, woken through the directive; `release` lets its code "arrive". */
function island(sandboxSrc?: string, compiled?: string) {
  const src = sandboxSrc ? ` data-sandbox-src="${sandboxSrc}"` : '';
  const js = compiled ? ` data-compiled="${compiled}"` : '';
  document.body.innerHTML = `<astro-island><section data-playground-id="pg"${src}${js}><button data-action="run">Run</button><button data-action="edit">Edit</button></section></astro-island>`;
  const el = document.querySelector<HTMLElement>('astro-island')!;
  const button = el.querySelector<HTMLElement>('[data-action="run"]')!;
  const hydrate = vi.fn(async () => {});
  let release: () => void = () => {};
  const load = vi.fn(() => new Promise<() => Promise<void>>((resolve) => (release = () => resolve(hydrate))));
  void interaction(load, { name: 'interaction', value: undefined as never }, el);
  return { el, button, load, hydrate, release: () => release() };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('client:interaction', () => {
  it('a share link for a playground the page lacks gets a notice above the first playground; a later fix of the hash removes it', () => {
    location.hash = '#pg=nope&s=1.abc';
    const { el, load } = island();
    const notice = el.previousElementSibling;
    expect(notice?.getAttribute('role')).toBe('status');
    expect(notice?.textContent).toContain('a playground named "nope", which is not on this page');
    expect(load).not.toHaveBeenCalled();
    location.hash = '#pg=pg&s=1.abc';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(document.querySelector('.rt-missing-target')).toBeNull();
    location.hash = '';
  });

  it('a link to a playground brings it into view and focuses its title before hydration, and again when only the fragment changes', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      // Islands of earlier tests are detached, but their directives still listen for hashchange.
      if (this.isConnected) scrolled.push(this);
    };
    try {
      location.hash = '#pg=pg&s=1.abc';
      const { el, load } = island();
      const section = el.querySelector<HTMLElement>('[data-playground-id]')!;
      section.insertAdjacentHTML('afterbegin', '<span class="rt-title" tabindex="-1">Title</span>');
      // The title is added after the directive ran (the test's island has none): reveal again through hashchange.
      expect(scrolled).toEqual([section]);
      expect(load).toHaveBeenCalledTimes(1);
      (document.activeElement as HTMLElement | null)?.blur();
      location.hash = '#pg=pg&s=1.xyz';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      expect(scrolled).toEqual([section, section]);
      expect(document.activeElement?.className).toBe('rt-title');
      // A fragment for no playground (a heading anchor) moves nothing.
      location.hash = '#retries';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      expect(scrolled).toHaveLength(2);
    } finally {
      delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
      location.hash = '';
    }
  });

  it('loads nothing until the reader shows intent', async () => {
    const { load } = island();
    await flush();
    expect(load).not.toHaveBeenCalled();
  });

  it('hydrates when the pointer enters, without performing any action', async () => {
    const { el, load, hydrate, release } = island();
    el.dispatchEvent(new Event('pointerenter'));
    el.dispatchEvent(new Event('pointerenter'));
    expect(load).toHaveBeenCalledTimes(1);
    release();
    await flush();
    expect(hydrate).toHaveBeenCalledTimes(1);
    expect(el.dataset.wakeAction).toBeUndefined();
  });

  it('wakes on touchstart and on focus moving in', () => {
    const touched = island();
    touched.el.dispatchEvent(new Event('touchstart'));
    expect(touched.load).toHaveBeenCalledTimes(1);
    const focused = island();
    focused.button.dispatchEvent(new Event('focusin', { bubbles: true }));
    expect(focused.load).toHaveBeenCalledTimes(1);
  });

  it('remembers a press that lands while the island code is still loading', async () => {
    const { el, button, load, release } = island();
    el.dispatchEvent(new Event('pointerenter'));
    button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(load).toHaveBeenCalledTimes(1);
    expect(el.dataset.wakeAction).toBe('run');
    release();
    await flush();
    // After hydration, presses are the island's own business.
    delete el.dataset.wakeAction;
    button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(el.dataset.wakeAction).toBeUndefined();
  });

  it('lets the click through and forgets the press when the island has not performed it yet', async () => {
    const { el, button, release } = island();
    button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    release();
    await flush();
    const reactSaw = vi.fn();
    el.addEventListener('click', reactSaw);
    button.click();
    expect(reactSaw).toHaveBeenCalledTimes(1);
    expect(el.dataset.wakeAction).toBeUndefined();
  });

  it('stops the click when the island already performed the press, so it runs once', async () => {
    const { el, button, release } = island();
    button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    release();
    await flush();
    delete el.dataset.wakeAction; // the island's hydration effect consumed it
    const reactSaw = vi.fn();
    el.addEventListener('click', reactSaw);
    button.click();
    expect(reactSaw).not.toHaveBeenCalled();
    // A later, separate click is the reader's own.
    button.click();
    expect(reactSaw).toHaveBeenCalledTimes(1);
  });

  it('remembers every press before hydration, in order, and a click reaching the island drops only its own press', async () => {
    const { el, button, release } = island();
    const edit = el.querySelector<HTMLElement>('[data-action="edit"]')!;
    button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    button.click(); // still loading: nothing hears this click
    edit.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    edit.dispatchEvent(new Event('pointerdown', { bubbles: true })); // a double press is one press
    expect(el.dataset.wakeAction).toBe('run edit');
    release();
    await flush();
    // Edit's click comes after hydration: the island handles it, and performs the earlier Run on its own.
    const reactSaw = vi.fn();
    el.addEventListener('click', reactSaw);
    edit.click();
    expect(reactSaw).toHaveBeenCalledTimes(1);
    expect(el.dataset.wakeAction).toBe('run');
  });

  it("opens the playground's sandbox on intent, before the island code arrives, for the island to adopt", () => {
    const { el, load } = island('/sandbox/index.html#wire');
    expect(document.querySelector('iframe')).toBeNull();
    expect(takeHandedOver('pg')).toBeUndefined();
    el.dispatchEvent(new Event('pointerenter'));
    el.dispatchEvent(new Event('focusin'));
    expect(load).toHaveBeenCalledTimes(1);
    const frames = document.querySelectorAll('iframe');
    expect(frames).toHaveLength(1);
    const frame = frames[0]!;
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.getAttribute('src')).toBe('/sandbox/index.html#wire');
    // Parked outside the island (React owns the island's DOM while it hydrates), hidden from everyone.
    expect(el.contains(frame)).toBe(false);
    expect(frame.closest('[aria-hidden="true"][hidden]')).not.toBeNull();
    expect(takeHandedOver('pg')?.iframe).toBe(frame);
    expect(takeHandedOver('pg')).toBeUndefined();
  });

  it('starts the compiled snippet in that sandbox when Run is pressed before hydration, once', async () => {
    const { el, button, release } = island('/sandbox/with-wire.html', 'console.log(1)');
    el.dispatchEvent(new Event('pointerenter'));
    expect(peekHandedOver('pg')?.early).toBeUndefined();
    button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    const early = peekHandedOver('pg')?.early;
    expect(early?.js).toBe('console.log(1)');
    button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(peekHandedOver('pg')?.early).toBe(early);
    expect(el.dataset.wakeAction).toBe('run');
    release();
    await flush();
    takeHandedOver('pg')?.iframe.remove();
  });

  it('a press on the static code before hydration makes it editable in place; a press on the Edit button does not', async () => {
    const { el, release } = island();
    const section = el.querySelector('[data-playground-id]')!;
    section.insertAdjacentHTML('beforeend', '<div class="rt-code" data-action="edit"><pre><code><span class="line">x</span></code></pre></div>');
    el.querySelector('button[data-action="edit"]')!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    const pre = el.querySelector<HTMLElement>('.rt-code pre')!;
    expect(pre.getAttribute('contenteditable')).toBeNull();
    pre.querySelector('span')!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(pre.getAttribute('contenteditable')).toBe('plaintext-only');
    expect(pre.spellcheck).toBe(false);
    expect(el.dataset.wakeAction).toBe('edit');
    release();
    await flush();
  });

  it('starts nothing early for other controls, code it would have to compile, or a share link addressed to it', () => {
    const edit = island('/sandbox/with-wire.html', 'console.log(1)');
    edit.el.querySelector('[data-action="edit"]')!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(peekHandedOver('pg')).toBeDefined();
    expect(peekHandedOver('pg')?.early).toBeUndefined();
    takeHandedOver('pg')?.iframe.remove();

    const uncompiled = island('/sandbox/with-wire-compiler.html');
    uncompiled.button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(peekHandedOver('pg')).toBeDefined();
    expect(peekHandedOver('pg')?.early).toBeUndefined();
    takeHandedOver('pg')?.iframe.remove();

    // Opened from a link that carries other code for this playground: hydration decides what runs.
    // (Set after the directive started, as a link followed within the page would, without its hashchange.)
    const shared = island('/sandbox/with-wire.html', 'console.log(1)');
    history.replaceState(null, '', '#pg=pg&s=1.x');
    try {
      shared.el.dispatchEvent(new Event('pointerenter'));
      shared.button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
      expect(peekHandedOver('pg')).toBeDefined();
      expect(peekHandedOver('pg')?.early).toBeUndefined();
      takeHandedOver('pg')?.iframe.remove();
    } finally {
      history.replaceState(null, '', location.pathname);
    }
  });

  it('requests the modules the island lists on intent, not before, each once per page', () => {
    document.head.querySelectorAll('link').forEach((link) => link.remove());
    const { el, load } = island();
    el.setAttribute('data-rt-preload', '/_astro/Playground.a.js /_astro/client.b.js /_astro/react-dom.c.js');
    const other = document.createElement('astro-island');
    other.setAttribute('data-rt-preload', '/_astro/Playground.a.js /_astro/react-dom.c.js /_astro/Other.d.js');
    document.body.append(other);
    void interaction(
      vi.fn(() => new Promise<() => Promise<void>>(() => {})),
      { name: 'interaction', value: undefined as never },
      other,
    );
    const preloaded = () => [...document.head.querySelectorAll('link')].map((link) => [link.rel, link.getAttribute('href')]);
    expect(preloaded()).toEqual([]);
    el.dispatchEvent(new Event('pointerenter'));
    expect(load).toHaveBeenCalledTimes(1);
    expect(preloaded()).toEqual([
      ['modulepreload', '/_astro/Playground.a.js'],
      ['modulepreload', '/_astro/client.b.js'],
      ['modulepreload', '/_astro/react-dom.c.js'],
    ]);
    other.dispatchEvent(new Event('pointerenter'));
    expect(preloaded().map(([, href]) => href)).toEqual(['/_astro/Playground.a.js', '/_astro/client.b.js', '/_astro/react-dom.c.js', '/_astro/Other.d.js']);
    document.head.querySelectorAll('link').forEach((link) => link.remove());
  });

  it('opens no sandbox for an island without a sandbox address', () => {
    const { el } = island();
    el.dispatchEvent(new Event('pointerenter'));
    expect(document.querySelector('iframe')).toBeNull();
  });
});
