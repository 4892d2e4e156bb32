/**
 * HTTP/3 frames (RFC 9114 §7): every frame is Type (varint), Length (varint), Payload.
 *
 * Modelled: DATA (0x00), HEADERS (0x01), SETTINGS (0x04) and GOAWAY (0x07), and frames of unknown type,
 * which RFC 9114 §9 says a receiver must ignore (the "grease" mechanism, §7.2.8). The frame types that
 * HTTP/2 had but HTTP/3 reserves (0x02 PRIORITY, 0x06 PING, 0x08 WINDOW_UPDATE, 0x09 CONTINUATION) are
 * errors (§7.2.8: H3_FRAME_UNEXPECTED): QUIC does their job (ping, flow control) or they were dropped.
 *
 * Not modelled: CANCEL_PUSH, PUSH_PROMISE and MAX_PUSH_ID (server push is left out of the simulator).
 * A frame of those types decodes as 'UNKNOWN' with its code, so it is visible but has no meaning here.
 *
 * Decoding is incremental: `decodeHttp3Frames` returns the complete frames at the front of the input
 * and how many bytes they used; a frame cut short waits for more bytes (QUIC streams deliver bytes, not
 * frames, and a frame may span packets).
 */
import { concatBytes } from '../bytes';
import { WireError } from '../errors';
import { readVarint, varintLength, writeVarint } from './varint';

export const HTTP3_FRAME_TYPES = { DATA: 0x00, HEADERS: 0x01, SETTINGS: 0x04, GOAWAY: 0x07 } as const;
/** HTTP/2 frame types that RFC 9114 §7.2.8 reserves; receiving one is a connection error. */
export const HTTP3_RESERVED_FRAME_TYPES: readonly number[] = [0x02, 0x06, 0x08, 0x09];

/** RFC 9114 §7.2.4.1 and RFC 9204 §5. */
export const HTTP3_SETTINGS = { QPACK_MAX_TABLE_CAPACITY: 0x01, MAX_FIELD_SECTION_SIZE: 0x06, QPACK_BLOCKED_STREAMS: 0x07 } as const;
/** HTTP/2 setting identifiers that have no HTTP/3 meaning; §7.2.4.1 makes them an error. */
export const HTTP3_RESERVED_SETTINGS: readonly number[] = [0x02, 0x03, 0x04, 0x05];

/** Unidirectional stream types (RFC 9114 §6.2, RFC 9204 §4.2). */
export const HTTP3_STREAM_TYPES = { CONTROL: 0x00, PUSH: 0x01, QPACK_ENCODER: 0x02, QPACK_DECODER: 0x03 } as const;

/** HTTP/3 error codes (RFC 9114 §8.1) used by this model. */
export const HTTP3_ERROR_CODES = {
  H3_NO_ERROR: 0x100,
  H3_GENERAL_PROTOCOL_ERROR: 0x101,
  H3_INTERNAL_ERROR: 0x102,
  H3_STREAM_CREATION_ERROR: 0x103,
  /** §6.2.1: a control stream was closed or reset. */
  H3_CLOSED_CRITICAL_STREAM: 0x104,
  H3_FRAME_UNEXPECTED: 0x105,
  H3_FRAME_ERROR: 0x106,
  H3_EXCESSIVE_LOAD: 0x107,
  H3_ID_ERROR: 0x108,
  H3_SETTINGS_ERROR: 0x109,
  H3_MISSING_SETTINGS: 0x10a,
  H3_REQUEST_REJECTED: 0x10b,
  /** §4.1.1: a client cancelling a request; a server that stops answering one it began. */
  H3_REQUEST_CANCELLED: 0x10c,
  H3_REQUEST_INCOMPLETE: 0x10d,
  H3_MESSAGE_ERROR: 0x10e,
  /** RFC 9204 §6: a field section, an encoder-stream or a decoder-stream instruction that cannot be read. */
  QPACK_DECOMPRESSION_FAILED: 0x200,
  QPACK_ENCODER_STREAM_ERROR: 0x201,
  QPACK_DECODER_STREAM_ERROR: 0x202,
} as const;
export type Http3ErrorCode = keyof typeof HTTP3_ERROR_CODES;

/** 'H3_REQUEST_CANCELLED' for 0x10c; codes this model does not name print as hex (0x1f). */
export function http3ErrorName(code: number): string {
  for (const [name, value] of Object.entries(HTTP3_ERROR_CODES)) if (value === code) return name;
  return `0x${code.toString(16)}`;
}

export interface Http3Setting {
  readonly id: number;
  readonly value: number;
}

export type Http3Frame =
  | { readonly type: 'DATA'; readonly payload: Uint8Array }
  | { readonly type: 'HEADERS'; readonly fieldSection: Uint8Array }
  | { readonly type: 'SETTINGS'; readonly settings: readonly Http3Setting[] }
  /** RFC 9114 §5.2: from a server, the first request stream id it will NOT process. */
  | { readonly type: 'GOAWAY'; readonly id: number }
  | { readonly type: 'UNKNOWN'; readonly code: number; readonly payload: Uint8Array };

