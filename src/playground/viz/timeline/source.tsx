/**
 * Which simulation a single-source view (sequence, waterfall) shows, and where the cursor is in it.
 * A run may create several simulations: the view follows the one the cursor's event belongs to until the
 * reader picks one.
 */
import { useId, useState } from 'react';
import type { Recording, WireSource } from '../../recording/model';
import { visibleCount } from '../../recording/model';

export function wireSources(recording: Recording): WireSource[] {
  return recording.sources.filter((s): s is WireSource => s.kind === 'wire');
}

export interface SourceAt {
  readonly source: WireSource | undefined;
  readonly sources: readonly WireSource[];
  /** Events of `source` visible at the cursor. */
  readonly visible: number;
  /** Virtual time of the last visible event (0 before the first). */
  readonly now: number;
  /** Index in `source.events` of the cursor's event, when the cursor is on this source. */
  readonly currentIndex: number | undefined;
  readonly pick: (sourceId: string) => void;
}

export function useSourceAt(recording: Recording, cursor: number): SourceAt {
  const [picked, pick] = useState<string | undefined>(undefined);
  const sources = wireSources(recording);
  const step = cursor >= 0 ? recording.steps[cursor] : undefined;
  const source = sources.find((s) => s.id === picked) ?? sources.find((s) => s.id === step?.sourceId) ?? sources[0];
  if (!source) return { source, sources, visible: 0, now: 0, currentIndex: undefined, pick };
  const visible = visibleCount(recording, source.id, cursor);
  const now = visible > 0 ? source.events[visible - 1]!.at : 0;
  const currentIndex = step?.sourceId === source.id ? step.index : undefined;
  return { source, sources, visible, now, currentIndex, pick };
}

export function SourcePicker({ at }: { at: SourceAt }) {
  const id = useId();
  if (at.sources.length < 2 || !at.source) return null;
  return (
    <span className="rt-tl-picker">
      <label htmlFor={id}>Simulation</label>
      <select id={id} value={at.source.id} onChange={(e) => at.pick(e.currentTarget.value)}>
        {at.sources.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </select>
    </span>
  );
}
