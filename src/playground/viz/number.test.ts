import { describe, expect, it } from 'vitest';
import { formatNumber } from './number';

describe('formatNumber', () => {
  it('prints what Intl.NumberFormat en-US prints, for integers, fractions, signs, rounding and large values', () => {
    const values = [
      0,
      -0,
      1,
      -1,
      7,
      12,
      999,
      1000,
      1001,
      12_345,
      999_999,
      1_000_000,
      123_456_789,
      2 ** 53,
      1e21 - 1,
      0.04,
      0.05,
      0.06,
      0.95,
      0.96,
      1.25,
      1.35,
      2.5,
      9.95,
      99.94,
      99.96,
      999.95,
      1234.56,
      -1234.56,
      -0.04,
      -0.4,
      1 / 3,
      2 / 3,
      Math.PI * 1000,
      Number.NaN,
      Infinity,
      -Infinity,
    ];
    // Deterministic spread over magnitudes and fractions.
    for (let i = 1; i < 400; i++) values.push((((i * 7919) % 100_003) / (i % 7 === 0 ? 1 : 10 ** (i % 4))) * (i % 5 === 0 ? -1 : 1));
    for (const digits of [0, 1, 2]) {
      const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits });
      for (const x of values) expect([x, digits, formatNumber(x, digits)]).toEqual([x, digits, intl.format(x)]);
    }
  });
});
