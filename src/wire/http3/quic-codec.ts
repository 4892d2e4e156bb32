/**
 * QUIC packets and frames as bytes (RFC 9000 §12, §16, §17, §19): the encoder the simulator sends with and
 * the decoder that turns bytes back into the typed values of packets.ts.
 *
 * - Frames (§19): every frame type of QUIC version 1, from PADDING (0x00) to HANDSHAKE_DONE (0x1e). A frame is
 *   the typed `QuicFrame`; `quicFrameSize` is exactly what `writeQuicFrame` writes. A run of 0x00 bytes
 *   decodes to one PADDING frame of that length.
 * - Packets (§17): long headers (Initial, 0-RTT, Handshake; Retry and Version Negotiation are read) and short
 *   headers (1-RTT), with the packet number truncated to 1-4 bytes (§17.1, Appendix A.2) and expanded again
 *   on receipt (Appendix A.3).
 * - Datagrams (§12.2): several packets coalesced, each long-header packet delimited by its Length field, a
 *   short-header packet running to the end.
 *
 * Protection: the bytes are the unprotected form of a packet (RFC 9001 §5): header protection not applied (the
 * first byte's reserved bits and packet number length are in clear) and the payload in clear. The AEAD tag a
 * protected packet ends with (16 bytes for every QUIC v1 cipher suite, RFC 9001 §5.3) is kept as a slot of
 * `tagLength` bytes, zero here, and counted by the Length field as in a real packet, so a packet's size is its
 * size on the wire. RFC 9001 Appendix A.2 shows the same layout: its unprotected Initial header says Length
 * 1182 for a 4-byte packet number and 1162 bytes of frames, the other 16 being the tag.
 *
 * Errors: a malformed frame is a QuicCodecError FRAME_ENCODING_ERROR (0x07, §12.4, §19), a frame a packet type
 * may not carry or a packet without frames PROTOCOL_VIOLATION (0x0a, §12.4 Table 3), a malformed packet header
 * PROTOCOL_VIOLATION too; each says where (the byte offset in the input) and what.
 */
import { WireError } from '../errors';
import type { QuicFrame, QuicPacket, QuicSpace } from './packets';
import { readVarint, varintLength, writeVarint } from './varint';

// --- errors -----------------------------------------------------------------------------------------

/** RFC 9000 §20.1, the transport error codes this codec raises. */
export const QUIC_CODEC_ERROR_CODES = {
  FRAME_ENCODING_ERROR: 0x07,
  PROTOCOL_VIOLATION: 0x0a,
} as const;
export type QuicCodecErrorCode = keyof typeof QUIC_CODEC_ERROR_CODES;

export class QuicCodecError extends WireError {
  override readonly name: string = 'QuicCodecError';
  declare readonly code: QuicCodecErrorCode;
  /** The numeric transport error code a receiver closes the connection with (RFC 9000 §20.1). */
  readonly errorCode: number;
  /** The type of the frame being read, when the error is inside one (CONNECTION_CLOSE's Frame Type field, §19.19). */
  readonly frameType: number | undefined;

  constructor(code: QuicCodecErrorCode, message: string, offset: number, frameType?: number) {
    super({ code, message, offset, side: 'remote' });
    this.errorCode = QUIC_CODEC_ERROR_CODES[code];
    this.frameType = frameType;
  }
}

function misuse(message: string): WireError {
  return new WireError({ code: 'quic-encode', side: 'local', message });
}

// --- frame types ------------------------------------------------------------------------------------

/** RFC 9000 §19 / §22.4 (Table 3), the frame types of QUIC version 1. */
export const QUIC_FRAME_TYPES = {
  PADDING: 0x00,
  PING: 0x01,
  ACK: 0x02,
  ACK_ECN: 0x03,
  RESET_STREAM: 0x04,
  STOP_SENDING: 0x05,
  CRYPTO: 0x06,
  NEW_TOKEN: 0x07,
  STREAM: 0x08,
  MAX_DATA: 0x10,
  MAX_STREAM_DATA: 0x11,
  MAX_STREAMS_BIDI: 0x12,
  MAX_STREAMS_UNI: 0x13,
  DATA_BLOCKED: 0x14,
  STREAM_DATA_BLOCKED: 0x15,
  STREAMS_BLOCKED_BIDI: 0x16,
  STREAMS_BLOCKED_UNI: 0x17,
  NEW_CONNECTION_ID: 0x18,
  RETIRE_CONNECTION_ID: 0x19,
  PATH_CHALLENGE: 0x1a,
  PATH_RESPONSE: 0x1b,
  CONNECTION_CLOSE: 0x1c,
  CONNECTION_CLOSE_APP: 0x1d,
  HANDSHAKE_DONE: 0x1e,
} as const;

/** STREAM frame type bits (§19.8): 0x08 | OFF | LEN | FIN. */
const STREAM_OFF = 0x04;
const STREAM_LEN = 0x02;
const STREAM_FIN = 0x01;

/** §19.11: a stream count cannot exceed 2^60 (a stream ID is a 62-bit integer whose two low bits are its type). */
const MAX_STREAM_COUNT = 2 ** 60;
/** §19.8, §19.6: offset + length cannot exceed 2^62 - 1. */
const MAX_STREAM_OFFSET = 2 ** 62 - 1;

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: false });

/** The frame type byte `frame` is written with. */
export function quicFrameType(frame: QuicFrame): number {
  switch (frame.type) {
    case 'ACK':
      return frame.ecn ? 0x03 : 0x02;
    case 'STREAM':
      return 0x08 | (frame.offset > 0 ? STREAM_OFF : 0) | (frame.lengthOmitted ? 0 : STREAM_LEN) | (frame.fin ? STREAM_FIN : 0);
    case 'MAX_STREAMS':
      return frame.bidirectional ? 0x12 : 0x13;
    case 'STREAMS_BLOCKED':
      return frame.bidirectional ? 0x16 : 0x17;
    case 'CONNECTION_CLOSE':
      return frame.application ? 0x1d : 0x1c;
    default:
      return QUIC_FRAME_TYPES[frame.type];
  }
}

function reasonBytes(reason: string): Uint8Array | number {
  // ASCII reasons (all the simulator's) are their own length; others are measured as UTF-8.
  for (let i = 0; i < reason.length; i++) if (reason.charCodeAt(i) > 0x7f) return utf8.encode(reason);
  return reason.length;
}

function cryptoLength(frame: Extract<QuicFrame, { type: 'CRYPTO' }>): number {
  return frame.data ? frame.data.length : frame.length;
}

