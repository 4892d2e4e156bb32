/**
 * Every QPACK error path (RFC 9204 §2.1.2, §2.2.1, §2.2.3, §3.1, §3.2.2, §4.1.1, §4.3, §4.4, §4.5.1) with its
 * code, numeric error code and the offset where it was found; and the decoder stays failed afterwards.
 */
import { describe, expect, it } from 'vitest';
import { QpackDecoder } from './decoder';
import { QpackEncoder } from './encoder';
import { QpackError, type QpackErrorCode } from './errors';

const hex = (text: string): Uint8Array => Uint8Array.from(text.replace(/\s+/g, '').match(/../g) ?? [], (h) => Number.parseInt(h, 16));

function caught(run: () => unknown): QpackError {
  try {
    run();
  } catch (error) {
    if (error instanceof QpackError) return error;
    throw error;
  }
  throw new Error('expected a QpackError');
}

function expectError(run: () => unknown, code: QpackErrorCode, offset: number, message: RegExp): QpackError {
  const error = caught(run);
  expect({ code: error.code, offset: error.offset, side: error.side }).toEqual({ code, offset, side: 'remote' });
  expect(error.errorCode).toBe({ QPACK_DECOMPRESSION_FAILED: 0x200, QPACK_ENCODER_STREAM_ERROR: 0x201, QPACK_DECODER_STREAM_ERROR: 0x202 }[code]);
  expect(error.message).toMatch(message);
  return error;
}

/** A decoder holding the RFC 9204 B.2 entries: 0 = :authority www.example.com, 1 = :path /sample/path. */
function withTwoEntries(options: { maxBlockedStreams?: number } = {}): QpackDecoder {
  const d = new QpackDecoder({ maxTableCapacity: 220, maxBlockedStreams: options.maxBlockedStreams ?? 1 });
  d.receiveEncoderStream(hex('3fbd01 c00f 7777 772e 6578 616d 706c 652e 636f 6d c10c 2f73 616d 706c 652f 7061 7468'));
  return d;
}

