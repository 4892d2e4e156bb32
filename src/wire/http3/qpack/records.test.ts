/**
 * The records the QPACK stepper is built on: per field line and per instruction, byte ranges and the
 * meaning of each group of bits, the same however the encoder stream was split.
 */
import { describe, expect, it } from 'vitest';
import { describeQpackEncoderStream, QpackDecoder } from './decoder';
import { describeQpackDecoderStream } from './decoder-stream';

const hex = (text: string): Uint8Array => Uint8Array.from(text.replace(/\s+/g, '').match(/../g) ?? [], (h) => Number.parseInt(h, 16));

/** RFC 9204 B.2 to B.5's encoder stream, in one piece. */
const ENCODER_STREAM = hex(
  '3fbd01 c00f 7777 772e 6578 616d 706c 652e 636f 6d c10c 2f73 616d 706c 652f 7061 7468' +
    '4a63 7573 746f 6d2d 6b65 790c 6375 7374 6f6d 2d76 616c 7565' +
    '02' +
    '810d 6375 7374 6f6d 2d76 616c 7565 32',
);

describe('encoder-stream records', () => {
  it('are the same whole, one byte at a time, and in uneven chunks', () => {
    const whole = new QpackDecoder({ maxTableCapacity: 220, maxBlockedStreams: 0, annotate: true });
    whole.receiveEncoderStream(ENCODER_STREAM);
    const expected = whole.takeEncoderInstructions();
    expect(expected.map((r) => [r.kind, r.start, r.end])).toEqual([
      ['set-capacity', 0, 3],
      ['insert-name-ref', 3, 20],
      ['insert-name-ref', 20, 34],
      ['insert-literal-name', 34, 58],
      ['duplicate', 58, 59],
      ['insert-name-ref', 59, 74],
    ]);
    const bytewise = new QpackDecoder({ maxTableCapacity: 220, maxBlockedStreams: 0, annotate: true });
    for (const b of ENCODER_STREAM) bytewise.receiveEncoderStream(Uint8Array.of(b));
    expect(bytewise.takeEncoderInstructions()).toEqual(expected);
    const chunked = new QpackDecoder({ maxTableCapacity: 220, maxBlockedStreams: 0, annotate: true });
    for (let i = 0, n = 1; i < ENCODER_STREAM.length; i += n, n = (n % 7) + 2) chunked.receiveEncoderStream(ENCODER_STREAM.subarray(i, i + n));
    expect(chunked.takeEncoderInstructions()).toEqual(expected);
  });

  it('explain each instruction bit by bit, with the table after it', () => {
    const d = new QpackDecoder({ maxTableCapacity: 220, maxBlockedStreams: 0, annotate: true });
    d.receiveEncoderStream(ENCODER_STREAM);
    const [, authority, , literal, duplicate, last] = d.takeEncoderInstructions();
    expect(authority!.parts.map((p) => [p.label, p.start, p.end, p.bits, p.value])).toEqual([
      ['pattern', 3, 4, '1', '1'],
      ['T', 3, 4, '1', true],
      ['name index', 3, 4, '000000', 0],
      ['H', 4, 5, '0', false],
      ['value length', 4, 5, '0001111', 15],
      ['value', 5, 20, undefined, 'www.example.com'],
    ]);
    expect(literal!.parts.map((p) => [p.label, p.start, p.end, p.bits, p.value])).toEqual([
      ['pattern', 34, 35, '01', '01'],
      ['H', 34, 35, '0', false],
      ['name length', 34, 35, '01010', 10],
      ['name', 35, 45, undefined, 'custom-key'],
      ['H', 45, 46, '0', false],
      ['value length', 45, 46, '0001100', 12],
      ['value', 46, 58, undefined, 'custom-value'],
    ]);
    expect(duplicate!.parts.map((p) => p.meaning)).toEqual([
      'Duplicate (RFC 9204 §4.3.4)',
      'relative index 2: absolute index = Insert Count (3) - 2 - 1 = 0 (5-bit prefix integer): copied as absolute index 3',
    ]);
    expect(last).toMatchObject({ evicted: [0], inserted: { absoluteIndex: 4, name: 'custom-key', value: 'custom-value2', size: 55 } });
    expect(last!.tableAfter).toMatchObject({ capacity: 220, size: 215, insertCount: 5 });
    expect(last!.tableAfter.entries.map((e) => e.absoluteIndex)).toEqual([1, 2, 3, 4]);
  });
});

