/**
 * Where a machine diagram's edges and labels go. States sit where the definition places them; each edge is a
 * line or a curve between them, and its label (one line per row, two rows a line for a long list) is placed
 * greedily: the spot the definition prefers first, then further along the edge and to either side, taking the
 * first that covers no state and no label already placed. Text is monospace, so its width is known from its
 * length without measuring; the viewBox is the drawing's own extent (states, labels and curves), no wider.
 *
 * Sizes are SVG user units, which the view draws at one CSS pixel or more (Diagram.tsx gives the SVG a minimum
 * width), so an 11-unit font is never under 11 px on screen.
 */
import { firstFree, rectQuad, type Quad } from '../placement';
import type { MachineDef, MachineRow, StateNode } from './definitions';

export const BOX_H = 30;
/** Edge labels' font size, and the state names' (bold). */
export const EDGE_FONT = 11;
export const STATE_FONT = 12;
/** Monospace advance, a little over the 0.6 em of the common mono fonts so estimates err wide. */
const CHAR = EDGE_FONT * 0.62;
const STATE_CHAR = STATE_FONT * 0.62;
/** Between lines of a label: the font's ascent plus descent (about 1.17 em) and a pixel or two. */
export const LINE = 14;
/** Between two rows on one line (the tspan's dx). */
export const ROW_GAP = 8;
const ASCENT = 10.5;
const DESCENT = 3;
/** The error state's note under it. */
export const NOTE = 'from any state, on any input with no row';

export const boxWidth = (n: StateNode) => Math.max(64, n.label.length * STATE_CHAR + 20);

type Anchor = 'start' | 'middle' | 'end';

export interface Edge {
  readonly from: StateNode;
  readonly to: StateNode;
  readonly rows: MachineRow[];
}

export interface PlacedEdge {
  readonly e: Edge;
  readonly d: string;
  /** The label's first baseline and anchor. */
  readonly lx: number;
  readonly ly: number;
  readonly anchor: Anchor;
  readonly lines: MachineRow[][];
  /** Where the label's block is, for tests. */
  readonly box: Quad;
}

export interface DiagramLayout {
  readonly edges: readonly PlacedEdge[];
  readonly viewBox: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  /** The state boxes and the error note, as placed: what labels keep clear of. */
  readonly obstacles: readonly Quad[];
}

function groupEdges(def: MachineDef): Edge[] {
  const byId = new Map(def.states.map((s) => [s.id, s]));
  const groups = new Map<string, Edge>();
  for (const row of def.rows) {
    const key = `${row.from}>${row.to}`;
    let edge = groups.get(key);
    if (!edge) {
      const from = byId.get(row.from);
      const to = byId.get(row.to);
      if (!from || !to) throw new Error(`${def.id}: row ${row.id} names a state the diagram does not place (${row.from} -> ${row.to})`);
      groups.set(key, (edge = { from, to, rows: [] }));
    }
    edge.rows.push(row);
  }
  return [...groups.values()];
}

/** Where the ray from a box's centre towards (tx, ty) leaves the box. */
function exitPoint(n: StateNode, tx: number, ty: number): [number, number] {
  const dx = tx - n.x;
  const dy = ty - n.y;
  const hw = boxWidth(n) / 2 + 3;
  const hh = BOX_H / 2 + 3;
  const scale = Math.min(dx === 0 ? Infinity : hw / Math.abs(dx), dy === 0 ? Infinity : hh / Math.abs(dy));
  return [n.x + dx * scale, n.y + dy * scale];
}

/** Label lines: rows one per line, two per line for a long list (an open stream's eight self-loops). */
export function lines(rows: readonly MachineRow[]): MachineRow[][] {
  const per = rows.length > 3 ? 2 : 1;
  const out: MachineRow[][] = [];
  for (let i = 0; i < rows.length; i += per) out.push(rows.slice(i, i + per));
  return out;
}

function blockSize(ls: readonly MachineRow[][]): { w: number; h: number } {
  const w = Math.max(...ls.map((l) => l.reduce((n, r) => n + r.label.length * CHAR, 0) + (l.length - 1) * ROW_GAP));
  return { w, h: (ls.length - 1) * LINE + ASCENT + DESCENT };
}

function blockQuad(x: number, y: number, anchor: Anchor, w: number, h: number): Quad {
  const left = anchor === 'middle' ? x - w / 2 : anchor === 'end' ? x - w : x;
  return rectQuad(left, y - ASCENT, w, h);
}

interface Spot {
  readonly x: number;
  readonly y: number;
  readonly anchor: Anchor;
}

