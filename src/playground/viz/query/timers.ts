/**
 * Pending timers at a moment: what each one waits for, how long is left and how far along it is. The timers
 * come from the instrumentation's timerScheduled / timerCleared / timerFired events (folded in fold.ts); the
 * moment is the cursor event's `at` when replaying, or a running clock while the run is live.
 */
import type { PendingTimer } from 'roundtrip/query';
import type { QueryVizEvent } from '../../recording/model';
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

/** One retry delay of a query or mutation, as of a moment: pending, waited out, or cut short. */
export interface RetryDelayRow {
  /** Index (in the source's events) of the 'retry' event that set it. */
  readonly event: number;
  readonly subject: string;
  /** 1 for the first retry. */
  readonly retry: number;
  readonly limit: number | undefined;
  readonly delay: number;
  readonly state: 'pending' | 'fired' | 'cleared';
  /** ms still to wait (pending only). */
  readonly remaining: number;
  /** 'retry 2 of 3: 1,000 ms, waited out at +2,100 ms': the row in words. */
  readonly text: string;
}

/**
 * Every retry delay set up to `count` events of a client, at time `now`: a pending timer is listed only while
 * it runs, and a 500 ms backoff followed by a 1,000 ms one was easy to miss between two cursor steps (issue
 * #27), so the delays stay listed once set, each with what became of it. The retryer's timer for retry n is
 * the one set with its 'retry' event (instrumentation.ts: timerScheduled, then retry) and ends with a
 * timerFired or timerCleared of kind 'retry' for the same subject.
 */
export function retryDelayRows(events: readonly QueryVizEvent[], count: number, now: number, start: number | null): RetryDelayRow[] {
  const rows: {
    event: number;
    subject: string;
    key: string;
    retry: number;
    limit: number | undefined;
    delay: number;
    dueAt: number;
    end?: { state: 'fired' | 'cleared'; at: number };
  }[] = [];
  const open = new Map<string, (typeof rows)[number]>();
  const keyOf = (s: { kind: string; queryHash?: string; mutationId?: number }) => (s.kind === 'query' ? `q${s.queryHash}` : `m${s.mutationId}`);
  const n = Math.min(count, events.length);
  for (let i = 0; i < n; i++) {
    const v = events[i]!;
    if (v.kind !== 'instrumentation') continue;
    const e = v.event;
    if (e.type === 'retry') {
      const row = {
        event: i,
        subject: formatSubject(e.subject),
        key: keyOf(e.subject),
        retry: e.attempt,
        limit: e.notes?.retryLimit,
        delay: e.delay,
        dueAt: e.dueAt,
      };
      rows.push(row);
      open.set(row.key, row);
    } else if ((e.type === 'timerFired' || e.type === 'timerCleared') && e.timer.timer === 'retry') {
      const row = open.get(keyOf(e.subject));
      if (row) {
        row.end = { state: e.type === 'timerFired' ? 'fired' : 'cleared', at: v.at };
        open.delete(row.key);
      }
    }
  }
  const since = (at: number) => `+${formatMs(at - (start ?? at))}`;
  return rows.map((r): RetryDelayRow => {
    const state = r.end?.state ?? 'pending';
    const remaining = state === 'pending' ? Math.max(0, r.dueAt - now) : 0;
    const name = `retry ${r.retry}${r.limit === undefined ? '' : ` of ${r.limit}`}`;
    const what =
      state === 'pending'
        ? remaining > 0
          ? `${formatMs(remaining)} left`
          : 'due now'
        : state === 'fired'
          ? `waited out at ${since(r.end!.at)}, the next attempt started`
          : `cut short at ${since(r.end!.at)}`;
    return {
      event: r.event,
      subject: r.subject,
      retry: r.retry,
      limit: r.limit,
      delay: r.delay,
      state,
      remaining,
      text: `${name}: ${formatMs(r.delay)}, ${what}`,
    };
  });
}
