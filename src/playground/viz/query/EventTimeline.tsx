/**
 * Event timeline: what TanStack Query Devtools does not show. One lane per query (and mutation) over the
 * sandbox clock: fetch spans, each attempt, the backoff before each retry drawn as a gap with its delay,
 * pauses, and marks for success, error, invalidation, staleness and gc. Below it, every event in words.
 * Both are clickable: a click moves the player's cursor to that event.
 */
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { QueryVizEvent } from '../../recording/model';
import type { ViewProps } from '../views';
import { eventsAt, stepOf } from '../../recording/model';
import { NO_CLIENT_TEXT, sinceStart, useQuerySource } from './common';
import { describeQueryEvent, formatMs, isRoutineQueryEvent } from './describe';
import { eventIndexAt } from './fold';
import { buildLanes, tickStep, type Lanes } from './lanes';
import { TimelineLane } from './TimelineLane';
import { describeDelta, formatDelta, GhostBar, ghostSource, useGhost } from '../ghost';
import type { Lane } from './lanes';
import './styles.css';
import '../ghost.css';

/** When a lane's last fetch ended (its last closed fetch span), or undefined. */
function settledAt(lane: Lane): number | undefined {
  let at: number | undefined;
  for (const s of lane.spans) if (s.kind === 'fetch' && !s.open) at = Math.max(at ?? -Infinity, s.to);
  return at;
}

/** Drawn at the element's own width (1 unit = 1 CSS pixel, so text stays 11 px); this until it is measured. */
const DEFAULT_WIDTH = 600;
const LABEL_W = 110;
const PAD = 16;
const AXIS_H = 22;
const ROW_H = 34;
/** Narrowest a retry delay is drawn, px: room for its label ("1,000 ms" at 11 px). */
const MIN_BACKOFF_PX = 48;
/** Widest the drawing grows to give retry delays that room. */
const MAX_WIDTH = 2400;

/** Pixels per ms that draw the shortest retry delay of the run MIN_BACKOFF_PX wide (0 when there is none). */
function minScale(lanes: Lanes): number {
  let shortest = Infinity;
  for (const lane of lanes.lanes) for (const s of lane.spans) if (s.kind === 'backoff' && s.to > s.from) shortest = Math.min(shortest, s.to - s.from);
  return Number.isFinite(shortest) ? MIN_BACKOFF_PX / shortest : 0;
}

/**
 * Events listed at once; longer recordings show a window around the cursor. The box shows about ten. Each
 * time the window moves, the browser restyles every item in it (measured: ~55 ms of CPU for a 300-event window
 * with its hidden routine events, on the 1,820-event scrub of issue #8), and a jump (Home, End, a click far
 * along the scrubber) builds the whole window afresh: at 120 events that jump was one 74 ms frame. So the window
 * is a few screens long, not the whole recording.
 */
const LIST_WINDOW = 60;
/** The window's start moves in multiples of this, so it stays put for about this many cursor moves. */
const LIST_STEP = 15;

