import { describe, expect, it } from 'vitest';
import { describeCpuRuns, measureCpuRuns, median } from './cpu-runs';

describe('median', () => {
  it('takes the middle value, or the mean of the two middle values, whatever the input order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });
  it('refuses an empty list instead of returning NaN', () => {
    expect(() => median([])).toThrow(/no values/);
  });
});

describe('measureCpuRuns', () => {
  it('runs the warm-ups unmeasured, then measures each run and keeps the last result', async () => {
    let calls = 0;
    const result = await measureCpuRuns(async () => ++calls, { warmup: 2, runs: 3 });
    expect(calls).toBe(5);
    expect(result.last).toBe(5);
    expect(result.cpu).toHaveLength(3);
    expect(result.wall).toHaveLength(3);
    expect(result.gcShare).toHaveLength(3);
    for (const ms of result.cpu) expect(ms).toBeGreaterThanOrEqual(0);
    expect(describeCpuRuns(result, 'goal <= 1000 ms')).toMatch(/CPU per run: .* ms; median \d+ ms CPU \(goal <= 1000 ms\)/);
  });
  it('needs at least one measured run', async () => {
    await expect(measureCpuRuns(async () => 0, { warmup: 0, runs: 0 })).rejects.toThrow(/at least 1/);
  });
});
