import { describe, expect, it } from 'vitest';
import { highlightTsx } from './highlight';

describe('highlightTsx', () => {
  it("colours code with the build's grammar and themes, under Astro's classes so the site's theme switch applies", async () => {
    const code = "import { QueryClient } from 'roundtrip/query';\nconst client = new QueryClient(); // one per page\n";
    const html = await highlightTsx(code);
    expect(html).toMatch(/^<pre class="astro-code astro-code-themes github-light-high-contrast github-dark"/);
    const colourOf = (text: string) => html.match(new RegExp(`<span style="(--shiki-light:[^"]+)">${text}</span>`))?.[1];
    // github-light-high-contrast / github-dark: keywords red / pink, strings navy / light blue, comments grey.
    expect(colourOf('import')).toBe('--shiki-light:#A0111F;--shiki-dark:#F97583');
    expect(colourOf(" 'roundtrip/query'")).toBe('--shiki-light:#032563;--shiki-dark:#9ECBFF');
    expect(colourOf('// one per page')).toBe('--shiki-light:#66707B;--shiki-dark:#6A737D');
  });
});
