/**
 * AEAD_CHACHA20_POLY1305 (RFC 8439 §2.8): the AEAD of TLS_CHACHA20_POLY1305_SHA256, which QUIC uses for
 * packet protection when TLS negotiates it (RFC 9001 §5.3; Appendix A.5 is its sample). Same shape as
 * aes-gcm.ts: key, nonce, plaintext or ciphertext, associated data; the ciphertext carries the 16-byte tag
 * at its end; open gives null when the tag does not check, so the caller can say where the bytes came from.
 */
import { WireError } from '../errors';
import { chacha20Block, chacha20Xor } from './chacha20';
import { poly1305 } from './poly1305';

export const CHACHA20_POLY1305_TAG_LENGTH = 16;

function check(key: Uint8Array, nonce: Uint8Array): void {
  if (key.length !== 32 || nonce.length !== 12) {
    throw new WireError({
      code: 'aead-key-length',
      side: 'local',
      message: `AEAD_CHACHA20_POLY1305 takes a 32-byte key and a 12-byte nonce (RFC 8439 §2.8), got ${key.length} and ${nonce.length}.`,
    });
  }
}

const pad16 = (length: number): number => (16 - (length % 16)) % 16;

/** RFC 8439 §2.8: aad | pad16 | ciphertext | pad16 | aad length (64-bit LE) | ciphertext length (64-bit LE). */
function macData(aad: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  const cAt = aad.length + pad16(aad.length);
  const lengthsAt = cAt + ciphertext.length + pad16(ciphertext.length);
  const out = new Uint8Array(lengthsAt + 16);
  out.set(aad, 0);
  out.set(ciphertext, cAt);
  const view = new DataView(out.buffer);
  view.setBigUint64(lengthsAt, BigInt(aad.length), true);
  view.setBigUint64(lengthsAt + 8, BigInt(ciphertext.length), true);
  return out;
}

/** The one-time Poly1305 key: the first 32 bytes of ChaCha20's block 0 (RFC 8439 §2.6). */
export const poly1305KeyGen = (key: Uint8Array, nonce: Uint8Array): Uint8Array => chacha20Block(key, 0, nonce).subarray(0, 32);

/** AEAD-Encrypt: ChaCha20 from block 1, then the Poly1305 tag over the associated data and the ciphertext. */
export function chacha20Poly1305Seal(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Uint8Array {
  check(key, nonce);
  const ciphertext = chacha20Xor(key, 1, nonce, plaintext);
  const tag = poly1305(poly1305KeyGen(key, nonce), macData(aad, ciphertext));
  const out = new Uint8Array(ciphertext.length + CHACHA20_POLY1305_TAG_LENGTH);
  out.set(ciphertext, 0);
  out.set(tag, ciphertext.length);
  return out;
}

/** AEAD-Decrypt: the plaintext, or null when the tag does not match (compared over every byte). */
export function chacha20Poly1305Open(key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array, aad: Uint8Array): Uint8Array | null {
  check(key, nonce);
  if (sealed.length < CHACHA20_POLY1305_TAG_LENGTH) return null;
  const split = sealed.length - CHACHA20_POLY1305_TAG_LENGTH;
  const ciphertext = sealed.subarray(0, split);
  const expected = poly1305(poly1305KeyGen(key, nonce), macData(aad, ciphertext));
  let diff = 0;
  for (let i = 0; i < CHACHA20_POLY1305_TAG_LENGTH; i++) diff |= expected[i]! ^ sealed[split + i]!;
  return diff === 0 ? chacha20Xor(key, 1, nonce, ciphertext) : null;
}
