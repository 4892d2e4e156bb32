/**
 * Pending timers: every timer the client has set and not yet fired or cleared (stale time, gc time, retry
 * backoff, refetch interval), with a progress bar and the time left. While the run is live the countdowns
 * run (updated every 100 ms, and only while something is counting); when replaying, time stands at the
 * cursor event's `at`.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ViewProps } from '../views';
import { visibleCount } from '../../recording/model';
import { NO_CLIENT_TEXT, sinceStart, useQuerySource } from './common';
import { formatMs } from './describe';
import { eventIndexAt, indexClientFold } from './fold';
import { liveNow, retryDelayRows, timerRows } from './timers';
import './styles.css';

/** Countdown refresh: ten updates a second reads as continuous for numbers and costs nothing when idle. */
export const TICK_MS = 100;

export default function TimersView({ recording, cursor, live }: ViewProps) {
  const { source, picker } = useQuerySource(recording);
  const headingId = useId();
  const folds = useMemo(() => indexClientFold(source ? source.events : []), [source]);
  const count = source ? visibleCount(recording, source.id, cursor) : 0;
  const state = useMemo(() => folds.at(count), [folds, count]);
  const lastAt = state.now;
  // Wall-clock time when the latest event arrived: a virtual clock is extrapolated from there.
  const anchor = useRef<{ at: number | null; wall: number }>({ at: null, wall: Date.now() });
  if (anchor.current.at !== lastAt) anchor.current = { at: lastAt, wall: Date.now() };
  const [wall, setWall] = useState(() => Date.now());

  const index = source ? eventIndexAt(recording, source, cursor) : -1;
  const cursorAt = source && index >= 0 ? source.events[index]!.at : lastAt;
  const now = lastAt === null ? null : live ? liveNow(lastAt, anchor.current.wall, wall) : (cursorAt ?? lastAt);
  const rows = now === null ? [] : timerRows(state.timers.values(), now);
  const retries = useMemo(() => (source && now !== null ? retryDelayRows(source.events, count, now, state.start) : []), [source, count, now, state.start]);
  const counting = live === true && rows.some((r) => r.remaining > 0);

  useEffect(() => {
    if (!counting) return;
    setWall(Date.now());
    const id = setInterval(() => setWall(Date.now()), TICK_MS);
    return () => clearInterval(id);
  }, [counting]);

  if (!source) return <p className="rt-q-empty">{NO_CLIENT_TEXT}</p>;

  return (
    <div className="rt-q">
      <div className="rt-q-toolbar">
        {picker}
        <p className="rt-q-note">
          {now === null
            ? 'Nothing recorded yet.'
            : live
              ? `Live: counting down at ${sinceStart(now, state.start)} since the client's first event.`
              : `As of the cursor: ${sinceStart(now, state.start)} since the client's first event.`}
        </p>
      </div>
      {rows.length === 0 ? (
        <p className="rt-q-empty">No timers pending at this point.</p>
      ) : (
        <ul className="rt-q-timers" aria-label={`Pending timers of ${source.label}`}>
          {rows.map((r) => (
            <li key={r.id} className="rt-q-timer" title={`When it fires, ${r.effect}.`}>
              <span>
                <strong>{r.kindLabel}</strong> <code>{r.subject}</code>
              </span>
              <progress max={r.delay} value={r.elapsed} aria-label={`${r.kindLabel}, ${r.subject}`} aria-valuetext={r.text} />
              <span className="rt-q-remaining">
                {r.remaining > 0 ? `${formatMs(r.remaining)} left` : 'due now'}
                <span className="rt-q-sr-only">
                  {' '}
                  of {formatMs(r.delay)}; then {r.effect}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {retries.length > 0 ? (
        <section className="rt-q-retries" aria-labelledby={`${headingId}-retries`}>
          <h4 id={`${headingId}-retries`}>Retry delays so far</h4>
          <ol aria-label={`Retry delays of ${source.label}`}>
            {retries.map((r) => (
              <li key={r.event} data-state={r.state}>
                <code>{r.subject}</code> {r.text}
                {r.state === 'pending' ? (
                  <progress max={r.delay} value={r.delay - r.remaining} aria-label={`retry ${r.retry} delay, ${r.subject}`} aria-valuetext={r.text} />
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </div>
  );
}