function checkAckRanges(ranges: readonly (readonly [number, number])[]): void {
  if (ranges.length === 0) throw misuse('An ACK frame needs at least one range (RFC 9000 §19.3).');
  for (let i = 0; i < ranges.length; i++) {
    const [low, high] = ranges[i]!;
    if (low > high) throw misuse(`ACK range ${i} is [${low}, ${high}]: low must not exceed high.`);
    // §19.3.1: ranges are disjoint and separated by at least one packet number (Gap = prev low - high - 2 >= 0).
    if (i > 0 && ranges[i - 1]![0] - high < 2)
      throw misuse(`ACK ranges must be highest first with a gap between them (RFC 9000 §19.3.1): [${ranges[i - 1]}] then [${low}, ${high}].`);
  }
}

/** Bytes `frame` takes on the wire: exactly what writeQuicFrame writes. */
export function quicFrameSize(frame: QuicFrame): number {
  switch (frame.type) {
    case 'PADDING':
      return frame.length;
    case 'PING':
    case 'HANDSHAKE_DONE':
      return 1;
    case 'ACK': {
      const ranges = frame.ranges;
      const first = ranges[0];
      if (!first) throw misuse('An ACK frame needs at least one range (RFC 9000 §19.3).');
      let size = 1 + varintLength(first[1]) + varintLength(frame.ackDelay ?? 0) + varintLength(ranges.length - 1) + varintLength(first[1] - first[0]);
      for (let i = 1; i < ranges.length; i++) {
        const [low, high] = ranges[i]!;
        size += varintLength(Math.max(0, ranges[i - 1]![0] - high - 2)) + varintLength(Math.max(0, high - low));
      }
      if (frame.ecn) size += varintLength(frame.ecn.ect0) + varintLength(frame.ecn.ect1) + varintLength(frame.ecn.ce);
      return size;
    }
    case 'RESET_STREAM':
      return 1 + varintLength(frame.streamId) + varintLength(frame.errorCode) + varintLength(frame.finalSize);
    case 'STOP_SENDING':
      return 1 + varintLength(frame.streamId) + varintLength(frame.errorCode);
    case 'CRYPTO': {
      const length = cryptoLength(frame);
      return 1 + varintLength(frame.offset ?? 0) + varintLength(length) + length;
    }
    case 'NEW_TOKEN':
      return 1 + varintLength(frame.token.length) + frame.token.length;
    case 'STREAM': {
      const length = frame.data.length;
      return 1 + varintLength(frame.streamId) + (frame.offset > 0 ? varintLength(frame.offset) : 0) + (frame.lengthOmitted ? 0 : varintLength(length)) + length;
    }
    case 'MAX_DATA':
      return 1 + varintLength(frame.maximum);
    case 'MAX_STREAM_DATA':
      return 1 + varintLength(frame.streamId) + varintLength(frame.maximum);
    case 'MAX_STREAMS':
      return 1 + varintLength(frame.maximum);
    case 'DATA_BLOCKED':
      return 1 + varintLength(frame.limit);
    case 'STREAM_DATA_BLOCKED':
      return 1 + varintLength(frame.streamId) + varintLength(frame.limit);
    case 'STREAMS_BLOCKED':
      return 1 + varintLength(frame.limit);
    case 'NEW_CONNECTION_ID':
      return 1 + varintLength(frame.sequence) + varintLength(frame.retirePriorTo) + 1 + frame.connectionId.length + 16;
    case 'RETIRE_CONNECTION_ID':
      return 1 + varintLength(frame.sequence);
    case 'PATH_CHALLENGE':
    case 'PATH_RESPONSE':
      return 1 + 8;
    case 'CONNECTION_CLOSE': {
      const reason = reasonBytes(frame.reason);
      const length = typeof reason === 'number' ? reason : reason.length;
      return 1 + varintLength(frame.errorCode) + (frame.application ? 0 : varintLength(frame.frameType ?? 0)) + varintLength(length) + length;
    }
  }
}

