import { beforeAll, describe, expect, it } from 'vitest';
import { createServer, createSimulation, http } from 'roundtrip/wire';
import type { Recording } from '../../recording/model';
import { qpackContexts, type QpackStep } from './qpack-model';
import { recordingOf } from './test-recording';

let recording: Recording;

beforeAll(async () => {
  const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1 }]))] });
  const sim = createSimulation({ server, httpVersion: '3', seed: 7 });
  await sim.fetch('/todos', { headers: { 'x-trace': 'abc' } });
  await sim.fetch('/todos', { headers: { 'x-trace': 'abc' } });
  recording = recordingOf([sim]);
});

const hex = (s: QpackStep) => Array.from(s.bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');

describe('QPACK stepper model', () => {
  it("replays the client's encoder stream and field sections in the order it wrote them", () => {
    const client = qpackContexts(recording).find((c) => c.key.endsWith('/client'))!;
    const kinds = client.steps.map((s) => (s.kind === 'instruction' ? s.record.kind : `section ${s.streamId}`));
    // The first request leaves before the server's SETTINGS: static table only (RFC 9204 §3.2.3). Then the
    // capacity, the inserts the second request needs, and its section.
    expect(kinds).toEqual(['section 0', 'set-capacity', 'insert-name-ref', 'insert-name-ref', 'insert-literal-name', 'section 4']);
    // §4.3.1: 001 + 5-bit prefix 31, then 4096 - 31 = 4065 as 0xe1 0x1f.
    expect(hex(client.steps[1]!)).toBe('3f e1 1f');
    expect(client.steps[1]!.tableAfter.capacity).toBe(4096);
    const last = client.steps[5]!;
    if (last.kind !== 'section') throw new Error('expected a section');
    expect(last.tableAfter.insertCount).toBe(3);
    expect(last.tableAfter.entries.map((e) => `${e.name}: ${e.value}`)).toEqual([':authority: api.example', ':path: /todos', 'x-trace: abc']);
    // Required Insert Count 3 with MaxEntries 4096 / 32 = 128 is sent as 3 % 256 + 1 = 4 (§4.5.1.1).
    expect(last.prefix).toMatchObject({ requiredInsertCount: 3, encodedInsertCount: 4 });
    expect(last.lines.map((l) => l.name)).toEqual([':method', ':scheme', ':authority', ':path', 'x-trace']);
    expect(last.lines.filter((l) => l.table === 'dynamic').map((l) => l.absoluteIndex)).toEqual([0, 1, 2]);
  });

  it('steps through the server side too, its sections after the inserts they reference', () => {
    const server = qpackContexts(recording).find((c) => c.key.endsWith('/server'))!;
    const sections = server.steps.filter((s) => s.kind === 'section');
    expect(sections.map((s) => s.streamId)).toEqual([0, 4]);
    for (const s of sections) expect(s.error).toBeUndefined();
    expect(sections.every((s) => s.lines.some((l) => l.name === ':status' && l.value === '200'))).toBe(true);
  });
});

describe('QPACK stepper model with a lost encoder-stream packet', () => {
  const origin = 'https://api.example';
  const resources = {
    '/app': { body: 'x'.repeat(800), contentType: 'text/html' },
    '/api/status': { body: '{"ok":true}', contentType: 'application/json' },
    '/api/cart': { body: '{"items":3}', contentType: 'application/json' },
  };
  async function load(lossAt: number | undefined) {
    const sim = createSimulation({
      httpVersion: '3',
      rtt: 100,
      bandwidth: Number.POSITIVE_INFINITY,
      ...(lossAt !== undefined ? { lossSchedule: { client: [lossAt] } } : {}),
      server: createServer({ resources }),
    });
    await sim.fetch(`${origin}/app`);
    await sim.fetch(`${origin}/api/status`);
    const mark = sim.trace.events.length;
    await Promise.all([sim.fetch(`${origin}/api/cart`, { headers: { 'x-basket': 'b-2291-7f3a' } }), sim.fetch(`${origin}/app`)]);
    return { sim, mark };
  }

  it('marks the sections the receiver held until the retransmitted inserts arrived, and only those', async () => {
    const clean = await load(undefined);
    // The batch's first byte in the client's application data: every STREAM byte it sent before.
    let offset = 0;
    for (const e of clean.sim.trace.events.slice(0, clean.mark))
      if (e.type === 'quic-packet-sent' && e.from === 'client') for (const f of e.frames) offset += Number(/^STREAM \d+ @\d+\+(\d+)/.exec(f)?.[1] ?? 0);
    const { sim } = await load(offset);
    const blockedEvents = sim.trace.ofType('qpack-blocked').filter((e) => e.side === 'server');
    expect(blockedEvents.length).toBeGreaterThan(0);
    const client = qpackContexts(recordingOf([sim])).find((c) => c.key.endsWith('/client'))!;
    const marked = client.steps.filter((s) => s.kind === 'section' && s.receiverBlocked);
    expect(marked.map((s) => (s.kind === 'section' ? s.streamId : -1))).toEqual(blockedEvents.map((e) => e.streamId));
    // Without the loss nothing is marked.
    const cleanClient = qpackContexts(recordingOf([clean.sim])).find((c) => c.key.endsWith('/client'))!;
    expect(cleanClient.steps.some((x) => x.kind === 'section' && x.receiverBlocked)).toBe(false);
    const blocked = blockedEvents.find((e) =>
      client.steps.some((x) => x.kind === 'section' && x.streamId === e.streamId && x.lines.some((l) => l.name === 'x-basket')),
    )!;
    expect(blocked).toBeDefined();
    const s = marked.find((x) => x.kind === 'section' && x.streamId === blocked.streamId)!;
    if (s.kind !== 'section') throw new Error('expected a section');
    expect(s.receiverBlocked).toMatchObject({ requiredInsertCount: blocked.requiredInsertCount, insertCount: blocked.insertCount });
    expect(s.receiverBlocked!.unblockedAtStep).toBeGreaterThan(s.step);
    // The replay (in the order the encoder wrote) decodes it: the insert it needs was written first.
    expect(s.prefix?.requiredInsertCount).toBe(blocked.requiredInsertCount);
    expect(s.lines.some((l) => l.name === 'x-basket' && l.value === 'b-2291-7f3a')).toBe(true);
  });
});
