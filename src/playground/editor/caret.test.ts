// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { selectionIn, textOffset } from './caret';

/** Static code as Shiki renders it: a span per line, a span per token. */
function code() {
  document.body.innerHTML =
    '<div class="rt-code"><pre><code><span class="line"><span>const</span><span> a = </span><span>1</span><span>;</span></span>\n<span class="line"><span>a</span><span>.</span><span>toFixed()</span></span></code></pre></div>';
  return document.querySelector('.rt-code')!;
}

describe('text offsets in highlighted code', () => {
  it('counts the characters before a point inside a token, across lines', () => {
    const root = code();
    expect(root.textContent).toBe('const a = 1;\na.toFixed()');
    const toFixed = [...root.querySelectorAll('span span')].find((s) => s.textContent === 'toFixed()')!.firstChild!;
    expect(textOffset(root, toFixed, 3)).toBe('const a = 1;\na.toF'.length);
    const one = [...root.querySelectorAll('span span')].find((s) => s.textContent === '1')!;
    // A point between an element's children: before the token "1".
    expect(textOffset(root, one.parentNode!, 2)).toBe('const a = '.length);
  });

  it('is undefined for a point outside the code', () => {
    const root = code();
    document.body.append(document.createTextNode('elsewhere'));
    expect(textOffset(root, document.body.lastChild!, 2)).toBeUndefined();
  });

  it('reads the selection as offsets when it lies in the code', () => {
    const root = code();
    const tokens = [...root.querySelectorAll('span span')];
    const range = document.createRange();
    range.setStart(tokens[1]!.firstChild!, 1);
    range.setEnd(tokens[4]!.firstChild!, 1);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(range);
    expect(selectionIn(root)).toEqual({ start: 'const '.length, end: 'const a = 1;\na'.length });
  });
});
