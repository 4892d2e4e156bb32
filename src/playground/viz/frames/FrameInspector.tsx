/**
 * HTTP/2 frame inspector: one endpoint's frames in stream lanes (stream 0 for the connection, then each
 * stream), and for the chosen frame a Wireshark-style field tree linked to an annotated hex dump. Pointing
 * at (or focusing) a field lights up its bytes; pointing at a byte selects the field it belongs to.
 *
 * The chosen frame follows the player's cursor; clicking a frame moves the cursor there (onCursor), or
 * just shows it when the view runs without a player. The lanes' box scrolls both ways to keep the chosen
 * frame in view: down to its row and sideways to its stream's lane (rapid reset opens 52 streams, 11,000 px
 * of lanes at full width), with the # and ms columns kept at the left edge. Past COMPACT_FROM streams the
 * lanes start compact: narrower, without each frame's length, and the streams that have no frame left to come
 * share one "Finished streams" lane (model.ts laneStreams).
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ViewProps } from '../views';
import { stepOf } from '../../recording/model';
import { TreeItem } from './FieldTree';
import QuicInspector from './QuicInspector';
import { quicConnections } from './quic-model';
import { HexDump } from './HexDump';
import {
  COMPACT_FROM,
  COMPACT_LANE_REM,
  FINISHED_LANE,
  flatten,
  frameAtCursor,
  frameIndex,
  frameTree,
  LANE_FIXED_REM,
  LANE_REM,
  laneOf,
  laneScrollLeft,
  laneStreams,
  nodeAt,
  visibleFrameCount,
  type FrameEvent,
  type FrameRef,
} from './model';
import './frames.css';

const dirArrow = (d: 'sent' | 'received') => (d === 'sent' ? '→' : '←');
/** Short flag names for the lanes (the tree spells them out). */
const FLAG_ABBR: Readonly<Record<string, string>> = { END_STREAM: 'ES', END_HEADERS: 'EH', ACK: 'ACK', PADDED: 'PAD', PRIORITY: 'PRI' };

/**
 * Up to this many frames the lanes render every row; past it only the rows in (and near) the scrolled view,
 * with spacer rows keeping the scroll height, so a cursor move on a long trace re-renders a few dozen rows,
 * not every frame so far (the way DevTools' network log virtualizes its rows). About two windows' worth: the
 * cursor hops between a connection's two endpoints whenever the next frame is the peer's, and each hop swaps
 * every row of the table; at 150 that was ~100 rows and ~25 ms of layout per hop on the issue #8 trace.
 */
const RENDER_ALL_UP_TO = 60;
/** Rows rendered above and below the visible ones, so a quick scroll does not show blank space. */
const OVERSCAN = 12;
/** Row height until one is measured; close to the real one so the first window is about right. */
const DEFAULT_ROW_PX = 26;

/**
 * The Frames view: HTTP/2 frames for HTTP/2 connections, QUIC packets and the HTTP/3 frames inside them for
 * HTTP/3 ones (QuicInspector.tsx); a run with both (a comparison) shows both, HTTP/2 first.
 */
export default function FramesView(props: ViewProps) {
  const h2 = frameIndex(props.recording).endpoints.length > 0;
  const quic = quicConnections(props.recording).length > 0;
  if (!quic) return <FrameInspector {...props} />;
  if (!h2) return <QuicInspector {...props} />;
  return (
    <div className="rt-fi-both">
      <h3>HTTP/2 frames</h3>
      <FrameInspector {...props} />
      <h3>QUIC packets (HTTP/3)</h3>
      <QuicInspector {...props} />
    </div>
  );
}

