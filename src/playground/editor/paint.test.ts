// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { loadHighlighter } from '../highlight';
import { createPainter, drawCode, paintTokens } from './paint';

// biome-ignore lint/suspicious/noTemplateCurlyInString: the sample is code with a template literal in it
const SAMPLE = 'const n = 42; // answer\nfetch(`/todos/${n}`);\n';

describe('the light editor colours', () => {
  it('tokenizes a sample with the TSX grammar into runs that add up to the text, each with both themes', async () => {
    const lines = paintTokens(await loadHighlighter(), SAMPLE);
    expect(lines.map((line) => line.map((t) => t.text).join('')).join('\n')).toBe(SAMPLE);
    const token = (text: string) => lines.flat().find((t) => t.text === text);
    expect(token('const')).toEqual({ text: 'const', light: '#A0111F', dark: '#F97583' });
    expect(token('42')).toEqual({ text: '42', light: '#023B95', dark: '#79B8FF' });
    expect(token('// answer')).toEqual({ text: '// answer', light: '#66707B', dark: '#6A737D' });
  });

  it('gives the same tokens every time for the same text', async () => {
    const highlighter = await loadHighlighter();
    expect(paintTokens(highlighter, SAMPLE)).toEqual(paintTokens(highlighter, SAMPLE));
  });

  it('draws coloured spans for tokens of this text, and plain text for tokens of another', async () => {
    const lines = paintTokens(await loadHighlighter(), SAMPLE);
    const target = document.createElement('code');
    drawCode(target, SAMPLE, lines);
    expect(target.textContent).toBe(SAMPLE);
    const keyword = [...target.querySelectorAll('span')].find((s) => s.textContent === 'const')!;
    expect(keyword.style.getPropertyValue('--shiki-dark')).toBe('#F97583');
    // Tokens from before an edit never colour the edited text.
    drawCode(target, `${SAMPLE}x`, lines);
    expect(target.textContent).toBe(`${SAMPLE}x`);
    expect(target.querySelector('span')).toBeNull();
  });
});

describe('repainting a keystroke at a time', () => {
  // Edits that open and close multi-line constructs (comments, template strings), so a change on one line
  // recolours the lines after it.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample is code with a template literal in it
  const BASE = ['const a = 1;', '/* note', 'still note */', 'const s = `one', '${a} two`;', "fetch('/x'); // done", ''].join('\n');
  const EDITS = ['/*', '*/', '`', "'", '{', '}', '\n', 'x', '//', '"'];

  it('gives exactly the whole-text tokens after every edit of a random sequence', async () => {
    const highlighter = await loadHighlighter();
    const paint = createPainter(highlighter);
    let text = BASE;
    expect(paint(text)).toEqual(paintTokens(highlighter, text));
    // A fixed-seed generator: the same sequence every run.
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let step = 0; step < 120; step++) {
      const at = Math.floor(random() * (text.length + 1));
      if (random() < 0.35 && text.length > 0) {
        const length = 1 + Math.floor(random() * 3);
        text = text.slice(0, at) + text.slice(at + length);
      } else {
        text = text.slice(0, at) + EDITS[Math.floor(random() * EDITS.length)] + text.slice(at);
      }
      expect(paint(text), `after step ${step}: ${JSON.stringify(text)}`).toEqual(paintTokens(highlighter, text));
    }
  });

  it('recolours the lines after an edit that opens a comment, and again when it closes', async () => {
    const highlighter = await loadHighlighter();
    const paint = createPainter(highlighter);
    const colourOf = (lines: ReturnType<typeof paint>, text: string) => lines.flat().find((t) => t.text === text)?.dark;
    expect(colourOf(paint('let a = 1;\nlet b = 2;'), 'let')).toBe('#F97583');
    // The second line is now inside the comment.
    const opened = paint('/* let a = 1;\nlet b = 2;');
    expect(opened[1]!.map((t) => t.dark)).toEqual(['#6A737D']);
    const closed = paint('/* let a = 1; */\nlet b = 2;');
    expect(colourOf([closed[1]!], 'let')).toBe('#F97583');
  });
});

it('tokenizes only the edited line when the edit changes nothing after it', async () => {
  const highlighter = await loadHighlighter();
  const paint = createPainter(highlighter);
  const lines = Array.from({ length: 30 }, (_, i) => `const v${i} = ${i}; // line ${i}`);
  paint(lines.join('\n'));
  const tokenize = vi.spyOn(highlighter, 'codeToTokens');
  lines[20] = 'const v20 = 2000; // line 20';
  const painted = paint(lines.join('\n'));
  expect(tokenize.mock.calls.map(([text]) => text)).toEqual([lines[20]]);
  expect(painted[20]!.map((t) => t.text).join('')).toBe(lines[20]);
  tokenize.mockRestore();
});