/** Writes `frame` at `out[pos]` and returns the position after it. `out` must have quicFrameSize(frame) bytes free. */
export function writeQuicFrame(frame: QuicFrame, out: Uint8Array, pos: number): number {
  switch (frame.type) {
    case 'PADDING':
      if (!Number.isInteger(frame.length) || frame.length < 1) throw misuse(`PADDING length must be a positive integer, got ${frame.length}.`);
      out.fill(0, pos, pos + frame.length);
      return pos + frame.length;
    case 'PING':
      out[pos] = 0x01;
      return pos + 1;
    case 'HANDSHAKE_DONE':
      out[pos] = 0x1e;
      return pos + 1;
    case 'ACK': {
      const ranges = frame.ranges;
      checkAckRanges(ranges);
      const [low, high] = ranges[0]!;
      out[pos++] = frame.ecn ? 0x03 : 0x02;
      pos = writeVarint(high, out, pos); // Largest Acknowledged
      pos = writeVarint(frame.ackDelay ?? 0, out, pos);
      pos = writeVarint(ranges.length - 1, out, pos); // ACK Range Count
      pos = writeVarint(high - low, out, pos); // First ACK Range
      for (let i = 1; i < ranges.length; i++) {
        const [l, h] = ranges[i]!;
        pos = writeVarint(ranges[i - 1]![0] - h - 2, out, pos); // Gap
        pos = writeVarint(h - l, out, pos); // ACK Range Length
      }
      if (frame.ecn) {
        pos = writeVarint(frame.ecn.ect0, out, pos);
        pos = writeVarint(frame.ecn.ect1, out, pos);
        pos = writeVarint(frame.ecn.ce, out, pos);
      }
      return pos;
    }
    case 'RESET_STREAM':
      out[pos++] = 0x04;
      pos = writeVarint(frame.streamId, out, pos);
      pos = writeVarint(frame.errorCode, out, pos);
      return writeVarint(frame.finalSize, out, pos);
    case 'STOP_SENDING':
      out[pos++] = 0x05;
      pos = writeVarint(frame.streamId, out, pos);
      return writeVarint(frame.errorCode, out, pos);
    case 'CRYPTO': {
      const length = cryptoLength(frame);
      out[pos++] = 0x06;
      pos = writeVarint(frame.offset ?? 0, out, pos);
      pos = writeVarint(length, out, pos);
      // Without `data` (the simulator runs no TLS) the message bytes are zeros of the right length.
      if (frame.data) out.set(frame.data, pos);
      else out.fill(0, pos, pos + length);
      return pos + length;
    }
    case 'NEW_TOKEN':
      if (frame.token.length === 0) throw misuse('A NEW_TOKEN frame cannot carry an empty token (RFC 9000 §19.7).');
      out[pos++] = 0x07;
      pos = writeVarint(frame.token.length, out, pos);
      out.set(frame.token, pos);
      return pos + frame.token.length;
    case 'STREAM': {
      out[pos++] = quicFrameType(frame);
      pos = writeVarint(frame.streamId, out, pos);
      if (frame.offset > 0) pos = writeVarint(frame.offset, out, pos);
      if (!frame.lengthOmitted) pos = writeVarint(frame.data.length, out, pos);
      out.set(frame.data, pos);
      return pos + frame.data.length;
    }
    case 'MAX_DATA':
      out[pos++] = 0x10;
      return writeVarint(frame.maximum, out, pos);
    case 'MAX_STREAM_DATA':
      out[pos++] = 0x11;
      pos = writeVarint(frame.streamId, out, pos);
      return writeVarint(frame.maximum, out, pos);
    case 'MAX_STREAMS':
      if (frame.maximum > MAX_STREAM_COUNT) throw misuse(`MAX_STREAMS cannot exceed 2^60 (RFC 9000 §19.11), got ${frame.maximum}.`);
      out[pos++] = frame.bidirectional ? 0x12 : 0x13;
      return writeVarint(frame.maximum, out, pos);
    case 'DATA_BLOCKED':
      out[pos++] = 0x14;
      return writeVarint(frame.limit, out, pos);
    case 'STREAM_DATA_BLOCKED':
      out[pos++] = 0x15;
      pos = writeVarint(frame.streamId, out, pos);
      return writeVarint(frame.limit, out, pos);
    case 'STREAMS_BLOCKED':
      if (frame.limit > MAX_STREAM_COUNT) throw misuse(`STREAMS_BLOCKED cannot exceed 2^60 (RFC 9000 §19.14), got ${frame.limit}.`);
      out[pos++] = frame.bidirectional ? 0x16 : 0x17;
      return writeVarint(frame.limit, out, pos);
    case 'NEW_CONNECTION_ID': {
      const id = frame.connectionId;
      if (id.length < 1 || id.length > 20) throw misuse(`A NEW_CONNECTION_ID's connection ID is 1 to 20 bytes (RFC 9000 §19.15), got ${id.length}.`);
      if (frame.resetToken.length !== 16) throw misuse(`A stateless reset token is 16 bytes (RFC 9000 §19.15), got ${frame.resetToken.length}.`);
      if (frame.retirePriorTo > frame.sequence)
        throw misuse(`Retire Prior To (${frame.retirePriorTo}) cannot exceed the Sequence Number (${frame.sequence}) (RFC 9000 §19.15).`);
      out[pos++] = 0x18;
      pos = writeVarint(frame.sequence, out, pos);
      pos = writeVarint(frame.retirePriorTo, out, pos);
      out[pos++] = id.length;
      out.set(id, pos);
      pos += id.length;
      out.set(frame.resetToken, pos);
      return pos + 16;
    }
    case 'RETIRE_CONNECTION_ID':
      out[pos++] = 0x19;
      return writeVarint(frame.sequence, out, pos);
    case 'PATH_CHALLENGE':
    case 'PATH_RESPONSE':
      if (frame.data.length !== 8) throw misuse(`${frame.type} carries exactly 8 bytes (RFC 9000 §19.17), got ${frame.data.length}.`);
      out[pos++] = frame.type === 'PATH_CHALLENGE' ? 0x1a : 0x1b;
      out.set(frame.data, pos);
      return pos + 8;
    case 'CONNECTION_CLOSE': {
      const reason = reasonBytes(frame.reason);
      out[pos++] = frame.application ? 0x1d : 0x1c;
      pos = writeVarint(frame.errorCode, out, pos);
      if (!frame.application) pos = writeVarint(frame.frameType ?? 0, out, pos);
      if (typeof reason === 'number') {
        pos = writeVarint(reason, out, pos);
        for (let i = 0; i < reason; i++) out[pos + i] = frame.reason.charCodeAt(i);
        return pos + reason;
      }
      pos = writeVarint(reason.length, out, pos);
      out.set(reason, pos);
      return pos + reason.length;
    }
  }
}

/** The bytes of a sequence of frames (a packet's payload). */
export function encodeQuicFrames(frames: readonly QuicFrame[]): Uint8Array {
  let size = 0;
  for (const frame of frames) size += quicFrameSize(frame);
  const out = new Uint8Array(size);
  let pos = 0;
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]!;
    if (frame.type === 'STREAM' && frame.lengthOmitted && i !== frames.length - 1)
      throw misuse('A STREAM frame without a Length field runs to the end of the packet, so it must be the last frame (RFC 9000 §19.8).');
    pos = writeQuicFrame(frame, out, pos);
  }
  return out;
}

// --- reading frames ---------------------------------------------------------------------------------

export type QuicFrameRead =
  | { readonly kind: 'ok'; readonly frame: QuicFrame; readonly next: number }
  /** The input ends inside the frame: more bytes would complete it (inside a packet, that is an error). */
  | { readonly kind: 'need-more' };

const NEED_MORE: QuicFrameRead = Object.freeze({ kind: 'need-more' });

const TLS_HANDSHAKE_TYPES: Record<number, string> = {
  1: 'ClientHello',
  2: 'ServerHello',
  4: 'NewSessionTicket',
  5: 'EndOfEarlyData',
  8: 'EncryptedExtensions',
  11: 'Certificate',
  13: 'CertificateRequest',
  15: 'CertificateVerify',
  20: 'Finished',
  24: 'KeyUpdate',
};

/**
 * The TLS 1.3 handshake messages (RFC 8446 §4: a type byte and a 24-bit length) that start CRYPTO data at
 * offset 0, by name, e.g. 'ClientHello' or 'EncryptedExtensions, Certificate'; '' when the data does not
 * start with a message this knows (a later fragment, or the simulator's zero bytes).
 */
export function tlsMessageNames(data: Uint8Array): string {
  const names: string[] = [];
  for (let pos = 0; pos + 4 <= data.length; ) {
    const name = TLS_HANDSHAKE_TYPES[data[pos]!];
    if (!name) break;
    names.push(name);
    pos += 4 + ((data[pos + 1]! << 16) | (data[pos + 2]! << 8) | data[pos + 3]!);
  }
  return names.join(', ');
}

/**
 * Reads one frame at `pos`. Throws a QuicCodecError FRAME_ENCODING_ERROR for a frame that cannot be valid
 * whatever follows (an unknown type, an ACK range below packet number 0, a connection ID of 21 bytes...);
 * returns 'need-more' when the input ends inside the frame. A run of 0x00 bytes is one PADDING frame, and a
 * STREAM frame without its LEN bit runs to the end of `bytes`.
 */
