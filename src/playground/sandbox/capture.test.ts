import { describe, expect, it } from 'vitest';
import { createSimulation, createServer, http } from 'roundtrip/wire';
import * as wire from 'roundtrip/wire';
import { createCapture } from './capture';
import { instrumentWireModule, summarizeSimulation } from './capture-wire';
import { parseSandboxMessage, type SandboxToHost } from './protocol';

function harness(maxEvents?: number, sliceMs?: number) {
  const sent: SandboxToHost[] = [];
  const warnings: string[] = [];
  const flushes: (() => void)[] = [];
  const clock = { ms: 0 };
  const capture = createCapture({
    runId: 7,
    send: (m) => sent.push(m),
    warn: (t) => warnings.push(t),
    schedule: (f) => flushes.push(f),
    now: () => clock.ms,
    ...(maxEvents === undefined ? {} : { maxEvents }),
    ...(sliceMs === undefined ? {} : { sliceMs }),
  });
  const endTask = () => flushes.splice(0).forEach((f) => f());
  return { capture, sent, warnings, endTask, clock };
}

/** Each viz-events message as [source id, the events' `at`s]. */
const batches = (sent: SandboxToHost[]) => sent.flatMap((m) => (m.type === 'viz-events' ? [[m.sourceId, m.events.map((e) => e.at)]] : []));

describe('capture', () => {
  it('numbers sources by kind and announces each one', () => {
    const { capture, sent } = harness();
    expect(capture.addSource('wire', 'A').id).toBe('sim-1');
    expect(capture.addSource('query', 'Q').id).toBe('client-1');
    expect(capture.addSource('wire', 'B', { rtt: 100 }).id).toBe('sim-2');
    expect(sent).toEqual([
      { v: 1, type: 'viz-source', runId: 7, source: { id: 'sim-1', kind: 'wire', label: 'A' } },
      { v: 1, type: 'viz-source', runId: 7, source: { id: 'client-1', kind: 'query', label: 'Q' } },
      { v: 1, type: 'viz-source', runId: 7, source: { id: 'sim-2', kind: 'wire', label: 'B', options: { rtt: 100 } } },
    ]);
  });

  it('sends the first event at once, then one message per task for the next 10,000', () => {
    const { capture, sent, endTask } = harness();
    const source = capture.addSource('wire', 'A');
    sent.length = 0;
    for (let i = 0; i < 10_001; i++) source.push({ at: i });
    expect(batches(sent)).toEqual([['sim-1', [0]]]);
    endTask();
    expect(sent).toHaveLength(2);
    const msg = sent[1]!;
    expect(msg.type === 'viz-events' && msg.events.length).toBe(10_000);
    expect(msg.type === 'viz-events' && msg.events[0]?.at).toBe(1);
    endTask();
    expect(sent).toHaveLength(2);
  });

  it("only the run's first event skips the batch, not each source's", () => {
    const { capture, sent, endTask } = harness();
    const a = capture.addSource('wire', 'A');
    const b = capture.addSource('wire', 'B');
    sent.length = 0;
    a.push({ at: 1 });
    b.push({ at: 1 });
    a.push({ at: 2 });
    expect(batches(sent)).toEqual([['sim-1', [1]]]);
    endTask();
    expect(batches(sent)).toEqual([
      ['sim-1', [1]],
      ['sim-2', [1]],
      ['sim-1', [2]],
    ]);
  });

  it('sends what a long task queued every sliceMs, in order, and the rest at its end', () => {
    const { capture, sent, endTask, clock } = harness(undefined, 50);
    const a = capture.addSource('wire', 'A');
    sent.length = 0;
    a.push({ at: 0 });
    // One task that records for 120 ms: a slice starts with the first event queued after a send.
    for (let i = 1; i <= 12; i++) {
      clock.ms = i * 10;
      a.push({ at: i });
    }
    expect(batches(sent)).toEqual([
      ['sim-1', [0]],
      ['sim-1', [1, 2, 3, 4, 5, 6]],
      ['sim-1', [7, 8, 9, 10, 11, 12]],
    ]);
    clock.ms = 125;
    a.push({ at: 13 });
    expect(sent).toHaveLength(3);
    endTask();
    expect(batches(sent).at(-1)).toEqual(['sim-1', [13]]);
  });

  it('with sliceMs Infinity, a task sends only at its end', () => {
    const { capture, sent, endTask, clock } = harness(undefined, Infinity);
    const a = capture.addSource('wire', 'A');
    sent.length = 0;
    for (let i = 0; i < 5; i++) {
      clock.ms = i * 1000;
      a.push({ at: i });
    }
    expect(batches(sent)).toEqual([['sim-1', [0]]]);
    endTask();
    expect(batches(sent)).toEqual([
      ['sim-1', [0]],
      ['sim-1', [1, 2, 3, 4]],
    ]);
  });

  it('keeps the order of interleaved sources', () => {
    const { capture, sent, endTask } = harness();
    const a = capture.addSource('wire', 'A');
    const b = capture.addSource('wire', 'B');
    a.push({ at: 0 });
    sent.length = 0;
    a.push({ at: 1 });
    a.push({ at: 2 });
    b.push({ at: 1 });
    a.push({ at: 3 });
    endTask();
    expect(batches(sent)).toEqual([
      ['sim-1', [1, 2]],
      ['sim-2', [1]],
      ['sim-1', [3]],
    ]);
  });

  it('flushes queued events before announcing a new source', () => {
    const { capture, sent } = harness();
    const a = capture.addSource('wire', 'A');
    a.push({ at: 1 });
    capture.addSource('wire', 'B');
    expect(sent.map((m) => m.type)).toEqual(['viz-source', 'viz-events', 'viz-source']);
  });

  it('caps a run and says so once', () => {
    const { capture, sent, warnings, endTask } = harness(5);
    const a = capture.addSource('wire', 'A');
    for (let i = 0; i < 12; i++) a.push({ at: i });
    endTask();
    const events = sent.flatMap((m) => (m.type === 'viz-events' ? m.events : []));
    expect(events).toHaveLength(5);
    expect(capture.recorded).toBe(5);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/recorded 5 events/);
  });

  it('leaves out events that cannot be cloned, with a notice', () => {
    const sent: SandboxToHost[] = [];
    const warnings: string[] = [];
    const capture = createCapture({
      runId: 1,
      send: (m) => {
        structuredClone(m);
        sent.push(m);
      },
      warn: (t) => warnings.push(t),
      schedule: (f) => f(),
    });
    const a = capture.addSource('wire', 'A');
    a.push({ at: 1 });
    a.push({ at: 2, fn: () => 1 } as { at: number });
    expect(warnings[0]).toMatch(/1 event\(s\) of sim-1/);
    expect(sent.filter((m) => m.type === 'viz-events').flatMap((m) => (m.type === 'viz-events' ? m.events : []))).toEqual([{ at: 1 }]);
  });

  it("moves the run's clock with each simulation's time, from where it stood when the simulation was made", () => {
    const readings: number[] = [];
    const run = { at: 1_000, now: () => run.at, catchUp: (to: number) => void (to > run.at && readings.push((run.at = to))) };
    const capture = createCapture({ runId: 1, send: () => {}, warn: () => {}, schedule: () => {}, clock: run });
    const first = capture.addSource('wire', 'A');
    first.push({ type: 'x', at: 0 } as never);
    first.push({ type: 'x', at: 250 } as never);
    const query = capture.addSource('query', 'Q');
    query.push({ kind: 'environment', at: 99_999, online: true, focused: true } as never);
    run.at = 2_000; // the snippet slept
    const second = capture.addSource('wire', 'B');
    second.push({ type: 'x', at: 100 } as never);
    first.push({ type: 'x', at: 300 } as never); // behind the clock now: no move back
    // Query events are stamped by the clock, not the other way round.
    expect(readings).toEqual([1_250, 2_100]);
  });

  it('routes devtools actions to the source that registered a handler', () => {
    const { capture, warnings } = harness();
    const q = capture.addSource('query', 'Q');
    const got: unknown[] = [];
    q.onAction((action) => got.push(action));
    expect(capture.dispatch('client-1', { type: 'set-online', online: false })).toBe(true);
    expect(capture.dispatch('client-2', { type: 'set-online', online: false })).toBe(false);
    expect(got).toEqual([{ type: 'set-online', online: false }]);
    q.onAction(() => {
      throw new Error('no such query');
    });
    capture.dispatch('client-1', { type: 'refetch', queryHash: '["x"]' });
    expect(warnings[0]).toMatch(/"refetch" failed: no such query/);
  });
});

