/**
 * The light editor's colours (editor/lite.ts): the code drawn, token by token, in a layer behind its textarea,
 * whose own text is transparent. The colours come from the grammar and the two themes the build used for the
 * static code the reader clicked on (highlight.ts), so nothing changes colour when the code becomes editable.
 *
 * Deterministic: Shiki tokenizes with no wall-clock limit (`tokenizeTimeLimit: 0`), so the same text always gets
 * the same colours, however busy the machine; and until Shiki has arrived the layer shows the text uncoloured,
 * never stale or guessed colours.
 */
import type { HighlighterCore, ThemedToken } from 'shiki/core';
import { THEMES } from '../highlight';

/** One coloured run of text: its colour in the light and in the dark theme (absent: the text's own colour). */
export interface PaintedToken {
  readonly text: string;
  readonly light?: string;
  readonly dark?: string;
}

type GrammarState = NonNullable<ReturnType<HighlighterCore['codeToTokens']>['grammarState']>;

const OPTIONS = { lang: 'tsx', themes: THEMES, defaultColor: false, tokenizeTimeLimit: 0 } as const;

function toPainted(line: readonly ThemedToken[]): PaintedToken[] {
  return line.map((token) => {
    const light = token.htmlStyle?.['--shiki-light'];
    const dark = token.htmlStyle?.['--shiki-dark'];
    return { text: token.content, ...(light ? { light } : {}), ...(dark ? { dark } : {}) };
  });
}

/** `code`'s tokens, line by line, with both themes' colours. Synchronous once Shiki is loaded. */
export function paintTokens(highlighter: HighlighterCore, code: string): PaintedToken[][] {
  return highlighter.codeToTokens(code, OPTIONS).tokens.map(toPainted);
}

/** Whether two grammar states are the same (for both themes): then what follows them tokenizes the same. */
function sameState(a: GrammarState | undefined, b: GrammarState | undefined): boolean {
  if (!a || !b) return a === b;
  return Object.values(THEMES).every((theme) => {
    const x = a.getInternalStack(theme);
    const y = b.getInternalStack(theme);
    return x && y ? x.equals(y) : x === y;
  });
}

interface CachedLine {
  readonly text: string;
  readonly tokens: PaintedToken[];
  /** The grammar's state at the end of this line. */
  readonly state: GrammarState | undefined;
}

/**
 * paintTokens for text that changes a keystroke at a time: it keeps each line's tokens and the grammar's state
 * at its end, and tokenizes again only from the first changed line until the state at a line's end is the one
 * the old text had there and the rest of the text is unchanged (usually one line, rather than the whole
 * snippet: 38 ms for a 32-line snippet on a loaded machine). TextMate grammars tokenize line by line from the
 * previous line's state, so the result is exactly paintTokens' (unit-tested against it on random edits).
 */
export function createPainter(highlighter: HighlighterCore): (code: string) => PaintedToken[][] {
  let cache: CachedLine[] = [];
  const tokenizeLine = (text: string, state: GrammarState | undefined): CachedLine => {
    const result = highlighter.codeToTokens(text, state ? { ...OPTIONS, grammarState: state } : OPTIONS);
    return { text, tokens: toPainted(result.tokens[0] ?? []), state: result.grammarState };
  };
  return (code) => {
    const lines = code.split('\n');
    const old = cache;
    let prefix = 0;
    while (prefix < lines.length && prefix < old.length && lines[prefix] === old[prefix]!.text) prefix++;
    let suffix = 0;
    while (suffix < lines.length - prefix && suffix < old.length - prefix && lines[lines.length - 1 - suffix] === old[old.length - 1 - suffix]!.text) suffix++;
    const next: CachedLine[] = old.slice(0, prefix);
    const shift = old.length - lines.length;
    for (let i = prefix; i < lines.length; i++) {
      // In the unchanged tail, a line that starts from the state the old text had there ends as it did.
      const before = i > 0 ? next[i - 1]!.state : undefined;
      const oldIndex = i + shift;
      if (i >= lines.length - suffix && oldIndex > 0 && sameState(before, old[oldIndex - 1]!.state)) {
        next.push(...old.slice(oldIndex));
        break;
      }
      // No state to go on from (Shiki did not give one): the whole text, the slow and sure way.
      if (i > 0 && !before) {
        cache = [];
        return paintTokens(highlighter, code);
      }
      next.push(tokenizeLine(lines[i]!, before));
    }
    cache = next;
    return next.map((line) => line.tokens);
  };
}

/**
 * Draws `code` into `target` (a <code> element): coloured spans when `lines` (from paintTokens) are given for
 * exactly this text, else the plain text. Colours go in `--shiki-light` / `--shiki-dark`, as in the build's
 * HTML, so the site's theme switch picks one with CSS. Font styles (italic, bold) are left out on purpose: the
 * layer's glyphs must sit exactly under the textarea's, and a bold run may be wider in some fonts.
 */
export function drawCode(target: HTMLElement, code: string, lines?: readonly (readonly PaintedToken[])[]): void {
  const doc = target.ownerDocument;
  const drawn = lines?.map((line) => line.map((t) => t.text).join('')).join('\n');
  if (!lines || drawn !== code) {
    target.textContent = code;
    return;
  }
  const fragment = doc.createDocumentFragment();
  lines.forEach((line, i) => {
    if (i > 0) fragment.append('\n');
    for (const token of line) {
      // Spaces look the same in any colour: no element for them.
      if ((!token.light && !token.dark) || !token.text.trim()) {
        fragment.append(token.text);
        continue;
      }
      const span = doc.createElement('span');
      if (token.light) span.style.setProperty('--shiki-light', token.light);
      if (token.dark) span.style.setProperty('--shiki-dark', token.dark);
      span.textContent = token.text;
      fragment.append(span);
    }
  });
  target.replaceChildren(fragment);
}
