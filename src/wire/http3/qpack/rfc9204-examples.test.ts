/**
 * RFC 9204 Appendix B, byte for byte in both directions: our encoder writes the encoder stream and field
 * sections the RFC shows, our decoder reads them and writes the decoder-stream bytes it shows, and both
 * tables match the RFC's after every step (Abs, Ref, the acknowledged line, Size).
 *
 * The RFC's encoder makes choices no policy has to make (a speculative insert in B.3, a Duplicate in B.4,
 * an insert with a dynamic name reference in B.5): those steps call `insert` / `duplicate` explicitly.
 * The examples send strings without Huffman coding, so the encoder runs with `huffman: 'never'`.
 */
import { describe, expect, it } from 'vitest';
import { QpackDecoder } from './decoder';
import { QpackEncoder } from './encoder';

const hex = (text: string): Uint8Array => Uint8Array.from(text.replace(/\s+/g, '').match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** Rows as the RFC draws them: [Abs, Ref, name, value], and whether each is above the acknowledged line. */
function encoderRows(encoder: QpackEncoder) {
  return encoder.tableState().entries.map((e) => [e.absoluteIndex, e.references, e.name, e.value, e.acknowledged]);
}
const decoderRows = (decoder: QpackDecoder) => decoder.tableState().entries.map((e) => [e.absoluteIndex, e.name, e.value]);

describe('RFC 9204 Appendix B', () => {
  // One encoder and one decoder through all five examples, as in the RFC.
  const encoder = new QpackEncoder({ maxTableCapacity: 220, maxBlockedStreams: 100, tableCapacity: 0, huffman: 'never', annotate: true });
  const decoder = new QpackDecoder({ maxTableCapacity: 220, maxBlockedStreams: 100, annotate: true });

  it('B.1 literal field line with a static name reference', () => {
    const out = encoder.encodeFieldSection(0, [{ name: ':path', value: '/index.html' }]);
    expect(toHex(out.encoderStream)).toBe('');
    expect(toHex(out.fieldSection)).toBe('0000510b2f696e6465782e68746d6c');
    expect(out.lines?.[0]).toMatchObject({ kind: 'literal-name-ref', table: 'static', index: 1, huffmanValue: false, start: 2, end: 15 });

    const decoded = decoder.decodeFieldSection(0, hex('0000 510b 2f69 6e64 6578 2e68 746d 6c'));
    expect(decoded).toMatchObject({ fields: [{ name: ':path', value: '/index.html' }], prefix: { requiredInsertCount: 0, base: 0 } });
    expect(toHex(decoder.takeDecoderStream())).toBe('');
    expect(encoder.tableState()).toMatchObject({ size: 0, entries: [] });
  });

  it('B.2 dynamic table: capacity, two inserts, a blocking section with post-base indexes, its acknowledgment', () => {
    encoder.setTableCapacity(220);
    const out = encoder.encodeFieldSection(4, [
      { name: ':authority', value: 'www.example.com' },
      { name: ':path', value: '/sample/path' },
    ]);
    expect(toHex(out.encoderStream)).toBe(toHex(hex('3fbd01 c00f 7777 772e 6578 616d 706c 652e 636f 6d c10c 2f73 616d 706c 652f 7061 7468')));
    expect(toHex(out.fieldSection)).toBe('03811011');
    expect(out.instructions?.map((i) => i.kind)).toEqual(['set-capacity', 'insert-name-ref', 'insert-name-ref']);
    expect(out.prefix).toMatchObject({ encodedInsertCount: 3, requiredInsertCount: 2, sign: true, deltaBase: 1, base: 0 });
    expect(out.lines?.map((l) => [l.kind, l.index, l.absoluteIndex])).toEqual([
      ['indexed-post-base', 0, 0],
      ['indexed-post-base', 1, 1],
    ]);
    expect(encoderRows(encoder)).toEqual([
      [0, 1, ':authority', 'www.example.com', false],
      [1, 1, ':path', '/sample/path', false],
    ]);
    expect(encoder.tableState().size).toBe(106);

    // The section arrives first: stream 4 blocks, then the encoder stream unblocks it.
    expect(decoder.decodeFieldSection(4, hex('0381 10 11'))).toEqual({ blocked: true, requiredInsertCount: 2, insertCount: 0 });
    expect(decoder.blockedStreams).toEqual([4]);
    const unblocked = decoder.receiveEncoderStream(out.encoderStream);
    expect(unblocked).toHaveLength(1);
    expect(unblocked[0]).toMatchObject({
      streamId: 4,
      fields: [
        { name: ':authority', value: 'www.example.com' },
        { name: ':path', value: '/sample/path' },
      ],
    });
    expect(decoder.tableState()).toMatchObject({ capacity: 220, size: 106, insertCount: 2 });
    const records = decoder.takeEncoderInstructions();
    expect(records.map((r) => [r.kind, r.start, r.end, r.capacity, r.table, r.index, r.inserted?.size ?? null])).toEqual([
      ['set-capacity', 0, 3, 220, null, null, null],
      ['insert-name-ref', 3, 20, null, 'static', 0, 57],
      ['insert-name-ref', 20, 34, null, 'static', 1, 49],
    ]);
    expect(records[0]!.parts.map((p) => [p.label, p.bits, p.value])).toEqual([
      ['pattern', '001', '001'],
      ['capacity', '11111', 220],
    ]);
    expect(records).toEqual(out.instructions);
    // The acknowledgment implies both inserts: no Insert Count Increment (§4.4.1, §2.2.2.3).
    expect(toHex(decoder.takeDecoderStream())).toBe('84');

    encoder.receiveDecoderStream(hex('84'));
    expect(encoder.takeDecoderInstructions().map((i) => [i.kind, i.streamId])).toEqual([['section-ack', 4]]);
    expect(encoderRows(encoder)).toEqual([
      [0, 0, ':authority', 'www.example.com', true],
      [1, 0, ':path', '/sample/path', true],
    ]);
    expect(encoder.knownReceivedCount).toBe(2);
  });

  it('B.3 speculative insert with a literal name, acknowledged by Insert Count Increment', () => {
    expect(encoder.insert({ name: 'custom-key', value: 'custom-value' })).toBe(2);
    const stream = encoder.takeEncoderStream();
    expect(toHex(stream)).toBe(toHex(hex('4a63 7573 746f 6d2d 6b65 790c 6375 7374 6f6d 2d76 616c 7565')));
    expect(encoderRows(encoder)[2]).toEqual([2, 0, 'custom-key', 'custom-value', false]);
    expect(encoder.tableState().size).toBe(160);

    expect(decoder.receiveEncoderStream(stream)).toEqual([]);
    const records = decoder.takeEncoderInstructions();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ kind: 'insert-literal-name', start: 34, end: 58, inserted: { absoluteIndex: 2, size: 54 } });
    expect(toHex(decoder.takeDecoderStream())).toBe('01');

    encoder.receiveDecoderStream(hex('01'));
    expect(encoder.knownReceivedCount).toBe(3);
    expect(encoderRows(encoder).map((r) => r[4])).toEqual([true, true, true]);
  });

  let delayedEncoderStream: Uint8Array = new Uint8Array(0);

  it('B.4 Duplicate, a section referencing it, and Stream Cancellation before the insert arrives', () => {
    expect(encoder.duplicate(0)).toBe(3);
    const out = encoder.encodeFieldSection(8, [
      { name: ':authority', value: 'www.example.com' },
      { name: ':path', value: '/' },
      { name: 'custom-key', value: 'custom-value' },
    ]);
    expect(toHex(out.encoderStream)).toBe('02');
    expect(toHex(out.fieldSection)).toBe('050080c181');
    expect(out.instructions?.[0]).toMatchObject({ kind: 'duplicate', index: 2, referencedIndex: 0, inserted: { absoluteIndex: 3 } });
    expect(out.lines?.map((l) => [l.kind, l.table, l.index, l.absoluteIndex])).toEqual([
      ['indexed', 'dynamic', 0, 3],
      ['indexed', 'static', 1, null],
      ['indexed', 'dynamic', 1, 2],
    ]);
    expect(encoderRows(encoder)).toEqual([
      [0, 0, ':authority', 'www.example.com', true],
      [1, 0, ':path', '/sample/path', true],
      [2, 1, 'custom-key', 'custom-value', true],
      [3, 1, ':authority', 'www.example.com', false],
    ]);
    expect(encoder.tableState().size).toBe(217);
    expect(encoder.blockingStreams).toEqual([8]);

    // The encoder-stream packet is delayed: the section blocks, then the stream is cancelled.
    delayedEncoderStream = out.encoderStream;
    expect(decoder.decodeFieldSection(8, hex('0500 80 c1 81'))).toMatchObject({ blocked: true, requiredInsertCount: 4, insertCount: 3 });
    decoder.cancelStream(8);
    expect(decoder.blockedStreams).toEqual([]);
    expect(toHex(decoder.takeDecoderStream())).toBe('48');

    encoder.receiveDecoderStream(hex('48'));
    expect(encoderRows(encoder)).toEqual([
      [0, 0, ':authority', 'www.example.com', true],
      [1, 0, ':path', '/sample/path', true],
      [2, 0, 'custom-key', 'custom-value', true],
      [3, 0, ':authority', 'www.example.com', false],
    ]);
    expect(encoder.blockingStreams).toEqual([]);
  });

  it('B.5 insert with a dynamic name reference evicts the oldest entry', () => {
    expect(encoder.insert({ name: 'custom-key', value: 'custom-value2' })).toBe(4);
    const stream = encoder.takeEncoderStream();
    expect(toHex(stream)).toBe(toHex(hex('810d 6375 7374 6f6d 2d76 616c 7565 32')));
    expect(encoderRows(encoder)).toEqual([
      [1, 0, ':path', '/sample/path', true],
      [2, 0, 'custom-key', 'custom-value', true],
      [3, 0, ':authority', 'www.example.com', false],
      [4, 0, 'custom-key', 'custom-value2', false],
    ]);
    expect(encoder.tableState().size).toBe(215);

    // The delayed Duplicate arrives, then the insert: the decoder's table ends where the encoder's is.
    expect(decoder.receiveEncoderStream(delayedEncoderStream)).toEqual([]);
    expect(decoder.receiveEncoderStream(stream)).toEqual([]);
    const records = decoder.takeEncoderInstructions();
    expect(records.map((r) => [r.kind, r.table, r.index, r.referencedIndex, r.evicted])).toEqual([
      ['duplicate', 'dynamic', 2, 0, []],
      ['insert-name-ref', 'dynamic', 1, 2, [0]],
    ]);
    expect(records[1]!.tableAfter.size).toBe(215);
    expect(decoderRows(decoder)).toEqual([
      [1, ':path', '/sample/path'],
      [2, 'custom-key', 'custom-value'],
      [3, ':authority', 'www.example.com'],
      [4, 'custom-key', 'custom-value2'],
    ]);
    expect(decoder.tableState().size).toBe(215);
    expect(toHex(decoder.takeDecoderStream())).toBe('02');
  });
});

