import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measurePage, monacoFiles } from './page-weight.mjs';

function fakeBuild(pageScript: string) {
  const dist = mkdtempSync(join(tmpdir(), 'rt-weight-'));
  mkdirSync(join(dist, '_astro'));
  mkdirSync(join(dist, 'p'));
  const file = (name: string, code: string) => writeFileSync(join(dist, '_astro', name), code);
  file('monaco.Ab12.js', 'import{a}from"./editor.api.Cd34.js";import{p}from"./preload-helper.Ef56.js";a(p);');
  file('editor.api.Cd34.js', 'export const a=(x)=>x;');
  file('ts.worker-Gh78.js', 'self.onmessage=()=>{};');
  file('preload-helper.Ef56.js', 'export const p=1;');
  file('page.Ij90.js', 'import{p}from"./preload-helper.Ef56.js";console.log(p);');
  writeFileSync(join(dist, 'p', 'index.html'), `<html><head><script type="module" src="/_astro/${pageScript}"></script></head></html>`);
  return dist;
}

describe('page-weight: Monaco before interaction', () => {
  it('knows the Monaco chunks and their static imports, but not shared helpers', async () => {
    const found = await monacoFiles(fakeBuild('page.Ij90.js'));
    expect([...found].sort()).toEqual(['/_astro/editor.api.Cd34.js', '/_astro/monaco.Ab12.js', '/_astro/ts.worker-Gh78.js']);
  });

  it('a page whose scripts reach Monaco shows Monaco files in its measurement', async () => {
    const clean = fakeBuild('page.Ij90.js');
    const monaco = await monacoFiles(clean);
    const ok = await measurePage(clean, '/p/');
    expect(Object.keys(ok.files).filter((u) => monaco.has(u))).toEqual([]);
    const bad = fakeBuild('monaco.Ab12.js');
    const heavy = await measurePage(bad, '/p/');
    expect(
      Object.keys(heavy.files)
        .filter((u) => monaco.has(u.replace(bad, clean)))
        .sort(),
    ).toEqual(['/_astro/editor.api.Cd34.js', '/_astro/monaco.Ab12.js']);
  });
});
