/**
 * State machine diagrams drawn from the engines' own transition tables, with the table beside each. Pick an
 * instance (an HTTP/1 connection's role, a connection's management, an HTTP/2 stream, a query, a mutation);
 * at the cursor its current state is marked, and the row of its last transition is highlighted both as an
 * edge and as a table row (aria-current). By default the instance follows the cursor.
 *
 * While following, the picker shows "Follow the cursor" rather than the followed instance: a <select> with
 * hundreds of options whose value changed on every step cost a selection update and a re-layout of the control
 * per scrub frame (issue #8). The status line names the followed instance instead.
 */
import { memo, useEffect, useId, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { ViewProps } from '../views';
import { MACHINES, type MachineDef } from './definitions';
import { Diagram } from './Diagram';
import { countUpTo, firedCountAt, indexInstances, instancesOf, type FiredRow, type Instance } from './instances';
import './machines.css';
import '../pan.css';

const GROUPS: readonly { machine: Instance['machine']; label: string }[] = [
  { machine: 'http1-client-role', label: 'HTTP/1 connection: client role' },
  { machine: 'http1-server-role', label: 'HTTP/1 connection: server role' },
  { machine: 'client-connection', label: 'Connection management' },
  { machine: 'h2-stream', label: 'HTTP/2 streams' },
  { machine: 'quic-stream-send', label: 'QUIC streams: sending parts' },
  { machine: 'quic-stream-recv', label: 'QUIC streams: receiving parts' },
  { machine: 'query', label: 'Queries' },
  { machine: 'mutation', label: 'Mutations' },
];

const FOLLOW = '';

/** A state as the diagram labels it ('half-closed (remote)', 'success · idle'). */
function stateLabel(def: MachineDef, id: string): string {
  return def.states.find((s) => s.id === id)?.label ?? id;
}

/**
 * The last transition in words: the row's event as the diagram labels it (spelt out where the diagram
 * abbreviates) and its two states, never the row id, which stays on the element for tests and tools.
 */
function firedWords(def: MachineDef, last: FiredRow): string {
  const row = last.row === undefined ? undefined : def.rows.find((r) => r.id === last.row);
  const what = row ? (row.words ?? row.label) : (last.note ?? 'a transition with no row in the table');
  return `${what}, ${stateLabel(def, last.from)} → ${stateLabel(def, last.to)}`;
}

/**
 * Where `box` must scroll to, along one axis, for `el` inside it to be in sight, moving as little as possible:
 * unchanged if it already is, else its near or far edge lined up with the box's (its near edge if it is larger
 * than the box). Measured from the rectangles: a row's offsetTop counts from its table, not from the box.
 */
export function nearestScroll(box: HTMLElement, el: Element, axis: 'x' | 'y', margin = 0): number {
  const outer = box.getBoundingClientRect();
  const inner = el.getBoundingClientRect();
  const [scroll, client, border, size, start] =
    axis === 'y'
      ? [box.scrollTop, box.clientHeight, box.clientTop, inner.height + 2 * margin, inner.top - outer.top - margin]
      : [box.scrollLeft, box.clientWidth, box.clientLeft, inner.width + 2 * margin, inner.left - outer.left - margin];
  const near = Math.max(0, start - border + scroll);
  if (near < scroll || size > client) return near;
  if (near + size > scroll + client) return near + size - client;
  return scroll;
}

/** The instance picker. Memoized: while following, its props stay the same from step to step. */
const Picker = memo(function Picker({ options, chosen, onChoose }: { options: ReactNode; chosen: string | null; onChoose: (key: string | null) => void }) {
  return (
    <div className="rt-sm-bar">
      <label>
        Machine
        <select value={chosen ?? FOLLOW} onChange={(e) => onChoose(e.target.value === FOLLOW ? null : e.target.value)}>
          <option value={FOLLOW}>Follow the cursor (the machine that moved last)</option>
          {options}
        </select>
      </label>
      {chosen !== null ? (
        <button type="button" onClick={() => onChoose(null)}>
          Follow the cursor
        </button>
      ) : null}
    </div>
  );
});

export default function MachinesView({ recording, cursor, onCursor }: ViewProps) {
  const instances = useMemo(() => instancesOf(recording), [recording]);
  // Built once per recording: each cursor move then reads the followed instance and the fired counts by
  // binary search instead of filtering every instance's transitions.
  const index = useMemo(() => indexInstances(instances, recording.steps.length), [instances, recording]);
  // The option list only changes with the recording (hundreds of instances on a long trace): built once, not
  // on every cursor move.
  const options = useMemo(
    () =>
      GROUPS.map((g) => {
        const list = instances.filter((i) => i.machine === g.machine);
        return list.length === 0 ? null : (
          <optgroup key={g.machine} label={g.label}>
            {list.map((i) => (
              <option key={i.key} value={i.key}>
                {i.label}
              </option>
            ))}
          </optgroup>
        );
      }),
    [instances],
  );
  const [chosen, setChosen] = useState<string | null>(null);
  const titleId = useId();
  const tableWrap = useRef<HTMLDivElement>(null);
  const diagramBox = useRef<HTMLDivElement>(null);
  // Unless one is chosen, follow the cursor: the instance with the latest transition at or before it.
  const following = cursor >= 0 ? index.followAt[Math.min(cursor, index.followAt.length - 1)] : undefined;
  const inst = instances.find((i) => i.key === chosen) ?? following ?? instances[0];
  const fired = inst ? (index.fired.get(inst.key) ?? []) : [];
  const seenCount = firedCountAt(fired, cursor);
  const last = seenCount > 0 ? fired[seenCount - 1] : undefined;
  const firedRow = last?.row;
  const currentState = last ? last.to : inst?.initial;
  // Keep the fired row in sight inside the table's own scroll box, never scrolling the page (no scrollIntoView):
  // only when it is out of sight, and only as far as needed (block 'nearest'), so on opening, with the row
  // already in sight, the table stays at its first rows. Likewise the current state, in the diagram's box where
  // a narrow screen scrolls it sideways.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the fired row and instance are triggers; the effect reads the DOM they render
  useEffect(() => {
    const wrap = tableWrap.current;
    const row = wrap?.querySelector<HTMLElement>('tr[aria-current="true"]');
    if (wrap && row) wrap.scrollTop = nearestScroll(wrap, row, 'y');
  }, [firedRow, inst?.key]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above, for the current state
  useEffect(() => {
    const box = diagramBox.current;
    const state = box?.querySelector('.rt-sm-state.is-current');
    // Clear of the edge shadows (machines.css) by a little more than their width.
    if (box && state && box.scrollWidth > box.clientWidth) box.scrollLeft = nearestScroll(box, state, 'x', 18);
  }, [currentState, inst?.key]);
  const pans = useOverflowX(diagramBox, inst?.machine);
  if (!inst) return <p className="rt-empty">No state machine transitions recorded yet.</p>;
  const def = MACHINES[inst.machine];
  const rowSteps = index.rowSteps.get(inst.key);
  const firedHere = last?.step === cursor;
  return (
    <div className="rt-sm">
      <Picker options={options} chosen={chosen} onChoose={setChosen} />
      <p className="rt-sm-status">
        <span id={titleId} data-instance={inst.key}>
          {def.title}: {inst.label}. State: <strong data-testid="machine-state">{stateLabel(def, currentState ?? inst.initial)}</strong>
        </span>
        {last ? (
          <>
            {' '}
            · {firedHere ? 'just fired' : 'last fired'}:{' '}
            <span data-testid="machine-fired" data-row={last.row}>
              {firedWords(def, last)}
            </span>
          </>
        ) : (
          ' · no transition yet'
        )}
      </p>
      <div className="rt-sm-panes">
        {/* Scrolls sideways where the column is narrower than the diagram, which is never drawn smaller than its
            units (layout.ts): focusable, so a keyboard can scroll it too. */}
        <div className="rt-sm-diagram-wrap">
          <div className={`rt-sm-diagram${pans ? ' is-panning' : ''}`} role="region" aria-label="State diagram" tabIndex={0} ref={diagramBox}>
            <Diagram def={def} current={currentState} fired={last?.row} titleId={titleId} />
          </div>
          {/* Where the diagram is wider than the column (a phone), say so: the shadow at the edge is easy to miss. */}
          {pans ? (
            <p className="rt-sm-pan-hint" data-testid="machine-pan-hint">
              <span aria-hidden="true">←</span> Scroll sideways for the whole diagram <span aria-hidden="true">→</span>
            </p>
          ) : null}
        </div>
        <div className="rt-sm-table-wrap" role="region" aria-label="Transition table" tabIndex={0} ref={tableWrap}>
          <table className="rt-sm-table">
            <caption>
              {def.rows.length} rows of {def.source}
            </caption>
            <thead>
              <tr>
                {def.columns.map((c) => (
                  <th scope="col" key={c}>
                    {c}
                  </th>
                ))}
                <th scope="col">Fired</th>
              </tr>
            </thead>
            <tbody>
              {def.rows.map((r) => {
                const steps = rowSteps?.get(r.id) ?? [];
                const hitCount = countUpTo(steps, cursor);
                const isLast = last?.row === r.id;
                const jump = hitCount > 0 ? { step: steps[hitCount - 1]! } : undefined;
                return (
                  <tr
                    key={r.id}
                    data-row={r.id}
                    aria-current={isLast ? 'true' : undefined}
                    className={isLast ? 'is-fired' : hitCount > 0 ? 'is-seen' : undefined}
                  >
                    {r.cells.map((c, i) => (
                      <td key={i}>{c}</td>
                    ))}
                    <td>
                      {hitCount === 0 ? (
                        ''
                      ) : onCursor && jump ? (
                        <button type="button" onClick={() => onCursor(jump.step)} aria-label={`${hitCount} times; go to the last (step ${jump.step + 1})`}>
                          {hitCount}×
                        </button>
                      ) : (
                        `${hitCount}×`
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

/**
 * Whether the element is wider inside than it shows (it scrolls sideways), followed with a ResizeObserver; false
 * where nothing is laid out (tests). `content` is what changes the inside (the machine drawn).
 */
function useOverflowX(ref: RefObject<HTMLElement | null>, content: unknown): boolean {
  const [over, setOver] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `content` is the trigger: measure again when another machine is drawn
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOver(el.scrollWidth > el.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, content]);
  return over;
}
