/**
 * Label placement for the SVG views: boxes (possibly rotated, as a sequence diagram letters its arrows) as
 * quadrilaterals, an overlap test, and a greedy "first free spot" search. The views lay labels out once per
 * layout with estimated text widths, so no two labels are drawn over each other however dense the picture;
 * e2e/viz-layout.spec.ts measures what the browser really drew.
 */

/** Four corners, in order around the box. */
export type Quad = readonly (readonly [number, number])[];

/** An axis-aligned box. */
export function rectQuad(x: number, y: number, w: number, h: number): Quad {
  return [
    [x, y],
    [x + w, y],
    [x + w, y + h],
    [x, y + h],
  ];
}

/** A box given in its own unrotated frame (x, y, w, h), rotated by `deg` degrees about (cx, cy). */
export function rotatedQuad(x: number, y: number, w: number, h: number, deg: number, cx: number, cy: number): Quad {
  if (deg === 0) return rectQuad(x, y, w, h);
  const r = (deg * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  return rectQuad(x, y, w, h).map(([px, py]) => [cx + (px - cx) * cos - (py - cy) * sin, cy + (px - cx) * sin + (py - cy) * cos] as const);
}

function project(q: Quad, ax: number, ay: number): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const [x, y] of q) {
    const p = x * ax + y * ay;
    if (p < min) min = p;
    if (p > max) max = p;
  }
  return [min, max];
}

/**
 * Whether two convex quads overlap by more than `tolerance` along every separating axis (the separating axis
 * theorem): boxes that only touch, or cross by a pixel of anti-aliasing, do not count.
 */
export function quadsOverlap(a: Quad, b: Quad, tolerance = 1): boolean {
  for (const q of [a, b]) {
    for (let i = 0; i < q.length; i++) {
      const [x1, y1] = q[i]!;
      const [x2, y2] = q[(i + 1) % q.length]!;
      const len = Math.hypot(x2 - x1, y2 - y1);
      if (len === 0) continue;
      // The edge's normal, unit length so the tolerance is in pixels.
      const ax = -(y2 - y1) / len;
      const ay = (x2 - x1) / len;
      const [aMin, aMax] = project(a, ax, ay);
      const [bMin, bMax] = project(b, ax, ay);
      if (Math.min(aMax, bMax) - Math.max(aMin, bMin) <= tolerance) return false;
    }
  }
  return true;
}

/** The first candidate that overlaps none of `taken`, or -1. */
export function firstFree(candidates: readonly Quad[], taken: readonly Quad[], tolerance = 1): number {
  return candidates.findIndex((c) => taken.every((t) => !quadsOverlap(c, t, tolerance)));
}

/** Every pair of quads that overlap, as index pairs: for tests and the layout check. */
export function overlaps(quads: readonly Quad[], tolerance = 1): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < quads.length; i++) for (let j = i + 1; j < quads.length; j++) if (quadsOverlap(quads[i]!, quads[j]!, tolerance)) out.push([i, j]);
  return out;
}

let context: OffscreenCanvasRenderingContext2D | null | undefined;
let family = '';

/**
 * A line of text's width in pixels, in the page's body font: measured with a canvas where there is one, else
 * estimated at 0.62 em a character (wider than most text, so an estimate errs towards more room).
 */
export function textWidth(text: string, px: number, weight = 400): number {
  if (context === undefined) {
    context = typeof OffscreenCanvas === 'undefined' || typeof document === 'undefined' ? null : new OffscreenCanvas(1, 1).getContext('2d');
    if (context) family = getComputedStyle(document.body).fontFamily || 'sans-serif';
  }
  if (!context) return text.length * px * 0.62;
  context.font = `${weight} ${px}px ${family}`;
  return context.measureText(text).width;
}
