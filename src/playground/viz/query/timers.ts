/**
 * Pending timers at a moment: what each one waits for, how long is left and how far along it is. The timers
 * come from the instrumentation's timerScheduled / timerCleared / timerFired events (folded in fold.ts); the
 * moment is the cursor event's `at` when replaying, or a running clock while the run is live.
 */
import type { PendingTimer } from 'roundtrip/query';
import { formatMs, formatSubject, TIMER_LABELS } from './describe';

export interface TimerRow {
  readonly id: number;
  readonly kind: PendingTimer['timer'];
  readonly kindLabel: string;
  readonly subject: string;
  readonly delay: number;
  readonly dueAt: number;
  /** ms until it fires, 0 when due (a due timer stays listed until its fired event arrives). */
  readonly remaining: number;
  /** ms since it was set, capped at `delay`. */
  readonly elapsed: number;
  /** '1,250 ms left of 3,000 ms (stale time, ['todos'])': the text equivalent of the progress bar. */
  readonly text: string;
  /** What happens when it fires. */
  readonly effect: string;
}

const EFFECTS: Readonly<Record<PendingTimer['timer'], string>> = {
  staleTime: 'the data becomes stale',
  gc: 'the unused entry is removed from the cache',
  retry: 'the next attempt starts',
  refetchInterval: 'the query refetches',
};

export function timerRows(timers: Iterable<PendingTimer>, now: number): TimerRow[] {
  return [...timers]
    .map((t): TimerRow => {
      const remaining = Math.max(0, t.dueAt - now);
      const elapsed = Math.min(t.delay, Math.max(0, now - t.scheduledAt));
      const subject = formatSubject(t.subject);
      const kindLabel = TIMER_LABELS[t.timer];
      return {
        id: t.id,
        kind: t.timer,
        kindLabel,
        subject,
        delay: t.delay,
        dueAt: t.dueAt,
        remaining,
        elapsed,
        text: `${remaining > 0 ? `${formatMs(remaining)} left of ${formatMs(t.delay)}` : 'due now'} (${kindLabel}, ${subject})`,
        effect: EFFECTS[t.timer],
      };
    })
    .sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
}

/**
 * The sandbox clock, read from the host while live. The sandbox's default clock is `Date.now()` in the same
 * browser, so when the last event is near the host's wall clock, the wall clock is the sandbox's; a snippet
 * with a virtual clock (far from now) is extrapolated from its last event instead.
 */
export function liveNow(lastAt: number, anchoredAtWall: number, wallNow: number): number {
  // 10 minutes: longer than any live run's gap between events and the wall clock, far shorter than the
  // distance of a virtual clock that starts at 0 from the epoch time.
  if (Math.abs(wallNow - lastAt) < 600_000) return Math.max(wallNow, lastAt);
  return lastAt + Math.max(0, wallNow - anchoredAtWall);
}
