/**
 * Sequence (ladder) diagram: client, proxy and server as vertical lanes, virtual time flowing down, one
 * arrow per handshake step, segment, ACK or QUIC packet, in the manner of Wireshark's flow graph and the
 * packet diagrams of RFC 9293.
 *
 * The model (sequence.ts) and its geometry (sequence-layout.ts) are computed once per source and scale; the
 * cursor only chooses which arrows are drawn, how far in-flight ones have got, and which is highlighted. Arrows
 * are memoized components, so a scrub step re-renders only the few whose state changed.
 *
 * Time has a minimum scale (100 ms is at least 90 px) and the box scrolls along it, keeping the cursor's
 * moment in view; the reader zooms with the − and + buttons, Ctrl/⌘ and the wheel over the diagram, or the
 * - and + keys inside it (0 goes back), and "Fit" squeezes the whole run into the box.
 *
 * Keyboard: the diagram is one tab stop (roving tabindex); arrow keys move between arrows and marks in
 * trace order, Home/End jump to the ends, Enter or Space moves the player's cursor to that event.
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { ViewProps } from '../views';
import { stepOf } from '../../recording/model';
import { buildSequence, type Arrow, type ConnectionInfo, type LaneMark } from './sequence';
import { labelText, shorten } from './sequence-labels';
import {
  canZoom,
  geometry,
  layoutLabels,
  MARK_TEXT,
  markBox,
  pxPerMsFor,
  scrollToKeep,
  TOP,
  tickTimes as axisTicks,
  zoomNear,
  type Scale,
} from './sequence-layout';
import { SourcePicker, useSourceAt } from './source';
import { formatMs } from './format';
import { useWidth } from './useWidth';
import './timeline.css';

/** Width before the container is measured (and in tests, where nothing is laid out). */
const DEFAULT_WIDTH = 720;
/** Narrower than a phone's box (390 px less the page's margins): the diagram fits the width there. */
const MIN_WIDTH = 280;
/** How far along its path a lost packet is drawn before it stops. */
const LOST_AT = 0.6;

type ArrowState = 'flight' | 'done';

interface ArrowProps {
  readonly arrow: Arrow;
  readonly x1: number;
  readonly x2: number;
  readonly y1: number;
  readonly y2: number;
  /** 0..1: how much of the path is drawn (in-flight arrows grow with the cursor). */
  readonly progress: number;
  readonly state: ArrowState;
  readonly current: boolean;
  readonly colour: number;
  readonly tabbable: boolean;
  readonly onActivate: (index: number) => void;
  readonly onFocusItem: (index: number) => void;
}

const ArrowShape = memo(function ArrowShape(p: ArrowProps) {
  const { arrow } = p;
  const reach = arrow.lost ? Math.min(p.progress, LOST_AT) : p.progress;
  const ex = p.x1 + (p.x2 - p.x1) * reach;
  const ey = p.y1 + (p.y2 - p.y1) * reach;
  const dx = p.x2 - p.x1;
  const dy = p.y2 - p.y1;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const head = 7;
  const showHead = !arrow.lost && p.state === 'done';
  const lostMark = arrow.lost && p.progress >= LOST_AT;
  const classes = [
    'rt-tl-arrow',
    `rt-tl-c${p.colour}`,
    `rt-tl-cat-${arrow.category}`,
    arrow.lost ? 'is-lost' : '',
    arrow.retransmission ? 'is-retransmission' : '',
    p.state === 'flight' ? 'is-flight' : '',
    p.current ? 'is-current' : '',
  ].join(' ');
  return (
    <g
      className={classes}
      role="button"
      tabIndex={p.tabbable ? 0 : -1}
      aria-label={arrow.description}
      aria-current={p.current ? 'step' : undefined}
      data-item={arrow.index}
      data-lost={arrow.lost ? 'true' : undefined}
      onClick={() => p.onActivate(arrow.index)}
      onFocus={() => p.onFocusItem(arrow.index)}
    >
      <title>{arrow.description}</title>
      {/* A wide transparent line makes thin arrows easy to hit with a pointer. */}
      <line className="rt-tl-hit" x1={p.x1} y1={p.y1} x2={ex} y2={ey} />
      <line className="rt-tl-line" x1={p.x1} y1={p.y1} x2={ex} y2={ey} />
      {showHead && (
        <polygon
          className="rt-tl-head"
          points={`${p.x2},${p.y2} ${p.x2 - ux * head - uy * head * 0.5},${p.y2 - uy * head + ux * head * 0.5} ${p.x2 - ux * head + uy * head * 0.5},${p.y2 - uy * head - ux * head * 0.5}`}
        />
      )}
      {lostMark && <path className="rt-tl-lost-mark" d={`M${ex - 5},${ey - 5} L${ex + 5},${ey + 5} M${ex + 5},${ey - 5} L${ex - 5},${ey + 5}`} />}
    </g>
  );
});

