import { describe, expect, it } from 'vitest';
import { overlaps, quadsOverlap, rectQuad, rotatedQuad } from '../placement';
import { MACHINES } from './definitions';
import { layoutDiagram } from './layout';

describe('placement geometry', () => {
  it('boxes that cross overlap; boxes that touch or cross by under the tolerance do not', () => {
    expect(quadsOverlap(rectQuad(0, 0, 10, 10), rectQuad(5, 5, 10, 10))).toBe(true);
    expect(quadsOverlap(rectQuad(0, 0, 10, 10), rectQuad(10, 0, 10, 10))).toBe(false);
    expect(quadsOverlap(rectQuad(0, 0, 10, 10), rectQuad(9.5, 0, 10, 10))).toBe(false);
    expect(quadsOverlap(rectQuad(0, 0, 10, 10), rectQuad(8, 0, 10, 10))).toBe(true);
  });
  it('a rotated box is tested by its corners, not its bounding rectangle', () => {
    // A long thin label at 45 degrees: its bounding rectangle covers the box at the corner, the label does not.
    const label = rotatedQuad(0, 0, 100, 10, 45, 0, 0);
    expect(quadsOverlap(label, rectQuad(30, 30, 10, 10))).toBe(true);
    expect(quadsOverlap(label, rectQuad(55, 0, 15, 15))).toBe(false);
  });
});

describe('machine diagrams: every label clear of the others and of the states', () => {
  for (const def of Object.values(MACHINES)) {
    it(`${def.id}`, () => {
      const { edges, obstacles, viewBox } = layoutDiagram(def);
      const quads = [...obstacles, ...edges.map((e) => e.box)];
      const names = [...obstacles.map((_, i) => `obstacle ${i}`), ...edges.map((e) => `${e.e.from.id}>${e.e.to.id}`)];
      expect(overlaps(quads).map(([a, b]) => `${names[a]} / ${names[b]}`)).toEqual([]);
      // Every label inside the viewBox.
      for (const e of edges)
        for (const [x, y] of e.box) {
          expect(x).toBeGreaterThanOrEqual(viewBox.x);
          expect(y).toBeGreaterThanOrEqual(viewBox.y);
          expect(x).toBeLessThanOrEqual(viewBox.x + viewBox.width);
          expect(y).toBeLessThanOrEqual(viewBox.y + viewBox.height);
        }
      // Drawn at one unit a pixel or more, it fits the panel of a 1280 px window (906 px) without scrolling.
      expect(viewBox.width).toBeLessThanOrEqual(900);
    });
  }
});
