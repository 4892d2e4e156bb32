/**
 * The sequence diagram's geometry: how many pixels a millisecond gets, where the lanes stand, where each mark's
 * badge goes and where every arrow's label is placed. Pure, so the view and the tests lay out the same picture.
 *
 * Time has a minimum scale. Fitting a whole run into one screen squeezed "Seven ways to load one page" (about
 * 2 s) to 0.3 px a millisecond, a 100 ms round trip into 30 px, and labels had nowhere to go but onto the
 * arrows (issue #27). So by default a millisecond gets at least MIN_PX_PER_MS (100 ms is 90 px) and the box
 * scrolls along time; the reader zooms in and out by powers of two, and "Fit" squeezes the run into the box
 * on request, below that minimum if need be.
 *
 * The width is the container's: on a phone the lanes move closer (a narrower gutter and inset) rather than
 * run off the right edge.
 */
import { rectQuad, textWidth, type Quad } from '../placement';
import { ticks, formatMs } from './format';
import type { Arrow, LaneMark, Peer, SequenceModel } from './sequence';
import { placeLabels, textQuad, type PlacedLabel } from './sequence-labels';

/** 100 ms of virtual time is never drawn shorter than 90 px unless the reader asks to fit the run. */
export const MIN_PX_PER_MS = 0.9;
/** The most a zoom-in gives: 100 ms over 3,200 px, enough to pull apart segments a fraction of a ms apart. */
export const MAX_PX_PER_MS = 32;
/** A short run is drawn about this tall at zoom 0 (then no more than 4 px a ms). */
const BASE_HEIGHT = 600;

export const TOP = 44;
export const BOTTOM = 24;
/** Font sizes (px; the SVG is drawn at one unit a pixel) of the axis, lane names and marks. */
export const AXIS_FONT = 11;
export const LANE_FONT = 12;
export const MARK_FONT = 11;
/** How far beyond the drawing the walls that keep labels inside it reach. */
const OUTSIDE = 10_000;
/** Below this width the diagram uses the narrow gutter and inset (a phone). */
const NARROW = 520;

export const MARK_TEXT: Record<LaneMark['kind'], string> = { rto: 'RTO', hol: 'HOL', 'loss-detected': 'lost', pto: 'PTO', ready: 'ready', closed: 'close' };

/** The scale at zoom 0: about BASE_HEIGHT px for the whole run, never below the minimum nor above 4 px a ms. */
export function basePxPerMs(duration: number): number {
  if (duration <= 0) return 4;
  return Math.min(4, Math.max(MIN_PX_PER_MS, BASE_HEIGHT / duration));
}

/** How the reader set the scale: `zoom` steps of a factor two from the base, or fit to a box `fitHeight` px tall. */
export type Scale = { readonly zoom: number } | { readonly fit: true; readonly fitHeight: number };

/** Pixels a millisecond for a scale; never below MIN_PX_PER_MS except when fitting, never above MAX_PX_PER_MS. */
export function pxPerMsFor(duration: number, scale: Scale): number {
  if ('fit' in scale) {
    if (duration <= 0) return basePxPerMs(duration);
    return Math.min(MAX_PX_PER_MS, Math.max(0.01, (scale.fitHeight - TOP - BOTTOM) / duration));
  }
  return Math.min(MAX_PX_PER_MS, Math.max(MIN_PX_PER_MS, basePxPerMs(duration) * 2 ** scale.zoom));
}

/** The zoom steps that still change something from `zoom` (buttons are disabled past them). */
export function canZoom(duration: number, zoom: number): { in: boolean; out: boolean } {
  const px = pxPerMsFor(duration, { zoom });
  return { in: px < MAX_PX_PER_MS, out: px > MIN_PX_PER_MS };
}

/** The zoom step nearest a given scale (leaving Fit zooms from where the picture is). */
export function zoomNear(duration: number, pxPerMs: number): number {
  return Math.round(Math.log2(Math.max(MIN_PX_PER_MS, pxPerMs) / basePxPerMs(duration)));
}

