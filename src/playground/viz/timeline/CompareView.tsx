/**
 * Comparison mode: every simulation of the run side by side on one time scale (each simulation's virtual
 * clock starts at 0), with the numbers that explain the difference: page-load time, connections opened,
 * round trips, bytes on the wire and lost packets, and a compact waterfall per simulation.
 *
 * The fastest run is marked only once every run has settled at the cursor: a run that has not started
 * yet would otherwise lose to one that has barely begun.
 */
import { Fragment, memo, useId, useMemo, useState } from 'react';
import type { WireSource } from '../../recording/model';
import type { ViewProps } from '../views';
import { visibleCount } from '../../recording/model';
import { buildRequests, rowsAt, type RequestModel, type RequestRow, type RequestTrack } from './requests';
import { fastest, summarize, type RunSummary } from './summary';
import { wireSources } from './source';
import { formatBytes, formatMs } from './format';
import { PhaseLegend, TimeAxis } from './WaterfallView';
import { DeltaBadge, GhostBar, useGhost } from '../ghost';
import './timeline.css';
import '../pan.css';
import '../ghost.css';

const VIEW_W = 1000;
const ROW_H = 6;
const ROW_GAP = 2;

interface Run {
  readonly source: WireSource;
  readonly model: RequestModel;
  readonly summary: RunSummary;
  readonly visible: number;
  readonly now: number;
  /** The same simulation in the previous run (the ghost), at its end. */
  readonly ghost: { readonly model: RequestModel; readonly summary: RunSummary } | undefined;
}

const rowCaches = new WeakMap<RequestModel, WeakMap<RequestTrack, RequestRow>>();

interface MiniProps {
  readonly model: RequestModel;
  readonly visible: number;
  readonly now: number;
  readonly scale: number;
  readonly label: string;
  /** The ghost's requests, drawn faded and full height under this run's (which then take the upper part). */
  readonly ghost?: RequestModel | undefined;
}

/** One thin bar per request. Memoized on plain props: runs the cursor is not in do not re-render. */
const MiniWaterfall = memo(function MiniWaterfall({ model, visible, now, scale, label, ghost }: MiniProps) {
  let cache = rowCaches.get(model);
  if (!cache) rowCaches.set(model, (cache = new WeakMap()));
  const rows = rowsAt(model, visible, now, cache);
  const ghostRows = ghost ? rowsAt(ghost, Number.MAX_SAFE_INTEGER, ghost.duration) : [];
  const height = Math.max(ROW_H, Math.max(rows.length, ghostRows.length) * (ROW_H + ROW_GAP));
  const x = (t: number) => (VIEW_W * t) / scale;
  return (
    <svg viewBox={`0 0 ${VIEW_W} ${height}`} preserveAspectRatio="none" height={height} role="img" aria-label={label}>
      {ghostRows.map((row, i) =>
        row.spans.map((span, j) => (
          <rect
            key={`g${i}-${j}`}
            className={`rt-tl-cbar is-ghost rt-tl-phase-${span.phase}`}
            x={x(span.start)}
            y={i * (ROW_H + ROW_GAP)}
            width={Math.max(1, x(span.end) - x(span.start))}
            height={ROW_H}
          />
        )),
      )}
      {rows.map((row, i) =>
        row.spans.map((span, j) => (
          <rect
            key={`${i}-${j}`}
            className={`rt-tl-cbar rt-tl-phase-${span.phase}`}
            data-phase={span.phase}
            x={x(span.start)}
            y={i * (ROW_H + ROW_GAP)}
            width={Math.max(1, x(span.end) - x(span.start))}
            height={ghost ? ROW_H * 0.6 : ROW_H}
          />
        )),
      )}
    </svg>
  );
});

function miniLabel(s: RunSummary): string {
  const settled = s.loadTime === undefined ? '' : `, ${s.complete ? 'all done' : 'last settled'} at ${formatMs(s.loadTime)}`;
  return `${s.requests} request${s.requests === 1 ? '' : 's'}${settled}`;
}