export function FrameInspector({ recording, cursor, onCursor }: ViewProps) {
  const index = useMemo(() => frameIndex(recording), [recording]);
  const { endpoints } = index;
  const atCursor = frameAtCursor(recording, cursor);
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const key = chosenKey ?? atCursor?.key ?? endpoints[0]?.key;
  const endpoint = endpoints.find((e) => e.key === key) ?? endpoints[0];
  const lane = endpoint ? index.byEndpoint.get(endpoint.key) : undefined;
  const all = lane?.frames ?? [];
  const count = visibleFrameCount(lane, cursor);

  // A frame picked without a player holds until the cursor moves; kept with the cursor it was picked at
  // (instead of cleared by an effect), so a scrub step is one render, not two.
  const [picked, setPicked] = useState<{ cursor: number; index: number } | null>(null);
  const followed = atCursor && atCursor.key === endpoint?.key ? atCursor.index : all[count - 1]?.index;
  const selectedIndex = picked && picked.cursor === cursor ? picked.index : followed;
  // Frames are in event order, so the selected one is found by binary search on the event index.
  const selectedPos = positionOf(all, count, selectedIndex);
  const selected = selectedPos >= 0 ? all[selectedPos] : undefined;

  // --- windowing: which rows to render -------------------------------------------------------------
  const wrapRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const rowPx = useRef(DEFAULT_ROW_PX);
  // The scroll box as last measured. A cursor move reads this instead of the DOM: reading layout right after
  // React's writes would force a synchronous layout on every step.
  const [view, setView] = useState({ top: 0, height: 18 * 16, bodyTop: 0 });
  // The root font size, as last measured (the lanes are sized in rem).
  const across = useRef({ rem: 16 });
  const windowed = count > RENDER_ALL_UP_TO;
  const measure = useCallback(() => {
    const wrap = wrapRef.current;
    const body = bodyRef.current;
    if (!wrap || !body) return;
    const row = body.querySelector<HTMLTableRowElement>('tr[data-pos]');
    // Fractional (a row is 31.3 px at 16 px a rem): offsetHeight's whole pixels drifted the rendered rows
    // 0.3 px a row away from their spacers, and the followed last row ended half under the box's edge.
    const h = row?.getBoundingClientRect().height ?? 0;
    if (h > 0) rowPx.current = h;
    const bodyTop = body.getBoundingClientRect().top - wrap.getBoundingClientRect().top + wrap.scrollTop;
    const next = { top: wrap.scrollTop, height: wrap.clientHeight, bodyTop };
    across.current = { rem: Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16 };
    setView((v) => (v.top === next.top && v.height === next.height && v.bodyTop === next.bodyTop ? v : next));
  }, []);
  // Compact lanes leave out each frame's length, so rows may differ in height: measured again on a change.
  const [compactChoice, setCompact] = useState<boolean | null>(null);
  const compact = compactChoice ?? (lane?.streams.length ?? 0) > COMPACT_FROM;
  // Measured on mount, when the list starts windowing and when the lanes change width (a row's height and the
  // box's sideways scrollbar with them); after that the scroll handler keeps `view` current.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `windowed` and `compact` are the triggers: measure again when they change
  useLayoutEffect(() => measure(), [windowed, measure, compact]);
  // Stream 0 always has a lane; other streams once their first frame is visible. The same array while the
  // set does not change, so memoized rows skip re-rendering.
  const streams = useStable(lane ? laneStreams(lane, count, compact) : NO_STREAMS);
  const laneRem = compact ? COMPACT_LANE_REM : LANE_REM;
  const selectedLane = selected ? laneOf(streams, selected.event.streamId) : -1;
  // Keep the followed frame in view as the cursor moves (DevTools keeps the selected request in view too),
  // down to its row and sideways to its lane beside the sticky # and ms columns: only when it is outside the
  // visible part, so a reader's own scrolling is left alone otherwise. The box's position is read once per
  // new selection: a cached one went stale whenever the box was hidden and shown again (a tab or a phone's
  // panel switch resets it to the start without a scroll event), and the frame was then left out of view.
  // A new row position goes into `view` first, and the next effect writes it (with any sideways move) once
  // the rows for it are in the DOM, so the step lays out once. A sideways move alone is smooth unless the
  // reader asked for reduced motion.
  const scrollTo = useRef<{ top: number; left: number } | null>(null);
  // Once more after the first paint of an endpoint's lanes: on opening the view the box's first layout can
  // land after the effect below ran (a phone opened the Frames tab at row 0 with the chosen frame at row 404).
  const [follow, setFollow] = useState(0);
  const hasLanes = lane !== undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `endpoint?.key` is a trigger: another endpoint's lanes are a new table
  useEffect(() => {
    if (!hasLanes || typeof requestAnimationFrame === 'undefined') return;
    const id = requestAnimationFrame(() => setFollow((n) => n + 1));
    return () => cancelAnimationFrame(id);
  }, [hasLanes, endpoint?.key]);
  // And once more whenever the box comes back from being hidden (a phone's Code / Output / Timeline tabs hide the
  // whole panel): a hidden box cannot hold a scroll position, so it shows again at row 0 with no scroll event.
  useEffect(() => {
    const wrap = wrapRef.current;
    if (!hasLanes || !wrap || typeof ResizeObserver === 'undefined') return;
    let shown = wrap.clientHeight > 0;
    const observer = new ResizeObserver(() => {
      const now = wrap.clientHeight > 0;
      if (now && !shown) {
        measure();
        setFollow((n) => n + 1);
      }
      shown = now;
    });
    observer.observe(wrap);
    return () => observer.disconnect();
  }, [hasLanes, measure]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new selection (or lane layout) scrolls; `view` and `count` are read, not followed (see above)
  useLayoutEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap || selectedPos < 0) return;
    // Zero where nothing is laid out (hidden, or a test's DOM): the last measured height stands in.
    const height = wrap.clientHeight || view.height;
    const [top0, left0, width] = [wrap.scrollTop, wrap.scrollLeft, wrap.clientWidth];
    const px = rowPx.current;
    const rowTop = view.bodyTop + selectedPos * px;
    const inView = rowTop >= top0 + view.bodyTop && rowTop + px <= top0 + height;
    const top = inView ? top0 : Math.max(0, Math.min(rowTop - height / 2, view.bodyTop + count * px - height));
    const { rem } = across.current;
    const content = (LANE_FIXED_REM + streams.length * laneRem) * rem;
    const left = selectedLane < 0 ? left0 : laneScrollLeft(selectedLane, laneRem * rem, LANE_FIXED_REM * rem, { left: left0, width, content });
    if (top !== top0) {
      scrollTo.current = { top, left };
      if (top !== view.top) {
        // The scroll event that follows finds `view` already current.
        setView((v) => ({ ...v, top, height }));
        return;
      }
      // The rows for it are already rendered (the box had been reset under them): write at once.
      wrap.scrollLeft = left;
      wrap.scrollTop = top;
      scrollTo.current = null;
      return;
    }
    if (left === left0) return;
    const reduce = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (typeof wrap.scrollTo === 'function') wrap.scrollTo({ left, behavior: reduce ? 'auto' : 'smooth' });
    else wrap.scrollLeft = left;
  }, [selectedPos, windowed, selectedLane, laneRem, streams.length, endpoint?.key, follow]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `view.top` is the trigger: write the scroll position once its rows are rendered
  useLayoutEffect(() => {
    const wrap = wrapRef.current;
    const to = scrollTo.current;
    if (!wrap || to === null) return;
    // Both at once, without smoothing: a scrollTop written after a smooth sideways scroll began stops it.
    wrap.scrollLeft = to.left;
    wrap.scrollTop = to.top;
    scrollTo.current = null;
  }, [view.top]);
  const px = rowPx.current;
  const from = windowed ? clamp(Math.floor((view.top - view.bodyTop) / px) - OVERSCAN, 0, count) : 0;
  const to = windowed ? clamp(Math.ceil((view.top - view.bodyTop + view.height) / px) + OVERSCAN, from, count) : count;

  // Stable across renders (rows are memoized on it); reads the latest props through a ref.
  const latest = useRef({ recording, endpoint, onCursor, cursor });
  latest.current = { recording, endpoint, onCursor, cursor };
  const choose = useCallback((f: FrameRef) => {
    const { recording, endpoint, onCursor, cursor } = latest.current;
    if (!endpoint) return;
    const step = stepOf(recording, endpoint.source.id, f.index);
    const moves = onCursor !== undefined && step >= 0;
    setPicked({ cursor: moves ? step : cursor, index: f.index });
    if (moves) onCursor(step);
  }, []);

  if (!endpoint || !lane) return <p className="rt-empty">No HTTP/2 frames recorded yet. Run a simulation with httpVersion: '2'.</p>;

  const rows: FrameRef[] = all.slice(from, to);
  const columns = streams.length + 2;

  return (
    <div className="rt-fi">
      <div className="rt-fi-bar">
        <label className="rt-fi-endpoint">
          Endpoint{' '}
          <select value={endpoint.key} onChange={(e) => setChosenKey(e.target.value)}>
            {endpoints.map((e) => (
              <option key={e.key} value={e.key}>
                {`${e.source.label}: connection ${e.connectionId}, ${e.side}`}
              </option>
            ))}
          </select>
        </label>
        <label className="rt-fi-compact">
          <input type="checkbox" checked={compact} onChange={(e) => setCompact(e.currentTarget.checked)} /> Compact lanes
        </label>
        {selected ? (
          <span className="rt-fi-where" data-testid="frames-where">
            {selected.event.streamId === 0 ? 'Stream 0 (connection)' : `Stream ${selected.event.streamId}`}
            {streams[selectedLane] === FINISHED_LANE ? ' (finished)' : ''}, lane {selectedLane + 1} of {streams.length}
          </span>
        ) : null}
      </div>
      <div className="rt-fi-lanes-wrap" ref={wrapRef} onScroll={measure}>
        {/* Fixed layout with set lane widths: a cursor move that changes which rows exist does not make the
            browser re-measure every cell of the table, and the lanes do not shift width while scrubbing. */}
        <table
          className={`rt-fi-lanes${compact ? ' is-compact' : ''}`}
          aria-rowcount={windowed ? count + 1 : undefined}
          style={{ width: `${LANE_FIXED_REM + streams.length * laneRem}rem`, ['--rt-fi-lane' as string]: `${laneRem}rem` }}
        >
          <caption>
            Frames the {endpoint.side} sent (→) and received (←) on {endpoint.connectionId}, one lane per stream
          </caption>
          <colgroup>
            <col className="rt-fi-col-n" />
            <col className="rt-fi-col-ms" />
            {streams.map((s) => (
              <col key={s} className="rt-fi-col-lane" />
            ))}
          </colgroup>
          <thead>
            <tr aria-rowindex={windowed ? 1 : undefined}>
              <th scope="col">#</th>
              <th scope="col">ms</th>
              {streams.map((s) => (
                <th scope="col" key={s} className="rt-fi-lane" data-stream={s === FINISHED_LANE ? 'finished' : s}>
                  {s === 0 ? 'Stream 0 (connection)' : s === FINISHED_LANE ? 'Finished streams' : `Stream ${s}`}
                </th>
              ))}
            </tr>
          </thead>
          <tbody ref={bodyRef}>
            {from > 0 ? <Spacer height={from * px} columns={columns} /> : null}
            {rows.map((f, k) => (
              <FrameRow key={f.index} frame={f} n={from + k} current={f.index === selected?.index} windowed={windowed} streams={streams} onChoose={choose} />
            ))}
            {to < count ? <Spacer height={(count - to) * px} columns={columns} /> : null}
          </tbody>
        </table>
      </div>
      {selected ? <FrameDetail frame={selected} /> : <p className="rt-empty">No frame yet at this step.</p>}
    </div>
  );
}

