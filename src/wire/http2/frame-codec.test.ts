/**
 * The frame codec against github.com/http2jp/http2-frame-test-case: valid frames decode to the
 * expected fields and re-encode to the same bytes; error cases fail with one of the listed codes.
 * Then the codec on its own: every frame type round-trips, input is handled whole, byte by byte and
 * with trailing data, unknown types are skipped, and annotations cover every byte.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FRAME_TYPE_CODES } from './constants';
import { Http2Error } from './errors';
import { decodeFrames, decodeFramesAnnotated, encodeFrame, encodeFrames, parseFrame } from './frame-codec';
import type { Frame } from './frames';
import { sharedDataPath } from '../../testing/shared-data';

const ROOT = sharedDataPath('http2-frame-test-case');
const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
const text = (b: Uint8Array | undefined) => (b === undefined ? null : new TextDecoder().decode(b));

interface TestCase {
  error: number[] | null;
  wire: string;
  frame: {
    length: number;
    type: number;
    flags: number;
    stream_identifier: number;
    frame_payload: Record<string, unknown>;
  } | null;
  description: string;
}

const cases: [string, TestCase][] = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(join(ROOT, d.name))
      .filter((f) => f.endsWith('.json'))
      .map((f): [string, TestCase] => [`${d.name}/${f}`, JSON.parse(readFileSync(join(ROOT, d.name, f), 'utf8'))]),
  )
  .sort(([a], [b]) => a.localeCompare(b));

/** Our frame in the test suite's vocabulary. */
function payloadOf(frame: Frame): Record<string, unknown> {
  const pad = 'padding' in frame ? frame.padding : undefined;
  const padFields = { padding_length: pad ? pad.length : null, padding: text(pad) };
  switch (frame.type) {
    case 'DATA':
      return { data: text(frame.data), ...padFields };
    case 'HEADERS':
      return {
        header_block_fragment: text(frame.headerBlockFragment),
        stream_dependency: frame.priority?.dependency ?? null,
        weight: frame.priority?.weight ?? null,
        exclusive: frame.priority?.exclusive ?? null,
        ...padFields,
      };
    case 'PRIORITY':
      return { stream_dependency: frame.priority.dependency, weight: frame.priority.weight, exclusive: frame.priority.exclusive, ...padFields };
    case 'RST_STREAM':
      return { error_code: frame.errorCode };
    case 'SETTINGS':
      return { settings: frame.settings.map((s) => [s.id, s.value]) };
    case 'PUSH_PROMISE':
      return { header_block_fragment: text(frame.headerBlockFragment), promised_stream_id: frame.promisedStreamId, ...padFields };
    case 'PING':
      return { opaque_data: text(frame.opaqueData) };
    case 'GOAWAY':
      return { last_stream_id: frame.lastStreamId, error_code: frame.errorCode, additional_debug_data: text(frame.debugData) };
    case 'WINDOW_UPDATE':
      return { window_size_increment: frame.windowSizeIncrement };
    case 'CONTINUATION':
      return { header_block_fragment: text(frame.headerBlockFragment) };
  }
}

describe('http2-frame-test-case', () => {
  it('has the corpus', () => expect(cases.length).toBeGreaterThanOrEqual(34));

  const normal = cases.filter(([, c]) => c.error === null);
  const errors = cases.filter(([, c]) => c.error !== null);

  it.each(normal)('%s decodes to the expected fields and re-encodes to the same bytes', (_name, c) => {
    const wire = hex(c.wire);
    const { frames, rest } = decodeFrames(wire);
    expect(rest).toHaveLength(0);
    expect(frames).toHaveLength(1);
    const frame = frames[0]!;
    const expected = c.frame!;
    expect(FRAME_TYPE_CODES[frame.type]).toBe(expected.type);
    expect(frame.flags).toBe(expected.flags);
    expect(frame.streamId).toBe(expected.stream_identifier);
    expect(wire.length - 9).toBe(expected.length);
    const payload = payloadOf(frame);
    for (const [key, value] of Object.entries(expected.frame_payload)) expect([key, payload[key]]).toEqual([key, value]);
    expect(encodeFrame(frame)).toEqual(wire);
  });

  it.each(errors)('%s fails with one of the listed error codes', (_name, c) => {
    let error: unknown = null;
    try {
      decodeFrames(hex(c.wire));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Http2Error);
    const err = error as Http2Error;
    expect(c.error).toContain(err.errorCode);
    expect(ERROR_CODES[err.code]).toBe(err.errorCode);
    expect(err.side).toBe('remote');
  });
});