export function readQuicFrame(bytes: Uint8Array, pos: number): QuicFrameRead {
  if (pos >= bytes.length) return NEED_MORE;
  const start = pos;
  const typeRead = readVarint(bytes, pos);
  if (typeRead.kind === 'need-more') return NEED_MORE;
  const type = typeRead.value;
  // §12.4: a frame type uses its shortest encoding; a longer one MAY be treated as PROTOCOL_VIOLATION.
  if (typeRead.next - pos !== varintLength(type))
    throw new QuicCodecError(
      'PROTOCOL_VIOLATION',
      `Frame type 0x${type.toString(16)} at byte ${pos} is not in its shortest encoding (RFC 9000 §12.4).`,
      pos,
      type,
    );
  pos = typeRead.next;
  const fail = (message: string, at = start): never => {
    throw new QuicCodecError('FRAME_ENCODING_ERROR', message, at, type);
  };
  // Reads the frame's varint fields in order; undefined when the input ends first.
  const ints = (count: number): number[] | undefined => {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const r = readVarint(bytes, pos);
      if (r.kind === 'need-more') return undefined;
      out.push(r.value);
      pos = r.next;
    }
    return out;
  };
  const take = (length: number): Uint8Array | undefined => {
    if (pos + length > bytes.length) return undefined;
    const out = bytes.subarray(pos, pos + length);
    pos += length;
    return out;
  };
  const ok = (frame: QuicFrame): QuicFrameRead => ({ kind: 'ok', frame, next: pos });

  switch (type) {
    case 0x00: {
      while (pos < bytes.length && bytes[pos] === 0) pos++;
      return ok({ type: 'PADDING', length: pos - start });
    }
    case 0x01:
      return ok({ type: 'PING' });
    case 0x02:
    case 0x03: {
      const head = ints(4);
      if (!head) return NEED_MORE;
      const [largest, ackDelay, count, first] = head as [number, number, number, number];
      if (first > largest) fail(`ACK frame at byte ${start}: First ACK Range ${first} is larger than Largest Acknowledged ${largest} (RFC 9000 §19.3.1).`);
      const ranges: [number, number][] = [[largest - first, largest]];
      let smallest = largest - first;
      for (let i = 0; i < count; i++) {
        const at = pos;
        const pair = ints(2);
        if (!pair) return NEED_MORE;
        const [gap, length] = pair as [number, number];
        const high = smallest - gap - 2;
        const low = high - length;
        if (low < 0)
          fail(`ACK frame at byte ${start}: range ${i + 1} (Gap ${gap}, Length ${length}, at byte ${at}) goes below packet number 0 (RFC 9000 §19.3.1).`, at);
        ranges.push([low, high]);
        smallest = low;
      }
      let ecn: { ect0: number; ect1: number; ce: number } | undefined;
      if (type === 0x03) {
        const counts = ints(3);
        if (!counts) return NEED_MORE;
        ecn = { ect0: counts[0]!, ect1: counts[1]!, ce: counts[2]! };
      }
      return ok(ecn ? { type: 'ACK', ranges, ackDelay, ecn } : { type: 'ACK', ranges, ackDelay });
    }
    case 0x04: {
      const f = ints(3);
      if (!f) return NEED_MORE;
      return ok({ type: 'RESET_STREAM', streamId: f[0]!, errorCode: f[1]!, finalSize: f[2]! });
    }
    case 0x05: {
      const f = ints(2);
      if (!f) return NEED_MORE;
      return ok({ type: 'STOP_SENDING', streamId: f[0]!, errorCode: f[1]! });
    }
    case 0x06: {
      const f = ints(2);
      if (!f) return NEED_MORE;
      const [offset, length] = f as [number, number];
      if (offset + length > MAX_STREAM_OFFSET) fail(`CRYPTO frame at byte ${start} ends past 2^62 - 1 (RFC 9000 §19.6).`);
      const data = take(length);
      if (!data) return NEED_MORE;
      const messages = offset === 0 ? tlsMessageNames(data) : '';
      return ok(offset === 0 ? { type: 'CRYPTO', messages, length, data } : { type: 'CRYPTO', messages, length, offset, data });
    }
    case 0x07: {
      const f = ints(1);
      if (!f) return NEED_MORE;
      if (f[0] === 0) fail(`NEW_TOKEN frame at byte ${start} has an empty token (RFC 9000 §19.7).`);
      const token = take(f[0]!);
      if (!token) return NEED_MORE;
      return ok({ type: 'NEW_TOKEN', token });
    }
    case 0x08:
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0x0e:
    case 0x0f: {
      const f = ints(1 + (type & STREAM_OFF ? 1 : 0) + (type & STREAM_LEN ? 1 : 0));
      if (!f) return NEED_MORE;
      const streamId = f[0]!;
      const offset = type & STREAM_OFF ? f[1]! : 0;
      const length = type & STREAM_LEN ? f[f.length - 1]! : bytes.length - pos;
      if (offset + length > MAX_STREAM_OFFSET) fail(`STREAM frame at byte ${start} ends past 2^62 - 1 (RFC 9000 §19.8).`);
      const data = take(length);
      if (!data) return NEED_MORE;
      const fin = (type & STREAM_FIN) !== 0;
      return ok(type & STREAM_LEN ? { type: 'STREAM', streamId, offset, data, fin } : { type: 'STREAM', streamId, offset, data, fin, lengthOmitted: true });
    }
    case 0x10: {
      const f = ints(1);
      if (!f) return NEED_MORE;
      return ok({ type: 'MAX_DATA', maximum: f[0]! });
    }
    case 0x11: {
      const f = ints(2);
      if (!f) return NEED_MORE;
      return ok({ type: 'MAX_STREAM_DATA', streamId: f[0]!, maximum: f[1]! });
    }
    case 0x12:
    case 0x13:
    case 0x16:
    case 0x17: {
      const f = ints(1);
      if (!f) return NEED_MORE;
      const blocked = type >= 0x16;
      const name = blocked ? 'STREAMS_BLOCKED' : 'MAX_STREAMS';
      // §19.11 / §19.14: a count above 2^60 is a FRAME_ENCODING_ERROR.
      if (f[0]! > MAX_STREAM_COUNT) fail(`${name} frame at byte ${start} gives ${f[0]} streams; the most is 2^60 (RFC 9000 §19.11).`);
      const bidirectional = (type & 1) === 0;
      return ok(blocked ? { type: 'STREAMS_BLOCKED', bidirectional, limit: f[0]! } : { type: 'MAX_STREAMS', bidirectional, maximum: f[0]! });
    }
    case 0x14: {
      const f = ints(1);
      if (!f) return NEED_MORE;
      return ok({ type: 'DATA_BLOCKED', limit: f[0]! });
    }
    case 0x15: {
      const f = ints(2);
      if (!f) return NEED_MORE;
      return ok({ type: 'STREAM_DATA_BLOCKED', streamId: f[0]!, limit: f[1]! });
    }
    case 0x18: {
      const f = ints(2);
      if (!f) return NEED_MORE;
      const [sequence, retirePriorTo] = f as [number, number];
      if (retirePriorTo > sequence)
        fail(`NEW_CONNECTION_ID frame at byte ${start}: Retire Prior To ${retirePriorTo} exceeds Sequence Number ${sequence} (RFC 9000 §19.15).`);
      if (pos >= bytes.length) return NEED_MORE;
      const length = bytes[pos]!;
      if (length < 1 || length > 20)
        fail(`NEW_CONNECTION_ID frame at byte ${start}: a connection ID of ${length} bytes (at byte ${pos}); it must be 1 to 20 (RFC 9000 §19.15).`, pos);
      pos++;
      const connectionId = take(length);
      if (!connectionId) return NEED_MORE;
      const resetToken = take(16);
      if (!resetToken) return NEED_MORE;
      return ok({ type: 'NEW_CONNECTION_ID', sequence, retirePriorTo, connectionId, resetToken });
    }
    case 0x19: {
      const f = ints(1);
      if (!f) return NEED_MORE;
      return ok({ type: 'RETIRE_CONNECTION_ID', sequence: f[0]! });
    }
    case 0x1a:
    case 0x1b: {
      const data = take(8);
      if (!data) return NEED_MORE;
      return ok({ type: type === 0x1a ? 'PATH_CHALLENGE' : 'PATH_RESPONSE', data });
    }
    case 0x1c:
    case 0x1d: {
      const application = type === 0x1d;
      const f = ints(application ? 2 : 3);
      if (!f) return NEED_MORE;
      const length = f[f.length - 1]!;
      const reason = take(length);
      if (!reason) return NEED_MORE;
      const text = utf8Decoder.decode(reason);
      return ok(
        application
          ? { type: 'CONNECTION_CLOSE', errorCode: f[0]!, reason: text, application: true }
          : { type: 'CONNECTION_CLOSE', errorCode: f[0]!, reason: text, frameType: f[1]! },
      );
    }
    case 0x1e:
      return ok({ type: 'HANDSHAKE_DONE' });
    default:
      // §12.4: "An endpoint MUST treat the receipt of a frame of unknown type as a connection error of type FRAME_ENCODING_ERROR."
      return fail(`Unknown frame type 0x${type.toString(16)} at byte ${start} (RFC 9000 §12.4).`);
  }
}

