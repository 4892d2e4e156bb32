/** Number formatting and time-axis ticks shared by the timeline views. */
import { formatNumber } from '../number';

/** '0 ms', '12.5 ms', '1,204 ms': one decimal under 100 ms, where it still means something. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  const abs = Math.abs(ms);
  const text = abs < 99.95 && abs % 1 !== 0 ? ms.toFixed(1) : formatNumber(ms);
  return `${text} ms`;
}

/** DevTools-style sizes: '850 B', '4.1 kB', '1.2 MB' (SI units, as DevTools uses). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * Round tick positions (1, 2 or 5 times a power of ten) covering 0..max with at most about `target` steps,
 * and always at least one step past 0 (a narrow axis still gets a second label).
 */
export function ticks(max: number, target = 6): number[] {
  if (!(max > 0)) return [0];
  const raw = max / Math.max(1, target);
  const pow = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
  while (step > max) step = step / (String(step).startsWith('5') ? 2.5 : 2);
  const out: number[] = [];
  for (let t = 0; t <= max + 1e-9; t += step) out.push(Math.round(t * 1e6) / 1e6);
  return out;
}
