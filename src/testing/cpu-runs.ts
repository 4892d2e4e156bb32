/**
 * CPU time of whole runs, for benches whose goal is "at most N ms of CPU" (issue #4). One measured run is not
 * enough: right after a warm-up the JIT is still settling, so a single run can read twice what the steady state
 * costs. This warms up, measures several runs and reports the median, and the share of CPU spent in GC pauses,
 * since allocation is what most of these runs pay for. It prints; it never asserts a time (machines differ).
 */
import { PerformanceObserver } from 'node:perf_hooks';

export interface CpuRuns<T> {
  /** CPU (user + system) per measured run, ms. */
  readonly cpu: readonly number[];
  /** Wall time per measured run, ms. */
  readonly wall: readonly number[];
  /** GC pause time over CPU time, per measured run. */
  readonly gcShare: readonly number[];
  /** What the last measured run returned. */
  readonly last: T;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of no values');
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
}

/** Lets the previous run's promise callbacks, and a GC the runtime scheduled on idle, settle outside the measurement. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

export async function measureCpuRuns<T>(run: () => Promise<T>, opts: { warmup: number; runs: number }): Promise<CpuRuns<T>> {
  if (opts.runs < 1) throw new Error(`measureCpuRuns: runs must be at least 1, got ${opts.runs}`);
  for (let i = 0; i < opts.warmup; i++) await run();
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  const cpu: number[] = [];
  const wall: number[] = [];
  const gcShare: number[] = [];
  let last!: T;
  try {
    for (let i = 0; i < opts.runs; i++) {
      await settle();
      gcMs = 0;
      const before = process.cpuUsage();
      const started = performance.now();
      last = await run();
      const used = process.cpuUsage(before);
      const wallMs = performance.now() - started;
      // GC entries are delivered asynchronously; give them a turn before reading the total.
      await settle();
      const cpuMs = (used.user + used.system) / 1000;
      cpu.push(cpuMs);
      wall.push(wallMs);
      gcShare.push(gcMs / cpuMs);
    }
  } finally {
    observer.disconnect();
  }
  return { cpu, wall, gcShare, last };
}

/** "CPU per run: a, b, c ms; median m ms CPU (goal)" and the wall and GC lines, for a bench's console output. */
export function describeCpuRuns(result: CpuRuns<unknown>, goal: string): string {
  const list = (xs: readonly number[]): string => xs.map((x) => x.toFixed(0)).join(', ');
  return (
    `  CPU per run: ${list(result.cpu)} ms; median ${median(result.cpu).toFixed(0)} ms CPU (${goal})\n` +
    `  wall per run: ${list(result.wall)} ms; median ${median(result.wall).toFixed(0)} ms\n` +
    `  GC pauses: median ${(100 * median(result.gcShare)).toFixed(0)}% of CPU`
  );
}