/**
 * Decodes a packet's payload into its frames. A frame cut off by the end of the payload is a
 * FRAME_ENCODING_ERROR at the frame's first byte; `base` is added to every offset an error reports (where the
 * payload starts in the datagram).
 */
export function decodeQuicFrames(payload: Uint8Array, base = 0): QuicFrame[] {
  const frames: QuicFrame[] = [];
  let pos = 0;
  try {
    while (pos < payload.length) {
      const read = readQuicFrame(payload, pos);
      if (read.kind === 'need-more') {
        throw new QuicCodecError(
          'FRAME_ENCODING_ERROR',
          `The frame at byte ${pos} (type 0x${payload[pos]!.toString(16)}) is cut off by the end of the packet at byte ${payload.length} (RFC 9000 §12.4).`,
          pos,
          payload[pos],
        );
      }
      frames.push(read.frame);
      pos = read.next;
    }
  } catch (error) {
    throw rebase(error, base);
  }
  return frames;
}

/** The same error with its offsets moved from the payload's coordinates to the datagram's. */
function rebase(error: unknown, base: number): unknown {
  if (base === 0 || !(error instanceof WireError)) return error;
  const message = error.message.replace(/at byte (\d+)/g, (_m, n: string) => `at byte ${Number(n) + base}`);
  if (error instanceof QuicCodecError) return new QuicCodecError(error.code, message, error.offset + base, error.frameType);
  // varint.ts's 'varint-range': a value above 2^53 - 1, which this simulator cannot hold in a number.
  return new WireError({ code: error.code, side: error.side, message, offset: error.offset + base });
}

// --- packet numbers (RFC 9000 §17.1, Appendix A) ----------------------------------------------------

/**
 * How many bytes (1-4) a packet number takes when the peer has acknowledged up to `largestAcked` (undefined:
 * nothing yet): enough bits for twice the distance, so the receiver can undo the truncation (Appendix A.2).
 */
export function quicPacketNumberLength(fullPn: number, largestAcked: number | undefined): 1 | 2 | 3 | 4 {
  const unacked = largestAcked === undefined ? fullPn + 1 : fullPn - largestAcked;
  // min_bits = log2(num_unacked) + 1, rounded up to whole bytes.
  let bits = 1;
  while (2 ** (bits - 1) < unacked) bits++;
  const bytes = Math.ceil(bits / 8);
  if (bytes > 4) throw misuse(`Packet number ${fullPn} is ${unacked} ahead of the largest acknowledged: more than 4 bytes can tell apart (RFC 9000 §17.1).`);
  return Math.max(1, bytes) as 1 | 2 | 3 | 4;
}

/** The low `length` bytes of `fullPn`, the truncated packet number a header carries. */
export function truncatePacketNumber(fullPn: number, length: 1 | 2 | 3 | 4): number {
  return fullPn % 2 ** (8 * length);
}

/** RFC 9000 Appendix A.3: the full packet number closest to the next one expected. */
export function decodePacketNumber(largestPn: number | undefined, truncatedPn: number, bits: number): number {
  const expected = (largestPn ?? -1) + 1;
  const win = 2 ** bits;
  const half = win / 2;
  // (expected & ~mask) | truncated, with arithmetic that stays exact above 2^32.
  const candidate = expected - (expected % win) + truncatedPn;
  if (candidate <= expected - half && candidate < 2 ** 62 - win) return candidate + win;
  if (candidate > expected + half && candidate >= win) return candidate - win;
  return candidate;
}

// --- packets ----------------------------------------------------------------------------------------

export const QUIC_VERSION_1 = 0x0000_0001;