/**
 * An arrow's text, drawn in a layer above every arrow so that later, parallel arrows (a burst of segments)
 * do not cross it, where sequence-labels.ts placed it. Decorative: the arrow's accessible name already says it.
 */
interface ArrowLabelProps {
  readonly text: string;
  readonly x: number;
  readonly y: number;
  readonly angle: number;
  readonly cx: number;
  readonly cy: number;
  readonly current: boolean;
}

const ArrowLabel = memo(function ArrowLabel({ text, x, y, angle, cx, cy, current }: ArrowLabelProps) {
  return (
    <text className={`rt-tl-label${current ? ' is-current' : ''}`} x={x} y={y} textAnchor="middle" transform={`rotate(${angle} ${cx} ${cy})`}>
      {text}
    </text>
  );
});

interface MarkProps {
  readonly mark: LaneMark;
  readonly width: number;
  readonly x: number;
  readonly y: number;
  readonly current: boolean;
  readonly tabbable: boolean;
  readonly onActivate: (index: number) => void;
  readonly onFocusItem: (index: number) => void;
}

const MarkShape = memo(function MarkShape({ mark, width, x, y, current, tabbable, onActivate, onFocusItem }: MarkProps) {
  const text = MARK_TEXT[mark.kind];
  const { bx, w } = markBox(mark, width, x);
  return (
    <g
      className={`rt-tl-mark rt-tl-mark-${mark.kind}${current ? ' is-current' : ''}`}
      role="button"
      tabIndex={tabbable ? 0 : -1}
      aria-label={mark.description}
      aria-current={current ? 'step' : undefined}
      data-item={mark.index}
      onClick={() => onActivate(mark.index)}
      onFocus={() => onFocusItem(mark.index)}
    >
      <title>{mark.description}</title>
      <rect x={bx} y={y - 8} width={w} height={16} rx={3} />
      <text x={bx + w / 2} y={y + 4} textAnchor="middle">
        {text}
      </text>
    </g>
  );
});

