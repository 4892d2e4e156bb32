/**
 * Network waterfall, after Chrome DevTools' Network panel: one row per request with its columns (name,
 * method, status, protocol, connection, size, time) and stacked phase bars on one virtual-time axis. As in
 * DevTools, the requests can be filtered (by URL, property, type and status: request-filter.ts) and sorted by
 * any column, and a long list draws only the rows in view.
 *
 * The axis spans the whole run, not the cursor, so bars do not jump while scrubbing: a request in
 * progress at the cursor grows up to the cursor's time. A row's name opens the timing details (the
 * numbers DevTools shows in its Timing tab); hovering a bar does the same.
 */
import {
  type CSSProperties,
  type KeyboardEvent,
  memo,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ViewProps } from '../views';
import { stepOf } from '../../recording/model';
import { buildRequests, pathOf, PHASES, rowsAt, type RequestRow, type RequestTrack } from './requests';
import { SourcePicker, useSourceAt } from './source';
import { formatBytes, formatMs, ticks } from './format';
import { useWidth } from './useWidth';
import {
  DEFAULT_SORT,
  isFiltering,
  matches,
  parseFilter,
  RESOURCE_TYPES,
  type ResourceType,
  type Sort,
  type SortKey,
  STATUS_CLASSES,
  type StatusClass,
  sortRows,
} from './request-filter';
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
  /** Position among the rows shown, from 0 (aria-rowindex is this + 2: the header row is 1). */
  readonly index: number;
  readonly onToggle: (requestId: string) => void;
  readonly onHover: (requestId: string) => void;
}

