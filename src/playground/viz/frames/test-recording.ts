/**
 * Test helper: wraps real simulations' traces as a Recording, the way the host records a run (one source per
 * simulation, steps in arrival order). Used by the frames, message and machines view tests.
 */
import type { Simulation } from 'roundtrip/wire';
import type { QueryVizEvent, Recording, Source, Step } from '../../recording/model';

export function recordingOf(sims: readonly Simulation[], queries: readonly (readonly QueryVizEvent[])[] = []): Recording {
  const sources: Source[] = sims.map((sim, i) => ({
    id: `sim-${i + 1}`,
    kind: 'wire' as const,
    label: `Simulation ${i + 1} (HTTP/${sim.options.httpVersion})`,
    events: [...sim.trace.events],
  }));
  queries.forEach((events, i) => sources.push({ id: `client-${i + 1}`, kind: 'query', label: `QueryClient ${i + 1}`, events }));
  // Interleave by virtual time then sequence, as a live run would deliver them.
  const steps: (Step & { at: number; seq: number })[] = [];
  for (const source of sources) {
    source.events.forEach((e, index) => steps.push({ sourceId: source.id, index, at: e.at, seq: 'seq' in e ? e.seq : index }));
  }
  steps.sort((a, b) => a.at - b.at || (a.sourceId === b.sourceId ? a.index - b.index : a.sourceId.localeCompare(b.sourceId)));
  return { sources, steps: steps.map(({ sourceId, index }) => ({ sourceId, index })) };
}
