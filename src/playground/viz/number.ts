/**
 * Numbers as the visualizers print them: en-US digits, grouped by thousands ('12,345.6').
 *
 * By hand rather than with Intl.NumberFormat: a page's first Intl formatter loads the locale's data, 25-55 ms
 * on a 2-core machine (measured in Chromium), and the describers' formatter was made as the panel's code
 * loaded, on a first Run's way to its first drawn event. Views also call this per row per frame.
 */

/**
 * `x` with at most `fractionDigits` decimals (rounded, trailing zeros dropped) and its integer part grouped by
 * thousands: what `new Intl.NumberFormat('en-US', { maximumFractionDigits }).format(x)` prints.
 */
export function formatNumber(x: number, fractionDigits = 0): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞';
  const abs = Math.abs(x);
  // Rounded from the number's shortest decimal form, as Intl does: 0.95 is stored as 0.94999..., which toFixed(1)
  // rounds down to '0.9' but Intl, reading '0.95', rounds up to '1'. Shifting through the 'e' notation string
  // keeps that form.
  const shown = String(abs);
  const scaled = shown.includes('e') ? abs * 10 ** fractionDigits : Number(`${shown}e${fractionDigits}`);
  // toFixed switches to exponent notation from 1e21; such numbers are integers, which BigInt prints whole.
  let text = abs >= 1e21 ? BigInt(abs).toString() : (Math.round(scaled) / 10 ** fractionDigits).toFixed(fractionDigits);
  if (text.includes('.')) text = text.replace(/\.?0+$/, '');
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (dot < 0 ? '' : text.slice(dot));
  // Intl keeps the sign of a negative number that rounds to zero ('-0'); so does this.
  return x < 0 || Object.is(x, -0) ? `-${grouped}` : grouped;
}
