/**
 * Sequence (ladder) diagram: client, proxy and server as vertical lanes, virtual time flowing down, one
 * arrow per handshake step, segment, ACK or QUIC packet, in the manner of Wireshark's flow graph and the
 * packet diagrams of RFC 9293.
 *
 * The model (sequence.ts) and its geometry are computed once per source and zoom level; the cursor only
 * chooses which arrows are drawn, how far in-flight ones have got, and which is highlighted. Arrows are
 * memoized components, so a scrub step re-renders only the few whose state changed.
 *
 * Keyboard: the diagram is one tab stop (roving tabindex); arrow keys move between arrows and marks in
 * trace order, Home/End jump to the ends, Enter or Space moves the player's cursor to that event.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { ViewProps } from '../views';
import { stepOf } from '../../recording/model';
import { buildSequence, type Arrow, type LaneMark, type Peer, type SequenceModel } from './sequence';
import { labelText, placeLabels, shorten, textQuad } from './sequence-labels';
import { rectQuad, textWidth, type Quad } from '../placement';
import { SourcePicker, useSourceAt } from './source';
import { formatMs, ticks } from './format';
import { useWidth } from './useWidth';
import './timeline.css';

/** Width before the container is measured (and in tests, where nothing is laid out). */
const DEFAULT_WIDTH = 720;
const MIN_WIDTH = 420;
const TOP = 44;
const BOTTOM = 24;
const GUTTER = 72;
const ZOOMS = [0.25, 0.5, 1, 2, 4, 8] as const;
/** Font sizes (px; the SVG is drawn at one unit a pixel) of the axis, lane names and marks. */
const AXIS_FONT = 11;
const LANE_FONT = 12;
const MARK_FONT = 11;
/** How far along its path a lost packet is drawn before it stops. */
const LOST_AT = 0.6;

interface Geometry {
  readonly width: number;
  readonly laneX: ReadonlyMap<Peer, number>;
  readonly y: (t: number) => number;
  readonly height: number;
}

function geometry(model: SequenceModel, pxPerMs: number, width: number): Geometry {
  const laneX = new Map<Peer, number>();
  const left = GUTTER + 50;
  const right = width - 50;
  model.lanes.forEach((lane, i) => laneX.set(lane, model.lanes.length === 1 ? left : left + ((right - left) * i) / (model.lanes.length - 1)));
  const y = (t: number) => TOP + t * pxPerMs;
  return { width, laneX, y, height: TOP + model.duration * pxPerMs + BOTTOM };
}

/** Base scale: about 600 px for the whole run, within readable bounds. */
function basePxPerMs(duration: number): number {
  if (duration <= 0) return 1;
  return Math.min(4, Math.max(0.15, 600 / duration));
}

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

const MARK_TEXT: Record<LaneMark['kind'], string> = { rto: 'RTO', hol: 'HOL', 'loss-detected': 'lost', pto: 'PTO', ready: 'ready', closed: 'close' };

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