const bytes = (s: string) => new TextEncoder().encode(s);

const samples: Frame[] = [
  { type: 'DATA', streamId: 1, flags: 1, data: bytes('hello') },
  { type: 'DATA', streamId: 3, flags: 8, data: bytes(''), padding: new Uint8Array(3) },
  { type: 'HEADERS', streamId: 1, flags: 4, headerBlockFragment: hex('8286') },
  {
    type: 'HEADERS',
    streamId: 5,
    flags: 0x2d,
    headerBlockFragment: hex('82'),
    padding: new Uint8Array(2),
    priority: { exclusive: false, dependency: 3, weight: 256 },
  },
  { type: 'PRIORITY', streamId: 7, flags: 0, priority: { exclusive: true, dependency: 0, weight: 1 } },
  { type: 'RST_STREAM', streamId: 1, flags: 0, errorCode: 8 },
  {
    type: 'SETTINGS',
    streamId: 0,
    flags: 0,
    settings: [
      { id: 3, value: 100 },
      { id: 0xff, value: 7 },
    ],
  },
  { type: 'SETTINGS', streamId: 0, flags: 1, settings: [] },
  { type: 'PUSH_PROMISE', streamId: 1, flags: 4, promisedStreamId: 2, headerBlockFragment: hex('82') },
  { type: 'PING', streamId: 0, flags: 1, opaqueData: bytes('12345678') },
  { type: 'GOAWAY', streamId: 0, flags: 0, lastStreamId: 7, errorCode: 2, debugData: bytes('bye') },
  { type: 'WINDOW_UPDATE', streamId: 0, flags: 0, windowSizeIncrement: 2 ** 31 - 1 },
  { type: 'CONTINUATION', streamId: 1, flags: 4, headerBlockFragment: hex('84') },
];