/** RFC 9000 §17.2: the Long Packet Type of version 1. */
const LONG_TYPE: Record<Exclude<QuicSpace, '1rtt'>, number> = { initial: 0, '0rtt': 1, handshake: 2 };
const LONG_SPACE: readonly (Exclude<QuicSpace, '1rtt'> | 'retry')[] = ['initial', '0rtt', 'handshake', 'retry'];

/** How to write a packet's header. */
export interface QuicPacketHeaderOptions {
  /** Destination Connection ID (0-20 bytes). */
  readonly dcid: Uint8Array;
  /** Source Connection ID (long headers; 0-20 bytes). */
  readonly scid?: Uint8Array;
  /** QUIC version (long headers), default 1. */
  readonly version?: number;
  /** Initial packets: the address-validation token (§17.2.2), default empty. */
  readonly token?: Uint8Array;
  /** Packet number length in bytes; by default the shortest §17.1 allows given `largestAcked`. */
  readonly packetNumberLength?: 1 | 2 | 3 | 4;
  /** The largest packet number of this space the peer has acknowledged (sets the packet number length). */
  readonly largestAcked?: number;
  /** Bytes of AEAD tag counted in the packet (zeros in place of it), default 16 (RFC 9001 §5.3). */
  readonly tagLength?: number;
  /** Short header: the latency spin bit (§17.4) and the key phase (§17.3.1). */
  readonly spin?: boolean;
  readonly keyPhase?: boolean;
}

const EMPTY = new Uint8Array(0);

function checkCid(cid: Uint8Array, name: string): void {
  if (cid.length > 20) throw misuse(`A QUIC v1 ${name} is at most 20 bytes (RFC 9000 §17.2), got ${cid.length}.`);
}

/** Bytes the packet's header takes up to and including its packet number, for a payload of `payload` bytes. */
function headerLength(space: QuicSpace, options: QuicPacketHeaderOptions, pnLength: number, payload: number, tag: number): number {
  if (space === '1rtt') return 1 + options.dcid.length + pnLength;
  const token = space === 'initial' ? (options.token?.length ?? 0) : 0;
  return (
    1 +
    4 +
    1 +
    options.dcid.length +
    1 +
    (options.scid?.length ?? 0) +
    (space === 'initial' ? varintLength(token) + token : 0) +
    varintLength(pnLength + payload + tag) +
    pnLength
  );
}

function pnLengthOf(packet: Pick<QuicPacket, 'number'>, options: QuicPacketHeaderOptions): 1 | 2 | 3 | 4 {
  return options.packetNumberLength ?? quicPacketNumberLength(packet.number, options.largestAcked);
}

/** Bytes the packet takes on the wire, its AEAD tag included: exactly encodeQuicPacket(...).length. */
export function quicPacketSize(packet: QuicPacket, options: QuicPacketHeaderOptions): number {
  let payload = 0;
  for (const frame of packet.frames) payload += quicFrameSize(frame);
  const tag = options.tagLength ?? 16;
  return headerLength(packet.space, options, pnLengthOf(packet, options), payload, tag) + payload + tag;
}

/** Writes `packet` at `out[pos]` (unprotected, with a zeroed tag slot) and returns the position after it. */
export function writeQuicPacket(packet: QuicPacket, options: QuicPacketHeaderOptions, out: Uint8Array, pos: number): number {
  const { space, frames } = packet;
  if (frames.length === 0) throw misuse('A QUIC packet needs at least one frame (RFC 9000 §12.4).');
  const pnLength = pnLengthOf(packet, options);
  const tag = options.tagLength ?? 16;
  let payload = 0;
  for (const frame of frames) payload += quicFrameSize(frame);
  // RFC 9001 §5.4.2: header protection samples 16 bytes starting 4 after the packet number's start.
  if (tag > 0 && pnLength + payload < 4)
    throw misuse(`A protected packet needs at least 4 bytes of packet number and frames to sample (RFC 9001 §5.4.2), got ${pnLength + payload}; add PADDING.`);
  checkCid(options.dcid, 'Destination Connection ID');
  const truncated = truncatePacketNumber(packet.number, pnLength);
  if (space === '1rtt') {
    // §17.3.1: 0 | fixed 1 | spin | reserved 00 | key phase | packet number length - 1.
    out[pos++] = 0x40 | (options.spin ? 0x20 : 0) | (options.keyPhase ? 0x04 : 0) | (pnLength - 1);
    out.set(options.dcid, pos);
    pos += options.dcid.length;
  } else {
    const scid = options.scid ?? EMPTY;
    checkCid(scid, 'Source Connection ID');
    // §17.2: 1 | fixed 1 | type | reserved 00 | packet number length - 1.
    out[pos++] = 0xc0 | (LONG_TYPE[space] << 4) | (pnLength - 1);
    const version = options.version ?? QUIC_VERSION_1;
    out[pos++] = version >>> 24;
    out[pos++] = (version >>> 16) & 0xff;
    out[pos++] = (version >>> 8) & 0xff;
    out[pos++] = version & 0xff;
    out[pos++] = options.dcid.length;
    out.set(options.dcid, pos);
    pos += options.dcid.length;
    out[pos++] = scid.length;
    out.set(scid, pos);
    pos += scid.length;
    if (space === 'initial') {
      const token = options.token ?? EMPTY;
      pos = writeVarint(token.length, out, pos);
      out.set(token, pos);
      pos += token.length;
    }
    pos = writeVarint(pnLength + payload + tag, out, pos);
  }
  for (let i = pnLength - 1; i >= 0; i--) out[pos + pnLength - 1 - i] = Math.floor(truncated / 2 ** (8 * i)) & 0xff;
  pos += pnLength;
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]!;
    if (frame.type === 'STREAM' && frame.lengthOmitted && i !== frames.length - 1)
      throw misuse('A STREAM frame without a Length field runs to the end of the packet, so it must be the last frame (RFC 9000 §19.8).');
    pos = writeQuicFrame(frame, out, pos);
  }
  out.fill(0, pos, pos + tag);
  return pos + tag;
}

export function encodeQuicPacket(packet: QuicPacket, options: QuicPacketHeaderOptions): Uint8Array {
  const out = new Uint8Array(quicPacketSize(packet, options));
  writeQuicPacket(packet, options, out, 0);
  return out;
}

/** One packet of a datagram and how to write its header. */
export interface QuicPacketToEncode {
  readonly packet: QuicPacket;
  readonly header: QuicPacketHeaderOptions;
}

