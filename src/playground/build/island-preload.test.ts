import { describe, expect, it } from 'vitest';
import { addIslandPreloads, importClosure, staticImports } from './island-preload.mjs';

/** A built site in memory: site path -> code. */
const SITE: Record<string, string> = {
  '/_astro/Playground.a.js':
    'import{n as e,t}from"./react-dom.c.js";import{t as n}from"./jsx.d.js";const v=()=>import("./VizPanel.e.js");export{v as default};',
  '/_astro/client.b.js': 'import{t as e}from"./runtime.f.js";\nimport"./react-dom.c.js";export*from"./jsx.d.js";',
  '/_astro/react-dom.c.js': 'import{t as e}from"./runtime.f.js";var x="from \\"./not-an-import.js\\"";',
  '/_astro/jsx.d.js': 'import{t}from"./runtime.f.js";',
  '/_astro/runtime.f.js': 'export const t=1;',
  '/_astro/VizPanel.e.js': 'import"./huge.g.js";',
};
const read = async (path: string) => SITE[path];

describe('island preloads', () => {
  it('reads static imports and re-exports, not dynamic imports or strings', () => {
    expect(staticImports(SITE['/_astro/Playground.a.js']!)).toEqual(['./react-dom.c.js', './jsx.d.js']);
    expect(staticImports(SITE['/_astro/client.b.js']!)).toEqual(['./runtime.f.js', './react-dom.c.js', './jsx.d.js']);
    expect(staticImports(SITE['/_astro/react-dom.c.js']!)).toEqual(['./runtime.f.js']);
    expect(staticImports('import { a } from "../up/x.mjs";\nexport { b } from \'./y.js\';')).toEqual(['../up/x.mjs', './y.js']);
  });

  it('follows static imports transitively, each module once, entries first', async () => {
    expect(await importClosure(['/_astro/Playground.a.js', '/_astro/client.b.js'], read)).toEqual([
      '/_astro/Playground.a.js',
      '/_astro/client.b.js',
      '/_astro/react-dom.c.js',
      '/_astro/jsx.d.js',
      '/_astro/runtime.f.js',
    ]);
    // A module that is not there is listed (the browser will say what is wrong) but not followed.
    expect(await importClosure(['/_astro/missing.js'], read)).toEqual(['/_astro/missing.js']);
  });

  it('lists the modules on interaction islands only, once, and leaves the rest of the page as it was', async () => {
    const island = (client: string, extra = '') =>
      `<astro-island uid="u" component-url="/_astro/Playground.a.js" component-export="default" renderer-url="/_astro/client.b.js" props="{&quot;code&quot;:[0,&quot;() =&gt; 1&quot;]}" ssr client="${client}"${extra} await-children>`;
    const html = `<p>x</p>${island('interaction')}<b>1</b></astro-island>${island('load')}</astro-island>${island('interaction')}</astro-island>`;
    const out = await addIslandPreloads(html, read);
    const lists = [...out.matchAll(/data-rt-preload="([^"]*)"/g)].map((m) => m[1]!.split(' '));
    expect(lists).toHaveLength(2);
    expect(lists[0]).toEqual(['/_astro/Playground.a.js', '/_astro/client.b.js', '/_astro/react-dom.c.js', '/_astro/jsx.d.js', '/_astro/runtime.f.js']);
    expect(out.replace(/ data-rt-preload="[^"]*"/g, '')).toBe(html);
    expect(await addIslandPreloads(out, read)).toBe(out);
    expect(await addIslandPreloads('<p>no islands</p>', read)).toBe('<p>no islands</p>');
  });
});
