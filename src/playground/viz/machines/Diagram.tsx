/**
 * Draws a MachineDef as SVG: states as rounded boxes at their fixed positions, and the table's rows as
 * edges. Rows between the same two states share one arrow whose label lists each row on its own line, so
 * the picture stays readable while every row keeps its own label element (data-row) to highlight.
 */
import { memo, useMemo } from 'react';
import type { MachineDef } from './definitions';
import { BOX_H, boxWidth, layoutDiagram, LINE, NOTE, ROW_GAP } from './layout';

export interface DiagramProps {
  readonly def: MachineDef;
  /** The state the instance is in at the cursor. */
  readonly current: string | undefined;
  /** The row of the last transition at the cursor. */
  readonly fired: string | undefined;
  readonly titleId: string;
}

/**
 * Memoized: the props are a static definition and three strings, so while a reader scrubs the diagram only
 * re-renders when the state or the fired row changes, and the layout is computed once per machine.
 */
export const Diagram = memo(function Diagram({ def, current, fired, titleId }: DiagramProps) {
  const { edges, viewBox } = useMemo(() => layoutDiagram(def), [def]);
  const markerId = `${titleId}-arrow`;
  const markerFired = `${titleId}-arrow-fired`;
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: named by aria-labelledby, which the rule does not follow
    <svg
      className="rt-sm-svg"
      viewBox={`${viewBox.x} ${viewBox.y} ${viewBox.width} ${viewBox.height}`}
      // Never narrower than its own units: a smaller box would shrink the 11-unit labels under 11 px.
      style={{ minWidth: `${Math.ceil(viewBox.width)}px` }}
      role="img"
      aria-labelledby={titleId}
      data-machine={def.id}
    >
      <defs>
        <marker id={markerId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" className="rt-sm-arrowhead" />
        </marker>
        <marker id={markerFired} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" className="rt-sm-arrowhead is-fired" />
        </marker>
      </defs>
      <g className="rt-sm-edges">
        {edges.map((g) => {
          const { e } = g;
          const key = `${e.from.id}>${e.to.id}`;
          const hot = fired !== undefined && e.rows.some((r) => r.id === fired);
          return (
            <g key={key} className={`rt-sm-edge${hot ? ' is-fired' : ''}`}>
              <path d={g.d} data-edge={key} data-rows={e.rows.map((r) => r.id).join(' ')} markerEnd={`url(#${hot ? markerFired : markerId})`} />
              <text x={g.lx} y={g.ly} textAnchor={g.anchor}>
                {g.lines.flatMap((line, i) =>
                  line.map((r, j) => (
                    <tspan
                      key={r.id}
                      {...(j === 0 ? { x: g.lx, dy: i === 0 ? 0 : LINE } : { dx: ROW_GAP })}
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
                  {NOTE}
                </text>
              ) : null}
            </g>
          );
        })}
      </g>
    </svg>
  );
});