/** Several packets coalesced into one UDP datagram (RFC 9000 §12.2); a 1-RTT packet can only be the last. */
export function encodeQuicDatagram(packets: readonly QuicPacketToEncode[]): Uint8Array {
  let size = 0;
  for (let i = 0; i < packets.length; i++) {
    const { packet, header } = packets[i]!;
    // §12.2: a short-header packet has no Length field, so nothing can follow it in the datagram.
    if (packet.space === '1rtt' && i !== packets.length - 1)
      throw misuse('A 1-RTT (short header) packet must be the last packet of a datagram (RFC 9000 §12.2).');
    size += quicPacketSize(packet, header);
  }
  const out = new Uint8Array(size);
  let pos = 0;
  for (const { packet, header } of packets) pos = writeQuicPacket(packet, header, out, pos);
  return out;
}

// --- reading packets ----------------------------------------------------------------------------------

/** A decoded packet: the typed packet, plus its header fields as they were on the wire. */
export interface DecodedQuicPacket extends QuicPacket {
  readonly header: {
    readonly form: 'long' | 'short';
    readonly version?: number;
    readonly dcid: Uint8Array;
    readonly scid?: Uint8Array;
    readonly token?: Uint8Array;
    /** Long headers: the Length field (packet number, frames and tag). */
    readonly length?: number;
    readonly packetNumberLength: 1 | 2 | 3 | 4;
    /** The packet number as the header carried it, before Appendix A.3 expanded it into `number`. */
    readonly truncatedNumber: number;
    readonly spin?: boolean;
    readonly keyPhase?: boolean;
  };
  /** Where the packet starts in the datagram and how many bytes it takes (tag included). */
  readonly start: number;
  readonly size: number;
  /** Where the frames start and end in the datagram. */
  readonly payloadStart: number;
  readonly payloadEnd: number;
}

/** A Version Negotiation packet (RFC 9000 §17.2.1): version 0 and the versions the server supports. */
export interface QuicVersionNegotiation {
  readonly kind: 'version-negotiation';
  readonly dcid: Uint8Array;
  readonly scid: Uint8Array;
  readonly versions: readonly number[];
  readonly start: number;
  readonly size: number;
}

/** A Retry packet (RFC 9000 §17.2.5): a token and the 16-byte Retry Integrity Tag (RFC 9001 §5.8). */
export interface QuicRetry {
  readonly kind: 'retry';
  readonly version: number;
  readonly dcid: Uint8Array;
  readonly scid: Uint8Array;
  readonly token: Uint8Array;
  readonly integrityTag: Uint8Array;
  readonly start: number;
  readonly size: number;
}

export interface QuicDecodeOptions {
  /** The length of the connection IDs this endpoint issued: a short header does not say how long its DCID is. Default 8. */
  readonly shortHeaderDcidLength?: number;
  /** The largest packet number received in a space, to expand a truncated packet number (Appendix A.3). */
  readonly largestReceived?: (space: QuicSpace) => number | undefined;
  /** Bytes of AEAD tag at the end of each packet, default 16; 0 for a payload already decrypted and cut. */
  readonly tagLength?: number;
  /**
   * This endpoint sent the grease_quic_bit transport parameter (RFC 9287 §3), so the peer may send the fixed
   * bit as 0, as ngtcp2 does; otherwise a packet with it clear is refused (RFC 9000 §17.2).
   */
  readonly greaseQuicBit?: boolean;
}

function headerError(message: string, offset: number): QuicCodecError {
  return new QuicCodecError('PROTOCOL_VIOLATION', message, offset);
}

/** §12.4 Table 3: frames a packet type may carry (IH_1 = Initial and Handshake; 0 = 0-RTT; 1 = 1-RTT). */
function allowedIn(frame: QuicFrame, space: QuicSpace): boolean {
  if (space === 'initial' || space === 'handshake') {
    return (
      frame.type === 'PADDING' ||
      frame.type === 'PING' ||
      frame.type === 'ACK' ||
      frame.type === 'CRYPTO' ||
      (frame.type === 'CONNECTION_CLOSE' && !frame.application)
    );
  }
  if (space === '0rtt') {
    return !(
      frame.type === 'ACK' ||
      frame.type === 'CRYPTO' ||
      frame.type === 'HANDSHAKE_DONE' ||
      frame.type === 'NEW_TOKEN' ||
      frame.type === 'PATH_RESPONSE' ||
      frame.type === 'RETIRE_CONNECTION_ID'
    );
  }
  return true;
}

const SPACE_NAME: Record<QuicSpace, string> = { initial: 'Initial', handshake: 'Handshake', '0rtt': '0-RTT', '1rtt': '1-RTT' };

/**
 * Reads the packet starting at `bytes[pos]` (an unprotected packet, see the header comment). Every error is a
 * QuicCodecError whose offset is in `bytes`.
 */