export default function CompareView({ recording, cursor }: ViewProps) {
  const [order, setOrder] = useState<'run' | 'time'>('run');
  const orderId = useId();
  const sources = wireSources(recording);
  const lengths = sources.map((s) => s.events.length).join(',');
  // Models depend on the sources only; the cursor just picks how much of each is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `sources` is rebuilt every render; the recording's sources and their lengths say when it changed
  const models = useMemo(() => new Map(sources.map((s) => [s.id, buildRequests(s.events)])), [recording.sources, lengths]);
  const { ghost } = useGhost();
  // The previous run's simulations, matched by id, at their end.
  const ghosts = useMemo(() => {
    const out = new Map<string, { model: RequestModel; summary: RunSummary }>();
    for (const g of ghost?.recording.sources ?? []) {
      if (g.kind !== 'wire') continue;
      const rtt = typeof g.options?.rtt === 'number' ? g.options.rtt : undefined;
      out.set(g.id, { model: buildRequests(g.events), summary: summarize(g.events, g.events.length, rtt) });
    }
    return out;
  }, [ghost]);

  if (sources.length === 0) return <p className="rt-tl-empty">This run created no simulation to compare.</p>;

  const runs: Run[] = sources.map((source) => {
    const model = models.get(source.id) ?? buildRequests(source.events);
    const visible = visibleCount(recording, source.id, cursor);
    const rtt = typeof source.options?.rtt === 'number' ? source.options.rtt : undefined;
    const then = ghosts.get(source.id);
    return { source, model, visible, now: visible > 0 ? source.events[visible - 1]!.at : 0, summary: summarize(source.events, visible, rtt), ghost: then };
  });
  const best = fastest(runs.map((r) => r.summary));
  const bestId = best >= 0 ? runs[best]!.source.id : undefined;
  const span = (m: RequestModel) => Math.max(m.duration, ...m.requests.map((q) => q.finished?.event.at ?? 0));
  const scale = Math.max(1, ...runs.map((r) => Math.max(span(r.model), r.ghost ? span(r.ghost.model) : 0)));
  const shown = order === 'time' ? [...runs].sort((a, b) => (a.summary.loadTime ?? Infinity) - (b.summary.loadTime ?? Infinity)) : runs;

  return (
    <div className="rt-tl rt-tl-compare">
      <div className="rt-tl-toolbar">
        <span className="rt-tl-picker">
          <label htmlFor={orderId}>Order</label>
          <select id={orderId} value={order} onChange={(e) => setOrder(e.currentTarget.value as 'run' | 'time')}>
            <option value="run">as run</option>
            <option value="time">by page-load time</option>
          </select>
        </span>
        <span data-testid="compare-verdict">
          {bestId
            ? `Fastest: ${runs[best]!.source.label} (${formatMs(runs[best]!.summary.loadTime!)})`
            : runs.every((r) => r.summary.complete)
              ? 'No run loaded without failures.'
              : 'Still loading: the fastest is marked once every run has finished.'}
        </span>
      </div>
      {runs.some((r) => r.ghost) ? <GhostBar what="faded under each simulation; the page-load time says what moved" /> : null}
      <PhaseLegend />
      <div className="rt-tl-scroll-x">
        <table className="rt-tl-table" aria-label="Simulations compared">
          <thead>
            <tr>
              <th scope="col">Simulation</th>
              <th scope="col" className="rt-tl-num">
                Page load
              </th>
              <th scope="col" className="rt-tl-num">
                Connections
              </th>
              <th scope="col" className="rt-tl-num" title="Page-load time divided by the round-trip time">
                Round trips
              </th>
              <th scope="col" className="rt-tl-num" title="TCP segment and QUIC packet payloads, both ways, resends included">
                Bytes
              </th>
              <th scope="col" className="rt-tl-num">
                Lost
              </th>
            </tr>
            <tr className="rt-tl-compare-axis">
              <td colSpan={6}>
                <TimeAxis scale={scale} />
              </td>
            </tr>
          </thead>
          <tbody>
            {shown.map((run) => {
              const s = run.summary;
              const isBest = run.source.id === bestId;
              const was = run.ghost?.summary;
              const moved = s.complete && s.loadTime !== undefined && was?.complete && was.loadTime !== undefined ? s.loadTime - was.loadTime : undefined;
              return (
                <Fragment key={run.source.id}>
                  <tr data-source-id={run.source.id} className={`rt-tl-compare-numbers${isBest ? ' is-fastest' : ''}`}>
                    <th scope="row">
                      {run.source.label}
                      {isBest && <span className="rt-tl-badge">Fastest</span>}
                    </th>
                    <td className="rt-tl-num" data-col="load">
                      {s.loadTime === undefined ? '–' : `${formatMs(s.loadTime)}${s.complete ? '' : ' so far'}`}
                      <DeltaBadge moved={moved} />
                    </td>
                    <td className="rt-tl-num" data-col="connections">
                      {s.connections}
                    </td>
                    <td className="rt-tl-num" data-col="round-trips">
                      {s.roundTrips === undefined ? '–' : s.roundTrips.toFixed(1)}
                    </td>
                    <td className="rt-tl-num" data-col="bytes">
                      {formatBytes(s.bytes)}
                    </td>
                    <td className="rt-tl-num" data-col="lost">
                      {s.lost}
                    </td>
                  </tr>
                  {/* Under its numbers, the run's requests on the shared time axis above. */}
                  <tr className={`rt-tl-compare-timeline${isBest ? ' is-fastest' : ''}`} data-timeline-of={run.source.id}>
                    <td colSpan={6}>
                      <MiniWaterfall
                        model={run.model}
                        visible={run.visible}
                        now={run.now}
                        scale={scale}
                        label={`${run.source.label}: ${miniLabel(s)}${was ? `; the ghost: ${miniLabel(was)}` : ''}`}
                        ghost={run.ghost?.model}
                      />
                    </td>
                  </tr>
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
