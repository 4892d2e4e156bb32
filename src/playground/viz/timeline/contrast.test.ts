/**
 * The timeline colours against Starlight's page background, in both themes: WCAG 2.2 asks 3:1 for graphics
 * (1.4.11) and 4.5:1 for text (1.4.3). Ours are used for both, so every one must reach 4.5:1.
 * The backgrounds are read from Starlight's own stylesheet, so a Starlight update that changes them is caught.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('./timeline.css', import.meta.url), 'utf8');
// The package's exports do not list its stylesheets, so read the file from the project's node_modules.
const starlightProps = readFileSync(new URL('../../../../node_modules/@astrojs/starlight/dist/style/props.css', import.meta.url), 'utf8');

function block(text: string, selector: string): string {
  const start = text.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no "${selector}" block`);
  return text.slice(start, text.indexOf('}', start));
}

function vars(body: string): Map<string, string> {
  return new Map([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

function rgb(colour: string): [number, number, number] {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16)) as [number, number, number];
  const hsl = /^hsl\((\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?)%,\s*(\d+(?:\.\d+)?)%\)$/.exec(colour);
  if (!hsl) throw new Error(`cannot read colour ${colour}`);
  const [h, s, l] = [Number(hsl[1]) / 360, Number(hsl[2]) / 100, Number(hsl[3]) / 100];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    const v = u < 1 / 6 ? p + (q - p) * 6 * u : u < 1 / 2 ? q : u < 2 / 3 ? p + (q - p) * (2 / 3 - u) * 6 : p;
    return v * 255;
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)];
}

// WCAG 2.2 relative luminance and contrast ratio.
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(rgb(a)), luminance(rgb(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

describe('timeline colours', () => {
  const themes = [
    { name: 'dark', ours: vars(block(css, '.rt-tl')), starlight: vars(block(starlightProps, ':root,\n\t::backdrop')) },
    {
      name: 'light',
      ours: vars(block(css, ":root[data-theme='light'] .rt-tl")),
      starlight: vars(block(starlightProps, ":root[data-theme='light'],\n\t[data-theme='light'] ::backdrop")),
    },
  ];

  it.each(themes)('reach 4.5:1 against the $name page background', ({ ours, starlight }) => {
    const background = starlight.get('--sl-color-black')!;
    const colours = [...ours].filter(([name]) => name.startsWith('--rt-tl-'));
    expect(colours.length).toBe(14); // 6 connections, 7 phases, lost
    const failing = colours.map(([name, value]) => ({ name, ratio: contrast(value, background) })).filter((c) => c.ratio < 4.5);
    expect(failing).toEqual([]);
  });

  it('defines every colour in both themes', () => {
    const [dark, light] = themes.map((t) => [...t.ours.keys()].filter((k) => k.startsWith('--rt-tl-')).sort());
    expect(light).toEqual(dark);
  });

  it('measures contrast the WCAG way', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 6);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrast('hsl(0, 0%, 100%)', '#ffffff')).toBeCloseTo(1, 6);
  });
});