export default function SequenceView({ recording, cursor, onCursor }: ViewProps) {
  const at = useSourceAt(recording, cursor);
  const { source, visible, now, currentIndex } = at;
  const [scale, setScale] = useState<Scale>({ zoom: 0 });
  const [showAcks, setShowAcks] = useState(false);
  const [active, setActive] = useState<number | undefined>(undefined);
  const svgRef = useRef<SVGSVGElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  // Per recording source: the trace is only read here. Events are appended while a run is live, so the
  // length is part of the key.
  const events = source?.events;
  const model = useMemo(() => buildSequence(events ?? []), [events, events?.length]);
  const pxPerMs = pxPerMsFor(model.duration, scale);
  const width = useWidth(scrollRef, DEFAULT_WIDTH, MIN_WIDTH);
  const geo = useMemo(() => geometry(model, pxPerMs, width), [model, pxPerMs, width]);
  const tickTimes = useMemo(() => axisTicks(model, geo), [model, geo]);
  const gutter = geo.gutter;
  // Every label the run will show, placed once per model and scale; the cursor then only picks which are drawn.
  const placed = useMemo(() => layoutLabels(model, geo, tickTimes), [model, geo, tickTimes]);
  const items = useMemo(() => {
    const all = [...model.arrows.filter((a) => showAcks || a.category !== 'ack').map((a) => a.index), ...model.marks.map((m) => m.index)];
    return all.sort((a, b) => a - b);
  }, [model, showAcks]);

  const sourceId = source?.id;
  const activate = useCallback(
    (index: number) => {
      if (!onCursor || sourceId === undefined) return;
      const step = stepOf(recording, sourceId, index);
      if (step >= 0) onCursor(step);
    },
    [onCursor, recording, sourceId],
  );

  const visibleItems = useMemo(() => {
    let hi = 0;
    while (hi < items.length && items[hi]! < visible) hi++;
    return items.slice(0, hi);
  }, [items, visible]);
  const currentOwner = currentIndex !== undefined ? model.owner.get(currentIndex) : undefined;
  const currentItem = currentOwner === undefined ? undefined : currentOwner >= 0 ? model.arrows[currentOwner]!.index : model.marks[-1 - currentOwner]!.index;
  const tabStop =
    active !== undefined && active < visible && visibleItems.includes(active)
      ? active
      : currentItem !== undefined && visibleItems.includes(currentItem)
        ? currentItem
        : visibleItems[visibleItems.length - 1];

  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>) => {
    const target = (e.target as Element).closest('[data-item]');
    if (!target) return;
    const index = Number(target.getAttribute('data-item'));
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      activate(index);
      return;
    }
    const pos = visibleItems.indexOf(index);
    let next: number | undefined;
    if (e.key === 'ArrowDown' || e.key === 'ArrowRight') next = visibleItems[Math.min(pos + 1, visibleItems.length - 1)];
    else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') next = visibleItems[Math.max(pos - 1, 0)];
    else if (e.key === 'Home') next = visibleItems[0];
    else if (e.key === 'End') next = visibleItems[visibleItems.length - 1];
    if (next === undefined) return;
    e.preventDefault();
    setActive(next);
    svgRef.current?.querySelector<SVGGElement>(`[data-item="${next}"]`)?.focus();
  };

  // Keep the cursor's moment in view while playing or scrubbing. The box's scroll position and height are
  // tracked from events rather than read here: reading them after every commit would force a layout per frame.
  const nowY = geo.y(now);
  const viewport = useRef({ top: 0, height: 0 });
  useEffect(() => {
    const box = scrollRef.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    viewport.current = { top: box.scrollTop, height: box.clientHeight };
    const observer = new ResizeObserver(([entry]) => {
      if (entry) viewport.current.height = entry.contentRect.height;
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  // A new scale keeps the cursor's moment where it was on screen (zooming around it, as a map zooms around
  // the pointer); a cursor move at one scale scrolls only when the moment leaves the box.
  const lastScale = useRef(pxPerMs);
  useLayoutEffect(() => {
    const box = scrollRef.current;
    const { top, height } = viewport.current;
    if (!box || height === 0) return;
    let next: number;
    if (lastScale.current !== pxPerMs) {
      const before = TOP + (nowY - TOP) * (lastScale.current / pxPerMs);
      next = Math.max(0, top + (nowY - before));
      lastScale.current = pxPerMs;
      if (nowY < next + TOP || nowY > next + height - 24) next = scrollToKeep(nowY, next, height);
    } else next = scrollToKeep(nowY, top, height);
    if (next === top) return;
    viewport.current.top = next;
    box.scrollTop = next;
  }, [nowY, pxPerMs]);

  // Zoom: by powers of two from the base scale; leaving Fit zooms from where the picture is.
  const duration = model.duration;
  const zoomBy = useCallback(
    (step: number) =>
      setScale((s) => {
        const zoom = 'fit' in s ? zoomNear(duration, pxPerMsFor(duration, s)) : s.zoom;
        const can = canZoom(duration, zoom);
        if ((step > 0 && !can.in) || (step < 0 && !can.out)) return 'fit' in s ? { zoom } : s;
        return { zoom: zoom + step };
      }),
    [duration],
  );
  const fit = () => setScale((s) => ('fit' in s ? { zoom: 0 } : { fit: true, fitHeight: viewport.current.height || 480 }));
  const zoomLimits = 'fit' in scale ? { in: true, out: true } : canZoom(duration, scale.zoom);
  // Ctrl/⌘ and the wheel zoom the diagram, not the page. React's wheel listener is passive, so the page's
  // zoom could not be prevented from it: a native listener it is.
  useEffect(() => {
    const box = scrollRef.current;
    if (!box) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      if (e.deltaY !== 0) zoomBy(e.deltaY < 0 ? 1 : -1);
    };
    box.addEventListener('wheel', onWheel, { passive: false });
    return () => box.removeEventListener('wheel', onWheel);
  }, [zoomBy]);
  const onZoomKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === '+' || e.key === '=') zoomBy(1);
    else if (e.key === '-' || e.key === '_') zoomBy(-1);
    else if (e.key === '0') setScale({ zoom: 0 });
    else return;
    e.preventDefault();
  };

  // The axis and lanes depend on the model and scale only.
  const backdrop = useMemo(
    () => (
      <>
        <g className="rt-tl-axis" aria-hidden="true">
          {tickTimes.map((t) => (
            <g key={t}>
              <line x1={gutter - 4} x2={geo.width - 8} y1={geo.y(t)} y2={geo.y(t)} />
              <text x={gutter - 8} y={geo.y(t) + 4} textAnchor="end">
                {formatMs(t)}
              </text>
            </g>
          ))}
        </g>
        <g className="rt-tl-lanes" aria-hidden="true">
          {model.lanes.map((lane) => (
            <g key={lane}>
              <text className="rt-tl-lane-name" x={geo.laneX.get(lane)} y={18} textAnchor="middle">
                {lane}
              </text>
              <line x1={geo.laneX.get(lane)} x2={geo.laneX.get(lane)} y1={26} y2={geo.height - 4} />
            </g>
          ))}
        </g>
      </>
    ),
    [model, geo, tickTimes, gutter],
  );

  if (!source) return <p className="rt-tl-empty">This run created no simulation, so there is nothing to draw.</p>;

  const arrowsDrawn: ReactElement[] = [];
  const arrivedAt = (a: Arrow) => a.index < visible && (a.endIndex !== undefined ? a.endIndex < visible : a.arriveAt <= now);
  for (const [i, a] of model.arrows.entries()) {
    if (a.index >= visible) continue;
    if (!showAcks && a.category === 'ack' && a.index !== currentIndex) continue;
    const conn = model.connections.get(a.connectionId);
    const arrived = arrivedAt(a);
    const span = a.arriveAt - a.sentAt;
    const progress = arrived ? 1 : span > 0 ? Math.max(0, Math.min(1, (now - a.sentAt) / span)) : 1;
    const x1 = geo.laneX.get(a.from) ?? gutter;
    const x2 = geo.laneX.get(a.to) ?? gutter;
    const y1 = geo.y(a.sentAt);
    const y2 = geo.y(a.arriveAt);
    arrowsDrawn.push(
      <ArrowShape
        key={i}
        arrow={a}
        x1={x1}
        x2={x2}
        y1={y1}
        y2={y2}
        progress={progress}
        state={arrived ? 'done' : 'flight'}
        current={a.index === currentItem}
        colour={(conn?.order ?? 0) % 6}
        tabbable={a.index === tabStop}
        onActivate={activate}
        onFocusItem={setActive}
      />,
    );
  }
  const marksDrawn = model.marks
    .filter((m) => m.index < visible)
    .map((m) => (
      <MarkShape
        key={`m${m.index}`}
        mark={m}
        width={geo.width}
        x={geo.laneX.get(m.lane) ?? gutter}
        y={geo.y(m.at)}
        current={m.index === currentItem}
        tabbable={m.index === tabStop}
        onActivate={activate}
        onFocusItem={setActive}
      />
    ));

  const currentArrow = currentOwner !== undefined && currentOwner >= 0 ? model.arrows[currentOwner] : undefined;
  const currentMark = currentOwner !== undefined && currentOwner < 0 ? model.marks[-1 - currentOwner] : undefined;
  const currentEvent = currentIndex !== undefined ? source.events[currentIndex] : undefined;
  const caption =
    currentArrow?.description ??
    currentMark?.description ??
    (currentEvent
      ? `${currentEvent.type} at ${formatMs(currentEvent.at)}`
      : visible === 0
        ? 'Before the first event'
        : `The cursor is in another simulation; this one is shown after its event ${visible} of ${source.events.length}`);
  // Connections that differ only in their id share one legend entry ("c1, c2, … c9: client → server (TCP,
  // api.example:443)"), each id with its colour: nine lines of the same words took a phone's whole screen.
  const legend = new Map<string, ConnectionInfo[]>();
  for (const c of model.connections.values()) {
    const what = `${c.from} → ${c.to} (${c.protocol === 'quic' ? 'QUIC' : 'TCP'}, ${c.address})`;
    const group = legend.get(what);
    if (group) group.push(c);
    else legend.set(what, [c]);
  }

  return (
    <div className="rt-tl rt-tl-sequence">
      <div className="rt-tl-toolbar">
        <SourcePicker at={at} />
        <label className="rt-tl-check">
          <input type="checkbox" checked={showAcks} onChange={(e) => setShowAcks(e.currentTarget.checked)} /> Show ACKs
        </label>
        <span className="rt-tl-zoom" role="group" aria-label="Time scale">
          <button type="button" onClick={() => zoomBy(-1)} disabled={!zoomLimits.out} aria-label="Zoom out (more time in view)" aria-keyshortcuts="-">
            −
          </button>
          <span className="rt-tl-scale" data-testid="sequence-scale" data-px-per-ms={pxPerMs} title="How tall 100 ms of virtual time is drawn">
            100 ms = {Math.round(pxPerMs * 100)} px
          </span>
          <button type="button" onClick={() => zoomBy(1)} disabled={!zoomLimits.in} aria-label="Zoom in (more room per millisecond)" aria-keyshortcuts="+">
            +
          </button>
          <button type="button" onClick={fit} aria-pressed={'fit' in scale} title="Squeeze the whole run into the box (labels may be shortened or left out)">
            Fit
          </button>
        </span>
      </div>
      <p className="rt-tl-caption" data-testid="sequence-caption">
        <strong>{formatMs(now)}</strong> · {caption}
      </p>
      {legend.size > 0 && (
        <ul className="rt-tl-legend" aria-label="Connections">
          {[...legend].map(([what, group]) => (
            <li key={what}>
              <span className="rt-tl-legend-ids">
                {group.map((c, i) => (
                  <span key={c.id} className={`rt-tl-legend-id rt-tl-c${c.order % 6}`}>
                    <span className="rt-tl-swatch rt-tl-swatch-line" aria-hidden="true" />
                    {c.id}
                    {i < group.length - 1 ? ',' : ':'}
                  </span>
                ))}
              </span>{' '}
              {what}
            </li>
          ))}
        </ul>
      )}
      {/* Focusable itself only while it holds no focusable arrow, so keyboard users can still scroll it. */}
      <div
        className="rt-tl-scroll"
        ref={scrollRef}
        onScroll={(e) => (viewport.current.top = e.currentTarget.scrollTop)}
        onKeyDown={onZoomKey}
        {...(visibleItems.length === 0 ? { tabIndex: 0, role: 'region', 'aria-label': 'Sequence diagram (nothing drawn yet)' } : {})}
      >
        {/* The cursor's moment: an HTML line moved by a transform, so scrubbing does not re-lay out the SVG. */}
        <div className="rt-tl-now" style={{ transform: `translateY(${nowY}px)`, left: gutter - 4, width: geo.width - gutter - 4 }} aria-hidden="true" />
        <svg
          ref={svgRef}
          className="rt-tl-svg"
          viewBox={`0 0 ${geo.width} ${geo.height}`}
          width={geo.width}
          height={geo.height}
          role="group"
          aria-label={`Sequence diagram of ${source.label}`}
          onKeyDown={onKeyDown}
        >
          {backdrop}
          {arrowsDrawn}
          <g className="rt-tl-labels" aria-hidden="true">
            {placed.map((l) =>
              arrivedAt(model.arrows[l.members[0]!]!) ? (
                <ArrowLabel
                  key={l.key}
                  text={shorten(labelText(model.arrows, l.members, arrivedAt), l.chars)}
                  x={l.x}
                  y={l.y}
                  angle={l.angle}
                  cx={l.cx}
                  cy={l.cy}
                  current={l.members.some((m) => model.arrows[m]!.index === currentItem)}
                />
              ) : null,
            )}
          </g>
          {marksDrawn}
        </svg>
      </div>
    </div>
  );
}
