/**
 * The lightweight editor for touch and narrow screens, where Monaco does not work (its hidden-textarea input
 * model fights on-screen keyboards, selection handles and autocorrect). A native <textarea> gets all of that
 * right; this adds what a code box needs on top: a line-number gutter, Tab/Shift+Tab indentation, Enter that
 * keeps the indentation, Ctrl/Cmd+Enter to run, and Esc to let the next Tab move focus (as in Monaco).
 *
 * The code is coloured as the build coloured the static code (editor/paint.ts): the textarea's own text is
 * transparent over a layer that draws the same text, token by token, in the same monospace font and metrics.
 * Opening puts the text cursor where the reader clicked (or at the start, from the Edit button) and never
 * scrolls the page: focus is taken with `preventScroll`, and only the textarea itself scrolls, to the cursor.
 *
 * Same handle as the Monaco editor (editor/monaco.ts), so the playground does not care which one it has.
 */
import type { HighlighterCore } from 'shiki/core';
import { loadHighlighter } from '../highlight';
import type { CreateEditorOptions, EditorHandle, EditorProblem, TextSelection } from './monaco';
import { createPainter, drawCode, type PaintedToken } from './paint';

const INDENT = '  ';

/** True where the lightweight editor should be used instead of Monaco. */
export function prefersLiteEditor(): boolean {
  if (typeof matchMedia !== 'function') return false;
  return matchMedia('(pointer: coarse)').matches || matchMedia('(max-width: 640px)').matches;
}

/**
 * Indents or outdents the lines touched by [start, end) of `text`. Returns the new text and selection.
 * Pure, so the keyboard behaviour is unit-tested without a DOM.
 */
export function indentLines(text: string, start: number, end: number, outdent: boolean): { text: string; start: number; end: number } {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  // A selection ending right after a newline does not include the next line.
  const lastChar = end > start && text[end - 1] === '\n' ? end - 1 : end;
  const blockEnd = text.indexOf('\n', lastChar);
  const stop = blockEnd === -1 ? text.length : blockEnd;
  const lines = text.slice(lineStart, stop).split('\n');
  let firstDelta = 0;
  let total = 0;
  const changed = lines.map((line, i) => {
    if (!outdent) {
      if (i === 0) firstDelta = INDENT.length;
      total += INDENT.length;
      return INDENT + line;
    }
    const remove = line.startsWith(INDENT) ? INDENT.length : line.startsWith(' ') || line.startsWith('\t') ? 1 : 0;
    if (i === 0) firstDelta = -remove;
    total -= remove;
    return line.slice(remove);
  });
  const next = text.slice(0, lineStart) + changed.join('\n') + text.slice(stop);
  return { text: next, start: Math.max(lineStart, start + firstDelta), end: Math.max(lineStart, end + total) };
}

/** The text Enter inserts at `pos`: a newline plus the current line's indentation (one more after `{ ( [`). */
export function newlineWithIndent(text: string, pos: number): string {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, pos))?.[0] ?? '';
  const before = text.slice(lineStart, pos).trimEnd();
  return `\n${indent}${/[{([]$/.test(before) ? INDENT : ''}`;
}

/** What the stand-in editor also tells the one that replaces it (editor/upgrade.ts). */
export interface LiteEditorHandle extends EditorHandle {
  selection(): TextSelection;
  hasFocus(): boolean;
  /** An input method is composing text: replacing the editor now would lose it. */
  composing(): boolean;
  /** Calls `callback` once, when the current composition ends. */
  afterComposition(callback: () => void): void;
}

/**
 * The 0-based line of `offset` in `text`, and the scrollTop that shows that line in a box `visibleLines` high,
 * moving as little as possible from `scrollTop` (as a browser reveals a caret): pure, so it is unit-tested.
 */
export function scrollToShowLine(text: string, offset: number, lineHeight: number, visibleLines: number, scrollTop: number): number {
  let line = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  const top = line * lineHeight;
  if (top < scrollTop) return top;
  return Math.max(top + lineHeight - visibleLines * lineHeight, scrollTop);
}

/** Where the light editor's colours come from: Shiki, loaded once (highlight.ts); injected in tests. */
export type LoadHighlighter = () => Promise<HighlighterCore>;

