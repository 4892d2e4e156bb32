/**
 * QUIC frames (RFC 9000 §19) as bytes, writing: every frame type of QUIC version 1, from PADDING (0x00) to
 * HANDSHAKE_DONE (0x1e). A frame is the typed `QuicFrame` of packets.ts; `quicFrameSize` is exactly what
 * `writeQuicFrame` writes, so a packet's size is known before it is written. Apart from quic-codec.ts (packet
 * headers and datagrams) and quic-frame-reader.ts (the way back) so each reads in one sitting; the frame
 * type table and the STREAM bits below are the format both directions share.
 */
import { misuse } from './quic-codec-errors';
import type { QuicFrame } from './packets';
import { varintLength, writeVarint } from './varint';

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
export const STREAM_OFF = 0x04;
export const STREAM_LEN = 0x02;
export const STREAM_FIN = 0x01;

/** §19.11: a stream count cannot exceed 2^60 (a stream ID is a 62-bit integer whose two low bits are its type). */
export const MAX_STREAM_COUNT = 2 ** 60;
/** §19.8, §19.6: offset + length cannot exceed 2^62 - 1. */
export const MAX_STREAM_OFFSET = 2 ** 62 - 1;

const utf8 = new TextEncoder();

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