describe('QPACK_DECOMPRESSION_FAILED (field sections)', () => {
  it('a static index beyond 98 (§3.1)', () => {
    const e = expectError(
      () => withTwoEntries().decodeFieldSection(4, hex('0000 d1 ff24')),
      'QPACK_DECOMPRESSION_FAILED',
      3,
      /Static table index 99 does not exist/,
    );
    expect(e.streamId).toBe(4);
    expect(e.input).toBe('field-section');
  });

  it('a static name index beyond 98 in a literal (§3.1)', () => {
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0000 5f54 00')), 'QPACK_DECOMPRESSION_FAILED', 2, /Static table index 99/);
  });

  it('a relative index at or beyond the Base points before entry 0 (§3.2.5)', () => {
    // RIC 2, Base 2; relative index 2 -> absolute -1.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0300 80 82')), 'QPACK_DECOMPRESSION_FAILED', 3, /before the first entry/);
  });

  it('a reference at or above the Required Insert Count (§2.2.3)', () => {
    // RIC 1, Base 1 + 1 = 2: relative 0 is absolute 1, not below RIC 1.
    expectError(
      () => withTwoEntries().decodeFieldSection(0, hex('0201 80')),
      'QPACK_DECOMPRESSION_FAILED',
      2,
      /absolute index 1, but the Required Insert Count is 1/,
    );
    // A post-base reference with RIC 0.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0000 10')), 'QPACK_DECOMPRESSION_FAILED', 2, /Required Insert Count is 0/);
    // A dynamic name reference in a literal, Base 0.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0000 4001 61')), 'QPACK_DECOMPRESSION_FAILED', 2, /before the first entry/);
  });

  it('a reference to an evicted entry (§2.2.3)', () => {
    const d = new QpackDecoder({ maxTableCapacity: 100, maxBlockedStreams: 0 });
    // Capacity 100; insert x=1 (34 bytes) twice... then three: the first is evicted.
    d.receiveEncoderStream(hex('3f45 4178 0131 4178 0132 4178 0133'));
    expect(d.tableState().entries.map((e) => e.absoluteIndex)).toEqual([1, 2]);
    // RIC 3 (encoded 3 % 6 + 1 = 4), Base 3: relative 2 -> absolute 0, evicted.
    expectError(() => d.decodeFieldSection(0, hex('0400 82 81')), 'QPACK_DECOMPRESSION_FAILED', 2, /absolute index 0, which has already been evicted/);
  });

  it('a post-base name reference to an entry that is not below the Required Insert Count', () => {
    // RIC 1 (encoded 2), S=1 delta 0 -> Base 0; post-base name index 1 -> absolute 1 >= RIC.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0280 01 00')), 'QPACK_DECOMPRESSION_FAILED', 2, /post-base name reference 1/);
  });

  it('an encoded Required Insert Count above 2 * MaxEntries (§4.5.1.1)', () => {
    // MaxEntries = 220 / 32 = 6, FullRange 12.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0d00')), 'QPACK_DECOMPRESSION_FAILED', 0, /at most 2 \* MaxEntries = 12/);
  });

  it('a Required Insert Count that no encoder could have sent (§4.5.1.1)', () => {
    // 2 inserts, MaxEntries 6: MaxValue 8; encoded 10 -> 9 > 8 and 9 <= 12.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0a00')), 'QPACK_DECOMPRESSION_FAILED', 0, /decodes to 9, more than 6 entries beyond/);
  });

  it('a Required Insert Count that decodes to 0 (§4.5.1.1)', () => {
    // 2 inserts, MaxEntries 6: MaxValue 8, MaxWrapped 0; encoded 1 -> 0, which must have been sent as 0.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0100')), 'QPACK_DECOMPRESSION_FAILED', 0, /decodes to 0/);
  });

  it('a capacity-0 decoder refuses any dynamic reference', () => {
    const d = new QpackDecoder({ maxTableCapacity: 0, maxBlockedStreams: 0 });
    expectError(() => d.decodeFieldSection(0, hex('0100 80')), 'QPACK_DECOMPRESSION_FAILED', 0, /capacity is 0/);
  });

  it('a negative Base (§4.5.1.2)', () => {
    // RIC 2 (encoded 3), S=1, Delta Base 2: Base = 2 - 2 - 1.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0382 10')), 'QPACK_DECOMPRESSION_FAILED', 1, /negative Base/);
  });

  it('a Required Insert Count larger than the references need (§2.2.1)', () => {
    // RIC 2 but only entry 0 is used.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0300 81')), 'QPACK_DECOMPRESSION_FAILED', 0, /must be 1/);
  });

  it('truncated sections: no Base, inside an integer, inside a string', () => {
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('00')), 'QPACK_DECOMPRESSION_FAILED', 1, /Base is missing/);
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0000 ff')), 'QPACK_DECOMPRESSION_FAILED', 2, /ends inside an index/);
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0000 5103 2f61')), 'QPACK_DECOMPRESSION_FAILED', 3, /3 bytes long but only 2 remain/);
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0000 2361 6263')), 'QPACK_DECOMPRESSION_FAILED', 6, /ends inside a field value/);
  });

  it('bad Huffman code: EOS inside, or padding that is not all ones (RFC 7541 §5.2)', () => {
    // A literal name with H=1: 0xff 0xff 0xff 0xff decodes to EOS, whose 30th bit is in the 4th byte.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0000 2c ffffffff 00')), 'QPACK_DECOMPRESSION_FAILED', 6, /Huffman/);
    // Value 'a' (00011) padded with zeros instead of ones.
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0000 5f00 81 18')), 'QPACK_DECOMPRESSION_FAILED', 5, /padding/);
  });

  it('an integer longer than 62 bits (§4.1.1)', () => {
    expectError(() => withTwoEntries().decodeFieldSection(0, hex('0000 ff ffffffffffffffffff7f')), 'QPACK_DECOMPRESSION_FAILED', 2, /longer than 62 bits/);
  });

  it('more blocked streams than SETTINGS_QPACK_BLOCKED_STREAMS (§2.1.2)', () => {
    const d = withTwoEntries({ maxBlockedStreams: 1 });
    // RIC 3 (encoded 4) > 2 inserts: blocks.
    expect(d.decodeFieldSection(0, hex('0400 80'))).toMatchObject({ blocked: true });
    // A second section on the same stream waits behind the first without counting again.
    expect(d.decodeFieldSection(0, hex('0000 d1'))).toMatchObject({ blocked: true });
    expectError(() => d.decodeFieldSection(4, hex('0400 80')), 'QPACK_DECOMPRESSION_FAILED', 0, /already blocked: more than the 1 allowed/);
  });

  it('maxBlockedStreams 0: any section that would block fails', () => {
    const d = withTwoEntries({ maxBlockedStreams: 0 });
    expectError(() => d.decodeFieldSection(8, hex('0400 80')), 'QPACK_DECOMPRESSION_FAILED', 0, /0 allowed/);
  });

  it('an error found once a blocked section is unblocked', () => {
    const d = withTwoEntries();
    // RIC 3, Base 3, then static index 99.
    expect(d.decodeFieldSection(0, hex('0400 82 ff24'))).toMatchObject({ blocked: true });
    const e = expectError(() => d.receiveEncoderStream(hex('4161 0162')), 'QPACK_DECOMPRESSION_FAILED', 3, /Static table index 99/);
    expect(e.streamId).toBe(0);
  });

  it('the decoder stays failed after an error', () => {
    const d = withTwoEntries();
    const first = caught(() => d.decodeFieldSection(0, hex('0000 d1 ff24')));
    expect(d.error).toBe(first);
    expect(caught(() => d.decodeFieldSection(4, hex('0000 d1')))).toBe(first);
    expect(caught(() => d.receiveEncoderStream(hex('20')))).toBe(first);
  });
});

