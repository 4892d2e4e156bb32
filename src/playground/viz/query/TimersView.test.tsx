// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as queryLib from 'roundtrip/query';
import type { PendingTimer } from 'roundtrip/query';
import { stepOf, type QuerySource } from '../../recording/model';
import TimersView from './TimersView';
import { liveNow, timerRows } from './timers';
import { T0, recorder, useQueryTestEnvironment } from './test-recording';

const { QueryObserver } = queryLib;

const timer = (over: Partial<PendingTimer>): PendingTimer => ({
  id: 1,
  timer: 'staleTime',
  subject: { kind: 'query', queryHash: '["a"]', queryKey: ['a'] },
  delay: 3000,
  scheduledAt: 1000,
  dueAt: 4000,
  ...over,
});

describe('timerRows', () => {
  it('computes remaining and elapsed from dueAt and scheduledAt, soonest first', () => {
    const rows = timerRows([timer({ id: 1, dueAt: 4000 }), timer({ id: 2, timer: 'gc', delay: 500, scheduledAt: 2000, dueAt: 2500 })], 2250);
    expect(rows.map((r) => [r.id, r.remaining, r.elapsed])).toEqual([
      [2, 250, 250],
      [1, 1750, 1250],
    ]);
    expect(rows[1]!.text).toBe("1,750 ms left of 3,000 ms (stale time, ['a'])");
  });

  it('a timer past due (its fired event not in yet) says so instead of counting below zero', () => {
    const [row] = timerRows([timer({})], 9000);
    expect([row!.remaining, row!.elapsed, row!.text]).toEqual([0, 3000, "due now (stale time, ['a'])"]);
  });

  it('liveNow follows the wall clock for a real-time sandbox and extrapolates a virtual one', () => {
    expect(liveNow(T0, T0, T0 + 1234)).toBe(T0 + 1234);
    // a virtual clock at 5,000 ms, anchored when the wall clock read T0
    expect(liveNow(5000, T0, T0 + 250)).toBe(5250);
  });
});

describe('TimersView', () => {
  useQueryTestEnvironment();

  async function observed() {
    const rec = recorder();
    const client = new rec.lib.QueryClient();
    const stop = new QueryObserver(client, { queryKey: ['todos'], staleTime: 2000, gcTime: 5000, queryFn: async () => 'x' }).subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    return { rec, client, stop };
  }

  const remaining = () =>
    within(screen.getByRole('list', { name: /Pending timers/ }))
      .getAllByRole('listitem')
      .map((li) => li.querySelector('.rt-q-remaining')!.textContent);

  it('when replaying, shows the timers as of the cursor event, timed at its `at`', async () => {
    const { rec, stop } = await observed();
    await vi.advanceTimersByTimeAsync(800);
    stop(); // gc timer starts now, at +800
    await vi.advanceTimersByTimeAsync(1000);
    const recording = rec.recording();
    const source = recording.sources[0] as QuerySource;
    const removed = source.events.findIndex((e) => e.kind === 'instrumentation' && e.event.type === 'observerRemoved');
    render(<TimersView recording={recording} cursor={stepOf(recording, source.id, removed)} live={false} />);
    // at +800: the stale timer (armed at +0, 2,001 ms) was cleared with the observer; gc just started
    expect(remaining()).toEqual(['5,000 ms left of 5,000 ms; then the unused entry is removed from the cache']);
    const bar = screen.getByRole('progressbar', { name: "gc time, ['todos']" });
    expect(bar.getAttribute('aria-valuetext')).toBe("5,000 ms left of 5,000 ms (gc time, ['todos'])");
  });

  it('counts down while live, from dueAt, and stops ticking when nothing is pending', async () => {
    const { rec, stop } = await observed();
    const recording = rec.recording();
    render(<TimersView recording={recording} cursor={recording.steps.length - 1} live />);
    expect(remaining()[0]).toMatch(/^2,001 ms left/);
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(remaining()[0]).toMatch(/^1,501 ms left/);
    const [bar] = screen.getAllByRole('progressbar') as HTMLProgressElement[];
    expect([bar!.max, bar!.value]).toEqual([2001, 500]);
    cleanup();
    // no timers: nothing to count, so no interval stays behind
    stop();
    await vi.advanceTimersByTimeAsync(5000); // the gc timer fires and removes the query: nothing left
    const quiet = rec.recording();
    const before = vi.getTimerCount();
    render(<TimersView recording={quiet} cursor={quiet.steps.length - 1} live />);
    expect(screen.getByText('No timers pending at this point.')).toBeTruthy();
    expect(vi.getTimerCount()).toBe(before);
  });
});