function loopPath(def: MachineDef, n: StateNode): { d: string; spot: Spot; tall: number } {
  const side = def.loops?.[n.id] ?? 'top';
  const w = boxWidth(n) / 2;
  const h = BOX_H / 2;
  const { x, y } = n;
  switch (side) {
    case 'top':
      return {
        d: `M ${x - 14} ${y - h} C ${x - 30} ${y - h - 40}, ${x + 30} ${y - h - 40}, ${x + 14} ${y - h}`,
        spot: { x, y: y - h - 38, anchor: 'middle' },
        tall: -1,
      };
    case 'bottom':
      return {
        d: `M ${x + 14} ${y + h} C ${x + 30} ${y + h + 40}, ${x - 30} ${y + h + 40}, ${x - 14} ${y + h}`,
        spot: { x, y: y + h + 46, anchor: 'middle' },
        tall: 0,
      };
    case 'left':
      return {
        d: `M ${x - w} ${y - 8} C ${x - w - 40} ${y - 26}, ${x - w - 40} ${y + 26}, ${x - w} ${y + 8}`,
        spot: { x: x - w - 36, y: y + 4, anchor: 'end' },
        tall: -0.5,
      };
    case 'right':
      return {
        d: `M ${x + w} ${y - 8} C ${x + w + 40} ${y - 26}, ${x + w + 40} ${y + 26}, ${x + w} ${y + 8}`,
        spot: { x: x + w + 36, y: y + 4, anchor: 'start' },
        tall: -0.5,
      };
    case 'ne':
      return {
        d: `M ${x + w - 16} ${y - h} C ${x + w - 10} ${y - h - 34}, ${x + w + 34} ${y - h + 10}, ${x + w} ${y - 2}`,
        spot: { x: x + w + 8, y: y - h - 16, anchor: 'start' },
        tall: -1,
      };
    case 'nw':
      return {
        d: `M ${x - w} ${y - 2} C ${x - w - 34} ${y - h + 10}, ${x - w + 10} ${y - h - 34}, ${x - w + 16} ${y - h}`,
        spot: { x: x - w - 8, y: y - h - 16, anchor: 'end' },
        tall: -1,
      };
  }
}

/** The spots to try for a self-loop's label: the side the definition chose, then nudged away from it. */
function loopSpots(def: MachineDef, n: StateNode, count: number): { d: string; spots: Spot[] } {
  const { d, spot, tall } = loopPath(def, n);
  // `tall` says how the block hangs from the spot: above it (-1), centred on it (-0.5) or below it (0).
  const base = { ...spot, y: spot.y + tall * (count - 1) * LINE };
  const spots: Spot[] = [base];
  for (const step of [1, 2, 3, 4]) {
    const dy = step * (LINE / 2) * (tall < 0 ? -1 : 1);
    spots.push({ ...base, y: base.y + dy }, { ...base, y: base.y - dy });
    const dx = step * 10 * (base.anchor === 'end' ? -1 : 1);
    spots.push({ ...base, x: base.x + dx });
  }
  return { d, spots };
}

function edgeSpots(def: MachineDef, e: Edge, reverse: boolean, w: number, h: number): { d: string; spots: Spot[] } {
  const key = `${e.from.id}>${e.to.id}`;
  const bend = def.bends?.[key] ?? (reverse ? 28 : 0);
  const mx = (e.from.x + e.to.x) / 2;
  const my = (e.from.y + e.to.y) / 2;
  const dx = e.to.x - e.from.x;
  const dy = e.to.y - e.from.y;
  const len = Math.hypot(dx, dy) || 1;
  // Control point off the midpoint, along the normal (-dy, dx): a pair drawn both ways bends apart.
  const cx = mx + (-dy / len) * bend * 2;
  const cy = my + (dx / len) * bend * 2;
  const [sx, sy] = exitPoint(e.from, cx, cy);
  const [ex, ey] = exitPoint(e.to, cx, cy);
  // Labels sit on the curve: at its middle, or a third of the way along a long detour so they clear the
  // states the detour goes around; then further along either way, then beside the curve.
  const t0 = def.labelAt?.[key] ?? (Math.abs(bend) >= 90 ? 0.3 : 0.5);
  const ts = [t0];
  for (const step of [0.08, 0.16, 0.24, 0.32]) ts.push(t0 + step, t0 - step);
  const spots: Spot[] = [];
  const at = (t: number): [number, number] => [(1 - t) ** 2 * sx + 2 * t * (1 - t) * cx + t ** 2 * ex, (1 - t) ** 2 * sy + 2 * t * (1 - t) * cy + t ** 2 * ey];
  const shifts: [number, number][] = [
    [0, 0],
    [0, -(h / 2 + 4)],
    [0, h / 2 + 4],
    [-(w / 2 + 6), 0],
    [w / 2 + 6, 0],
    [0, -(h + 8)],
    [0, h + 8],
  ];
  for (const [sx2, sy2] of shifts) {
    for (const t of ts) {
      if (t < 0.12 || t > 0.88) continue;
      const [px, py] = at(t);
      // The block centred on the point: its first baseline is half its height up, plus the ascent.
      spots.push({ x: px + sx2, y: py + sy2 - h / 2 + ASCENT, anchor: 'middle' });
    }
  }
  return { d: bend === 0 ? `M ${sx} ${sy} L ${ex} ${ey}` : `M ${sx} ${sy} Q ${cx} ${cy} ${ex} ${ey}`, spots };
}