const NO_STREAMS: readonly number[] = [];

/** `next` itself when it differs from the last value, else the last value: a stable identity for memo. */
function useStable(next: readonly number[]): readonly number[] {
  const last = useRef(next);
  const prev = last.current;
  if (prev !== next && (prev.length !== next.length || prev.some((x, i) => x !== next[i]))) last.current = next;
  return last.current;
}

/**
 * One row of the lanes: the frame's cell in its stream's column, and the lanes before and after it as one
 * spanning cell each (their separators are drawn by frames.css), so a row is at most five cells however many
 * streams there are. Memoized: a cursor move re-renders the rows whose `current` changed, not all.
 */
const FrameRow = memo(function FrameRow({
  frame: f,
  n,
  current,
  windowed,
  streams,
  onChoose,
}: {
  frame: FrameRef;
  n: number;
  current: boolean;
  windowed: boolean;
  streams: readonly number[];
  onChoose: (f: FrameRef) => void;
}) {
  const lane = laneOf(streams, f.event.streamId);
  const after = streams.length - lane - 1;
  return (
    <tr data-pos={n} aria-rowindex={windowed ? n + 2 : undefined} aria-current={current ? 'true' : undefined} className={current ? 'is-current' : undefined}>
      <td>{n + 1}</td>
      <td>{f.event.at.toFixed(1)}</td>
      {lane > 0 ? <td className="rt-fi-lane" colSpan={lane} /> : null}
      <td className="rt-fi-lane">
        <FrameButton frame={f} current={current} onChoose={onChoose} named={streams[lane] === FINISHED_LANE} />
      </td>
      {after > 0 ? <td className="rt-fi-lane" colSpan={after} /> : null}
    </tr>
  );
});

