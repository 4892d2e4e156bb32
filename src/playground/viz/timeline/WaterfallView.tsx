/**
 * Network waterfall, after Chrome DevTools' Network panel: one row per request with its columns (name,
 * method, status, protocol, connection, size, time) and stacked phase bars on one virtual-time axis.
 *
 * The axis spans the whole run, not the cursor, so bars do not jump while scrubbing: a request in
 * progress at the cursor grows up to the cursor's time. A row's name opens the timing details (the
 * numbers DevTools shows in its Timing tab); hovering a bar does the same.
 */
import { memo, useCallback, useId, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { ViewProps } from '../views';
import { stepOf } from '../../recording/model';
import { buildRequests, pathOf, PHASES, rowsAt, type RequestRow, type RequestTrack } from './requests';
import { SourcePicker, useSourceAt } from './source';
import { formatBytes, formatMs, ticks } from './format';
import { useWidth } from './useWidth';
import { DeltaBadge, GhostBar, ghostSource, useGhost } from '../ghost';
import './timeline.css';
import '../pan.css';
import '../ghost.css';

const PHASE_LABEL = new Map(PHASES.map((p) => [p.phase, p.label]));

export function PhaseLegend() {
  return (
    <ul className="rt-tl-legend" aria-label="Phases">
      {PHASES.map((p) => (
        <li key={p.phase} title={p.help}>
          <span className={`rt-tl-swatch rt-tl-phase-${p.phase}`} aria-hidden="true" />
          {p.label}
        </li>
      ))}
    </ul>
  );
}

/**
 * The stacked bar of one request, positioned in percent of `scale` ms. The cursor line reads its position
 * from `--rt-tl-now`, set once on the table, so moving the cursor does not re-render finished rows.
 */
export function PhaseTrack({
  row,
  scale,
  cursorLine = false,
  ghost,
}: {
  row: RequestRow;
  scale: number;
  cursorLine?: boolean;
  ghost?: RequestRow | undefined;
}) {
  const pct = (t: number) => `${(100 * t) / scale}%`;
  const summary = row.spans.map((s) => `${PHASE_LABEL.get(s.phase)} ${formatMs(s.end - s.start)}`).join(', ');
  const then = ghost ? `; the ghost's took ${formatMs(ghost.end - ghost.start)}, ending at ${formatMs(ghost.end)}` : '';
  return (
    <div
      className={`rt-tl-track${ghost ? ' has-ghost' : ''}`}
      role="img"
      aria-label={`${pathOf(row.track.url)}: ${summary || 'not started'}${row.state === 'pending' ? ', in progress' : ''}${then}`}
    >
      {ghost?.spans.map((s, i) => (
        <span
          key={`g${i}`}
          className={`rt-tl-ghost-bar rt-tl-phase-${s.phase}`}
          data-phase={s.phase}
          data-ms={s.end - s.start}
          style={{ left: pct(s.start), width: pct(s.end - s.start) }}
        />
      ))}
      {row.spans.map((s, i) => (
        <span
          key={i}
          className={`rt-tl-bar rt-tl-phase-${s.phase}${row.state === 'pending' && i === row.spans.length - 1 ? ' is-live' : ''}`}
          data-phase={s.phase}
          data-ms={s.end - s.start}
          style={{ left: pct(s.start), width: pct(s.end - s.start) }}
        />
      ))}
      {cursorLine && <span className="rt-tl-cursor-line" aria-hidden="true" />}
    </div>
  );
}

/** The value of `--rt-tl-now` for a cursor at `now` on an axis of `scale` ms. */
export function nowStyle(now: number, scale: number): CSSProperties {
  return { '--rt-tl-now': `${(100 * Math.min(now, scale)) / scale}%` } as CSSProperties;
}

/** Tick labels over the waterfall column, about one per 80 px of it. */
export function TimeAxis({ scale }: { scale: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref, 400);
  const marks = ticks(scale, Math.max(2, Math.floor(width / 80)));
  return (
    <div className="rt-tl-axis-row" aria-hidden="true" ref={ref}>
      {marks.map((t, i) => (
        <span key={t} className={`rt-tl-tick${i > 0 && i === marks.length - 1 && t / scale > 0.9 ? ' is-last' : ''}`} style={{ left: `${(100 * t) / scale}%` }}>
          {formatMs(t)}
        </span>
      ))}
    </div>
  );
}

function Details({ row, id, onGo }: { row: RequestRow; id: string; onGo: ((which: 'start' | 'end') => void) | undefined }) {
  const f = row.track.finished?.event;
  const total = row.end - row.start;
  return (
    <section className="rt-tl-details" id={id} aria-labelledby={`${id}-h`} data-testid="waterfall-details">
      <h4 id={`${id}-h`}>
        Timing of {row.track.method} {pathOf(row.track.url)} ({row.track.requestId})
      </h4>
      <p>
        Started at {formatMs(row.start)}
        {row.connectionId ? ` on ${row.connectionId}` : ''}
        {f ? (f.reused ? ', a reused connection' : ', a new connection') : ''}
        {f ? `, server ${f.serverIPAddress}` : ''}.{' '}
        {row.state === 'pending' ? 'Still in progress at the cursor.' : row.state === 'failed' ? `Failed: ${row.track.failed?.message ?? ''}` : ''}
      </p>
      <table className="rt-tl-table">
        <thead>
          <tr>
            <th scope="col">Phase</th>
            <th scope="col" className="rt-tl-num">
              Starts after
            </th>
            <th scope="col" className="rt-tl-num">
              Duration
            </th>
          </tr>
        </thead>
        <tbody>
          {PHASES.map((p) => {
            const spans = row.spans.filter((s) => s.phase === p.phase);
            const ms = spans.reduce((sum, s) => sum + s.end - s.start, 0);
            return (
              <tr key={p.phase} data-phase={p.phase}>
                <th scope="row">
                  <span className={`rt-tl-swatch rt-tl-phase-${p.phase}`} aria-hidden="true" /> {p.label}
                </th>
                <td className="rt-tl-num">{spans.length > 0 ? formatMs(spans[0]!.start - row.start) : '–'}</td>
                <td className="rt-tl-num">{spans.length > 0 ? formatMs(ms) : '–'}</td>
              </tr>
            );
          })}
          <tr>
            <th scope="row">Total</th>
            <td />
            <td className="rt-tl-num">{formatMs(total)}</td>
          </tr>
        </tbody>
      </table>
      {onGo && (
        <div className="rt-tl-actions">
          <button type="button" className="rt-tl-link" onClick={() => onGo('start')}>
            Go to the request's start
          </button>
          {(row.track.finished || row.track.failed) && (
            <button type="button" className="rt-tl-link" onClick={() => onGo('end')}>
              Go to its {row.track.failed ? 'failure' : 'last byte'}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

interface RowProps {
  readonly row: RequestRow;
  /** The same request in the ghost run, finished. */
  readonly ghost: RequestRow | undefined;
  readonly scale: number;
  readonly selected: boolean;
  readonly detailsId: string;
  readonly onToggle: (requestId: string) => void;
  readonly onHover: (requestId: string) => void;
}

const Row = memo(function Row({ row, ghost, scale, selected, detailsId, onToggle, onHover }: RowProps) {
  const id = row.track.requestId;
  const moved = ghost && row.state === 'finished' && ghost.state === 'finished' ? row.end - row.start - (ghost.end - ghost.start) : undefined;
  return (
    <tr data-request-id={id} className={`${selected ? 'is-selected' : ''}${row.state === 'failed' ? ' is-failed' : ''}`}>
      <td>
        <button
          type="button"
          className="rt-tl-name"
          title={row.track.url}
          aria-expanded={selected}
          aria-controls={selected ? detailsId : undefined}
          onClick={() => onToggle(id)}
        >
          {pathOf(row.track.url)}
        </button>
      </td>
      <td>{row.track.method}</td>
      <td>{row.status}</td>
      <td>{row.protocol}</td>
      <td>{row.connectionId}</td>
      <td className="rt-tl-num">{row.size === undefined ? '—' : formatBytes(row.size)}</td>
      <td className="rt-tl-num">
        {formatMs(row.end - row.start)}
        <DeltaBadge moved={moved} />
      </td>
      <td className="rt-tl-wf-cell" onMouseEnter={() => onHover(id)}>
        <PhaseTrack row={row} scale={scale} cursorLine ghost={ghost} />
      </td>
    </tr>
  );
});

export default function WaterfallView({ recording, cursor, onCursor }: ViewProps) {
  const at = useSourceAt(recording, cursor);
  const { source, visible, now } = at;
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const detailsId = useId();
  const events = source?.events;
  const model = useMemo(() => buildRequests(events ?? []), [events, events?.length]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh row cache for each model
  const cache = useMemo(() => new WeakMap<RequestTrack, RequestRow>(), [model]);
  const toggle = useCallback((id: string) => setSelected((s) => (s === id ? undefined : id)), []);
  // The previous run's same simulation, at its end: each request's bar drawn faded under this run's.
  const { ghost } = useGhost();
  const then = source ? ghostSource(ghost, 'wire', source.id) : undefined;
  const ghostRows = useMemo(() => {
    if (!then) return undefined;
    const m = buildRequests(then.events);
    const last = then.events.length > 0 ? then.events[then.events.length - 1]!.at : 0;
    const rows = rowsAt(m, then.events.length, last);
    const scale = Math.max(m.duration, ...m.requests.map((r) => r.finished?.event.at ?? 0), 1);
    const done = rows.filter((r) => r.state === 'finished');
    return { byId: new Map(rows.map((r) => [r.track.requestId, r])), scale, lastEnd: done.length > 0 ? Math.max(...done.map((r) => r.end)) : undefined };
  }, [then]);
  if (!source) return <p className="rt-tl-empty">This run created no simulation, so there are no requests to show.</p>;

  const rows = rowsAt(model, visible, now, cache);
  // The whole run's span, so the axis holds still while the cursor moves.
  const scale = Math.max(model.duration, ...model.requests.map((r) => r.finished?.event.at ?? 0), ghostRows?.scale ?? 1, 1);
  const chosen = rows.find((r) => r.track.requestId === selected);
  const transferred = rows.reduce((sum, r) => sum + (r.size ?? 0), 0);
  const unsized = rows.filter((r) => r.state === 'finished' && r.size === undefined).length;
  const done = rows.filter((r) => r.state === 'finished');
  // What moved: the last finish against the ghost's, once every request of this run has settled.
  const settled = rows.length > 0 && rows.length === model.requests.length && rows.every((r) => r.state !== 'pending');
  const lastMoved = settled && done.length > 0 && ghostRows?.lastEnd !== undefined ? Math.max(...done.map((r) => r.end)) - ghostRows.lastEnd : undefined;
  const go = onCursor
    ? (row: RequestRow) => (which: 'start' | 'end') => {
        const index = which === 'start' ? row.track.startIndex : (row.track.finished?.index ?? row.track.failed?.index ?? row.track.startIndex);
        const step = stepOf(recording, source.id, index);
        if (step >= 0) onCursor(step);
      }
    : undefined;

  return (
    <div className="rt-tl rt-tl-waterfall">
      <div className="rt-tl-toolbar">
        <SourcePicker at={at} />
        <span data-testid="waterfall-summary">
          {rows.length} request{rows.length === 1 ? '' : 's'} · {formatBytes(transferred)} transferred
          {unsized > 0 ? ` (${unsized} of unknown size left out)` : ''}
          {done.length > 0 ? ` · last finished at ${formatMs(Math.max(...done.map((r) => r.end)))}` : ''}
          <DeltaBadge moved={lastMoved} />
        </span>
      </div>
      {ghostRows ? (
        <GhostBar what={`faded under each request${ghostRows.lastEnd !== undefined ? `; its last request finished at ${formatMs(ghostRows.lastEnd)}` : ''}`} />
      ) : null}
      <PhaseLegend />
      <div className="rt-tl-scroll-x">
        <table className="rt-tl-table" aria-label={`Requests of ${source.label}`} style={nowStyle(now, scale)}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Method</th>
              <th scope="col">Status</th>
              <th scope="col">Protocol</th>
              <th scope="col">
                <span aria-hidden="true">Conn.</span>
                <span className="rt-tl-sr">Connection</span>
              </th>
              <th scope="col" className="rt-tl-num">
                Size
              </th>
              <th scope="col" className="rt-tl-num">
                Time
              </th>
              <th scope="col" className="rt-tl-wf-cell">
                <span className="rt-tl-sr">Waterfall</span>
                <TimeAxis scale={scale} />
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <Row
                key={row.track.requestId}
                row={row}
                ghost={ghostRows?.byId.get(row.track.requestId)}
                scale={scale}
                selected={row.track.requestId === selected}
                detailsId={detailsId}
                onToggle={toggle}
                onHover={setSelected}
              />
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && <p className="rt-tl-empty">No request has started at this point of the run.</p>}
      {chosen && <Details row={chosen} id={detailsId} onGo={go?.(chosen)} />}
    </div>
  );
}
