/**
 * What the inspectors compute on every cursor move, on a trace of realistic size: the frame tree of each
 * HTTP/2 frame, the HPACK table replay of a context, the dissection of an HTTP/1.1 connection's bytes and the
 * state machine instances of a recording. Goal (issue #8): a scrubbed step stays well under a 50 ms frame.
 */
import { test } from 'vitest';
import { createServer, createSimulation, http } from 'roundtrip/wire';
import { recordingOf } from './test-recording';
import { endpointsOf, framesAt, frameTree } from './model';
import { blocksAt, contextsOf, replayTables } from './hpack';
import { dissect } from '../message/anatomy';
import { instancesOf } from '../machines/instances';

const server = createServer({ routes: [http.get('/todos/:id', (_request, { params }) => Response.json({ id: params.id, title: 'x'.repeat(40) }))] });
const h2 = createSimulation({ server, httpVersion: '2', seed: 1 });
const h1 = createSimulation({ server, httpVersion: '1.1', seed: 1 });
for (let i = 0; i < 50; i++) {
  await Promise.all([h2.fetch(`/todos/${i}`, { headers: { 'x-request': `r${i}` } }), h1.fetch(`/todos/${i}`)]);
}
const recording = recordingOf([h2, h1]);
const end = recording.steps.length - 1;
const endpoint = endpointsOf(recording)[0]!;
const frames = framesAt(recording, endpoint, end);
const ctx = contextsOf(recording)[0]!;
const requestBytes = Uint8Array.from(h1.trace.events.flatMap((e) => (e.type === 'bytes-sent' && e.from === 'client' ? [e.data] : [])).join(''), (c) =>
  c.charCodeAt(0),
);

// Vitest 5: `bench` is a test-context fixture; `bench.compare` runs each and reports a table.
test(`inspectors on a ${recording.steps.length}-step recording`, { timeout: 120_000 }, async ({ bench }) => {
  const names = {
    trees: `frame trees of ${frames.length} frames`,
    hpack: 'HPACK blocks and table replay of one context',
    dissect: `dissect ${requestBytes.length} bytes of HTTP/1.1 requests`,
    machines: 'state machine instances of the recording',
  };
  const results = await bench.compare(
    bench(names.trees, () => {
      for (const f of frames) frameTree(f.event);
    }),
    bench(names.hpack, () => {
      replayTables(blocksAt(recording, ctx, end));
    }),
    bench(names.dissect, () => {
      dissect(requestBytes, 'request');
    }),
    bench(names.machines, () => {
      instancesOf(recording);
    }),
    { time: 500 },
  );
  for (const name of Object.values(names)) console.log(`${name}: ${(1000 / results.get(name).throughput.mean).toFixed(3)} ms`);
});