const clamp = (n: number, lo: number, hi: number): number => Math.min(Math.max(n, lo), hi);

/** Position in `frames[0 .. count)` of the frame whose event index is `index`, or -1. */
function positionOf(frames: readonly FrameRef[], count: number, index: number | undefined): number {
  if (index === undefined) return -1;
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (frames[mid]!.index < index) lo = mid + 1;
    else hi = mid;
  }
  return lo < count && frames[lo]!.index === index ? lo : -1;
}

/** Stands in for the rows not rendered, so the scrollbar matches the whole list. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr className="rt-fi-spacer" aria-hidden="true">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

/** A frame's button; `named` (in the finished streams' lane) starts with its stream ("s17"). */
function FrameButton({ frame: f, current, onChoose, named }: { frame: FrameRef; current: boolean; onChoose: (f: FrameRef) => void; named: boolean }) {
  return (
    <button
      type="button"
      className={`rt-fi-frame rt-fi-${f.event.direction}`}
      data-frame-type={f.event.frameType}
      aria-pressed={current}
      onClick={() => onChoose(f)}
    >
      <span aria-hidden="true">{dirArrow(f.event.direction)}</span>
      <span className="rt-sr-only">{f.event.direction} </span> {named ? `s${f.event.streamId} ` : ''}
      {f.event.frameType}
      {f.event.flags.length > 0 ? (
        <small title={f.event.flags.join(', ')}>
          {' '}
          <span aria-hidden="true">{f.event.flags.map((x) => FLAG_ABBR[x] ?? x).join(' ')}</span>
          <span className="rt-sr-only">{f.event.flags.join(', ')}</span>
        </small>
      ) : null}
      <small className="rt-fi-len"> {f.event.length} B</small>
    </button>
  );
}