/** The element's content width, followed with a ResizeObserver (where there is one). */
function useWidth(element: HTMLElement | null): number | undefined {
  const [width, setWidth] = useState<number>();
  useEffect(() => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.floor(entry?.contentRect.width ?? 0);
      if (w > 0) setWidth(Math.max(w, 320));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/** The integers lo..hi, both included. */
function range(lo: number, hi: number): number[] {
  return Array.from({ length: Math.max(hi - lo + 1, 0) }, (_, k) => lo + k);
}

/** First position in the ascending `list` whose value is at least `value` (list.length when none is). */
function lowerBound(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One event of the list in words. Memoized: a cursor move re-renders only the items it marks or unmarks.
 * A routine event stays in the list while routine events are hidden, `hidden` (out of sight and of the
 * accessibility tree) until the cursor is on it: showing and hiding it is an attribute change. Adding and
 * removing it instead inserted and removed a child of the list on nearly every step, and each insertion made the
 * browser restyle every item of the list (measured: ~300 elements a step), most of a scrub step's time (issue #8).
 */
const EventItem = memo(function EventItem({
  event,
  index,
  current,
  future,
  hidden,
  start,
  onGo,
}: {
  event: QueryVizEvent;
  index: number;
  current: boolean;
  future: boolean;
  hidden: boolean;
  start: number | null;
  onGo: (event: number) => void;
}) {
  return (
    <li hidden={hidden || undefined}>
      <button type="button" aria-current={current ? 'step' : undefined} data-future={future ? '' : undefined} onClick={() => onGo(index)}>
        <span className="rt-q-time">{sinceStart(event.at, start)}</span>
        <span>{describeQueryEvent(event)}</span>
      </button>
    </li>
  );
});

export default function EventTimeline({ recording, cursor, onCursor }: ViewProps) {
  const { source, picker } = useQuerySource(recording);
  const headingId = useId();
  const [showRoutine, setShowRoutine] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const BOX_WIDTH = useWidth(box) ?? DEFAULT_WIDTH;
  const visible = useMemo(() => (source ? eventsAt(recording, source, cursor) : []), [recording, source, cursor]);
  const now = visible.at(-1)?.at;
  const lanes = useMemo(() => buildLanes(visible, now), [visible, now]);
  // The axis covers the whole recording, so scrubbing moves the cursor line, not the scale.
  const full = useMemo(() => (source ? buildLanes(source.events) : undefined), [source]);
  const current = source ? eventIndexAt(recording, source, cursor) : -1;
  // The previous run's same client (the ghost), at its end, drawn as a faded strip under each lane.
  const { ghost } = useGhost();
  const then = source ? ghostSource(ghost, 'query', source.id) : undefined;
  const ghostLanes = useMemo(() => (then ? buildLanes(then.events) : undefined), [then]);
  // Which events are timer bookkeeping, and the indices of the events the list shows: built once per recording
  // and filter (not on every cursor move).
  const routine = useMemo(() => Uint8Array.from(source?.events ?? [], (e) => (isRoutineQueryEvent(e) ? 1 : 0)), [source]);
  const listable = useMemo(() => {
    const out: number[] = [];
    routine.forEach((r, i) => {
      if (showRoutine || r === 0) out.push(i);
    });
    return out;
  }, [routine, showRoutine]);
  // Stable, so the memoized list items skip re-rendering; reads the latest props through a ref.
  const latest = useRef({ recording, source, onCursor });
  latest.current = { recording, source, onCursor };
  const go = useCallback((event: number) => {
    const { recording, source, onCursor } = latest.current;
    const target = source ? stepOf(recording, source.id, event) : -1;
    if (onCursor && target >= 0) onCursor(target);
  }, []);

  // Keep the current event in sight by scrolling the list itself (scrollIntoView would scroll the page too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the current event is the trigger; the effect reads the DOM it marks
  useEffect(() => {
    const list = listRef.current;
    const item = list?.querySelector<HTMLElement>('[aria-current="step"]')?.parentElement;
    if (!list || !item) return;
    if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
    else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
    }
  }, [current]);

  // The cursor line stays in view when the drawing is wider than its box.
  const cursorX = useRef<number | undefined>(undefined);
  useEffect(() => {
    const at = cursorX.current;
    if (!box || at === undefined || box.scrollWidth <= box.clientWidth) return;
    if (at < box.scrollLeft + LABEL_W || at > box.scrollLeft + box.clientWidth - PAD) box.scrollLeft = Math.max(0, at - box.clientWidth / 2);
  });

  if (!source || !full) return <p className="rt-q-empty">{NO_CLIENT_TEXT}</p>;

  const start = full.start;
  // Ghost times are put on this run's axis by their distance from the ghost client's first event.
  const shift = ghostLanes ? start - ghostLanes.start : 0;
  const end = Math.max(full.end, lanes.end, ghostLanes ? ghostLanes.end + shift : 0);
  // A retry delay must be wide enough to see and to carry its label: on a phone an 11 s run left a 500 ms
  // backoff 9 px wide (issue #27). The drawing widens (the box scrolls sideways) up to MAX_WIDTH.
  const WIDTH = Math.max(BOX_WIDTH, Math.min(MAX_WIDTH, Math.ceil(LABEL_W + PAD + (end - start) * minScale(full))));
  const x = (t: number) => LABEL_W + ((t - start) / Math.max(end - start, 1)) * (WIDTH - LABEL_W - PAD);
  const height = AXIS_H + Math.max(lanes.lanes.length, 1) * ROW_H + 6;
  cursorX.current = now === undefined ? undefined : x(now);
  // Labels are whole milliseconds: a step under 1 ms would repeat them ("0 ms 0 ms 0 ms 1 ms", issue #27).
  const step = Math.max(1, tickStep(end - start));
  const ticks: number[] = [];
  for (let t = 0; t <= end - start + 1e-9 && ticks.length < 30; t += step) {
    if (ticks.length === 0 || formatMs(t) !== formatMs(ticks[ticks.length - 1]!)) ticks.push(t);
  }
  // The window moves in steps of LIST_STEP, so most cursor moves change no list item but the marked ones.
  const focus = lowerBound(listable, current);
  const from = Math.max(0, Math.min(Math.floor((focus - LIST_WINDOW / 2) / LIST_STEP) * LIST_STEP, listable.length - LIST_WINDOW));
  const until = Math.min(from + LIST_WINDOW, listable.length);
  // Rendered: every event from just after the listed one before the window to just before the one after it,
  // routine ones hidden (see EventItem). The event at the cursor is listed even when it is routine and routine
  // events are hidden, when it falls in that range: as before, next to the window's listed events.
  const lo = from > 0 ? listable[from - 1]! + 1 : 0;
  const hi = until < listable.length ? listable[until]! - 1 : source.events.length - 1;
  const rendered = range(lo, hi);
  const extra = current >= lo && current <= hi && !showRoutine && routine[current] === 1;
  const total = listable.length + (current >= 0 && !showRoutine && routine[current] === 1 ? 1 : 0);
  const shownCount = until - from + (extra ? 1 : 0);
  const retries = lanes.lanes.reduce((n, l) => n + l.spans.filter((s) => s.kind === 'backoff').length, 0);

  return (
    <div className="rt-q">
      <div className="rt-q-toolbar">
        {picker}
        <label>
          <input type="checkbox" checked={showRoutine} onChange={(e) => setShowRoutine(e.target.checked)} />
          Show timer bookkeeping
        </label>
      </div>
      {ghostLanes ? <GhostBar what="as a thin faded strip under each query's lane" /> : null}
      <ul className="rt-q-legend" aria-label="Legend">
        <li>
          <svg width="22" height="12" aria-hidden="true">
            <rect x="1" y="2" width="20" height="8" rx="2" fill="var(--rt-q-attempt)" />
          </svg>
          attempt
        </li>
        <li>
          <svg width="22" height="12" aria-hidden="true">
            <line x1="1" x2="21" y1="6" y2="6" stroke="var(--rt-q-backoff)" strokeWidth="2" strokeDasharray="4 3" />
          </svg>
          retry delay
        </li>
        <li>
          <svg width="22" height="12" aria-hidden="true">
            <rect x="1" y="2" width="20" height="8" fill="var(--rt-q-paused)" fillOpacity="0.35" stroke="var(--rt-q-paused)" />
          </svg>
          paused
        </li>
        <li>● success</li>
        <li>✕ error</li>
        <li>◆ invalidated</li>
        <li>▲ stale / other</li>
        <li>■ gc</li>
      </ul>
      <div className="rt-q-timeline">
        <div
          ref={setBox}
          className="rt-q-lanes-box"
          {...(WIDTH > BOX_WIDTH ? { tabIndex: 0, role: 'region', 'aria-label': `Timeline of ${source.label}, wider than the box: scroll sideways` } : {})}
        >
          <svg
            className="rt-q-lanes"
            viewBox={`0 0 ${WIDTH} ${height}`}
            style={WIDTH > BOX_WIDTH ? { width: WIDTH } : undefined}
            role="img"
            aria-labelledby={headingId}
          >
            <title id={headingId}>
              {`Timeline of ${source.label}: ${lanes.lanes.length} lane${lanes.lanes.length === 1 ? '' : 's'}, ${retries} retr${retries === 1 ? 'y' : 'ies'} so far. The event list below says the same in words.`}
            </title>
            <g className="rt-q-axis">
              {ticks.map((t) => (
                <g key={t}>
                  <line x1={x(start + t)} x2={x(start + t)} y1={AXIS_H - 4} y2={height} />
                  {/* A label centred on the last tick would run off the right edge ("250 m"). */}
                  <text x={x(start + t)} y={12} textAnchor={x(start + t) > WIDTH - PAD - 24 ? 'end' : 'middle'}>
                    {formatMs(t)}
                  </text>
                </g>
              ))}
            </g>
            {lanes.lanes.map((lane, row) => (
              <TimelineLane
                key={lane.id}
                lane={lane}
                y={AXIS_H + row * ROW_H + ROW_H / 2}
                start={start}
                end={end}
                left={LABEL_W}
                right={WIDTH - PAD}
                current={current}
                onGo={go}
              />
            ))}
            {ghostLanes
              ? lanes.lanes.map((lane, row) => {
                  const was = ghostLanes.lanes.find((g) => g.id === lane.id);
                  if (!was) return null;
                  const y = AXIS_H + row * ROW_H + ROW_H / 2 + 12;
                  const mine = full.lanes.find((l) => l.id === lane.id);
                  const a = mine ? settledAt(mine) : undefined;
                  const b = settledAt(was);
                  const moved = a !== undefined && b !== undefined ? a - start - (b - ghostLanes.start) : undefined;
                  return (
                    <g key={`ghost-${lane.id}`} data-ghost-lane={lane.id}>
                      <g className="is-ghost">
                        <title>{`${ghost!.label}: ${was.label}${b !== undefined ? `, last fetch settled at +${formatMs(b - ghostLanes.start)}` : ''}`}</title>
                        {was.spans
                          .filter((sp) => sp.kind !== 'fetch')
                          .map((sp, i) => (
                            <rect
                              key={i}
                              className={sp.kind === 'attempt' ? 'rt-q-attempt' : sp.kind === 'backoff' ? 'rt-q-backoff-band' : 'rt-q-paused'}
                              data-kind={sp.kind}
                              x={x(sp.from + shift)}
                              y={y}
                              width={Math.max(x(sp.to + shift) - x(sp.from + shift), 2)}
                              height={5}
                            />
                          ))}
                      </g>
                      {moved !== undefined && lane.id === (mine?.id ?? '') && visible.length === source.events.length ? (
                        // Under the lane's name, clear of the drawing: what moved, against the ghost.
                        <text className="rt-q-ghost-delta" x={6} y={y + 4} data-delta={Math.round(moved)}>
                          <title>{`Settled ${describeDelta(moved)}`}</title>
                          {`${formatDelta(moved)} vs ghost`}
                        </text>
                      ) : null}
                    </g>
                  );
                })
              : null}
            {now !== undefined ? <line className="rt-q-cursor" x1={x(now)} x2={x(now)} y1={AXIS_H - 6} y2={height} /> : null}
          </svg>
        </div>
        {WIDTH > BOX_WIDTH ? <p className="rt-q-note">Drawn wide enough to show every retry delay: scroll sideways (the cursor line stays in view).</p> : null}
        <div>
          <ol className="rt-q-events" ref={listRef} aria-label={`Events of ${source.label}`}>
            {rendered.map((i) => (
              <EventItem
                key={i}
                event={source.events[i]!}
                index={i}
                current={i === current}
                future={i >= visible.length}
                hidden={!showRoutine && i !== current && routine[i] === 1}
                start={start}
                onGo={go}
              />
            ))}
          </ol>
          {total > LIST_WINDOW ? (
            <p className="rt-q-note">
              Showing events {from + 1}–{from + shownCount} of {total}, around the cursor.
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}