describe('capture-wire', () => {
  it('records every simulation as a wire source streaming its trace', async () => {
    const { capture, sent, endTask } = harness();
    const instrumented = instrumentWireModule(wire, capture);
    expect(instrumented.createServer).toBe(wire.createServer);
    const server = createServer({ routes: [http.get('/x', () => new Response('hi'))] });
    const sim = instrumented.createSimulation({ server, httpVersion: '2', tls: '1.3', rtt: 100, loss: 0.1, seed: 3 });
    const labelled = instrumented.createSimulation({ server, label: 'Mine' });
    await sim.fetch('/x');
    endTask();
    const sources = sent.flatMap((m) => (m.type === 'viz-source' ? [m.source] : []));
    expect(sources.map((s) => [s.id, s.label])).toEqual([
      ['sim-1', 'HTTP/2 · TLS 1.3 · 100 ms RTT · loss 10%'],
      ['sim-2', 'Mine'],
    ]);
    expect(sources[0]!.options).toMatchObject({ httpVersion: '2', tls: '1.3', rtt: 100, loss: 0.1 });
    const events = sent.flatMap((m) => (m.type === 'viz-events' && m.sourceId === 'sim-1' ? m.events : []));
    expect(events).toEqual(sim.trace.events);
    expect(labelled.trace.events).toHaveLength(0);
    // What the capture sends is what the host accepts.
    for (const m of sent) expect(parseSandboxMessage(structuredClone(m))).not.toBeNull();
  });

  it('summarizes the options that matter', () => {
    const sim = createSimulation({ httpVersion: '1.1', maxConnectionsPerOrigin: 1, pipelining: true });
    expect(summarizeSimulation(sim.options)).toBe('HTTP/1.1 · 100 ms RTT · pipelining · 1 connection');
    expect(summarizeSimulation(createSimulation({ httpVersion: '1.0' }).options)).toBe('HTTP/1.0 · 100 ms RTT · no keep-alive');
  });
});