/** The tree and the hex dump of one frame, pointing at each other. */
export function FrameDetail({ frame }: { frame: FrameRef }) {
  const ev = frame.event;
  const tree = useMemo(() => frameTree(ev), [ev]);
  const bytes = useMemo(() => Array.from(ev.data, (c) => c.charCodeAt(0) & 0xff), [ev]);
  const nodes = useMemo(() => flatten(tree), [tree]);
  // The pointed-at field and byte belong to one frame: the detail stays mounted while the cursor moves (so
  // the hex cells are updated, not rebuilt, on each step) and a new frame starts with nothing pointed at.
  const [pointed, setPointed] = useState<{ ev: FrameEvent; fieldId: string | null; active: number }>({ ev, fieldId: null, active: -1 });
  const fieldId = pointed.ev === ev ? pointed.fieldId : null;
  const active = pointed.ev === ev ? pointed.active : -1;
  const setFieldId = (id: string | null) => setPointed((p) => ({ ev, fieldId: id, active: p.ev === ev ? p.active : -1 }));
  const setActive = (offset: number) => setPointed((p) => ({ ev, fieldId: p.ev === ev ? p.fieldId : null, active: offset }));
  const field = nodes.find((n) => n.id === fieldId);
  const highlight = field?.start !== undefined && field.end !== undefined ? { start: field.start, end: field.end } : undefined;
  const onByte = (offset: number) => {
    setActive(offset);
    setFieldId(nodeAt(tree, offset)?.id ?? null);
  };
  const title = `${ev.direction === 'sent' ? 'Sent' : 'Received'} ${ev.frameType} on stream ${ev.streamId}, ${ev.data.length} bytes`;
  return (
    <section className="rt-fi-detail" aria-label={title}>
      <h4 className="rt-fi-title">{title}</h4>
      <div className="rt-fi-panes">
        <ul className="rt-fi-tree" aria-label="Frame fields">
          {tree.map((n) => (
            <TreeItem key={n.id} node={n} selected={fieldId} onSelect={(id) => setFieldId(id)} />
          ))}
        </ul>
        <HexDump
          bytes={bytes}
          highlight={highlight}
          active={active}
          onByte={onByte}
          label={`Bytes of the ${ev.frameType} frame`}
          describeActive={field ? `${field.label}: ${field.value}` : undefined}
        />
      </div>
    </section>
  );
}