export function decodeQuicPacket(bytes: Uint8Array, pos = 0, options: QuicDecodeOptions = {}): DecodedQuicPacket | QuicVersionNegotiation | QuicRetry {
  const start = pos;
  const tag = options.tagLength ?? 16;
  const need = (n: number, what: string) => {
    if (pos + n > bytes.length) throw headerError(`The packet at byte ${start} ends at byte ${bytes.length}, inside its ${what} (RFC 9000 §17).`, pos);
  };
  need(1, 'first byte');
  const first = bytes[pos++]!;
  const long = (first & 0x80) !== 0;
  let version: number | undefined;
  let dcid: Uint8Array;
  let scid: Uint8Array | undefined;
  let token: Uint8Array | undefined;
  let space: QuicSpace;
  let end: number;
  if (long) {
    need(4, 'version');
    version = ((bytes[pos]! << 24) | (bytes[pos + 1]! << 16) | (bytes[pos + 2]! << 8) | bytes[pos + 3]!) >>> 0;
    pos += 4;
    need(1, 'Destination Connection ID Length');
    const dcidLength = bytes[pos++]!;
    // §17.2: version 1 connection IDs are at most 20 bytes; other versions' are up to 255 (read as such for VN).
    if (version !== 0 && dcidLength > 20)
      throw headerError(`Destination Connection ID Length ${dcidLength} at byte ${pos - 1}: QUIC v1 allows at most 20 (RFC 9000 §17.2).`, pos - 1);
    need(dcidLength, 'Destination Connection ID');
    dcid = bytes.subarray(pos, pos + dcidLength);
    pos += dcidLength;
    need(1, 'Source Connection ID Length');
    const scidLength = bytes[pos++]!;
    if (version !== 0 && scidLength > 20)
      throw headerError(`Source Connection ID Length ${scidLength} at byte ${pos - 1}: QUIC v1 allows at most 20 (RFC 9000 §17.2).`, pos - 1);
    need(scidLength, 'Source Connection ID');
    scid = bytes.subarray(pos, pos + scidLength);
    pos += scidLength;
    if (version === 0) {
      // §17.2.1: the rest of the datagram is a list of 32-bit versions.
      if ((bytes.length - pos) % 4 !== 0)
        throw headerError(
          `Version Negotiation packet at byte ${start}: ${bytes.length - pos} bytes of versions is not a multiple of 4 (RFC 9000 §17.2.1).`,
          pos,
        );
      const versions: number[] = [];
      for (; pos < bytes.length; pos += 4) versions.push(((bytes[pos]! << 24) | (bytes[pos + 1]! << 16) | (bytes[pos + 2]! << 8) | bytes[pos + 3]!) >>> 0);
      return { kind: 'version-negotiation', dcid, scid, versions, start, size: bytes.length - start };
    }
    if (version !== QUIC_VERSION_1)
      throw headerError(
        `Version 0x${version.toString(16).padStart(8, '0')} at byte ${start + 1} is not QUIC version 1 (RFC 9000 §15); this decoder reads v1 only.`,
        start + 1,
      );
    // §17.2: the fixed bit is 1; a packet with 0 there is not a valid v1 packet (unless greased, RFC 9287).
    if ((first & 0x40) === 0 && !options.greaseQuicBit)
      throw headerError(`The packet at byte ${start} has the fixed bit (0x40) clear (RFC 9000 §17.2).`, start);
    const kind = LONG_SPACE[(first >> 4) & 0x03]!;
    if (kind === 'retry') {
      // §17.2.5: a token, then the 16-byte Retry Integrity Tag, to the end of the datagram.
      if (bytes.length - pos < 16) throw headerError(`Retry packet at byte ${start} is shorter than its 16-byte Retry Integrity Tag (RFC 9000 §17.2.5).`, pos);
      return {
        kind: 'retry',
        version,
        dcid,
        scid,
        token: bytes.subarray(pos, bytes.length - 16),
        integrityTag: bytes.subarray(bytes.length - 16),
        start,
        size: bytes.length - start,
      };
    }
    space = kind;
    // §17.2: the two reserved bits are 0 once header protection is removed, else PROTOCOL_VIOLATION.
    if (first & 0x0c) throw headerError(`The packet at byte ${start} has its reserved bits (0x0c) set (RFC 9000 §17.2).`, start);
    if (space === 'initial') {
      const length = readVarint(bytes, pos);
      if (length.kind === 'need-more')
        throw headerError(`The Initial packet at byte ${start} ends inside its Token Length at byte ${pos} (RFC 9000 §17.2.2).`, pos);
      pos = length.next;
      need(length.value, 'Token');
      token = bytes.subarray(pos, pos + length.value);
      pos += length.value;
    }
    const lengthAt = pos;
    const length = readVarint(bytes, pos);
    if (length.kind === 'need-more') throw headerError(`The packet at byte ${start} ends inside its Length field at byte ${pos} (RFC 9000 §17.2).`, pos);
    pos = length.next;
    end = pos + length.value;
    if (end > bytes.length)
      throw headerError(
        `The packet at byte ${start} says Length ${length.value} (at byte ${lengthAt}) but only ${bytes.length - pos} bytes follow (RFC 9000 §17.2).`,
        lengthAt,
      );
  } else {
    if ((first & 0x40) === 0 && !options.greaseQuicBit)
      throw headerError(`The packet at byte ${start} has the fixed bit (0x40) clear (RFC 9000 §17.3.1).`, start);
    if (first & 0x18) throw headerError(`The 1-RTT packet at byte ${start} has its reserved bits (0x18) set (RFC 9000 §17.3.1).`, start);
    space = '1rtt';
    const dcidLength = options.shortHeaderDcidLength ?? 8;
    need(dcidLength, 'Destination Connection ID');
    dcid = bytes.subarray(pos, pos + dcidLength);
    pos += dcidLength;
    end = bytes.length;
  }
  const pnLength = ((first & 0x03) + 1) as 1 | 2 | 3 | 4;
  if (end - pos < pnLength + tag)
    throw headerError(`The packet at byte ${start} is too short for its ${pnLength}-byte packet number and ${tag}-byte tag (RFC 9000 §17).`, pos);
  let truncated = 0;
  for (let i = 0; i < pnLength; i++) truncated = truncated * 256 + bytes[pos + i]!;
  pos += pnLength;
  const number = decodePacketNumber(options.largestReceived?.(space), truncated, pnLength * 8);
  const payloadStart = pos;
  const payloadEnd = end - tag;
  // §12.4: a packet without frames is a PROTOCOL_VIOLATION.
  if (payloadEnd === payloadStart) throw headerError(`The ${SPACE_NAME[space]} packet at byte ${start} carries no frames (RFC 9000 §12.4).`, payloadStart);
  const frames = decodeQuicFrames(bytes.subarray(payloadStart, payloadEnd), payloadStart);
  let at = payloadStart;
  for (const frame of frames) {
    if (!allowedIn(frame, space))
      throw new QuicCodecError(
        'PROTOCOL_VIOLATION',
        `A ${frame.type} frame at byte ${at} is not allowed in a ${SPACE_NAME[space]} packet (RFC 9000 §12.4, Table 3).`,
        at,
        quicFrameType(frame),
      );
    at += quicFrameSize(frame);
  }
  const header: DecodedQuicPacket['header'] = long
    ? {
        form: 'long',
        version,
        dcid,
        scid,
        ...(token ? { token } : {}),
        length: end - (payloadStart - pnLength),
        packetNumberLength: pnLength,
        truncatedNumber: truncated,
      }
    : { form: 'short', dcid, packetNumberLength: pnLength, truncatedNumber: truncated, spin: (first & 0x20) !== 0, keyPhase: (first & 0x04) !== 0 };
  return { space, number, frames, header, start, size: end - start, payloadStart, payloadEnd };
}

/** Every packet coalesced in a datagram (RFC 9000 §12.2), in order. */
export function decodeQuicDatagram(bytes: Uint8Array, options: QuicDecodeOptions = {}): (DecodedQuicPacket | QuicVersionNegotiation | QuicRetry)[] {
  const packets: (DecodedQuicPacket | QuicVersionNegotiation | QuicRetry)[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const packet = decodeQuicPacket(bytes, pos, options);
    packets.push(packet);
    pos = packet.start + packet.size;
  }
  if (packets.length === 0) throw headerError('An empty datagram holds no QUIC packet (RFC 9000 §12.2).', 0);
  return packets;
}