describe('field-line records', () => {
  it('cover the five representations, static and dynamic, relative and post-base, with the N bit', () => {
    const d = new QpackDecoder({ maxTableCapacity: 220, maxBlockedStreams: 0, annotate: true });
    d.receiveEncoderStream(ENCODER_STREAM.subarray(0, 34)); // entries 0 (:authority) and 1 (:path)
    // RIC 2 (encoded 3), S=1 Delta Base 0: Base 1.
    const section = hex('0380 d1 80 10 5103 2f6162 0801 78 6001 79 2361 6263 017a');
    const out = d.decodeFieldSection(0, section);
    if ('blocked' in out) throw new Error('unexpected block');
    expect(out.prefix).toMatchObject({ encodedInsertCount: 3, requiredInsertCount: 2, sign: true, deltaBase: 0, base: 1, start: 0, end: 2 });
    expect(out.prefix!.parts.map((p) => p.meaning)).toEqual([
      'Encoded 3 (8-bit prefix integer) = Required Insert Count 2 (RFC 9204 §4.5.1.1)',
      'S=1: Base is below the Required Insert Count',
      'Base = 2 - 0 - 1 = 1 (RFC 9204 §4.5.1.2)',
    ]);
    expect(out.lines!.map((l) => [l.kind, l.start, l.end, l.table, l.index, l.absoluteIndex, l.postBase, l.neverIndexed, l.name, l.value])).toEqual([
      ['indexed', 2, 3, 'static', 17, null, false, false, ':method', 'GET'],
      ['indexed', 3, 4, 'dynamic', 0, 0, false, false, ':authority', 'www.example.com'],
      ['indexed-post-base', 4, 5, 'dynamic', 0, 1, true, false, ':path', '/sample/path'],
      ['literal-name-ref', 5, 10, 'static', 1, null, false, false, ':path', '/ab'],
      ['literal-post-base-name-ref', 10, 13, 'dynamic', 0, 1, true, true, ':path', 'x'],
      ['literal-name-ref', 13, 16, 'dynamic', 0, 0, false, true, ':authority', 'y'],
      ['literal-name', 16, 22, null, null, null, false, false, 'abc', 'z'],
    ]);
    expect(out.fields[4]).toEqual({ name: ':path', value: 'x', neverIndexed: true });
    const bits = (i: number) => out.lines![i]!.parts.map((p) => `${p.label}=${p.bits ?? ''}`);
    expect(bits(2)).toEqual(['pattern=0001', 'index=0000']);
    expect(bits(4)).toEqual(['pattern=0000', 'N=1', 'name index=000', 'H=0', 'value length=0000001', 'value=']);
    expect(bits(5)).toEqual(['pattern=01', 'N=1', 'T=0', 'name index=0000', 'H=0', 'value length=0000001', 'value=']);
    expect(bits(6)).toEqual(['pattern=001', 'N=0', 'H=0', 'name length=011', 'name=', 'H=0', 'value length=0000001', 'value=']);
    expect(out.lines![4]!.parts[2]!.meaning).toBe('post-base index 0: absolute index = Base (1) + 0 = 1 (3-bit prefix integer): name :path');
  });

  it('say when a string was Huffman-coded and how long it is decoded', () => {
    const d = new QpackDecoder({ maxTableCapacity: 0, maxBlockedStreams: 0, annotate: true });
    // :path with the value "/index.html" Huffman-coded (8 bytes for 11), as nghttp3 sent it (fixtures/ngtcp2-plain-to-server.json).
    const out = d.decodeFieldSection(0, hex('0000 5188 60d5 485f 2bce 9a68'));
    if ('blocked' in out) throw new Error('unexpected block');
    expect(out.fields).toEqual([{ name: ':path', value: '/index.html' }]);
    const [line] = out.lines!;
    expect(line).toMatchObject({ huffmanValue: true, huffmanName: null });
    expect(line!.parts.find((p) => p.label === 'value length')).toMatchObject({ value: 8, meaning: '8 bytes follow (7-bit prefix integer), 11 once decoded' });
  });
});

describe('describeQpackDecoderStream', () => {
  it('reads the three decoder instructions and reports an incomplete tail', () => {
    const { instructions, incomplete } = describeQpackDecoderStream(hex('84 48 01 ff 80 01 7f'));
    expect(instructions.map((i) => [i.kind, i.streamId, i.increment, i.start, i.end])).toEqual([
      ['section-ack', 4, null, 0, 1],
      ['stream-cancel', 8, null, 1, 2],
      ['insert-count-increment', null, 1, 2, 3],
      ['section-ack', 255, null, 3, 6],
    ]);
    expect(incomplete).toBe(1);
    expect(instructions[3]!.parts[1]).toMatchObject({ label: 'stream ID', bits: '1111111', value: 255 });
  });
});

describe('describeQpackEncoderStream', () => {
  it('describes a whole stream, an incomplete tail, and stops at an error with what came before', () => {
    const whole = describeQpackEncoderStream(ENCODER_STREAM);
    expect(whole.instructions).toHaveLength(6);
    expect(whole).toMatchObject({ incomplete: 0, error: null, table: { size: 215, insertCount: 5 } });
    expect(describeQpackEncoderStream(ENCODER_STREAM.subarray(0, 30))).toMatchObject({ incomplete: 10, error: null });
    // A Duplicate of relative index 9 after the capacity and two inserts.
    const bad = describeQpackEncoderStream(Uint8Array.from([...ENCODER_STREAM.subarray(0, 34), 0x09]), { maxTableCapacity: 220 });
    expect(bad.instructions).toHaveLength(3);
    expect(bad.error).toMatchObject({ code: 'QPACK_ENCODER_STREAM_ERROR', offset: 34 });
    expect(describeQpackEncoderStream(hex('3fbe01'), { maxTableCapacity: 220 }).error?.message).toMatch(/221 exceeds the 220/);
  });
});