describe('frame codec', () => {
  it.each(samples.map((f) => [f.type, f] as const))('round-trips a %s frame', (_t, frame) => {
    const wire = encodeFrame(frame);
    const { frames } = decodeFrames(wire);
    expect(frames).toEqual([frame]);
  });

  it('decodes whole, byte by byte, and with trailing data', () => {
    const wire = encodeFrames(samples);
    expect(decodeFrames(wire).frames).toEqual(samples);
    // Byte by byte: feed a growing buffer, keep the rest, collect frames.
    const got: Frame[] = [];
    let pending: Uint8Array = new Uint8Array(0);
    for (const b of wire) {
      const next = new Uint8Array(pending.length + 1);
      next.set(pending);
      next[pending.length] = b;
      const { frames, rest } = decodeFrames(next);
      got.push(...frames);
      pending = rest;
    }
    expect(got).toEqual(samples);
    expect(pending).toHaveLength(0);
    const tail = hex('000005');
    const withTail = new Uint8Array([...wire, ...tail]);
    const r = decodeFrames(withTail);
    expect(r.frames).toEqual(samples);
    expect(r.rest).toEqual(tail);
  });

  it('gives views into the input with `views`, and copies the frame owns without', () => {
    const wire = encodeFrames(samples);
    const bytesOf = (f: Frame): Uint8Array[] => Object.values(f).filter((v): v is Uint8Array => v instanceof Uint8Array);
    for (const views of [false, true]) {
      const got: Frame[] = [];
      for (let offset = 0; offset < wire.length; ) {
        const r = parseFrame(wire, offset, 0xff_ffff, false, views);
        if (r.kind !== 'frame') throw new Error(`expected a frame at ${offset}, got ${r.kind}`);
        got.push(r.frame);
        offset = r.end;
      }
      expect(got).toEqual(samples);
      const fields = got.flatMap(bytesOf).filter((b) => b.length > 0);
      expect(fields.length).toBeGreaterThan(3);
      for (const b of fields) expect(b.buffer === wire.buffer).toBe(views);
    }
  });

  it('skips frames of unknown types (RFC 9113 §4.1)', () => {
    const unknown = hex('000003' + 'fa' + '00' + '00000001' + 'aabbcc');
    const ping = encodeFrame(samples[9]!);
    const { frames, ignored } = decodeFramesAnnotated(new Uint8Array([...unknown, ...ping]));
    expect(frames.map((f) => f.frame)).toEqual([samples[9]]);
    expect(ignored).toEqual([{ typeCode: 0xfa, streamId: 1, flags: 0, start: 0, end: 12 }]);
  });

  it('ignores the reserved bit of the stream id', () => {
    const wire = hex('000004' + '03' + '00' + '80000001' + '00000008');
    expect(decodeFrames(wire).frames[0]).toMatchObject({ type: 'RST_STREAM', streamId: 1 });
  });

  it('honours maxFrameSize', () => {
    const big = encodeFrame({ type: 'DATA', streamId: 1, flags: 0, data: new Uint8Array(20_000) });
    expect(() => decodeFrames(big)).toThrow(expect.objectContaining({ code: 'FRAME_SIZE_ERROR', scope: 'connection' }));
    expect(decodeFrames(big, { maxFrameSize: 20_000 }).frames).toHaveLength(1);
    // Reported from the header alone, before the payload is there.
    expect(() => decodeFrames(big.subarray(0, 9))).toThrow(expect.objectContaining({ code: 'FRAME_SIZE_ERROR' }));
  });

  it.each([
    ['a self-dependent PRIORITY', '000005 02 00 00000003 00000003 10', 'PROTOCOL_ERROR', 'stream'],
    ['SETTINGS_ENABLE_PUSH = 2', '000006 04 00 00000000 0002 00000002', 'PROTOCOL_ERROR', 'connection'],
    ['SETTINGS_INITIAL_WINDOW_SIZE = 2^31', '000006 04 00 00000000 0004 80000000', 'FLOW_CONTROL_ERROR', 'connection'],
    ['SETTINGS_MAX_FRAME_SIZE = 16383', '000006 04 00 00000000 0005 00003fff', 'PROTOCOL_ERROR', 'connection'],
    ['a zero WINDOW_UPDATE on stream 0', '000004 08 00 00000000 00000000', 'PROTOCOL_ERROR', 'connection'],
    ['a zero WINDOW_UPDATE on a stream', '000004 08 00 00000001 00000000', 'PROTOCOL_ERROR', 'stream'],
    ['an empty PADDED DATA frame', '000000 00 08 00000001', 'FRAME_SIZE_ERROR', 'connection'],
    ['a HEADERS frame too short for its priority', '000002 01 20 00000001 0000', 'FRAME_SIZE_ERROR', 'connection'],
    ['CONTINUATION on stream 0', '000000 09 04 00000000', 'PROTOCOL_ERROR', 'connection'],
  ])('rejects %s', (_what, wire, code, scope) => {
    expect(() => decodeFrames(hex(wire.replace(/ /g, '')))).toThrow(expect.objectContaining({ code, scope }));
  });

  it('annotates every byte of a frame exactly once', () => {
    const wire = encodeFrames(samples);
    const { frames } = decodeFramesAnnotated(wire);
    for (const f of frames) {
      const covered = new Uint8Array(f.end - f.start);
      for (const r of f.fields) for (let i = r.start; i < r.end; i++) covered[i - f.start]!++;
      expect([...covered].every((n) => n === 1)).toBe(true);
    }
    expect(frames[0]!.fields.map((r) => r.field)).toEqual(['length', 'type', 'flags', 'streamId', 'data']);
  });

  it('round-trips arbitrary DATA and HEADERS frames (property)', () => {
    const u8 = (max: number) => fc.uint8Array({ maxLength: max });
    const frame = fc.oneof(
      fc.record({
        type: fc.constant('DATA' as const),
        streamId: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        flags: fc.constantFrom(0, 1),
        data: u8(40),
        padding: fc.option(u8(20), { nil: undefined }),
      }),
      fc.record({
        type: fc.constant('HEADERS' as const),
        streamId: fc.integer({ min: 1, max: 1000 }),
        flags: fc.constantFrom(0, 1, 4, 5),
        headerBlockFragment: u8(40),
        padding: fc.option(u8(20), { nil: undefined }),
        priority: fc.option(
          fc.record({ exclusive: fc.boolean(), dependency: fc.integer({ min: 1001, max: 2000 }), weight: fc.integer({ min: 1, max: 256 }) }),
          { nil: undefined },
        ),
      }),
    );
    fc.assert(
      fc.property(frame, (f) => {
        const clean = Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as Frame;
        const decoded = decodeFrames(encodeFrame(clean)).frames[0]!;
        expect(decoded).toMatchObject({ ...clean, flags: expect.any(Number) });
        expect(encodeFrame(decoded)).toEqual(encodeFrame(clean));
      }),
      { numRuns: 200, seed: 3 },
    );
  });
});
