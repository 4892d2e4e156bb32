/**
 * Poly1305 (RFC 8439 §2.5): the one-time authenticator of AEAD_CHACHA20_POLY1305. WebCrypto has none, so it
 * is written out here: the 32-byte one-time key splits into r (clamped) and s; each 16-byte block, read as a
 * little-endian number with one more 1 byte above it, is added to the accumulator, which is then multiplied by
 * r modulo 2^130 - 5; s is added at the end and the low 128 bits are the tag.
 *
 * BigInt keeps the arithmetic as RFC 8439 writes it, which is what a reader comparing the two wants; QUIC
 * packets are at most a few kilobytes, so the cost is small. BigInt is not constant-time: this serves reading
 * captures and the lessons, not guarding secrets from a timing attacker.
 */
import { WireError } from '../errors';

const P = (1n << 130n) - 5n;
/** RFC 8439 §2.5.1: clamp(r) = r & 0x0ffffffc0ffffffc0ffffffc0fffffff. */
const CLAMP = 0x0ffffffc0ffffffc0ffffffc0fffffffn;

function leNumber(bytes: Uint8Array, from: number, to: number): bigint {
  let n = 0n;
  for (let i = to - 1; i >= from; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

/** The 16-byte tag of `message` under the one-time `key` (RFC 8439 §2.5.1). */
export function poly1305(key: Uint8Array, message: Uint8Array): Uint8Array {
  if (key.length !== 32) {
    throw new WireError({ code: 'poly1305-key-length', side: 'local', message: `A Poly1305 one-time key is 32 bytes (RFC 8439 §2.5), got ${key.length}.` });
  }
  const r = leNumber(key, 0, 16) & CLAMP;
  const s = leNumber(key, 16, 32);
  let acc = 0n;
  for (let at = 0; at < message.length; at += 16) {
    const end = Math.min(at + 16, message.length);
    // The block plus the 0x01 byte just above its last byte (2^128 for a full block, 2^(8 x length) for a short one).
    const n = leNumber(message, at, end) | (1n << BigInt(8 * (end - at)));
    acc = ((acc + n) * r) % P;
  }
  acc = (acc + s) & ((1n << 128n) - 1n);
  const tag = new Uint8Array(16);
  for (let i = 0; i < 16; i++) {
    tag[i] = Number(acc & 0xffn);
    acc >>= 8n;
  }
  return tag;
}
