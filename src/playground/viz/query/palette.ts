/**
 * Status colours of the query views, as data so a test can hold them to WCAG 2.2 AA (1.4.3: 4.5:1 for text)
 * in both themes. The hues follow TanStack Query Devtools (fresh green, fetching blue, paused purple, stale
 * yellow, inactive grey); the chips always carry the word too, so colour is never the only signal (1.4.1).
 */
import type { QueryStatusLabel } from './describe';

export interface ChipColours {
  readonly fg: string;
  readonly bg: string;
}

export type ChipKind = QueryStatusLabel | 'error' | 'success' | 'pending' | 'idle';

export const CHIP_COLOURS: Readonly<Record<ChipKind, { readonly light: ChipColours; readonly dark: ChipColours }>> = {
  fresh: { light: { fg: '#14532d', bg: '#dcfce7' }, dark: { fg: '#bbf7d0', bg: '#14532d' } },
  fetching: { light: { fg: '#1e3a8a', bg: '#dbeafe' }, dark: { fg: '#bfdbfe', bg: '#1e3a8a' } },
  paused: { light: { fg: '#581c87', bg: '#f3e8ff' }, dark: { fg: '#e9d5ff', bg: '#581c87' } },
  stale: { light: { fg: '#713f12', bg: '#fef3c7' }, dark: { fg: '#fde68a', bg: '#713f12' } },
  inactive: { light: { fg: '#374151', bg: '#e5e7eb' }, dark: { fg: '#e5e7eb', bg: '#374151' } },
  error: { light: { fg: '#7f1d1d', bg: '#fee2e2' }, dark: { fg: '#fecaca', bg: '#7f1d1d' } },
  success: { light: { fg: '#14532d', bg: '#dcfce7' }, dark: { fg: '#bbf7d0', bg: '#14532d' } },
  pending: { light: { fg: '#1e3a8a', bg: '#dbeafe' }, dark: { fg: '#bfdbfe', bg: '#1e3a8a' } },
  idle: { light: { fg: '#374151', bg: '#e5e7eb' }, dark: { fg: '#e5e7eb', bg: '#374151' } },
};

/** The CSS custom properties a chip reads (styles.css picks the light or dark pair by theme). */
export function chipStyle(kind: ChipKind): Record<string, string> {
  const c = CHIP_COLOURS[kind];
  return { '--rt-chip-fg': c.light.fg, '--rt-chip-bg': c.light.bg, '--rt-chip-fg-dark': c.dark.fg, '--rt-chip-bg-dark': c.dark.bg };
}

/** WCAG 2.2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match) throw new Error(`expected a #rrggbb colour, got ${JSON.stringify(hex)}`);
  const n = parseInt(match[1]!, 16);
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
