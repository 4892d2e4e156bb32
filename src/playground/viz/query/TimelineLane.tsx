/**
 * One lane of the event timeline's SVG: its label, spans and marks. Memoized with a comparison by content:
 * the timeline rebuilds its lanes from the events up to the cursor on every step, so each lane arrives as a new
 * object, yet a step changes at most a few lanes (the one the event belongs to, lanes with a span still running
 * to "now", and the lanes the current-event highlight leaves and enters). Comparing a lane's items costs far
 * less than re-rendering a few hundred SVG elements per lane on every scrub frame (issue #8).
 */
import { memo } from 'react';
import { sinceStart } from './common';
import { formatMs } from './describe';
import type { Lane, Mark, MarkKind, Span } from './lanes';

const MARK_TEXT: Readonly<Record<MarkKind, string>> = {
  success: 'success',
  error: 'error',
  set: 'data set by hand',
  invalidate: 'invalidated',
  stale: 'became stale',
  cancel: 'cancelled',
  giveUp: 'gave up retrying',
  gc: 'removed by gc',
};

function MarkShape({ kind, x, y }: { kind: MarkKind; x: number; y: number }) {
  const cls = `rt-q-mark-${kind}`;
  switch (kind) {
    case 'success':
      return <circle className={cls} cx={x} cy={y} r={5} />;
    case 'error':
    case 'giveUp':
      return <path className={cls} d={`M${x - 5} ${y - 5}l10 10m0 -10l-10 10`} style={{ stroke: 'var(--rt-q-error)', strokeWidth: 2.5 }} />;
    case 'invalidate':
      return <path className={cls} d={`M${x} ${y - 6}l6 6l-6 6l-6 -6z`} />;
    case 'gc':
      return <rect className={cls} x={x - 4} y={y - 4} width={8} height={8} />;
    default:
      return <path className={cls} d={`M${x} ${y - 6}l5 10h-10z`} />;
  }
}

export interface TimelineLaneProps {
  readonly lane: Lane;
  /** The lane's centre line. */
  readonly y: number;
  /** The x scale: `x(t) = left + (t - start) / (end - start) * (right - left)`. */
  readonly start: number;
  readonly end: number;
  readonly left: number;
  readonly right: number;
  /** Index (in the source's events) of the event at the cursor, or -1. */
  readonly current: number;
  readonly onGo: (event: number) => void;
}

const sameSpan = (a: Span, b: Span) =>
  a.kind === b.kind && a.from === b.from && a.to === b.to && a.open === b.open && a.event === b.event && a.label === b.label;
const sameMark = (a: Mark, b: Mark) => a.kind === b.kind && a.at === b.at && a.event === b.event;
const holds = (lane: Lane, event: number) => event >= 0 && (lane.spans.some((s) => s.event === event) || lane.marks.some((m) => m.event === event));

/** Equal when the lane draws the same: same scale and items, and the cursor event moved neither in nor out. */
export function sameLaneDrawing(a: TimelineLaneProps, b: TimelineLaneProps): boolean {
  if (a.y !== b.y || a.start !== b.start || a.end !== b.end || a.left !== b.left || a.right !== b.right || a.onGo !== b.onGo) return false;
  const p = a.lane;
  const n = b.lane;
  if (p !== n) {
    if (p.id !== n.id || p.label !== n.label || p.spans.length !== n.spans.length || p.marks.length !== n.marks.length) return false;
    for (let i = 0; i < p.spans.length; i++) if (!sameSpan(p.spans[i]!, n.spans[i]!)) return false;
    for (let i = 0; i < p.marks.length; i++) if (!sameMark(p.marks[i]!, n.marks[i]!)) return false;
  }
  return a.current === b.current || (!holds(n, a.current) && !holds(n, b.current));
}

export const TimelineLane = memo(function TimelineLane({ lane, y, start, end, left, right, current, onGo }: TimelineLaneProps) {
  const x = (t: number) => left + ((t - start) / Math.max(end - start, 1)) * (right - left);
  const spanShape = (s: Span, key: number) => {
    const x0 = x(s.from);
    const x1 = Math.max(x(s.to), x0 + (s.kind === 'backoff' ? 4 : 2));
    const cls = `rt-q-item${s.event === current ? ' is-current' : ''}`;
    // A backoff's label already says how long it is; attempts and pauses get their measured length.
    const title = `${lane.label}: ${s.label}${s.kind === 'backoff' ? '' : `${s.open ? ' (running)' : ''}, ${formatMs(s.to - s.from)}`}`;
    if (s.kind === 'fetch') return <rect key={key} className="rt-q-fetch" x={x0} y={y - 11} width={x1 - x0} height={22} rx={3} />;
    if (s.kind === 'backoff') {
      return (
        <g key={key} className={cls} onClick={() => onGo(s.event)}>
          <title>{title}</title>
          <rect className="rt-q-backoff-band" x={x0} y={y - 5} width={x1 - x0} height={10} />
          <line className="rt-q-backoff" x1={x0} x2={x1} y1={y} y2={y} />
          <rect x={x0} y={y - 9} width={x1 - x0} height={18} fill="transparent" />
          {x1 - x0 > 36 ? (
            <text className="rt-q-backoff-label" x={(x0 + x1) / 2} y={y - 3} textAnchor="middle">
              {formatMs(s.to - s.from)}
            </text>
          ) : null}
        </g>
      );
    }
    return (
      <g key={key} className={cls} onClick={() => onGo(s.event)}>
        <title>{title}</title>
        <rect className={s.kind === 'attempt' ? 'rt-q-attempt' : 'rt-q-paused'} x={x0} y={y - 6} width={x1 - x0} height={12} rx={2} />
      </g>
    );
  };
  return (
    <g>
      <text x={6} y={y + 4}>
        {lane.label.length > 16 ? `${lane.label.slice(0, 15)}…` : lane.label}
      </text>
      {lane.spans.filter((s) => s.kind === 'fetch').map((s, i) => spanShape(s, i))}
      {lane.spans.filter((s) => s.kind !== 'fetch').map((s, i) => spanShape(s, i + 1000))}
      {lane.marks.map((m, i) => (
        <g key={`m${i}`} className={`rt-q-item${m.event === current ? ' is-current' : ''}`} onClick={() => onGo(m.event)}>
          <title>{`${lane.label}: ${MARK_TEXT[m.kind]} at ${sinceStart(m.at, start)}`}</title>
          <MarkShape kind={m.kind} x={x(m.at)} y={y} />
        </g>
      ))}
    </g>
  );
}, sameLaneDrawing);
