/**
 * Draws a MachineDef as SVG: states as rounded boxes at their fixed positions, and the table's rows as
 * edges. Rows between the same two states share one arrow whose label lists each row on its own line, so
 * the picture stays readable while every row keeps its own label element (data-row) to highlight.
 */
import { memo, useMemo } from 'react';
import type { MachineDef, MachineRow, StateNode } from './definitions';

export interface DiagramProps {
  readonly def: MachineDef;
  /** The state the instance is in at the cursor. */
  readonly current: string | undefined;
  /** The row of the last transition at the cursor. */
  readonly fired: string | undefined;
  readonly titleId: string;
}

const BOX_H = 30;
const boxWidth = (n: StateNode) => Math.max(64, n.label.length * 7.4 + 20);

interface Edge {
  readonly from: StateNode;
  readonly to: StateNode;
  readonly rows: MachineRow[];
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

type Anchor = 'start' | 'middle' | 'end';

/** Label lines: rows one per line, two per line for a long list (an open stream's eight self-loops). */
function lines(rows: readonly MachineRow[]): MachineRow[][] {
  const per = rows.length > 3 ? 2 : 1;
  const out: MachineRow[][] = [];
  for (let i = 0; i < rows.length; i += per) out.push(rows.slice(i, i + per));
  return out;
}

const LINE = 13;

function loopGeometry(def: MachineDef, n: StateNode, count: number): { d: string; lx: number; ly: number; anchor: Anchor } {
  const side = def.loops?.[n.id] ?? 'top';
  const w = boxWidth(n) / 2;
  const h = BOX_H / 2;
  const { x, y } = n;
  const tall = count * LINE;
  switch (side) {
    case 'top':
      return {
        d: `M ${x - 14} ${y - h} C ${x - 30} ${y - h - 40}, ${x + 30} ${y - h - 40}, ${x + 14} ${y - h}`,
        lx: x,
        ly: y - h - 38 - tall + LINE,
        anchor: 'middle',
      };
    case 'bottom':
      return { d: `M ${x + 14} ${y + h} C ${x + 30} ${y + h + 40}, ${x - 30} ${y + h + 40}, ${x - 14} ${y + h}`, lx: x, ly: y + h + 46, anchor: 'middle' };
    case 'left':
      return {
        d: `M ${x - w} ${y - 8} C ${x - w - 40} ${y - 26}, ${x - w - 40} ${y + 26}, ${x - w} ${y + 8}`,
        lx: x - w - 36,
        ly: y - tall / 2 + 4,
        anchor: 'end',
      };
    case 'right':
      return {
        d: `M ${x + w} ${y - 8} C ${x + w + 40} ${y - 26}, ${x + w + 40} ${y + 26}, ${x + w} ${y + 8}`,
        lx: x + w + 36,
        ly: y - tall / 2 + 4,
        anchor: 'start',
      };
    case 'ne':
      return {
        d: `M ${x + w - 16} ${y - h} C ${x + w - 10} ${y - h - 34}, ${x + w + 34} ${y - h + 10}, ${x + w} ${y - 2}`,
        lx: x + w + 8,
        ly: y - h - 16 - tall + LINE,
        anchor: 'start',
      };
    case 'nw':
      return {
        d: `M ${x - w} ${y - 2} C ${x - w - 34} ${y - h + 10}, ${x - w + 10} ${y - h - 34}, ${x - w + 16} ${y - h}`,
        lx: x - w - 8,
        ly: y - h - 16 - tall + LINE,
        anchor: 'end',
      };
  }
}

function edgeGeometry(def: MachineDef, e: Edge, reverse: boolean): { d: string; lx: number; ly: number; anchor: Anchor } {
  const count = lines(e.rows).length;
  if (e.from === e.to) return loopGeometry(def, e.from, count);
  const bend = def.bends?.[`${e.from.id}>${e.to.id}`] ?? (reverse ? 28 : 0);
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
  // states the detour goes around.
  const t = def.labelAt?.[`${e.from.id}>${e.to.id}`] ?? (Math.abs(bend) >= 90 ? 0.3 : 0.5);
  const lx = (1 - t) ** 2 * sx + 2 * t * (1 - t) * cx + t ** 2 * ex;
  const ly = (1 - t) ** 2 * sy + 2 * t * (1 - t) * cy + t ** 2 * ey;
  return { d: bend === 0 ? `M ${sx} ${sy} L ${ex} ${ey}` : `M ${sx} ${sy} Q ${cx} ${cy} ${ex} ${ey}`, lx, ly: ly - (count * LINE) / 2 + 9, anchor: 'middle' };
}

/**
 * Memoized: the props are a static definition and three strings, so while a reader scrubs the diagram only
 * re-renders when the state or the fired row changes, and the layout is computed once per machine.
 */
export const Diagram = memo(function Diagram({ def, current, fired, titleId }: DiagramProps) {
  const layout = useMemo(() => {
    const edges = groupEdges(def);
    const pairs = new Set(edges.map((e) => `${e.from.id}>${e.to.id}`));
    return edges.map((e) => ({ e, g: edgeGeometry(def, e, e.from !== e.to && pairs.has(`${e.to.id}>${e.from.id}`)) }));
  }, [def]);
  const markerId = `${titleId}-arrow`;
  const markerFired = `${titleId}-arrow-fired`;
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: named by aria-labelledby, which the rule does not follow
    <svg className="rt-sm-svg" viewBox={`0 0 ${def.width} ${def.height}`} role="img" aria-labelledby={titleId} data-machine={def.id}>
      <defs>
        <marker id={markerId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" className="rt-sm-arrowhead" />
        </marker>
        <marker id={markerFired} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" className="rt-sm-arrowhead is-fired" />
        </marker>
      </defs>
      <g className="rt-sm-edges">
        {layout.map(({ e, g }) => {
          const key = `${e.from.id}>${e.to.id}`;
          const hot = fired !== undefined && e.rows.some((r) => r.id === fired);
          return (
            <g key={key} className={`rt-sm-edge${hot ? ' is-fired' : ''}`}>
              <path d={g.d} data-edge={key} data-rows={e.rows.map((r) => r.id).join(' ')} markerEnd={`url(#${hot ? markerFired : markerId})`} />
              <text x={g.lx} y={g.ly} textAnchor={g.anchor}>
                {lines(e.rows).flatMap((line, i) =>
                  line.map((r, j) => (
                    <tspan
                      key={r.id}
                      {...(j === 0 ? { x: g.lx, dy: i === 0 ? 0 : LINE } : { dx: 6 })}
                      data-row={r.id}
                      className={r.id === fired ? 'is-fired' : undefined}
                    >
                      {r.label}
                    </tspan>
                  )),
                )}
              </text>
            </g>
          );
        })}
      </g>
      <g className="rt-sm-states">
        {def.states.map((s) => {
          const w = boxWidth(s);
          const isError = s.id === def.errorState;
          return (
            <g key={s.id} data-state={s.id} className={`rt-sm-state${s.id === current ? ' is-current' : ''}${isError ? ' is-error' : ''}`}>
              <rect x={s.x - w / 2} y={s.y - BOX_H / 2} width={w} height={BOX_H} rx={8} />
              <text x={s.x} y={s.y + 4} textAnchor="middle">
                {s.label}
              </text>
              {isError ? (
                <text x={s.x} y={s.y + BOX_H / 2 + 14} textAnchor="middle" className="rt-sm-note">
                  from any state, on any input with no row
                </text>
              ) : null}
            </g>
          );
        })}
      </g>
    </svg>
  );
});
