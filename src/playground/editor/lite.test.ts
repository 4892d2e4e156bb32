// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadHighlighter } from '../highlight';
import { createLiteEditor, indentLines, newlineWithIndent, scrollToShowLine } from './lite';
import type { CreateEditorOptions } from './monaco';

describe('lightweight editor keys', () => {
  it('indents every line a selection touches, keeping the selection on the same text', () => {
    const text = 'a\nb\nc';
    expect(indentLines(text, 0, 3, false)).toEqual({ text: '  a\n  b\nc', start: 2, end: 7 });
    // A caret in the middle of a line indents that line only.
    expect(indentLines(text, 3, 3, false)).toEqual({ text: 'a\n  b\nc', start: 5, end: 5 });
  });

  it('outdents by up to two spaces and never past the line start', () => {
    const text = '    x\n y\nz';
    expect(indentLines(text, 0, text.length, true)).toEqual({ text: '  x\ny\nz', start: 0, end: 7 });
    expect(indentLines(' q', 1, 1, true)).toEqual({ text: 'q', start: 0, end: 0 });
  });

  it('does not indent the line after a selection that ends on a newline', () => {
    expect(indentLines('a\nb', 0, 2, false).text).toBe('  a\nb');
  });

  it('keeps indentation on Enter and adds a level after an opening bracket', () => {
    expect(newlineWithIndent('  foo();', 8)).toBe('\n  ');
    expect(newlineWithIndent('if (x) {', 8)).toBe('\n  ');
    expect(newlineWithIndent('  call([', 8)).toBe('\n    ');
  });
});

const SNIPPET = ["import { QueryClient } from 'roundtrip/query';", 'const client = new QueryClient(); // one per page', '  client.clear();', ''].join('\n');

function open(extra: Partial<CreateEditorOptions> = {}, highlighter = loadHighlighter) {
  document.body.innerHTML = '<div id="box"></div>';
  const box = document.getElementById('box')!;
  const changes: string[] = [];
  const editor = createLiteEditor(
    box,
    { code: SNIPPET, label: 'code', onChange: (c) => changes.push(c), onRun: () => {}, onEscape: () => {}, ...extra },
    highlighter,
  );
  const area = box.querySelector('textarea')!;
  const paint = box.querySelector<HTMLElement>('.rt-lite-paint code')!;
  return { box, editor, area, paint, changes };
}

/** The light and dark colours of the painted span whose text is `text`. */
const colourOf = (paint: HTMLElement, text: string) => {
  const span = [...paint.querySelectorAll('span')].find((s) => s.textContent === text);
  return span && [span.style.getPropertyValue('--shiki-light'), span.style.getPropertyValue('--shiki-dark')];
};

describe('the light editor', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is monospace: the editor, its colour layer and its textarea share one monospace font and metrics', () => {
    const css = readFileSync(resolve(process.cwd(), 'src/components/Playground.css'), 'utf8');
    // A rule's body, for a rule whose selector list is exactly `selector`.
    const rule = (selector: string) => new RegExp(`(^|\\}\\n|\\*/\\n)${selector.replace(/[.[\]]/g, '\\$&')} \\{([^}]*)\\}`).exec(css)?.[2] ?? '';
    expect(rule('.rt-lite')).toMatch(/font-family: var\(--__sl-font-mono, monospace\);/);
    // One rule gives the layer and the textarea the same box and type, inheriting the editor's font.
    const shared = rule('.rt-lite-paint,\n.rt-lite-input');
    for (const declaration of ['font: inherit;', 'padding: 0.75rem;', 'tab-size: 2;', 'white-space: pre;', 'border: 0;']) expect(shared).toContain(declaration);
    // The textarea's own glyphs are transparent over the layer; its caret is not.
    expect(rule('.rt-lite-input')).toMatch(/color: transparent;[\s\S]*caret-color: var\(--sl-color-white\)/);
  });

  it("colours the code with the build's tokens: keyword, string and comment, in both themes", async () => {
    const { paint } = open();
    // Uncoloured, and the same text, until Shiki has arrived.
    expect(paint.textContent).toBe(SNIPPET);
    await vi.waitFor(() => expect(paint.querySelector('span')).not.toBeNull());
    expect(paint.textContent).toBe(SNIPPET);
    expect(colourOf(paint, 'import')).toEqual(['#A0111F', '#F97583']);
    expect(colourOf(paint, "'roundtrip/query'")).toEqual(['#032563', '#9ECBFF']);
    expect(colourOf(paint, '// one per page')).toEqual(['#66707B', '#6A737D']);
  });

  it('repaints in the same task as each change, so the colours never show stale text', async () => {
    const { area, paint, editor, changes } = open();
    await vi.waitFor(() => expect(paint.querySelector('span')).not.toBeNull());
    area.value = `// all a comment\n${SNIPPET}`;
    area.dispatchEvent(new Event('input'));
    expect(paint.textContent).toBe(area.value);
    expect(colourOf(paint, '// all a comment')).toEqual(['#66707B', '#6A737D']);
    expect(changes.at(-1)).toBe(area.value);
    editor.setValue('let n = 1;');
    expect(paint.textContent).toBe('let n = 1;');
    expect(colourOf(paint, 'let')).toEqual(['#A0111F', '#F97583']);
  });

  it('shows the code uncoloured when Shiki does not arrive, and still edits', async () => {
    const { paint, area } = open({}, () => Promise.reject(new Error('offline')));
    await Promise.resolve();
    area.value = 'x';
    area.dispatchEvent(new Event('input'));
    expect(paint.textContent).toBe('x');
    expect(paint.querySelector('span')).toBeNull();
  });

  it('puts the text cursor where the reader clicked', () => {
    const at = SNIPPET.indexOf('QueryClient()');
    const { area, editor } = open({ selection: { start: at, end: at } });
    editor.focus();
    expect(area.selectionStart).toBe(at);
    expect(area.selectionEnd).toBe(at);
    expect(document.activeElement).toBe(area);
  });

  it('opens from the Edit button at the start, and focuses without scrolling the page', () => {
    const focus = vi.spyOn(HTMLTextAreaElement.prototype, 'focus');
    const { area, editor } = open();
    editor.focus();
    // A textarea whose value was set keeps its cursor at the end: focusing it scrolled to the snippet's end.
    expect(area.selectionStart).toBe(0);
    expect(area.selectionEnd).toBe(0);
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
  });
});

describe('scrolling the textarea to the cursor', () => {
  const text = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
  const offsetOfLine = (n: number) => text.indexOf(`line ${n}`);

  it('leaves the scroll alone when the cursor line is in view', () => {
    expect(scrollToShowLine(text, offsetOfLine(3), 20, 10, 0)).toBe(0);
    expect(scrollToShowLine(text, offsetOfLine(12), 20, 10, 100)).toBe(100);
  });

  it('scrolls just enough to bring the cursor line into view, up or down', () => {
    // Line 25 at the bottom of a 10-line box: its top at 500, so scrollTop 500 + 20 - 200.
    expect(scrollToShowLine(text, offsetOfLine(25), 20, 10, 0)).toBe(320);
    expect(scrollToShowLine(text, offsetOfLine(2), 20, 10, 300)).toBe(40);
  });
});