/** A mark's badge: beside the lane, on the outer side, so it does not cover arrows. */
function markBox(mark: LaneMark, width: number, x: number): { bx: number; w: number } {
  const w = Math.ceil(textWidth(MARK_TEXT[mark.kind], MARK_FONT, 600)) + 10;
  return { bx: x < width / 2 ? x - w - 4 : x + 4, w };
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
  const [zoom, setZoom] = useState(2);
  const [showAcks, setShowAcks] = useState(false);
  const [active, setActive] = useState<number | undefined>(undefined);
  const svgRef = useRef<SVGSVGElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  // Per recording source: the trace is only read here. Events are appended while a run is live, so the
  // length is part of the key.
  const events = source?.events;
  const model = useMemo(() => buildSequence(events ?? []), [events, events?.length]);
  const pxPerMs = basePxPerMs(model.duration) * ZOOMS[zoom]!;
  const width = useWidth(scrollRef, DEFAULT_WIDTH, MIN_WIDTH);
  const geo = useMemo(() => geometry(model, pxPerMs, width), [model, pxPerMs, width]);
  const tickTimes = useMemo(() => ticks(model.duration, Math.max(4, Math.round((geo.height - TOP) / 80))), [model, geo]);
  // Every label the run will show, placed once per model and scale clear of the marks, lane names, axis and
  // each other; the cursor then only picks which are drawn.
  const placed = useMemo(() => {
    const obstacles: Quad[] = [
      ...model.marks.map((m) => {
        const x = geo.laneX.get(m.lane) ?? GUTTER;
        const { bx, w } = markBox(m, geo.width, x);
        return rectQuad(bx, geo.y(m.at) - 8, w, 16);
      }),
      ...model.lanes.map((lane) => textQuad(lane, LANE_FONT, geo.laneX.get(lane) ?? GUTTER, 18, 'middle', 600)),
      ...tickTimes.map((t) => textQuad(formatMs(t), AXIS_FONT, GUTTER - 8, geo.y(t) + 4, 'end')),
    ];
    return placeLabels(
      model.arrows,
      (i) => {
        const a = model.arrows[i]!;
        return { x1: geo.laneX.get(a.from) ?? GUTTER, y1: geo.y(a.sentAt), x2: geo.laneX.get(a.to) ?? GUTTER, y2: geo.y(a.arriveAt) };
      },
      obstacles,
    );
  }, [model, geo, tickTimes]);
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
  useEffect(() => {
    const box = scrollRef.current;
    const { top, height } = viewport.current;
    if (!box || height === 0) return;
    if (nowY < top + TOP || nowY > top + height - 24) {
      const next = Math.max(0, nowY - height / 2);
      viewport.current.top = next;
      box.scrollTop = next;
    }
  }, [nowY]);

  // The axis and lanes depend on the model and scale only.
  const backdrop = useMemo(
    () => (
      <>
        <g className="rt-tl-axis" aria-hidden="true">
          {tickTimes.map((t) => (
            <g key={t}>
              <line x1={GUTTER - 4} x2={geo.width - 8} y1={geo.y(t)} y2={geo.y(t)} />
              <text x={GUTTER - 8} y={geo.y(t) + 4} textAnchor="end">
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
    [model, geo, tickTimes],
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
    const x1 = geo.laneX.get(a.from) ?? GUTTER;
    const x2 = geo.laneX.get(a.to) ?? GUTTER;
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
        x={geo.laneX.get(m.lane) ?? GUTTER}
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
  const connections = [...model.connections.values()];

  return (
    <div className="rt-tl rt-tl-sequence">
      <div className="rt-tl-toolbar">
        <SourcePicker at={at} />
        <label className="rt-tl-check">
          <input type="checkbox" checked={showAcks} onChange={(e) => setShowAcks(e.currentTarget.checked)} /> Show ACKs
        </label>
        <span className="rt-tl-zoom" role="group" aria-label="Time scale">
          <button type="button" onClick={() => setZoom((z) => Math.max(0, z - 1))} disabled={zoom === 0} aria-label="Zoom out (less time per pixel)">
            −
          </button>
          <span aria-live="off">{ZOOMS[zoom]}×</span>
          <button
            type="button"
            onClick={() => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1))}
            disabled={zoom === ZOOMS.length - 1}
            aria-label="Zoom in (more room per millisecond)"
          >
            +
          </button>
        </span>
      </div>
      <p className="rt-tl-caption" data-testid="sequence-caption">
        <strong>{formatMs(now)}</strong> · {caption}
      </p>
      {connections.length > 0 && (
        <ul className="rt-tl-legend" aria-label="Connections">
          {connections.map((c) => (
            <li key={c.id} className={`rt-tl-c${c.order % 6}`}>
              <span className="rt-tl-swatch rt-tl-swatch-line" aria-hidden="true" />
              {c.id}: {c.from} → {c.to} ({c.protocol === 'quic' ? 'QUIC' : 'TCP'}, {c.address})
            </li>
          ))}
        </ul>
      )}
      {/* Focusable itself only while it holds no focusable arrow, so keyboard users can still scroll it. */}
      <div
        className="rt-tl-scroll"
        ref={scrollRef}
        onScroll={(e) => (viewport.current.top = e.currentTarget.scrollTop)}
        {...(visibleItems.length === 0 ? { tabIndex: 0, role: 'region', 'aria-label': 'Sequence diagram (nothing drawn yet)' } : {})}
      >
        {/* The cursor's moment: an HTML line moved by a transform, so scrubbing does not re-lay out the SVG. */}
        <div className="rt-tl-now" style={{ transform: `translateY(${nowY}px)`, left: GUTTER - 4, width: geo.width - GUTTER - 4 }} aria-hidden="true" />
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
