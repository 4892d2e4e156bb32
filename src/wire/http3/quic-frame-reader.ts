/**
 * QUIC frames (RFC 9000 §19) as bytes, reading: one frame at a time (`readQuicFrame`, which can say the input
 * ends inside a frame) or a whole packet payload (`decodeQuicFrames`, where that is an error). A run of 0x00
 * bytes decodes to one PADDING frame of that length. Malformed frames are QuicCodecError FRAME_ENCODING_ERROR
 * (0x07, §12.4, §19). Apart from quic-frame-writer.ts, whose type table and STREAM bits it reads by, and
 * from quic-codec.ts, which calls it for each packet's payload.
 */
import { WireError } from '../errors';
import { TLS_HANDSHAKE_TYPES } from '../transport/tls-names';
import type { QuicFrame } from './packets';
import { QuicCodecError } from './quic-codec-errors';
import { MAX_STREAM_COUNT, MAX_STREAM_OFFSET, STREAM_FIN, STREAM_LEN, STREAM_OFF } from './quic-frame-writer';
import { readVarint, varintLength } from './varint';

const utf8Decoder = new TextDecoder('utf-8', { fatal: false });

export type QuicFrameRead =
  | { readonly kind: 'ok'; readonly frame: QuicFrame; readonly next: number }
  /** The input ends inside the frame: more bytes would complete it (inside a packet, that is an error). */
  | { readonly kind: 'need-more' };

const NEED_MORE: QuicFrameRead = Object.freeze({ kind: 'need-more' });

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
