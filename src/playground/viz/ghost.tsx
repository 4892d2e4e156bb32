/**
 * The ghost in the views (issue #27, item 5): the previous run, kept by the playground store
 * (store/ghost.ts), reaches the Waterfall, Compare and the query event timeline through GhostContext (ghost-context.ts), so the
 * panel between them need not carry it. Each view draws the ghost's matching source faded under the current
 * one and says what moved; the bar here names the ghost and pins or clears it.
 *
 * Sources are matched by id ('sim-1', 'client-1': creation order), not by label: a label may name the very
 * option that changed ("HTTP/2, 10% loss").
 */
import type { QuerySource, WireSource } from '../recording/model';
import { formatMs } from './timeline/format';
import { useGhost, type GhostValue } from './ghost-context';

export { useGhost, type GhostValue } from './ghost-context';

/** The ghost's source with this id and kind, if the previous run had one. */
export function ghostSource<K extends 'wire' | 'query'>(
  ghost: GhostValue | null,
  kind: K,
  id: string,
): (K extends 'wire' ? WireSource : QuerySource) | undefined {
  const found = ghost?.recording.sources.find((s) => s.kind === kind && s.id === id);
  return found as (K extends 'wire' ? WireSource : QuerySource) | undefined;
}

/** '+212 ms' / '−40 ms' / '±0 ms': now against the ghost. */
export function formatDelta(ms: number): string {
  const rounded = Math.round(ms);
  if (rounded === 0) return '±0 ms';
  return `${rounded > 0 ? '+' : '−'}${formatMs(Math.abs(rounded))}`;
}

/** The same in words, for screen readers and tooltips. */
export function describeDelta(ms: number): string {
  const rounded = Math.round(ms);
  if (rounded === 0) return 'same as the ghost';
  return `${formatMs(Math.abs(rounded))} ${rounded > 0 ? 'slower' : 'faster'} than the ghost`;
}

/** What moved against the ghost, after a number in a table or summary; nothing when there is no ghost value. */
export function DeltaBadge({ moved }: { moved: number | undefined }) {
  if (moved === undefined) return null;
  return (
    <span className="rt-tl-delta" data-delta={Math.round(moved)} title={describeDelta(moved)}>
      {formatDelta(moved)}
    </span>
  );
}

/** Names the ghost, with Pin and Clear. Rendered by a view that draws one. */
export function GhostBar({ what }: { what: string }) {
  const { ghost, pin, clear } = useGhost();
  if (!ghost) return null;
  return (
    <div className="rt-ghost-bar" data-testid="ghost-bar">
      <span className="rt-ghost-swatch" aria-hidden="true" />
      <span>
        <strong>{ghost.label}</strong> <span className="rt-ghost-what">{what}</span>
      </span>
      <button type="button" aria-pressed={ghost.pinned} onClick={() => pin(!ghost.pinned)} title="A pinned ghost stays across further runs until cleared">
        {ghost.pinned ? 'Pinned' : 'Pin'}
      </button>
      <button type="button" onClick={clear}>
        Clear ghost
      </button>
    </div>
  );
}
