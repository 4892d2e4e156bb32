/**
 * Colours code the build did not see (a share link's, or what Open in playground carried) the way the build
 * colours the page's own snippet: Shiki, the TSX grammar and the same two themes as Playground.astro's <Code>,
 * with the same classes, so the site's light/dark switch applies. Without it, code opened from a link showed as
 * plain text beside a page of coloured snippets.
 *
 * Shiki (a declared dependency, the version Astro highlights with); here it is loaded only when such code is shown,
 * with its JavaScript regex engine rather than the WebAssembly one, so nothing is added to a page before
 * interaction and the grammar and themes cost about 50 KB gzip when a link is opened.
 */
import { useEffect, useState } from 'react';
import type { HighlighterCore, ShikiTransformer } from 'shiki/core';

export const THEMES = { light: 'github-light-high-contrast', dark: 'github-dark' } as const;

let highlighter: Promise<HighlighterCore> | undefined;

/** Shiki with the TSX grammar and both themes, loaded once (also by the light editor's colours, editor/paint.ts). */
export function loadHighlighter(): Promise<HighlighterCore> {
  highlighter ??= Promise.all([
    import('shiki/core'),
    import('shiki/engine/javascript'),
    import('shiki/langs/tsx.mjs'),
    import('shiki/themes/github-light-high-contrast.mjs'),
    import('shiki/themes/github-dark.mjs'),
  ]).then(([{ createHighlighterCore }, { createJavaScriptRegexEngine }, tsx, light, dark]) =>
    createHighlighterCore({ langs: [tsx.default], themes: [light.default, dark.default], engine: createJavaScriptRegexEngine() }),
  );
  // A failed download is tried again next time; the code shows plain meanwhile.
  highlighter.catch(() => (highlighter = undefined));
  return highlighter;
}

/**
 * `code` as the HTML Astro's <Code> would make of it (its classes, so the site's theme CSS colours it).
 *
 * `tokenizeTimeLimit: 0`: by default Shiki's tokenizer stops a line after 500 ms of wall-clock time and colours
 * the rest of it from wherever it stopped, so on a slow phone or a busy machine (the first line also pays for
 * compiling the grammar's regular expressions) a comment came out in a keyword's colour. A snippet is a few
 * dozen short lines, so the time the colours take is bounded by the code, not by a clock; and the colours never
 * depend on how fast the machine is.
 */
export async function highlightTsx(code: string): Promise<string> {
  const html = (await loadHighlighter()).codeToHtml(code, { lang: 'tsx', themes: THEMES, defaultColor: false, tokenizeTimeLimit: 0 });
  return html.replace('class="shiki shiki-themes', 'class="astro-code astro-code-themes');
}

/**
 * The same for a highlighter whose options are not ours to pass (Astro's <Code> in Playground.astro, which
 * colours each page's snippet at build time, on whatever machine builds it): a transformer that turns the time
 * limit off before the code is tokenized (Shiki hands every transformer the options it then tokenizes with).
 */
export const NO_TOKENIZE_TIME_LIMIT: ShikiTransformer = {
  name: 'roundtrip:no-tokenize-time-limit',
  preprocess(code, options) {
    options.tokenizeTimeLimit = 0;
    return code;
  },
};

/** The highlighted HTML for `code` once it is ready, while `enabled`; null before (show it plain meanwhile). */
export function useHighlighted(code: string, enabled: boolean): string | null {
  const [done, setDone] = useState<{ code: string; html: string } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    highlightTsx(code).then(
      (html) => current && setDone({ code, html }),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [code, enabled]);
  return enabled && done?.code === code ? done.html : null;
}