export function http3Error(code: Http3ErrorCode, message: string, offset = 0): WireError {
  return new WireError({ code, side: 'remote', offset, message });
}

function payloadOf(frame: Http3Frame): Uint8Array {
  switch (frame.type) {
    case 'DATA':
      return frame.payload;
    case 'HEADERS':
      return frame.fieldSection;
    case 'UNKNOWN':
      return frame.payload;
    case 'GOAWAY': {
      const out = new Uint8Array(varintLength(frame.id));
      writeVarint(frame.id, out, 0);
      return out;
    }
    case 'SETTINGS': {
      const size = frame.settings.reduce((n, s) => n + varintLength(s.id) + varintLength(s.value), 0);
      const out = new Uint8Array(size);
      let pos = 0;
      for (const s of frame.settings) pos = writeVarint(s.value, out, writeVarint(s.id, out, pos));
      return out;
    }
  }
}

/** Length of a frame's payload (what its Length field says). */
export function http3PayloadLength(frame: Http3Frame): number {
  return payloadOf(frame).length;
}

function typeCode(frame: Http3Frame): number {
  return frame.type === 'UNKNOWN' ? frame.code : HTTP3_FRAME_TYPES[frame.type];
}

export function encodeHttp3Frame(frame: Http3Frame): Uint8Array {
  const payload = payloadOf(frame);
  const code = typeCode(frame);
  const out = new Uint8Array(varintLength(code) + varintLength(payload.length) + payload.length);
  const pos = writeVarint(payload.length, out, writeVarint(code, out, 0));
  out.set(payload, pos);
  return out;
}

export function encodeHttp3Frames(frames: readonly Http3Frame[]): Uint8Array {
  return concatBytes(frames.map(encodeHttp3Frame));
}

function decodeSettings(payload: Uint8Array, base: number): Http3Setting[] {
  const settings: Http3Setting[] = [];
  const seen = new Set<number>();
  let pos = 0;
  while (pos < payload.length) {
    const id = readVarint(payload, pos);
    const value = id.kind === 'ok' ? readVarint(payload, id.next) : id;
    if (id.kind !== 'ok' || value.kind !== 'ok')
      throw http3Error('H3_FRAME_ERROR', 'A SETTINGS frame ends in the middle of a setting (RFC 9114 §7.2.4).', base + pos);
    // RFC 9114 §7.2.4: the same identifier twice is a connection error; so are HTTP/2's identifiers.
    if (seen.has(id.value)) throw http3Error('H3_SETTINGS_ERROR', `SETTINGS repeats identifier 0x${id.value.toString(16)} (RFC 9114 §7.2.4).`, base + pos);
    if (HTTP3_RESERVED_SETTINGS.includes(id.value))
      throw http3Error('H3_SETTINGS_ERROR', `SETTINGS uses HTTP/2 identifier 0x${id.value.toString(16)}, reserved in HTTP/3 (RFC 9114 §7.2.4.1).`, base + pos);
    seen.add(id.value);
    settings.push({ id: id.value, value: value.value });
    pos = value.next;
  }
  return settings;
}

function build(code: number, payload: Uint8Array, at: number): Http3Frame {
  switch (code) {
    case HTTP3_FRAME_TYPES.DATA:
      return { type: 'DATA', payload };
    case HTTP3_FRAME_TYPES.HEADERS:
      return { type: 'HEADERS', fieldSection: payload };
    case HTTP3_FRAME_TYPES.SETTINGS:
      return { type: 'SETTINGS', settings: decodeSettings(payload, at) };
    case HTTP3_FRAME_TYPES.GOAWAY: {
      const id = readVarint(payload, 0);
      // RFC 9114 §7.1: a frame's payload must be exactly what its type defines.
      if (id.kind !== 'ok' || id.next !== payload.length)
        throw http3Error('H3_FRAME_ERROR', 'A GOAWAY payload must be exactly one varint (RFC 9114 §7.2.6).', at);
      return { type: 'GOAWAY', id: id.value };
    }
    default:
      if (HTTP3_RESERVED_FRAME_TYPES.includes(code)) {
        throw http3Error(
          'H3_FRAME_UNEXPECTED',
          `Frame type 0x${code.toString(16)} is an HTTP/2 frame that HTTP/3 reserves (RFC 9114 §7.2.8); QUIC does that job.`,
          at,
        );
      }
      return { type: 'UNKNOWN', code, payload };
  }
}

export interface Http3DecodeResult {
  readonly frames: readonly Http3Frame[];
  /** Bytes used by `frames`; the rest is an incomplete frame. */
  readonly consumed: number;
}

export function decodeHttp3Frames(bytes: Uint8Array): Http3DecodeResult {
  const frames: Http3Frame[] = [];
  let pos = 0;
  for (;;) {
    const type = readVarint(bytes, pos);
    if (type.kind !== 'ok') break;
    const length = readVarint(bytes, type.next);
    if (length.kind !== 'ok') break;
    const end = length.next + length.value;
    if (end > bytes.length) break;
    frames.push(build(type.value, bytes.slice(length.next, end), pos));
    pos = end;
  }
  return { frames, consumed: pos };
}
