import { describe, expect, it } from 'vitest';
import { CHIP_COLOURS, contrastRatio } from './palette';

describe('status chip colours', () => {
  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(() => contrastRatio('blue', '#fff')).toThrow(/#rrggbb/);
  });

  for (const [kind, themes] of Object.entries(CHIP_COLOURS)) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${kind} chip text meets WCAG AA (4.5:1) in the ${theme} theme`, () => {
        expect(contrastRatio(themes[theme].fg, themes[theme].bg)).toBeGreaterThanOrEqual(4.5);
      });
    }
  }
});
