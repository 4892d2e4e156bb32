/**
 * ChaCha20 (RFC 8439 §2.1-§2.4): the stream cipher behind AEAD_CHACHA20_POLY1305 and behind QUIC's
 * ChaCha20 header protection (RFC 9001 §5.4.4). WebCrypto has no ChaCha20, so it is written out here from
 * RFC 8439's description: a 4x4 state of 32-bit words (four constants, the 256-bit key, a 32-bit block
 * counter, the 96-bit nonce), 20 rounds of quarter-rounds, then the input added back and serialised
 * little-endian. Synchronous and allocation-light; not constant-time hardened beyond what 32-bit integer
 * arithmetic in JavaScript gives, which is fine for reading captures and teaching, the job it has here.
 */
import { WireError } from '../errors';

/** "expand 32-byte k" as four little-endian words (RFC 8439 §2.3). */
const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574] as const;

const rotl = (v: number, n: number): number => ((v << n) | (v >>> (32 - n))) >>> 0;

/** RFC 8439 §2.1: the quarter round on four words of the state, in place. */
function quarterRound(x: Uint32Array, a: number, b: number, c: number, d: number): void {
  x[a] = (x[a]! + x[b]!) >>> 0;
  x[d] = rotl(x[d]! ^ x[a]!, 16);
  x[c] = (x[c]! + x[d]!) >>> 0;
  x[b] = rotl(x[b]! ^ x[c]!, 12);
  x[a] = (x[a]! + x[b]!) >>> 0;
  x[d] = rotl(x[d]! ^ x[a]!, 8);
  x[c] = (x[c]! + x[d]!) >>> 0;
  x[b] = rotl(x[b]! ^ x[c]!, 7);
}

const readLe32 = (bytes: Uint8Array, at: number): number => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;

function check(key: Uint8Array, nonce: Uint8Array, counter: number): void {
  if (key.length !== 32 || nonce.length !== 12 || !Number.isInteger(counter) || counter < 0 || counter > 0xffff_ffff) {
    throw new WireError({
      code: 'chacha20-input',
      side: 'local',
      message: `ChaCha20 takes a 32-byte key, a 12-byte nonce and a 32-bit counter (RFC 8439 §2.3); got ${key.length}, ${nonce.length} and ${counter}.`,
    });
  }
}

/** The starting state of RFC 8439 §2.3: constants | key | counter | nonce. */
function initialState(key: Uint8Array, counter: number, nonce: Uint8Array): Uint32Array {
  const s = new Uint32Array(16);
  s.set(SIGMA, 0);
  for (let i = 0; i < 8; i++) s[4 + i] = readLe32(key, 4 * i);
  s[12] = counter >>> 0;
  for (let i = 0; i < 3; i++) s[13 + i] = readLe32(nonce, 4 * i);
  return s;
}

/** One 64-byte keystream block (RFC 8439 §2.3): 10 column-and-diagonal double rounds, input added back. */
export function chacha20Block(key: Uint8Array, counter: number, nonce: Uint8Array): Uint8Array {
  check(key, nonce, counter);
  return blockOf(initialState(key, counter, nonce));
}

function blockOf(input: Uint32Array): Uint8Array {
  const x = new Uint32Array(input);
  for (let round = 0; round < 10; round++) {
    quarterRound(x, 0, 4, 8, 12);
    quarterRound(x, 1, 5, 9, 13);
    quarterRound(x, 2, 6, 10, 14);
    quarterRound(x, 3, 7, 11, 15);
    quarterRound(x, 0, 5, 10, 15);
    quarterRound(x, 1, 6, 11, 12);
    quarterRound(x, 2, 7, 8, 13);
    quarterRound(x, 3, 4, 9, 14);
  }
  const out = new Uint8Array(64);
  for (let i = 0; i < 16; i++) {
    const w = (x[i]! + input[i]!) >>> 0;
    out[4 * i] = w & 0xff;
    out[4 * i + 1] = (w >>> 8) & 0xff;
    out[4 * i + 2] = (w >>> 16) & 0xff;
    out[4 * i + 3] = w >>> 24;
  }
  return out;
}

/**
 * ChaCha20 encryption (RFC 8439 §2.4): `data` XORed with the keystream of blocks counter, counter + 1, ...
 * Decryption is the same call. The counter must not wrap past 2^32 - 1 within the data (RFC 8439 §2.8 note 1).
 */
export function chacha20Xor(key: Uint8Array, counter: number, nonce: Uint8Array, data: Uint8Array): Uint8Array {
  check(key, nonce, counter);
  const blocks = Math.ceil(data.length / 64);
  if (counter + blocks - 1 > 0xffff_ffff) {
    throw new WireError({
      code: 'chacha20-input',
      side: 'local',
      message: `ChaCha20's 32-bit block counter would wrap: ${blocks} blocks from counter ${counter} (RFC 8439 §2.8).`,
    });
  }
  const state = initialState(key, counter, nonce);
  const out = new Uint8Array(data.length);
  for (let j = 0; j < blocks; j++) {
    state[12] = (counter + j) >>> 0;
    const stream = blockOf(state);
    const end = Math.min(64, data.length - 64 * j);
    for (let i = 0; i < end; i++) out[64 * j + i] = data[64 * j + i]! ^ stream[i]!;
  }
  return out;
}