describe('RFC 9204 §4.5.1.1 Required Insert Count wrap', () => {
  it("the RFC's example: a 100-byte table encodes modulo 6; after 10 inserts, 4 means 9", () => {
    const encoder = new QpackEncoder({ maxTableCapacity: 100, maxBlockedStreams: 0, huffman: 'never' });
    const decoder = new QpackDecoder({ maxTableCapacity: 100, maxBlockedStreams: 0 });
    // Ten 34-byte entries, each acknowledged so that the next may evict it; the table keeps the last two.
    for (let i = 0; i < 10; i++) {
      encoder.insert({ name: 'x', value: String(i) });
      decoder.receiveEncoderStream(encoder.takeEncoderStream());
      encoder.receiveDecoderStream(decoder.takeDecoderStream());
    }
    expect(decoder.tableState().entries.map((e) => e.absoluteIndex)).toEqual([8, 9]);
    const out = encoder.encodeFieldSection(0, [{ name: 'x', value: '8' }]);
    // Required Insert Count 9 -> 9 mod 6 + 1 = 4; Base 10 = 9 + 1 (S=0); relative index 1 -> absolute 8.
    expect(toHex(out.fieldSection)).toBe('040181');
    expect(decoder.decodeFieldSection(0, out.fieldSection)).toEqual({ fields: [{ name: 'x', value: '8' }] });
  });

  it('keeps decoding across many wraps of a tiny table', () => {
    const encoder = new QpackEncoder({ maxTableCapacity: 64, maxBlockedStreams: 1 });
    const decoder = new QpackDecoder({ maxTableCapacity: 64, maxBlockedStreams: 1 });
    // MaxEntries 2, so the encoded Required Insert Count runs 1-4 and wraps every 4 inserts.
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const fields = [{ name: 'x-n', value: String(i % 3) }];
      const out = encoder.encodeFieldSection(i * 4, fields);
      seen.add(out.fieldSection[0]!);
      decoder.receiveEncoderStream(out.encoderStream);
      expect(decoder.decodeFieldSection(i * 4, out.fieldSection)).toEqual({ fields });
      encoder.receiveDecoderStream(decoder.takeDecoderStream());
    }
    expect(encoder.insertCount).toBeGreaterThan(8);
    // Every encoded value 1-4 occurred (0 only for a section with no dynamic reference), nothing above.
    expect([1, 2, 3, 4].every((v) => seen.has(v))).toBe(true);
    expect(Math.max(...seen)).toBe(4);
  });
});