describe('QPACK_ENCODER_STREAM_ERROR (encoder stream)', () => {
  const fresh = (max = 220): QpackDecoder => new QpackDecoder({ maxTableCapacity: max, maxBlockedStreams: 0 });

  it('a capacity above SETTINGS_QPACK_MAX_TABLE_CAPACITY (§4.3.1)', () => {
    const e = expectError(() => fresh().receiveEncoderStream(hex('3fbe01')), 'QPACK_ENCODER_STREAM_ERROR', 0, /221 exceeds the 220/);
    expect(e.input).toBe('encoder-stream');
  });

  it('offsets count from the first byte of the encoder stream, across calls', () => {
    const d = fresh();
    d.receiveEncoderStream(hex('3fbd01 40'));
    // 0x40 started Insert with Literal Name at offset 3; the name is empty, value length 0x00; then a bad static ref.
    d.receiveEncoderStream(hex('00'));
    expectError(() => d.receiveEncoderStream(hex('ff2400')), 'QPACK_ENCODER_STREAM_ERROR', 5, /static index 99/);
  });

  it('an insert with a static name index beyond 98 (§3.1)', () => {
    expectError(() => fresh().receiveEncoderStream(hex('3fbd01 ff2400')), 'QPACK_ENCODER_STREAM_ERROR', 3, /static index 99/);
  });

  it('an insert whose dynamic name reference is empty, evicted or never inserted (§2.2.3)', () => {
    expectError(() => fresh().receiveEncoderStream(hex('3fbd01 8000')), 'QPACK_ENCODER_STREAM_ERROR', 3, /the dynamic table is empty/);
    expectError(
      () => fresh().receiveEncoderStream(hex('3fbd01 4161 00 8100')),
      'QPACK_ENCODER_STREAM_ERROR',
      6,
      /relative index 1, which is absolute index -1/,
    );
    const d = fresh(100);
    expectError(() => d.receiveEncoderStream(hex('3f45 4178 0131 4178 0132 4178 0133 82')), 'QPACK_ENCODER_STREAM_ERROR', 14, /holds 1-2 only/);
  });

  it('a Duplicate of an entry that is not there (§2.2.3)', () => {
    expectError(
      () => fresh().receiveEncoderStream(hex('3fbd01 00')),
      'QPACK_ENCODER_STREAM_ERROR',
      3,
      /Duplicate uses relative index 0, but the dynamic table is empty/,
    );
  });

  it('an entry larger than the capacity (§3.2.2)', () => {
    // Capacity 40: a 1-byte name and an 8-byte value make 41.
    expectError(
      () => fresh().receiveEncoderStream(hex('3f09 4161 08 6161616161616161')),
      'QPACK_ENCODER_STREAM_ERROR',
      2,
      /entry of 41 bytes \(1 \+ 8 \+ 32\) to a table of capacity 40/,
    );
    // Capacity never set: the table starts at 0 (§3.2.2).
    expectError(() => fresh().receiveEncoderStream(hex('c0 00')), 'QPACK_ENCODER_STREAM_ERROR', 0, /capacity 0/);
  });

  it('a string announced longer than any entry could be, refused before it arrives (§7.3)', () => {
    // Value length 300 > 220 - 10 - 32, raw: refused with only the length received.
    expectError(() => fresh().receiveEncoderStream(hex('3fbd01 c0 7fad01')), 'QPACK_ENCODER_STREAM_ERROR', 4, /string of 300 bytes/);
  });

  it('bad Huffman code in an instruction (RFC 7541 §5.2)', () => {
    expectError(() => fresh().receiveEncoderStream(hex('3fbd01 c0 81 18')), 'QPACK_ENCODER_STREAM_ERROR', 5, /padding/);
  });

  it('an integer longer than 62 bits (§4.1.1)', () => {
    expectError(() => fresh().receiveEncoderStream(hex('3fffffffffffffffffffff7f')), 'QPACK_ENCODER_STREAM_ERROR', 0, /longer than 62 bits/);
  });
});