export function createLiteEditor(container: HTMLElement, options: CreateEditorOptions, highlighter: LoadHighlighter = loadHighlighter): LiteEditorHandle {
  const root = document.createElement('div');
  root.className = 'rt-lite';
  const gutter = document.createElement('pre');
  gutter.className = 'rt-lite-gutter';
  gutter.setAttribute('aria-hidden', 'true');
  // The textarea and, behind it, the coloured copy of its text.
  const body = document.createElement('div');
  body.className = 'rt-lite-body';
  const paint = document.createElement('pre');
  paint.className = 'rt-lite-paint';
  paint.setAttribute('aria-hidden', 'true');
  const paintCode = document.createElement('code');
  paint.append(paintCode);
  const area = document.createElement('textarea');
  area.className = 'rt-lite-input';
  area.value = options.code;
  area.spellcheck = false;
  area.setAttribute('autocapitalize', 'off');
  area.setAttribute('autocomplete', 'off');
  area.setAttribute('autocorrect', 'off');
  area.setAttribute('aria-label', options.label);
  area.wrap = 'off';
  const problemText = document.createElement('p');
  problemText.className = 'rt-lite-problem';
  problemText.hidden = true;
  body.append(paint, area);
  root.append(gutter, body);
  container.append(root, problemText);

  let shiki: HighlighterCore | undefined;
  let painter: ((code: string) => PaintedToken[][]) | undefined;
  let disposed = false;
  /** Redraws the coloured layer for the textarea's text, in the same task as the change: never a stale layer. */
  const repaint = () => {
    let lines: PaintedToken[][] | undefined;
    try {
      lines = painter?.(area.value);
    } catch {
      // A tokenizer failure leaves the code uncoloured, never wrongly coloured; the next change starts afresh.
      lines = undefined;
      if (painter && shiki) painter = createPainter(shiki);
    }
    drawCode(paintCode, area.value, lines);
    syncScroll();
  };
  const syncScroll = () => {
    gutter.scrollTop = area.scrollTop;
    paint.style.transform = `translate(${-area.scrollLeft}px, ${-area.scrollTop}px)`;
  };
  highlighter().then(
    (loaded) => {
      if (disposed) return;
      shiki = loaded;
      painter = createPainter(loaded);
      repaint();
    },
    // Shiki did not arrive: the code stays uncoloured, and editable.
    () => {},
  );

  let problemLine = 0;
  // After Esc, Tab moves focus instead of indenting, until the reader types again (Monaco's tab-focus idea).
  let tabMovesFocus = false;

  const renderGutter = () => {
    const count = area.value.split('\n').length;
    let out = '';
    for (let i = 1; i <= count; i++) out += `${i === problemLine ? '▸' : ''}${i}\n`;
    gutter.textContent = out;
    area.rows = Math.min(Math.max(count, 6), 28);
  };
  const changed = () => {
    renderGutter();
    repaint();
    options.onChange(area.value);
  };
  const replaceSelection = (text: string) => {
    // execCommand('insertText') is deprecated but still the only way to edit a textarea that keeps its undo
    // history (Ctrl+Z) intact; it fires 'input' itself. setRangeText is the fallback, without undo.
    area.focus();
    if (document.execCommand?.('insertText', false, text)) return;
    area.setRangeText(text, area.selectionStart, area.selectionEnd, 'end');
    changed();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      options.onRun();
      return;
    }
    if (e.key === 'Escape') {
      tabMovesFocus = true;
      options.onEscape();
      return;
    }
    if (e.key === 'Tab' && !tabMovesFocus && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      const { selectionStart: start, selectionEnd: end } = area;
      if (start === end && !e.shiftKey) {
        replaceSelection(INDENT);
        return;
      }
      const next = indentLines(area.value, start, end, e.shiftKey);
      area.value = next.text;
      area.setSelectionRange(next.start, next.end);
      changed();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      replaceSelection(newlineWithIndent(area.value, area.selectionStart));
      return;
    }
    if (e.key !== 'Tab' && e.key !== 'Shift') tabMovesFocus = false;
  };
  const onInput = () => changed();
  const onScroll = syncScroll;
  const onFocus = () => {
    tabMovesFocus = false;
  };
  let composing = false;
  const onCompositionStart = () => void (composing = true);
  const onCompositionEnd = () => void (composing = false);
  area.addEventListener('keydown', onKeyDown);
  area.addEventListener('input', onInput);
  area.addEventListener('scroll', onScroll);
  area.addEventListener('focus', onFocus);
  area.addEventListener('compositionstart', onCompositionStart);
  area.addEventListener('compositionend', onCompositionEnd);
  renderGutter();
  repaint();
  // Where the reader clicked; from the Edit button, the start (a textarea's cursor otherwise starts at the end,
  // and focusing it scrolled the page to the snippet's last line).
  area.setSelectionRange(options.selection?.start ?? 0, options.selection?.end ?? 0);

  /** Takes focus without scrolling the page, and scrolls the textarea itself to show the cursor's line. */
  const focus = () => {
    area.focus({ preventScroll: true });
    const style = getComputedStyle(area);
    const lineHeight = Number.parseFloat(style.lineHeight);
    const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
    if (lineHeight > 0 && area.clientHeight > 0) {
      const visible = Math.max(1, Math.floor((area.clientHeight - padding) / lineHeight));
      area.scrollTop = scrollToShowLine(area.value, area.selectionEnd, lineHeight, visible, area.scrollTop);
      syncScroll();
    }
  };

  return {
    selection: () => ({ start: area.selectionStart, end: area.selectionEnd }),
    hasFocus: () => area.ownerDocument.activeElement === area,
    composing: () => composing,
    afterComposition: (callback) => area.addEventListener('compositionend', () => queueMicrotask(callback), { once: true }),
    getValue: () => area.value,
    showRunProblem: (problem: EditorProblem | null) => {
      problemLine = problem?.line ?? 0;
      problemText.hidden = !problem;
      problemText.textContent = problem ? `Line ${problem.line}, column ${problem.column}: ${problem.message}` : '';
      renderGutter();
    },
    setValue: (code) => {
      area.value = code;
      renderGutter();
      repaint();
    },
    focus,
    dispose: () => {
      disposed = true;
      area.removeEventListener('keydown', onKeyDown);
      area.removeEventListener('input', onInput);
      area.removeEventListener('scroll', onScroll);
      area.removeEventListener('focus', onFocus);
      area.removeEventListener('compositionstart', onCompositionStart);
      area.removeEventListener('compositionend', onCompositionEnd);
      root.remove();
      problemText.remove();
    },
  };
}
