import { describe, expect, it } from 'vitest';
import type { Recording } from '../recording/model';
import { RecordingStore } from '../viz/recording';
import { recordingChunks, requestText, workerMessages } from './chunks';
import { inspect } from './inspect';

/** Two sources whose events interleave: a, a, b, a, b, b, b, a. */
const recording = {
  sources: [
    { id: 'a', kind: 'wire', label: 'A', events: [{ n: 'a0' }, { n: 'a1' }, { n: 'a2' }, { n: 'a3' }] },
    { id: 'b', kind: 'wire', label: 'B', events: [{ n: 'b0' }, { n: 'b1' }, { n: 'b2' }, { n: 'b3' }] },
  ],
  steps: ['a0', 'a1', 'b0', 'a2', 'b1', 'b2', 'b3', 'a3'].map((n) => ({ sourceId: n[0]!, index: Number(n[1]) })),
} as unknown as Recording;

describe('recordingChunks', () => {
  it('splits the events into chunks of at most the size, whose parts rebuild the same steps in a store', () => {
    const chunks = [...recordingChunks(recording, 3)];
    expect(chunks.map((c) => c.reduce((n, p) => n + p.events.length, 0))).toEqual([3, 3, 2]);
    expect(chunks[0]!.map((p) => `${p.sourceId}:${p.events.length}`)).toEqual(['a:2', 'b:1']);
    const store = new RecordingStore();
    for (const s of recording.sources) store.addSource({ id: s.id, kind: s.kind, label: s.label });
    for (const parts of chunks) for (const p of parts) store.append(p.sourceId, p.events);
    expect(store.snapshot().steps).toEqual(recording.steps);
    expect(store.snapshot().sources.map((s) => s.events)).toEqual(recording.sources.map((s) => s.events));
  });

  it('is what the worker sends after the result: every event once, then the end', () => {
    const result = inspect({ text: 'GET / HTTP/1.1\nHost: a\n\nHTTP/1.1 204 No Content\n\n' });
    const messages = [...workerMessages(7, result, 5)];
    const head = messages[0]!;
    expect(head).toMatchObject({ id: 7, type: 'result', events: result.recording!.steps.length });
    expect(head.type === 'result' && 'recording' in head.result).toBe(false);
    const sent = messages.flatMap((m) => (m.type === 'chunk' ? m.parts.flatMap((p) => p.events) : []));
    expect(sent).toEqual(result.recording!.steps.map((s) => result.recording!.sources.find((x) => x.id === s.sourceId)!.events[s.index]));
    expect(messages.at(-1)).toEqual({ id: 7, type: 'end' });
    // The replay's exchanges come after the events, each once.
    const exchanges = messages.flatMap((m) => (m.type === 'replay' ? m.exchanges : []));
    expect(exchanges).toEqual(result.replay!.exchanges);
    expect(head.type === 'result' && head.result.replay?.exchanges).toEqual([]);
    // A reading without a recording is one message.
    expect([...workerMessages(8, inspect({ text: '' }))].map((m) => m.type)).toEqual(['result']);
  });

  it("reads a file's bytes as UTF-8 when no text comes with them, as the page did", () => {
    const bytes = Uint8Array.from([0x63, 0x61, 0x66, 0xc3, 0xa9, 0xff]);
    expect(requestText({ bytes })).toBe('café\ufffd');
    expect(requestText({ text: 'typed', bytes })).toBe('typed');
  });
});