/** Between the drawing and the viewBox's edge: room for an arrowhead and a stroke. */
const MARGIN = 6;

/**
 * Points along a path this module drew (M then one L, Q or C): the ends and samples of the curve, for the
 * viewBox. A curve stays inside its control points' hull but can fall well short of them, so it is sampled.
 */
export function pathPoints(d: string): [number, number][] {
  const n = d.match(/-?[\d.]+(?:e-?\d+)?/g)?.map(Number) ?? [];
  const pts: [number, number][] = [];
  for (let i = 0; i + 1 < n.length; i += 2) pts.push([n[i]!, n[i + 1]!]);
  if (pts.length < 3) return pts;
  const out: [number, number][] = [];
  for (let k = 0; k <= 16; k++) {
    const t = k / 16;
    // De Casteljau on the control points: a quadratic (3 points) or a cubic (4).
    let level = pts;
    while (level.length > 1) level = level.slice(1).map(([x, y], j) => [level[j]![0] + (x - level[j]![0]) * t, level[j]![1] + (y - level[j]![1]) * t]);
    out.push(level[0]!);
  }
  return out;
}

/** Lays a machine out: computed once per definition (the view memoizes it). */
export function layoutDiagram(def: MachineDef): DiagramLayout {
  const edges = groupEdges(def);
  const pairs = new Set(edges.map((e) => `${e.from.id}>${e.to.id}`));
  const obstacles: Quad[] = def.states.map((s) => rectQuad(s.x - boxWidth(s) / 2 - 2, s.y - BOX_H / 2 - 2, boxWidth(s) + 4, BOX_H + 4));
  const error = def.states.find((s) => s.id === def.errorState);
  if (error) obstacles.push(rectQuad(error.x - (NOTE.length * CHAR) / 2, error.y + BOX_H / 2 + 14 - ASCENT, NOTE.length * CHAR, ASCENT + DESCENT));
  const taken: Quad[] = [...obstacles];
  // Self-loops first: their labels have the fewest places to go.
  const order = [...edges.keys()].sort((a, b) => Number(edges[b]!.from === edges[b]!.to) - Number(edges[a]!.from === edges[a]!.to));
  const placed = new Array<PlacedEdge>(edges.length);
  for (const i of order) {
    const e = edges[i]!;
    const ls = lines(e.rows);
    const { w, h } = blockSize(ls);
    const { d, spots } = e.from === e.to ? loopSpots(def, e.from, ls.length) : edgeSpots(def, e, pairs.has(`${e.to.id}>${e.from.id}`), w, h);
    const quads = spots.map((s) => blockQuad(s.x, s.y, s.anchor, w, h));
    const free = firstFree(quads, taken);
    // No free spot: the preferred one (the layout test fails for any machine where this happens).
    const k = Math.max(free, 0);
    const spot = spots[k]!;
    taken.push(quads[k]!);
    placed[i] = { e, d, lx: spot.x, ly: spot.y, anchor: spot.anchor, lines: ls, box: quads[k]! };
  }
  // The viewBox is what is drawn, with a margin: every state, label and edge (a detour or a self-loop bulges
  // past the states), and no more, so no width is spent on empty margins the view would have to scroll past.
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  const take = (x: number, y: number) => {
    x0 = Math.min(x0, x - MARGIN);
    y0 = Math.min(y0, y - MARGIN);
    x1 = Math.max(x1, x + MARGIN);
    y1 = Math.max(y1, y + MARGIN);
  };
  for (const q of taken) for (const [x, y] of q) take(x, y);
  for (const p of placed) for (const [x, y] of pathPoints(p.d)) take(x, y);
  return { edges: placed, viewBox: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, obstacles };
}
