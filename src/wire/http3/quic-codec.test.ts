/**
 * QUIC packets and frames as bytes (quic-codec.ts): RFC 9001 Appendix A's unprotected packets byte for byte,
 * RFC 9000 Appendix A's packet-number examples, hand-assembled frames of every type, round trips and
 * property tests, prefixes of every frame (byte at a time), and each located error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WireError } from '../errors';
import type { QuicFrame, QuicPacket } from './packets';
import { decodeQuicDatagram, decodeQuicPacket, type DecodedQuicPacket, encodeQuicDatagram, encodeQuicPacket, quicPacketSize } from './quic-codec';
import { QuicCodecError } from './quic-codec-errors';
import { decodeQuicFrames, readQuicFrame } from './quic-frame-reader';
import { encodeQuicFrames, quicFrameSize } from './quic-frame-writer';
import { decodePacketNumber, quicPacketNumberLength, truncatePacketNumber } from './quic-packet-number';

const hex = (s: string) => Uint8Array.from((s.replace(/\s+/g, '').match(/../g) ?? []).map((b) => Number.parseInt(b, 16)));
const toHex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
};
const catchError = (f: () => unknown): QuicCodecError => {
  try {
    f();
  } catch (error) {
    if (error instanceof QuicCodecError) return error;
    throw error;
  }
  throw new Error('expected a QuicCodecError');
};

// RFC 9001 Appendix A.2: the client Initial's unprotected header and its CRYPTO frame (a 241-byte ClientHello).
const A2_HEADER = 'c300000001088394c8f03e5157080000449e00000002';
const A2_CRYPTO =
  '060040f1010000ed0303ebf8fa56f12939b9584a3896472ec40bb863cfd3e868' +
  '04fe3a47f06a2b69484c00000413011302010000c000000010000e00000b6578' +
  '616d706c652e636f6dff01000100000a00080006001d00170018001000070005' +
  '04616c706e000500050100000000003300260024001d00209370b2c9caa47fba' +
  'baf4559fedba753de171fa71f50f1ce15d43e994ec74d748002b000302030400' +
  '0d0010000e0403050306030203080408050806002d00020101001c0002400100' +
  '3900320408ffffffffffffffff05048000ffff07048000ffff08011001048000' +
  '75300901100f088394c8f03e51570806048000ffff';
// RFC 9001 Appendix A.3: the server Initial, an ACK of packet 0 and a CRYPTO frame with a 90-byte ServerHello.
const A3_HEADER = 'c1000000010008f067a5502a4262b50040750001';
const A3_PAYLOAD =
  '02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf739' +
  '88cfc79825df566dc5430b9a045a1200130100002e00330024001d00209d3c94' +
  '0d89690b84d08a60993c144eca684d1081287c834d5311bcf32bb9da1a002b00' +
  '020304';
const TAG = new Uint8Array(16);

describe('RFC 9001 Appendix A, unprotected', () => {
  it('A.2: reads the client Initial (1162 bytes of frames, Length 1182 with the tag) and writes it back byte for byte', () => {
    const payload = concat(hex(A2_CRYPTO), new Uint8Array(1162 - 245));
    const bytes = concat(hex(A2_HEADER), payload, TAG);
    expect(bytes.length).toBe(1200);
    const packet = decodeQuicPacket(bytes) as DecodedQuicPacket;
    expect(packet.space).toBe('initial');
    expect(packet.number).toBe(2);
    expect(toHex(packet.header.dcid)).toBe('8394c8f03e515708');
    expect(packet.header.scid?.length).toBe(0);
    expect(packet.header.token?.length).toBe(0);
    expect(packet.header.length).toBe(1182);
    expect(packet.header.packetNumberLength).toBe(4);
    expect(packet.payloadStart).toBe(22);
    expect(packet.frames.map((f) => f.type)).toEqual(['CRYPTO', 'PADDING']);
    const crypto = packet.frames[0] as Extract<QuicFrame, { type: 'CRYPTO' }>;
    expect(crypto.messages).toBe('ClientHello');
    expect(crypto.length).toBe(241);
    expect(packet.frames[1]).toEqual({ type: 'PADDING', length: 917 });
    const again = encodeQuicPacket(packet, { dcid: packet.header.dcid, scid: new Uint8Array(0), packetNumberLength: 4 });
    expect(toHex(again)).toBe(toHex(bytes));
  });

  it('A.3: reads the server Initial (ACK of packet 0, CRYPTO ServerHello, 2-byte packet number) and writes it back', () => {
    const bytes = concat(hex(A3_HEADER), hex(A3_PAYLOAD), TAG);
    const packet = decodeQuicPacket(bytes) as DecodedQuicPacket;
    expect(packet.number).toBe(1);
    expect(packet.header.length).toBe(0x75);
    expect(toHex(packet.header.scid!)).toBe('f067a5502a4262b5');
    expect(packet.frames[0]).toEqual({ type: 'ACK', ranges: [[0, 0]], ackDelay: 0 });
    expect(packet.frames[1]).toMatchObject({ type: 'CRYPTO', messages: 'ServerHello', length: 90 });
    // The RFC's sender used a 2-byte packet number for packet 1; the shortest (1 byte) would also do.
    expect(quicPacketNumberLength(1, undefined)).toBe(1);
    const again = encodeQuicPacket(packet, { dcid: new Uint8Array(0), scid: packet.header.scid, packetNumberLength: 2 });
    expect(toHex(again)).toBe(toHex(bytes));
  });

  it('A.5: the short-header PING packet 654360564 with a 3-byte packet number, 21 bytes with its tag', () => {
    const packet: QuicPacket = { space: '1rtt', number: 654360564, frames: [{ type: 'PING' }] };
    const bytes = encodeQuicPacket(packet, { dcid: new Uint8Array(0), packetNumberLength: 3 });
    expect(toHex(bytes.subarray(0, 5))).toBe('4200bff401');
    expect(bytes.length).toBe(21);
    const back = decodeQuicPacket(bytes, 0, { shortHeaderDcidLength: 0, largestReceived: () => 654360563 }) as DecodedQuicPacket;
    expect(back.number).toBe(654360564);
    expect(back.header.truncatedNumber).toBe(0xbff4);
    expect(back.frames).toEqual([{ type: 'PING' }]);
  });
});

describe('packet numbers (RFC 9000 §17.1, Appendix A)', () => {
  it('A.2: 0xac5c02 after 0xabe8b3 takes 2 bytes; 0xace8fe takes 3', () => {
    expect(quicPacketNumberLength(0xac5c02, 0xabe8b3)).toBe(2);
    expect(quicPacketNumberLength(0xace8fe, 0xabe8b3)).toBe(3);
    expect(truncatePacketNumber(0xac5c02, 2)).toBe(0x5c02);
  });

  it('A.3: 0x9b32 after 0xa82f30ea decodes to 0xa82f9b32', () => {
    expect(decodePacketNumber(0xa82f30ea, 0x9b32, 16)).toBe(0xa82f9b32);
  });

  it('wraps both ways around the window', () => {
    expect(decodePacketNumber(0xff, 0x01, 8)).toBe(0x101);
    expect(decodePacketNumber(0x101, 0xff, 8)).toBe(0xff);
    expect(decodePacketNumber(undefined, 0, 8)).toBe(0);
  });

  it('property: truncation with the §17.1 length always decodes back (largest received = largest acked)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 30 }), (acked, ahead) => {
        const pn = acked + ahead;
        const length = quicPacketNumberLength(pn, acked);
        // The receiver may have seen anything from the largest acked up to the packet before this one.
        for (const largest of [acked, pn - 1]) expect(decodePacketNumber(largest, truncatePacketNumber(pn, length), length * 8)).toBe(pn);
      }),
    );
  });
});

// Every frame type, with its bytes as assembled by hand from RFC 9000 §19.
const FRAMES: [string, QuicFrame, string][] = [
  ['PADDING', { type: 'PADDING', length: 3 }, '000000'],
  ['PING', { type: 'PING' }, '01'],
  ['ACK, one range', { type: 'ACK', ranges: [[0, 3]], ackDelay: 0 }, '0203000003'],
  // Largest 100, delay 25; ranges [90,100], [80,85] (gap 90-85-2 = 3, length 5), [2,2] (gap 80-2-2 = 76 = 0x404c, length 0).
  [
    'ACK, three ranges',
    {
      type: 'ACK',
      ranges: [
        [90, 100],
        [80, 85],
        [2, 2],
      ],
      ackDelay: 25,
    },
    '02406419020a0305404c00',
  ],
  ['ACK_ECN', { type: 'ACK', ranges: [[5, 5]], ackDelay: 1, ecn: { ect0: 6, ect1: 0, ce: 1 } }, '030501000006' + '0001'],
  ['RESET_STREAM', { type: 'RESET_STREAM', streamId: 4, errorCode: 0x10c, finalSize: 1000 }, '0404410c43e8'],
  ['STOP_SENDING', { type: 'STOP_SENDING', streamId: 8, errorCode: 0x10c }, '0508410c'],
  ['CRYPTO, at 0', { type: 'CRYPTO', messages: '', length: 2, data: hex('abcd') }, '060002abcd'],
  ['CRYPTO, at 1000', { type: 'CRYPTO', messages: '', length: 1, offset: 1000, data: hex('ee') }, '0643e801ee'],
  ['NEW_TOKEN', { type: 'NEW_TOKEN', token: hex('0102030405') }, '07050102030405'],
  ['STREAM, LEN', { type: 'STREAM', streamId: 0, offset: 0, data: hex('6869'), fin: false }, '0a00026869'],
  ['STREAM, OFF LEN FIN', { type: 'STREAM', streamId: 4, offset: 64, data: hex('21'), fin: true }, '0f04404001' + '21'],
  ['STREAM, no LEN', { type: 'STREAM', streamId: 2, offset: 0, data: hex('7878'), fin: true, lengthOmitted: true }, '09027878'],
  ['MAX_DATA', { type: 'MAX_DATA', maximum: 1_048_576 }, '1080100000'],
  ['MAX_STREAM_DATA', { type: 'MAX_STREAM_DATA', streamId: 0, maximum: 65_536 }, '110080010000'],
  ['MAX_STREAMS bidi', { type: 'MAX_STREAMS', bidirectional: true, maximum: 100 }, '124064'],
  ['MAX_STREAMS uni', { type: 'MAX_STREAMS', bidirectional: false, maximum: 3 }, '1303'],
  ['DATA_BLOCKED', { type: 'DATA_BLOCKED', limit: 60 }, '143c'],
  ['STREAM_DATA_BLOCKED', { type: 'STREAM_DATA_BLOCKED', streamId: 4, limit: 60 }, '15043c'],
  ['STREAMS_BLOCKED bidi', { type: 'STREAMS_BLOCKED', bidirectional: true, limit: 100 }, '164064'],
  ['STREAMS_BLOCKED uni', { type: 'STREAMS_BLOCKED', bidirectional: false, limit: 3 }, '1703'],
  [
    'NEW_CONNECTION_ID',
    { type: 'NEW_CONNECTION_ID', sequence: 1, retirePriorTo: 0, connectionId: hex('0102030405060708'), resetToken: hex('ff'.repeat(16)) },
    '180100080102030405060708' + 'ff'.repeat(16),
  ],
  ['RETIRE_CONNECTION_ID', { type: 'RETIRE_CONNECTION_ID', sequence: 2 }, '1902'],
  ['PATH_CHALLENGE', { type: 'PATH_CHALLENGE', data: hex('0001020304050607') }, '1a0001020304050607'],
  ['PATH_RESPONSE', { type: 'PATH_RESPONSE', data: hex('0001020304050607') }, '1b0001020304050607'],
  ['CONNECTION_CLOSE transport', { type: 'CONNECTION_CLOSE', errorCode: 0x0a, reason: 'bad', frameType: 0x06 }, '1c0a0603626164'],
  ['CONNECTION_CLOSE application', { type: 'CONNECTION_CLOSE', errorCode: 0x100, reason: '', application: true }, '1d410000'],
  ['CONNECTION_CLOSE, UTF-8 reason', { type: 'CONNECTION_CLOSE', errorCode: 0, reason: 'é', frameType: 0 }, '1c000002c3a9'],
  ['HANDSHAKE_DONE', { type: 'HANDSHAKE_DONE' }, '1e'],
];

describe('frames (RFC 9000 §19)', () => {
  it.each(FRAMES)('%s: encodes to the hand-assembled bytes, decodes back, and quicFrameSize is the length', (_name, frame, bytes) => {
    const encoded = encodeQuicFrames([frame]);
    expect(toHex(encoded)).toBe(bytes);
    expect(quicFrameSize(frame)).toBe(encoded.length);
    const [back, ...rest] = decodeQuicFrames(encoded);
    expect(rest).toEqual([]);
    expect(back).toEqual(frame.type === 'ACK' ? { ackDelay: 0, ...frame } : frame);
  });

  it.each(FRAMES.filter(([, f]) => f.type !== 'PADDING' && !(f.type === 'STREAM' && f.lengthOmitted)))(
    '%s, one byte at a time: every strict prefix needs more, the whole reads',
    (_name, _frame, bytes) => {
      const encoded = hex(bytes);
      for (let n = 0; n < encoded.length; n++) expect(readQuicFrame(encoded.subarray(0, n), 0)).toEqual({ kind: 'need-more' });
      expect(readQuicFrame(encoded, 0)).toMatchObject({ kind: 'ok', next: encoded.length });
    },
  );

  it('a frame cut off inside a packet is a FRAME_ENCODING_ERROR at its first byte', () => {
    const error = catchError(() => decodeQuicFrames(hex('01' + '0f04404001'), 100));
    expect(error.code).toBe('FRAME_ENCODING_ERROR');
    expect(error.errorCode).toBe(0x07);
    expect(error.offset).toBe(101);
    expect(error.message).toContain('at byte 101');
  });

  it('an unknown frame type is a FRAME_ENCODING_ERROR (§12.4)', () => {
    const error = catchError(() => decodeQuicFrames(hex('01011f')));
    expect(error).toMatchObject({ code: 'FRAME_ENCODING_ERROR', offset: 2, frameType: 0x1f });
  });

  it('a frame type not in its shortest encoding is a PROTOCOL_VIOLATION (§12.4)', () => {
    expect(catchError(() => decodeQuicFrames(hex('4001')))).toMatchObject({ code: 'PROTOCOL_VIOLATION', errorCode: 0x0a, offset: 0 });
  });

  it('an ACK range below packet number 0 is a FRAME_ENCODING_ERROR (§19.3.1)', () => {
    // Largest 5, first range 2 (3..5), one more range: gap 1 -> high 0, length 1 -> low -1.
    const error = catchError(() => decodeQuicFrames(hex('0205000102' + '0101')));
    expect(error).toMatchObject({ code: 'FRAME_ENCODING_ERROR', offset: 5 });
    expect(catchError(() => decodeQuicFrames(hex('0203000004'))).message).toContain('First ACK Range 4 is larger than Largest Acknowledged 3');
  });

  it('NEW_CONNECTION_ID with a 21-byte ID, or retiring beyond its own number, is a FRAME_ENCODING_ERROR (§19.15)', () => {
    expect(catchError(() => decodeQuicFrames(hex('18010015' + '00'.repeat(37))))).toMatchObject({ code: 'FRAME_ENCODING_ERROR', offset: 3 });
    expect(catchError(() => decodeQuicFrames(hex('180102080102030405060708' + 'ff'.repeat(16)))).message).toContain('Retire Prior To 2 exceeds');
  });

  it('an empty NEW_TOKEN is a FRAME_ENCODING_ERROR (§19.7)', () => {
    expect(catchError(() => decodeQuicFrames(hex('0700'))).code).toBe('FRAME_ENCODING_ERROR');
  });

  it('names the TLS messages at the start of CRYPTO data', () => {
    const data = hex('08000002aaaa' + '0b000001bb' + '14000000');
    expect(decodeQuicFrames(encodeQuicFrames([{ type: 'CRYPTO', messages: '', length: data.length, data }]))[0]).toMatchObject({
      messages: 'EncryptedExtensions, Certificate, Finished',
    });
  });

  it('the simulator CRYPTO frame (no data) sends its length in zero bytes', () => {
    const frame: QuicFrame = { type: 'CRYPTO', messages: 'ClientHello', length: 300 };
    const bytes = encodeQuicFrames([frame]);
    expect(toHex(bytes.subarray(0, 4))).toBe('0600412c');
    expect(bytes.length).toBe(304);
    expect(quicFrameSize(frame)).toBe(304);
  });
});

const bytesArb = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
const varint = fc.oneof(
  fc.integer({ min: 0, max: 63 }),
  fc.integer({ min: 0, max: 16_383 }),
  fc.integer({ min: 0, max: 2 ** 30 - 1 }),
  fc.integer({ min: 0, max: 2 ** 40 }),
);
const ackRangesArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 })), { minLength: 1, maxLength: 8 }).map((pairs) => {
  // Build disjoint ranges from the lowest up: each pair is (gap to the previous range + 2, length).
  const ranges: [number, number][] = [];
  let next = 0;
  for (const [gap, length] of pairs) {
    const low = ranges.length === 0 ? gap : next + gap + 2;
    ranges.unshift([low, low + length]);
    next = low + length;
  }
  return ranges;
});

const frameArb: fc.Arbitrary<QuicFrame> = fc.oneof(
  fc.constant<QuicFrame>({ type: 'PING' }),
  fc.constant<QuicFrame>({ type: 'HANDSHAKE_DONE' }),
  fc.record({ ranges: ackRangesArb, ackDelay: varint }).map((f): QuicFrame => ({ type: 'ACK', ...f })),
  fc
    .record({ ranges: ackRangesArb, ackDelay: varint, ect0: varint, ect1: varint, ce: varint })
    .map(({ ranges, ackDelay, ect0, ect1, ce }): QuicFrame => ({ type: 'ACK', ranges, ackDelay, ecn: { ect0, ect1, ce } })),
  fc.record({ streamId: varint, errorCode: varint, finalSize: varint }).map((f): QuicFrame => ({ type: 'RESET_STREAM', ...f })),
  fc.record({ streamId: varint, errorCode: varint }).map((f): QuicFrame => ({ type: 'STOP_SENDING', ...f })),
  fc
    .record({ offset: fc.integer({ min: 1, max: 2 ** 40 }), data: bytesArb(0, 40) })
    .map((f): QuicFrame => ({ type: 'CRYPTO', messages: '', length: f.data.length, ...f })),
  bytesArb(1, 40).map((token): QuicFrame => ({ type: 'NEW_TOKEN', token })),
  fc.record({ streamId: varint, offset: varint, data: bytesArb(0, 60), fin: fc.boolean() }).map((f): QuicFrame => ({ type: 'STREAM', ...f })),
  varint.map((maximum): QuicFrame => ({ type: 'MAX_DATA', maximum })),
  fc.record({ streamId: varint, maximum: varint }).map((f): QuicFrame => ({ type: 'MAX_STREAM_DATA', ...f })),
  fc.record({ bidirectional: fc.boolean(), maximum: varint }).map((f): QuicFrame => ({ type: 'MAX_STREAMS', ...f })),
  varint.map((limit): QuicFrame => ({ type: 'DATA_BLOCKED', limit })),
  fc.record({ streamId: varint, limit: varint }).map((f): QuicFrame => ({ type: 'STREAM_DATA_BLOCKED', ...f })),
  fc.record({ bidirectional: fc.boolean(), limit: varint }).map((f): QuicFrame => ({ type: 'STREAMS_BLOCKED', ...f })),
  fc
    .record({ sequence: varint, connectionId: bytesArb(1, 20), resetToken: bytesArb(16, 16), back: fc.nat() })
    .map(({ sequence, back, ...f }): QuicFrame => ({ type: 'NEW_CONNECTION_ID', sequence, retirePriorTo: sequence - (back % (sequence + 1)), ...f })),
  varint.map((sequence): QuicFrame => ({ type: 'RETIRE_CONNECTION_ID', sequence })),
  fc
    .record({ kind: fc.constantFrom('PATH_CHALLENGE' as const, 'PATH_RESPONSE' as const), data: bytesArb(8, 8) })
    .map((f): QuicFrame => ({ type: f.kind, data: f.data })),
  fc.record({ errorCode: varint, frameType: varint, reason: fc.string({ maxLength: 20 }) }).map((f): QuicFrame => ({ type: 'CONNECTION_CLOSE', ...f })),
  fc.record({ errorCode: varint, reason: fc.string({ maxLength: 20 }) }).map((f): QuicFrame => ({ type: 'CONNECTION_CLOSE', application: true, ...f })),
);

/** The form the decoder returns: ACK with its delay, PADDING merged, CRYPTO named. */
function normalise(frame: QuicFrame): QuicFrame {
  if (frame.type === 'ACK') return { ackDelay: 0, ...frame };
  return frame;
}

