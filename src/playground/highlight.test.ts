import { afterEach, describe, expect, it, vi } from 'vitest';
import { codeToHtml } from 'shiki';
import { highlightTsx, NO_TOKENIZE_TIME_LIMIT } from './highlight';

const CODE = "import { QueryClient } from 'roundtrip/query';\nconst client = new QueryClient(); // one per page\n";

function colours(html: string) {
  return (text: string) => html.match(new RegExp(`<span style="(--shiki-light:[^"]+)">${text}</span>`))?.[1];
}

// github-light-high-contrast / github-dark: keywords red / pink, strings navy / light blue, comments grey.
const KEYWORD = '--shiki-light:#A0111F;--shiki-dark:#F97583';
const STRING = '--shiki-light:#032563;--shiki-dark:#9ECBFF';
const COMMENT = '--shiki-light:#66707B;--shiki-dark:#6A737D';

describe('highlightTsx', () => {
  afterEach(() => vi.restoreAllMocks());

  it("colours code with the build's grammar and themes, under Astro's classes so the site's theme switch applies", async () => {
    const html = await highlightTsx(CODE);
    expect(html).toMatch(/^<pre class="astro-code astro-code-themes github-light-high-contrast github-dark"/);
    const colourOf = colours(html);
    expect(colourOf('import')).toBe(KEYWORD);
    expect(colourOf(" 'roundtrip/query'")).toBe(STRING);
    expect(colourOf('// one per page')).toBe(COMMENT);
  });

  it('gives the same colours however slow the machine is: no wall-clock limit on tokenizing a line', async () => {
    await highlightTsx('const warm = 1;\n'); // load the highlighter before the clock is replaced
    const fast = await highlightTsx(CODE);
    // A machine so busy that every look at the clock finds another second gone: Shiki's default 500 ms limit per
    // line would stop each line after its first token and colour the rest wrongly (the tokenizer reads Date.now).
    let now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
    const slow = await highlightTsx(CODE);
    expect(slow).toBe(fast);
    expect(colours(slow)('// one per page')).toBe(COMMENT);
    clock.mockRestore();
  });

  it("the build's highlighter (Astro's <Code>, with NO_TOKENIZE_TIME_LIMIT) gives the same colours on a busy machine", async () => {
    const options = { lang: 'tsx', themes: { light: 'github-light-high-contrast', dark: 'github-dark' }, defaultColor: false } as const;
    const calm = await codeToHtml(CODE, { ...options, transformers: [NO_TOKENIZE_TIME_LIMIT] });
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
    const busy = await codeToHtml(CODE, { ...options, transformers: [NO_TOKENIZE_TIME_LIMIT] });
    // Without the transformer the same clock stops every line early: the colours differ.
    const cut = await codeToHtml(CODE, options);
    vi.restoreAllMocks();
    expect(busy).toBe(calm);
    expect(colours(busy)('// one per page')).toBe(COMMENT);
    expect(cut).not.toBe(calm);
  });
});