const Row = memo(function Row({ row, ghost, scale, selected, detailsId, index, onToggle, onHover }: RowProps) {
  const id = row.track.requestId;
  const moved = ghost && row.state === 'finished' && ghost.state === 'finished' ? row.end - row.start - (ghost.end - ghost.start) : undefined;
  return (
    <tr
      data-request-id={id}
      data-index={index}
      aria-rowindex={index + 2}
      className={`${selected ? 'is-selected' : ''}${row.state === 'failed' ? ' is-failed' : ''}`}
    >
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

/**
 * From this many rows on, only the rows in view (and OVERSCAN either side) are in the DOM, as in DevTools'
 * Network panel: 5,380 rows of a big HAR took 1.4 s of style and layout and 0.5 s of rendering in one frame.
 */
export const VIRTUAL_FROM = 100;
const OVERSCAN = 12;
/** Until a row has been measured (and in a DOM without layout): a row's height and the box's, in px. */
const ROW_PX = 24;
const VIEW_PX = 640;

/** Which rows of `count` the scroll box shows, from its scroll position and a measured row. */
function useRowWindow(box: RefObject<HTMLDivElement | null>, count: number) {
  const [view, setView] = useState({ top: 0, height: 0 });
  const [pitch, setPitch] = useState(ROW_PX);
  const [head, setHead] = useState(ROW_PX);
  const virtual = count >= VIRTUAL_FROM;
  useEffect(() => {
    const el = box.current;
    if (!el || !virtual) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setView((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
    };
    const onScroll = () => {
      if (!frame) frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(read) : (setTimeout(read, 16) as unknown as number);
    };
    read();
    el.addEventListener('scroll', onScroll, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(onScroll);
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      resize?.disconnect();
      if (frame && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(frame);
    };
  }, [box, virtual]);
  // The distance between two rows' tops (borders included) and the header's height, once rows are drawn.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !virtual) return;
    const drawn = el.querySelectorAll<HTMLElement>('tbody tr[data-request-id]');
    if (drawn.length >= 2) {
      const p = drawn[1]!.offsetTop - drawn[0]!.offsetTop;
      if (p > 0 && p !== pitch) setPitch(p);
    }
    const h = el.querySelector('thead')?.getBoundingClientRect().height ?? 0;
    if (h > 0 && h !== head) setHead(h);
  });
  if (!virtual) return { virtual, first: 0, last: count, pitch, head };
  const height = view.height > 0 ? view.height : VIEW_PX;
  const first = Math.max(0, Math.floor((view.top - head) / pitch) - OVERSCAN);
  const last = Math.min(count, Math.ceil((view.top - head + height) / pitch) + OVERSCAN);
  return { virtual, first, last: Math.max(first, last), pitch, head, setTop: (top: number) => setView((v) => ({ ...v, top })) };
}

const SORTABLE: readonly { readonly key: SortKey; readonly label: ReactNode; readonly num?: boolean; readonly cell?: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'method', label: 'Method' },
  { key: 'status', label: 'Status' },
  { key: 'protocol', label: 'Protocol' },
  {
    key: 'connection',
    label: (
      <>
        <span aria-hidden="true">Conn.</span>
        <span className="rt-tl-sr">Connection</span>
      </>
    ),
  },
  { key: 'size', label: 'Size', num: true },
  { key: 'time', label: 'Time', num: true },
];

function SortHeader({ column, sort, onSort }: { column: (typeof SORTABLE)[number]; sort: Sort; onSort: (key: SortKey) => void }) {
  const active = sort.key === column.key;
  return (
    <th scope="col" className={column.num ? 'rt-tl-num' : undefined} aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}>
      <button type="button" className="rt-tl-sort" onClick={() => onSort(column.key)}>
        {column.label}
        <span className="rt-tl-sort-mark" aria-hidden="true">
          {active ? (sort.descending ? '▼' : '▲') : ''}
        </span>
      </button>
    </th>
  );
}

/** The filter box, the type bar and the status choice. */
function FilterBar({
  text,
  onText,
  types,
  onTypes,
  status,
  onStatus,
  problems,
}: {
  text: string;
  onText: (text: string) => void;
  types: ReadonlySet<ResourceType>;
  onTypes: (types: ReadonlySet<ResourceType>) => void;
  status: StatusClass | '';
  onStatus: (status: StatusClass | '') => void;
  problems: readonly string[];
}) {
  const id = useId();
  // A click picks one type; Ctrl or Cmd and click adds or removes one, as in DevTools.
  const pick = (type: ResourceType | undefined, add: boolean) => {
    if (!type) return onTypes(new Set());
    const next = new Set(add ? types : []);
    if (add && next.has(type)) next.delete(type);
    else next.add(type);
    onTypes(next);
  };
  return (
    <div className="rt-tl-filters">
      <input
        type="search"
        className="rt-tl-filter"
        aria-label="Filter requests"
        aria-describedby={`${id}-help`}
        placeholder="Filter: text, -text, /regex/, status-code:404, method:POST, domain:, mime-type:, larger-than:10k"
        value={text}
        onChange={(e) => onText(e.target.value)}
        spellCheck={false}
      />
      <span id={`${id}-help`} className="rt-tl-sr">
        Words separated by spaces, all of which must match: a piece of the URL, a regular expression between slashes, or a property such as status-code:404,
        method:POST, domain:example.com, mime-type:image/*, scheme:https or larger-than:10k. A leading minus sign excludes what matches.
      </span>
      <div className="rt-tl-types" role="group" aria-label="Resource type">
        <button type="button" aria-pressed={types.size === 0} onClick={() => pick(undefined, false)}>
          All
        </button>
        {RESOURCE_TYPES.map((t) => (
          <button key={t.id} type="button" aria-pressed={types.has(t.id)} onClick={(e) => pick(t.id, e.ctrlKey || e.metaKey)}>
            {t.label}
          </button>
        ))}
      </div>
      <label>
        Status{' '}
        <select value={status} onChange={(e) => onStatus(e.target.value as StatusClass | '')}>
          <option value="">all</option>
          {STATUS_CLASSES.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {problems.length > 0 && (
        <p className="rt-tl-filter-problem" role="status">
          {problems.join(' ')}
        </p>
      )}
    </div>
  );
}

const NAV_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp']);

export default function WaterfallView({ recording, cursor, onCursor }: ViewProps) {
  const at = useSourceAt(recording, cursor);
  const { source, visible, now } = at;
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [filterText, setFilterText] = useState('');
  const [types, setTypes] = useState<ReadonlySet<ResourceType>>(() => new Set());
  const [status, setStatus] = useState<StatusClass | ''>('');
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const [focusId, setFocusId] = useState<string>();
  const box = useRef<HTMLDivElement>(null);
  const detailsId = useId();
  const events = source?.events;
  const model = useMemo(() => buildRequests(events ?? []), [events, events?.length]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh row cache for each model
  const cache = useMemo(() => new WeakMap<RequestTrack, RequestRow>(), [model]);
  const toggle = useCallback((id: string) => setSelected((s) => (s === id ? undefined : id)), []);
  const parsed = useMemo(() => parseFilter(filterText), [filterText]);
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
  const rows = source ? rowsAt(model, visible, now, cache) : [];
  const filter = { text: parsed, types, statuses: new Set<StatusClass>(status ? [status] : []) };
  const filtering = isFiltering(filter);
  const shown = sortRows(filtering ? rows.filter((r) => matches(r, filter)) : rows, sort);
  const win = useRowWindow(box, shown.length);
  // Keyboard: the arrow keys, Home, End, Page Up and Page Down move from a request's name to another's, as in
  // DevTools; the box scrolls to it (it may not be in the DOM yet) and focus follows once it is drawn.
  useEffect(() => {
    if (!focusId) return;
    const tr = [...(box.current?.querySelectorAll<HTMLElement>('tr[data-request-id]') ?? [])].find((r) => r.dataset.requestId === focusId);
    tr?.querySelector<HTMLElement>('.rt-tl-name')?.focus();
    setFocusId(undefined);
  });
  if (!source) return <p className="rt-tl-empty">This run created no simulation, so there are no requests to show.</p>;

  // The whole run's span, so the axis holds still while the cursor moves.
  let last = 0;
  for (const r of model.requests) last = Math.max(last, r.finished?.event.at ?? 0);
  const scale = Math.max(model.duration, last, ghostRows?.scale ?? 1, 1);
  const chosen = rows.find((r) => r.track.requestId === selected);
  const sizeOf = (list: readonly RequestRow[]) => list.reduce((sum, r) => sum + (r.size ?? 0), 0);
  const transferred = sizeOf(shown);
  const unsized = shown.filter((r) => r.state === 'finished' && r.size === undefined).length;
  const done = rows.filter((r) => r.state === 'finished');
  let lastEnd = -Infinity;
  for (const r of done) lastEnd = Math.max(lastEnd, r.end);
  // What moved: the last finish against the ghost's, once every request of this run has settled.
  const settled = rows.length > 0 && rows.length === model.requests.length && rows.every((r) => r.state !== 'pending');
  const lastMoved = settled && done.length > 0 && ghostRows?.lastEnd !== undefined ? lastEnd - ghostRows.lastEnd : undefined;
  const go = onCursor
    ? (row: RequestRow) => (which: 'start' | 'end') => {
        const index = which === 'start' ? row.track.startIndex : (row.track.finished?.index ?? row.track.failed?.index ?? row.track.startIndex);
        const step = stepOf(recording, source.id, index);
        if (step >= 0) onCursor(step);
      }
    : undefined;
  const onSort = (key: SortKey) => setSort((s) => (s.key === key ? { key, descending: !s.descending } : { key, descending: false }));
  const count = (n: number) => n.toLocaleString('en');
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    if (!NAV_KEYS.has(event.key)) return;
    const tr = (event.target as HTMLElement).closest<HTMLElement>('tr[data-index]');
    if (!tr || !(event.target as HTMLElement).classList.contains('rt-tl-name')) return;
    event.preventDefault();
    const from = Number(tr.dataset.index);
    const page = Math.max(1, Math.floor((box.current?.clientHeight || VIEW_PX) / win.pitch) - 1);
    const to = Math.min(
      shown.length - 1,
      Math.max(
        0,
        event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? shown.length - 1
            : from + (event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : event.key === 'PageDown' ? page : -page),
      ),
    );
    const el = box.current;
    if (el && win.virtual) {
      const top = win.head + to * win.pitch;
      const next =
        top < el.scrollTop + win.head ? top - win.head : top + win.pitch > el.scrollTop + el.clientHeight ? top + win.pitch - el.clientHeight : el.scrollTop;
      if (next !== el.scrollTop) {
        el.scrollTop = next;
        // Drawn at once from the wanted position; the scroll event that follows corrects it if the box clamped it.
        win.setTop?.(Math.max(0, next));
      }
    }
    setFocusId(shown[to]!.track.requestId);
  };

  return (
    <div className="rt-tl rt-tl-waterfall">
      <div className="rt-tl-toolbar">
        <SourcePicker at={at} />
        <span data-testid="waterfall-summary" aria-live="polite">
          {filtering ? `${count(shown.length)} of ${count(rows.length)}` : count(rows.length)} request{rows.length === 1 && !filtering ? '' : 's'} ·{' '}
          {formatBytes(transferred)}
          {filtering ? ` of ${formatBytes(sizeOf(rows))}` : ''} transferred
          {unsized > 0 ? ` (${unsized} of unknown size left out)` : ''}
          {done.length > 0 ? ` · last finished at ${formatMs(lastEnd)}` : ''}
          <DeltaBadge moved={lastMoved} />
        </span>
      </div>
      <FilterBar text={filterText} onText={setFilterText} types={types} onTypes={setTypes} status={status} onStatus={setStatus} problems={parsed.problems} />
      {ghostRows ? (
        <GhostBar what={`faded under each request${ghostRows.lastEnd !== undefined ? `; its last request finished at ${formatMs(ghostRows.lastEnd)}` : ''}`} />
      ) : null}
      <PhaseLegend />
      <div className={`rt-tl-scroll-x${win.virtual ? ' is-virtual' : ''}`} ref={box}>
        <table className="rt-tl-table" aria-label={`Requests of ${source.label}`} aria-rowcount={shown.length + 1} style={nowStyle(now, scale)}>
          <thead>
            <tr aria-rowindex={1}>
              {SORTABLE.map((c) => (
                <SortHeader key={c.key} column={c} sort={sort} onSort={onSort} />
              ))}
              <th scope="col" className="rt-tl-wf-cell" aria-sort={sort.key === 'start' ? (sort.descending ? 'descending' : 'ascending') : undefined}>
                <button type="button" className="rt-tl-sort" onClick={() => onSort('start')}>
                  Waterfall<span className="rt-tl-sr">, by start time</span>
                  <span className="rt-tl-sort-mark" aria-hidden="true">
                    {sort.key === 'start' ? (sort.descending ? '▼' : '▲') : ''}
                  </span>
                </button>
                <TimeAxis scale={scale} />
              </th>
            </tr>
          </thead>
          <tbody onKeyDown={onKeyDown}>
            {win.first > 0 && <Spacer px={win.first * win.pitch} />}
            {shown.slice(win.first, win.last).map((row, i) => (
              <Row
                key={row.track.requestId}
                row={row}
                ghost={ghostRows?.byId.get(row.track.requestId)}
                scale={scale}
                selected={row.track.requestId === selected}
                detailsId={detailsId}
                index={win.first + i}
                onToggle={toggle}
                onHover={setSelected}
              />
            ))}
            {win.last < shown.length && <Spacer px={(shown.length - win.last) * win.pitch} />}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && <p className="rt-tl-empty">No request has started at this point of the run.</p>}
      {rows.length > 0 && shown.length === 0 && <p className="rt-tl-empty">No request matches the filter.</p>}
      {chosen && <Details row={chosen} id={detailsId} onGo={go?.(chosen)} />}
    </div>
  );
}

/** Stands in for the rows out of view, so the box scrolls as far as all of them would take. */
function Spacer({ px }: { px: number }) {
  return (
    <tr className="rt-tl-spacer" aria-hidden="true" style={{ height: `${px}px` }}>
      <td colSpan={8} />
    </tr>
  );
}