export interface Geometry {
  readonly width: number;
  /** Left of the lanes: the axis labels end here. */
  readonly gutter: number;
  readonly laneX: ReadonlyMap<Peer, number>;
  readonly pxPerMs: number;
  readonly y: (t: number) => number;
  readonly height: number;
}

export function geometry(model: SequenceModel, pxPerMs: number, width: number): Geometry {
  // The gutter holds the axis labels ("2,300 ms" is about 50 px at 11 px); the inset, a mark's badge beside
  // the outer lanes ("ready" is about 45 px).
  const gutter = width < NARROW ? 60 : 72;
  const inset = 50;
  const laneX = new Map<Peer, number>();
  const left = gutter + inset;
  const right = width - inset;
  model.lanes.forEach((lane, i) => laneX.set(lane, model.lanes.length === 1 ? left : left + ((right - left) * i) / (model.lanes.length - 1)));
  const y = (t: number) => TOP + t * pxPerMs;
  return { width, gutter, laneX, pxPerMs, y, height: TOP + model.duration * pxPerMs + BOTTOM };
}

/** The axis ticks: about one every 80 px. */
export function tickTimes(model: SequenceModel, geo: Geometry): number[] {
  return ticks(model.duration, Math.max(4, Math.round((geo.height - TOP) / 80)));
}

/** A mark's badge: beside the lane, on the outer side, so it does not cover arrows. */
export function markBox(mark: LaneMark, width: number, x: number): { bx: number; w: number } {
  const w = Math.ceil(textWidth(MARK_TEXT[mark.kind], MARK_FONT, 600)) + 10;
  return { bx: x < width / 2 ? x - w - 4 : x + 4, w };
}

/** Where arrow i is drawn when it has arrived. */
export function arrowEnds(geo: Geometry, a: Arrow): { x1: number; y1: number; x2: number; y2: number } {
  return { x1: geo.laneX.get(a.from) ?? geo.gutter, y1: geo.y(a.sentAt), x2: geo.laneX.get(a.to) ?? geo.gutter, y2: geo.y(a.arriveAt) };
}

/**
 * Every label the run will show, placed once per model and scale clear of the marks, lane names, axis and each
 * other; the cursor then only picks which are drawn.
 */
export function layoutLabels(model: SequenceModel, geo: Geometry, axis: readonly number[]): PlacedLabel[] {
  const obstacles: Quad[] = [
    ...model.marks.map((m) => {
      const x = geo.laneX.get(m.lane) ?? geo.gutter;
      const { bx, w } = markBox(m, geo.width, x);
      return rectQuad(bx, geo.y(m.at) - 8, w, 16);
    }),
    ...model.lanes.map((lane) => textQuad(lane, LANE_FONT, geo.laneX.get(lane) ?? geo.gutter, 18, 'middle', 600)),
    ...axis.map((t) => textQuad(formatMs(t), AXIS_FONT, geo.gutter - 8, geo.y(t) + 4, 'end')),
    // Outside the drawing: a label there would be cut off at the box's edge (a long one on a phone).
    rectQuad(-OUTSIDE, -OUTSIDE, OUTSIDE, geo.height + 2 * OUTSIDE),
    rectQuad(geo.width, -OUTSIDE, OUTSIDE, geo.height + 2 * OUTSIDE),
  ];
  return placeLabels(model.arrows, (i) => arrowEnds(geo, model.arrows[i]!), obstacles);
}

/**
 * Where the scroll box should stand so that time `t` (at `y` px) stays in view: unchanged while it is inside
 * the visible band (a reader's own scrolling is left alone), else centred.
 */
export function scrollToKeep(y: number, top: number, height: number): number {
  if (height <= 0) return top;
  if (y >= top + TOP && y <= top + height - 24) return top;
  return Math.max(0, y - height / 2);
}