describe('properties', () => {
  it('any frame sequence (PADDING between frames) round-trips, and its size is the sum of quicFrameSize', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(frameArb, fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 12 }), (items) => {
        const frames: QuicFrame[] = [];
        for (const [frame, padding] of items) {
          frames.push(frame);
          if (padding > 0) frames.push({ type: 'PADDING', length: padding });
        }
        const bytes = encodeQuicFrames(frames);
        expect(bytes.length).toBe(frames.reduce((n, f) => n + quicFrameSize(f), 0));
        expect(decodeQuicFrames(bytes)).toEqual(frames.map(normalise));
      }),
    );
  });

  it('any truncation of a frame sequence decodes or fails with a located QuicCodecError, never anything else', () => {
    fc.assert(
      fc.property(fc.array(frameArb, { minLength: 1, maxLength: 6 }), fc.nat(), (frames, cut) => {
        const bytes = encodeQuicFrames(frames);
        const prefix = bytes.subarray(0, cut % (bytes.length + 1));
        try {
          decodeQuicFrames(prefix);
        } catch (error) {
          expect(error).toBeInstanceOf(QuicCodecError);
          expect((error as QuicCodecError).offset).toBeLessThan(prefix.length);
        }
      }),
    );
  });

  it('random bytes decode or fail with a QuicCodecError inside the input', () => {
    fc.assert(
      fc.property(bytesArb(0, 64), (bytes) => {
        try {
          decodeQuicFrames(bytes);
          decodeQuicDatagram(bytes);
        } catch (error) {
          // A QuicCodecError, or varint.ts's located 'varint-range' for a value above 2^53 - 1.
          expect(error instanceof QuicCodecError || (error instanceof WireError && error.code === 'varint-range')).toBe(true);
          expect((error as WireError).offset).toBeLessThanOrEqual(bytes.length);
        }
      }),
    );
  });

  const handshakeFrame = fc.oneof(
    fc.constant<QuicFrame>({ type: 'PING' }),
    ackRangesArb.map((ranges): QuicFrame => ({ type: 'ACK', ranges, ackDelay: 0 })),
    bytesArb(1, 50).map((data): QuicFrame => ({ type: 'CRYPTO', messages: '', length: data.length, offset: 1, data })),
  );

  // §12.4 Table 3: what a 0-RTT packet may carry.
  const zeroRttFrame = frameArb.filter((f) => !['ACK', 'CRYPTO', 'HANDSHAKE_DONE', 'NEW_TOKEN', 'PATH_RESPONSE', 'RETIRE_CONNECTION_ID'].includes(f.type));

  it('a coalesced datagram of Initial, 0-RTT, Handshake and 1-RTT packets round-trips; size is quicPacketSize summed', () => {
    fc.assert(
      fc.property(
        fc.array(handshakeFrame, { minLength: 1, maxLength: 4 }),
        fc.option(fc.array(zeroRttFrame, { minLength: 1, maxLength: 4 })),
        fc.array(handshakeFrame, { minLength: 1, maxLength: 4 }),
        fc.array(frameArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 31 }), { minLength: 4, maxLength: 4 }),
        bytesArb(0, 20),
        bytesArb(0, 20),
        bytesArb(0, 30),
        (initial, zeroRtt, handshake, oneRtt, numbers, dcid, scid, token) => {
          const packets: QuicPacket[] = [
            { space: 'initial', number: numbers[0]!, frames: [...initial, { type: 'PADDING', length: 4 }] },
            ...(zeroRtt ? [{ space: '0rtt' as const, number: numbers[3]!, frames: [...zeroRtt, { type: 'PADDING' as const, length: 4 }] }] : []),
            { space: 'handshake', number: numbers[1]!, frames: [...handshake, { type: 'PADDING', length: 4 }] },
            ...(zeroRtt ? [] : [{ space: '1rtt' as const, number: numbers[2]!, frames: [...oneRtt, { type: 'PADDING' as const, length: 4 }] }]),
          ];
          const largestAcked = (n: number) => (n > 1000 ? n - 1000 : undefined);
          const bytes = encodeQuicDatagram(packets.map((packet) => ({ packet, header: { dcid, scid, token, largestAcked: largestAcked(packet.number) } })));
          expect(bytes.length).toBe(
            packets.reduce((n, packet) => n + quicPacketSize(packet, { dcid, scid, token, largestAcked: largestAcked(packet.number) }), 0),
          );
          const back = decodeQuicDatagram(bytes, {
            shortHeaderDcidLength: dcid.length,
            largestReceived: (space) => largestAcked(packets.find((p) => p.space === space)!.number),
          }) as DecodedQuicPacket[];
          expect(back.map((p) => [p.space, p.number])).toEqual(packets.map((p) => [p.space, p.number]));
          expect(back.map((p) => p.frames)).toEqual(packets.map((p) => p.frames.map(normalise)));
          expect(toHex(back[0]!.header.token!)).toBe(toHex(token));
          expect(back.every((p) => toHex(p.header.dcid) === toHex(dcid))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('packet errors', () => {
  const initial = (frames: QuicFrame[]) => encodeQuicPacket({ space: 'initial', number: 0, frames }, { dcid: hex('0102030405060708') });

  it('a STREAM frame in an Initial packet is a PROTOCOL_VIOLATION at the frame (§12.4 Table 3)', () => {
    const bytes = initial([{ type: 'PING' }, { type: 'STREAM', streamId: 0, offset: 0, data: hex('00'), fin: false }]);
    const error = catchError(() => decodeQuicPacket(bytes));
    // Header: 1 + 4 + 1 + 8 + 1 + 0 + 1 (token length) + 1 (Length) + 1 (packet number) = 18; PING is byte 18.
    expect(error).toMatchObject({ code: 'PROTOCOL_VIOLATION', offset: 19, frameType: 0x0a });
  });

  it('an application CONNECTION_CLOSE (0x1d) in a Handshake packet and an ACK in 0-RTT are PROTOCOL_VIOLATIONs', () => {
    const hs = encodeQuicPacket(
      { space: 'handshake', number: 0, frames: [{ type: 'CONNECTION_CLOSE', errorCode: 0x100, reason: '', application: true }] },
      { dcid: new Uint8Array(0) },
    );
    expect(catchError(() => decodeQuicPacket(hs)).code).toBe('PROTOCOL_VIOLATION');
    const zero = encodeQuicPacket({ space: '0rtt', number: 0, frames: [{ type: 'ACK', ranges: [[0, 0]] }] }, { dcid: new Uint8Array(0) });
    expect(catchError(() => decodeQuicPacket(zero)).message).toContain('not allowed in a 0-RTT packet');
  });

  it('a packet without frames, with reserved bits set, or with a Length past the datagram is a PROTOCOL_VIOLATION', () => {
    const bytes = initial([{ type: 'PING' }, { type: 'PADDING', length: 3 }]);
    expect(catchError(() => decodeQuicPacket(bytes.subarray(0, bytes.length - 1))).message).toContain('only');
    const reserved = bytes.slice();
    reserved[0] = reserved[0]! | 0x04;
    expect(catchError(() => decodeQuicPacket(reserved))).toMatchObject({ code: 'PROTOCOL_VIOLATION', offset: 0 });
    // Header + a 1-byte packet number + tag and nothing else: Length = 17.
    const empty = concat(hex('c000000001' + '00' + '00' + '00' + '11' + '00'), TAG);
    expect(catchError(() => decodeQuicPacket(empty)).message).toContain('carries no frames');
  });

  it('every strict prefix of a coalesced datagram, but the one ending with its first packet, fails with a located error', () => {
    const bytes = encodeQuicDatagram([
      { packet: { space: 'initial', number: 0, frames: [{ type: 'CRYPTO', messages: '', length: 10 }] }, header: { dcid: hex('01020304') } },
      { packet: { space: 'handshake', number: 0, frames: [{ type: 'PING' }, { type: 'PADDING', length: 3 }] }, header: { dcid: hex('01020304') } },
    ]);
    const first = (decodeQuicDatagram(bytes)[0] as DecodedQuicPacket).size;
    expect(decodeQuicDatagram(bytes.subarray(0, first))).toHaveLength(1); // the Initial alone is a whole datagram
    for (let n = 1; n < bytes.length; n++) {
      if (n === first) continue;
      const error = catchError(() => decodeQuicDatagram(bytes.subarray(0, n)));
      expect(error.offset).toBeLessThanOrEqual(n);
    }
  });

  it('reads Version Negotiation and Retry packets', () => {
    const vn = decodeQuicDatagram(hex('80' + '00000000' + '0401020304' + '00' + '00000001' + '6b3343cf'));
    expect(vn[0]).toMatchObject({ kind: 'version-negotiation', versions: [1, 0x6b3343cf] });
    const retry = decodeQuicPacket(hex('f0' + '00000001' + '00' + '0401020304' + 'aabbcc' + '11'.repeat(16)));
    expect(retry).toMatchObject({ kind: 'retry' });
    expect(toHex((retry as { token: Uint8Array }).token)).toBe('aabbcc');
  });

  it('the encoder refuses what it cannot write: a packet too short to sample, a 1-RTT packet before another', () => {
    expect(() => encodeQuicPacket({ space: '1rtt', number: 0, frames: [{ type: 'PING' }] }, { dcid: new Uint8Array(0) })).toThrow(/sample/);
    expect(() =>
      encodeQuicDatagram([
        { packet: { space: '1rtt', number: 0, frames: [{ type: 'PING' }, { type: 'PADDING', length: 3 }] }, header: { dcid: new Uint8Array(0) } },
        { packet: { space: 'handshake', number: 0, frames: [{ type: 'PING' }, { type: 'PADDING', length: 3 }] }, header: { dcid: new Uint8Array(0) } },
      ]),
    ).toThrow(/last packet/);
  });
});
