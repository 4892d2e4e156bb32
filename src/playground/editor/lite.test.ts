import { describe, expect, it } from 'vitest';
import { indentLines, newlineWithIndent } from './lite';

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
