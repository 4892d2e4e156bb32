import { describe, expect, it } from 'vitest';
import * as wire from 'roundtrip/wire';
import { HTTP2_FLAGS, HpackEncoder, encodeHttp2Frames, serializeHttp1 } from 'roundtrip/wire';
import { show } from 'roundtrip/playground';
import type { TraceEvent } from 'roundtrip/wire';
import { installOptionsContext } from '../options/context';
import type { Recording } from '../recording/model';
import { VIEWS } from '../viz/views';
import { RecordingStore } from '../viz/recording';
import { createCapture } from './capture';
import { createShowRecorder } from './capture-show';
import { instrumentWireModule } from './capture-wire';

/** A run's capture recorded into the host's store, with show() drawing into it; `recording()` ends the run. */
function run() {
  const store = new RecordingStore();
  const warnings: string[] = [];
  const capture = createCapture({
    runId: 1,
    send: (m) => {
      if (m.type === 'viz-source') store.addSource(m.source);
      else if (m.type === 'viz-events') store.append(m.sourceId, m.events);
    },
    warn: (t) => warnings.push(t),
    schedule: (flush) => queueMicrotask(flush),
    now: () => 0,
  });
  installOptionsContext({ overrides: {}, onSchema: () => {}, show: createShowRecorder(capture, (t) => warnings.push(t)) });
  return {
    warnings,
    recording(): Recording {
      installOptionsContext(undefined);
      capture.flush();
      store.finish();
      return store.snapshot();
    },
  };
}

const wireEvents = (r: Recording, label?: string) =>
  r.sources.filter((s) => s.kind === 'wire' && (label === undefined || s.label === label)).flatMap((s) => s.events as readonly TraceEvent[]);
const applying = (r: Recording) => VIEWS.filter((v) => v.applies(r)).map((v) => v.id);

const request = (path: string) => [
  { name: ':method', value: 'GET' },
  { name: ':scheme', value: 'https' },
  { name: ':authority', value: 'api.example' },
  { name: ':path', value: path },
];

describe('show() outside a playground', () => {
  it('returns its bytes and draws nothing', () => {
    installOptionsContext(undefined);
    const bytes = Uint8Array.of(1, 2, 3);
    expect(show(bytes, { as: 'hpack' })).toBe(bytes);
    expect(show('GET / HTTP/1.1\r\n\r\n', { as: 'http1' })).toBe('GET / HTTP/1.1\r\n\r\n');
  });

  it('says which argument is wrong', () => {
    expect(() => show(42 as unknown as Uint8Array, { as: 'http2' })).toThrow(/bytes must be a Uint8Array or a string, not number/);
    expect(() => show(new Uint8Array(), { as: 'http3' as 'http2' })).toThrow(/options\.as must be one of 'http1', 'http2', 'hpack', not "http3"/);
    expect(() => show(new Uint8Array(), { as: 'http1', from: 'proxy' as 'client' })).toThrow(/options\.from must be 'client' or 'server'/);
  });
});