describe('QPACK_DECODER_STREAM_ERROR (decoder stream)', () => {
  function encoderWithSection(): QpackEncoder {
    const e = new QpackEncoder({ maxTableCapacity: 220, maxBlockedStreams: 2 });
    e.encodeFieldSection(4, [{ name: 'x-id', value: 'a' }]);
    return e;
  }

  it('a Section Acknowledgment for a stream with no outstanding section (§4.4.1)', () => {
    const e = encoderWithSection();
    const err = expectError(() => e.receiveDecoderStream(hex('84 84')), 'QPACK_DECODER_STREAM_ERROR', 1, /stream 4, which has no unacknowledged field section/);
    expect(err.input).toBe('decoder-stream');
    expectError(
      () => new QpackEncoder({ maxTableCapacity: 0, maxBlockedStreams: 0 }).receiveDecoderStream(hex('80')),
      'QPACK_DECODER_STREAM_ERROR',
      0,
      /stream 0/,
    );
  });

  it('an Insert Count Increment of 0 (§4.4.3)', () => {
    expectError(() => encoderWithSection().receiveDecoderStream(hex('00')), 'QPACK_DECODER_STREAM_ERROR', 0, /Increment of 0/);
  });

  it('an Insert Count Increment beyond the inserts sent (§4.4.3)', () => {
    expectError(() => encoderWithSection().receiveDecoderStream(hex('01 01')), 'QPACK_DECODER_STREAM_ERROR', 1, /to 2, beyond the 1 inserts sent/);
  });

  it('the encoder stays failed after an error', () => {
    const e = encoderWithSection();
    const first = caught(() => e.receiveDecoderStream(hex('00')));
    expect(caught(() => e.encodeFieldSection(8, []))).toBe(first);
  });
});

describe('local misuse of the encoder', () => {
  it('a capacity above the peer maximum, and inserts that cannot fit', () => {
    expect(() => new QpackEncoder({ maxTableCapacity: 100, maxBlockedStreams: 0, tableCapacity: 200 })).toThrow(/outside 0-100/);
    const e = new QpackEncoder({ maxTableCapacity: 100, maxBlockedStreams: 0 });
    expect(() => e.insert({ name: 'a', value: 'b'.repeat(80) })).toThrow(/does not fit/);
    e.insert({ name: 'a', value: 'b' });
    e.insert({ name: 'a', value: 'c' });
    // Both unacknowledged: a third would evict the first.
    expect(() => e.insert({ name: 'a', value: 'd' })).toThrow(/without evicting entries still needed/);
    expect(() => e.setTableCapacity(40)).toThrow(/would evict entry 0, which is not yet acknowledged/);
  });
});
