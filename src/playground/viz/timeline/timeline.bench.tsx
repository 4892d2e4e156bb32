// @vitest-environment jsdom
/**
 * Scrubbing cost of the timeline views on a trace of 1,000+ events (goal, issue #8: no frame over 50 ms).
 * Each iteration moves the cursor by one step and re-renders, as a drag of the step slider does. jsdom is
 * slower than a browser at DOM work, so these numbers are an upper bound; scripts/viz-scrub.mjs measures
 * real frames in Chromium.
 */
import { render } from '@testing-library/react';
import { test } from 'vitest';
import type { ViewProps } from '../views';
import SequenceView from './SequenceView';
import WaterfallView from './WaterfallView';
import CompareView from './CompareView';
import { buildSequence } from './sequence';
import { loadPage, recordingOf } from './testing';

const sims = [
  await loadPage({ httpVersion: '1.1', loss: 0.05, seed: 3, maxConnectionsPerOrigin: 2 }),
  await loadPage({ httpVersion: '2', tls: '1.3', loss: 0.05, seed: 3 }),
  await loadPage({ httpVersion: '3', tls: '1.3', loss: 0.05, seed: 3 }),
];
// One big source: the same page load repeated, so the sequence view has 1,000+ arrows.
const big = await (async () => {
  const { createSimulation, createServer } = await import('roundtrip/wire');
  const resources = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`/r/${i}`, { body: 'x'.repeat(3000), contentType: 'text/plain' }]));
  const sim = createSimulation({ httpVersion: '1.1', rtt: 100, loss: 0.03, seed: 9, server: createServer({ resources }) });
  await Promise.all(Object.keys(resources).map(async (p) => (await sim.fetch(p)).text()));
  return sim;
})();
const bigRecording = recordingOf([{ sim: big }]);
const compareRecording = recordingOf(
  sims.map((sim) => ({ sim })),
  true,
);
if (bigRecording.steps.length < 1000) throw new Error(`the benchmark trace has only ${bigRecording.steps.length} events`);

function scrubber(View: (p: ViewProps) => unknown, recording: typeof bigRecording) {
  const Component = View as (p: ViewProps) => React.ReactElement;
  const r = render(<Component recording={recording} cursor={0} />);
  let cursor = 0;
  return () => {
    cursor = (cursor + 7) % recording.steps.length;
    r.rerender(<Component recording={recording} cursor={cursor} />);
  };
}

const arrows = buildSequence(big.trace.events).arrows.length;

test(`scrub one step: ${bigRecording.steps.length} events, ${arrows} arrows`, { timeout: 300_000 }, async ({ bench }) => {
  const cases = [
    ['SequenceView', scrubber(SequenceView, bigRecording)],
    ['WaterfallView', scrubber(WaterfallView, bigRecording)],
    [`CompareView (3 runs, ${compareRecording.steps.length} events)`, scrubber(CompareView, compareRecording)],
  ] as const;
  for (const [name, step] of cases) {
    const result = await bench(name, step).run({ iterations: 300, time: 0 });
    const l = result.latency;
    console.log(`${name}: per step mean ${l.mean.toFixed(2)} ms, p99 ${l.p99?.toFixed(2)} ms, max ${l.max.toFixed(2)} ms (goal: < 50 ms)`);
  }
  const build = await bench('buildSequence', () => void buildSequence(big.trace.events)).run({ iterations: 50, time: 0 });
  console.log(`buildSequence (once per recording): mean ${build.latency.mean.toFixed(2)} ms`);
});