describe('show() in a playground run', () => {
  it("draws HTTP/2 frames in the Frames view, each frame's bytes as the client wrote them", () => {
    const r = run();
    const hpack = new HpackEncoder();
    const bytes = encodeHttp2Frames([
      { type: 'SETTINGS', streamId: 0, flags: 0, settings: [{ id: 0x3, value: 100 }] },
      { type: 'HEADERS', streamId: 1, flags: HTTP2_FLAGS.END_HEADERS | HTTP2_FLAGS.END_STREAM, headerBlockFragment: hpack.encode(request('/a')) },
    ]);
    show(bytes, { as: 'http2' });
    const recording = r.recording();
    expect(r.warnings).toEqual([]);
    const frames = wireEvents(recording).filter((e) => e.type === 'h2-frame');
    expect(frames.map((e) => [e.frameType, e.streamId, e.side])).toEqual([
      ['SETTINGS', 0, 'client'],
      ['HEADERS', 1, 'client'],
    ]);
    expect(frames[1]!.headers).toContainEqual({ name: ':path', value: '/a' });
    // The bytes written are exactly the frames shown (the preface, which they lacked, goes first on its own).
    const written = wireEvents(recording).flatMap((e) => (e.type === 'bytes-sent' ? [e.data] : []));
    expect(written.slice(1).join('')).toBe(wire.binaryString(bytes));
    expect(written[0]).toBe(wire.binaryString(wire.HTTP2_CLIENT_PREFACE));
    expect(applying(recording)).toEqual(expect.arrayContaining(['frames', 'hpack']));
    expect(applying(recording)).not.toContain('messages');
    // Time moves a step per frame, in order.
    const ats = wireEvents(recording).map((e) => e.at);
    expect(ats).toEqual([...ats].sort((a, b) => a - b));
  });

  it('reads frames shown a few at a time as it reads them shown at once: streams keep their states', () => {
    const hpack = new HpackEncoder();
    const frames = [
      { type: 'HEADERS', streamId: 1, flags: HTTP2_FLAGS.END_HEADERS, headerBlockFragment: hpack.encode(request('/a')) },
      { type: 'DATA', streamId: 1, flags: HTTP2_FLAGS.END_STREAM, data: new TextEncoder().encode('{}') },
    ] as const;
    const read = (chunks: Uint8Array[]) => {
      const r = run();
      for (const chunk of chunks) show(chunk, { as: 'http2' });
      return wireEvents(r.recording()).flatMap((e) =>
        e.type === 'h2-frame' ? [`${e.frameType} ${e.streamId}`] : e.type === 'h2-stream-transition' ? [`${e.side} ${e.streamId}: ${e.from} -> ${e.to}`] : [],
      );
    };
    const once = read([encodeHttp2Frames([...frames])]);
    // Each endpoint's state (RFC 9113 §5.1): the client sends, the server receives.
    expect(once).toEqual([
      'HEADERS 1',
      'client 1: idle -> open',
      'server 1: idle -> open',
      'DATA 1',
      'client 1: open -> half_closed_local',
      'server 1: open -> half_closed_remote',
    ]);
    expect(read(frames.map((f) => encodeHttp2Frames([f])))).toEqual(once);
  });

  it('decodes a second HPACK block with the dynamic table the first filled, per label and side', () => {
    const r = run();
    const encoder = new HpackEncoder();
    show(encoder.encode(request('/todos')), { as: 'hpack' });
    show(encoder.encode(request('/todos?page=2')), { as: 'hpack' });
    const recording = r.recording();
    const frames = wireEvents(recording).filter((e) => e.type === 'h2-frame');
    expect(frames.map((e) => [e.frameType, e.streamId, e.flags])).toEqual([
      ['HEADERS', 1, ['END_HEADERS']],
      ['HEADERS', 3, ['END_HEADERS']],
    ]);
    const authority = frames[1]!.hpack!.find((s) => 'name' in s && s.name === ':authority');
    expect(authority).toMatchObject({ representation: 'indexed', table: 'dynamic' });
    expect(recording.sources.map((s) => s.label)).toEqual(['HPACK blocks (show)']);
    expect(applying(recording)).toContain('hpack');
  });

  it('draws HTTP/1 messages in the Messages view and runs them through the connection table', () => {
    const r = run();
    show('GET /todos HTTP/1.1\r\nHost: api.example\r\n\r\n', { as: 'http1', label: 'one connection' });
    const response = serializeHttp1({ version: '1.1', status: 204, reason: 'No Content', headers: [], body: new Uint8Array() });
    show(response, { as: 'http1', label: 'one connection', from: 'server' });
    const recording = r.recording();
    const events = wireEvents(recording, 'one connection');
    expect(events.flatMap((e) => (e.type === 'bytes-sent' ? [[e.from, e.data.split('\r\n')[0]]] : []))).toEqual([
      ['client', 'GET /todos HTTP/1.1'],
      ['server', 'HTTP/1.1 204 No Content'],
    ]);
    const transitions = events.filter((e) => e.type === 'transition');
    expect(transitions.some((e) => e.machine === 'http1-server' && e.to === 'server:DONE')).toBe(true);
    expect(applying(recording)).toEqual(expect.arrayContaining(['messages', 'machines']));
  });

  it('keeps labels apart, and tells the reader when bytes do not read as what `as` says', () => {
    const r = run();
    show(new TextEncoder().encode('GET / HTTP/1.1\r\n\r\n'), { as: 'http2', label: 'not frames' });
    // What follows on that side depends on the bytes that failed: not drawn, and not warned about again.
    show(encodeHttp2Frames([{ type: 'PING', streamId: 0, flags: 0, opaqueData: new Uint8Array(8) }]), { as: 'http2', label: 'not frames' });
    show('GET / HTTP/1.1\r\n\r\n', { as: 'http1', label: 'a' });
    show('GET / HTTP/1.1\r\n\r\n', { as: 'http1', label: 'b' });
    const recording = r.recording();
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(
      /^show\(bytes, \{ as: 'http2' \}\): .*These bytes, and what this side shows after them with the same label, are not drawn\.$/,
    );
    expect(wireEvents(recording, 'not frames').filter((e) => e.type === 'h2-frame')).toEqual([]);
    expect(recording.sources.map((s) => s.label)).toEqual(['not frames', 'a', 'b']);
  });

  it("keeps the sandbox's show recorder out of the wire module a snippet gets", () => {
    const chunk = { ...wire, createShowRecorder };
    const capture = createCapture({ runId: 1, send: () => {}, warn: () => {} });
    const module = instrumentWireModule(chunk, capture) as Record<string, unknown>;
    expect(module.createShowRecorder).toBeUndefined();
    expect(module.HpackEncoder).toBe(wire.HpackEncoder);
  });
});
