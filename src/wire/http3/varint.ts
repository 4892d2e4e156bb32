/**
 * QUIC variable-length integers (RFC 9000 §16), used by every HTTP/3 frame header and by QUIC itself.
 *
 * The two most significant bits of the first byte give the length: 00 -> 1 byte (6-bit value),
 * 01 -> 2 bytes (14 bits), 10 -> 4 bytes (30 bits), 11 -> 8 bytes (62 bits). Values are big-endian.
 *
 * Simplification: values are JavaScript numbers, so the largest value handled is
 * Number.MAX_SAFE_INTEGER (2^53 - 1) rather than 2^62 - 1. Nothing a lesson sends comes near either.
 * Decoding an 8-byte varint above 2^53 - 1 is reported as an error instead of silently losing bits.
 * The encoder always picks the shortest form; the decoder accepts longer-than-needed forms, which
 * RFC 9000 §16 allows ("values do not need to be encoded on the minimum number of bytes").
 */
import { WireError } from '../errors';

export const QUIC_VARINT_MAX = Number.MAX_SAFE_INTEGER;

/** Bytes the shortest encoding of `value` takes. */
export function varintLength(value: number): 1 | 2 | 4 | 8 {
  if (!Number.isInteger(value) || value < 0 || value > QUIC_VARINT_MAX) {
    throw new WireError({
      code: 'varint-range',
      side: 'local',
      message: `A QUIC varint must be an integer from 0 to 2^53 - 1 here (RFC 9000 §16 allows up to 2^62 - 1), got ${value}.`,
    });
  }
  if (value < 0x40) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x4000_0000) return 4;
  return 8;
}

/** Writes `value` at `out[pos]` in its shortest form and returns the position after it. */
export function writeVarint(value: number, out: Uint8Array, pos: number): number {
  const length = varintLength(value);
  let rest = value;
  for (let i = length - 1; i >= 0; i--) {
    out[pos + i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  out[pos] = out[pos]! | ({ 1: 0x00, 2: 0x40, 4: 0x80, 8: 0xc0 } as const)[length];
  return pos + length;
}

export function encodeVarint(value: number): Uint8Array {
  const out = new Uint8Array(varintLength(value));
  writeVarint(value, out, 0);
  return out;
}

export type VarintRead = { readonly kind: 'ok'; readonly value: number; readonly next: number } | { readonly kind: 'need-more' };

/** Reads a varint at `pos`; 'need-more' when the input ends inside it. */
export function readVarint(bytes: Uint8Array, pos: number): VarintRead {
  if (pos >= bytes.length) return { kind: 'need-more' };
  const length = 1 << (bytes[pos]! >> 6);
  if (pos + length > bytes.length) return { kind: 'need-more' };
  let value = bytes[pos]! & 0x3f;
  for (let i = 1; i < length; i++) value = value * 256 + bytes[pos + i]!;
  if (value > QUIC_VARINT_MAX) {
    throw new WireError({
      code: 'varint-range',
      side: 'remote',
      offset: pos,
      message: `The peer sent a varint larger than this simulator handles (2^53 - 1) at byte ${pos}.`,
    });
  }
  return { kind: 'ok', value, next: pos + length };
}
