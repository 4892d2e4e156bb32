/**
 * QUIC header protection masks (RFC 9001 §5.4): five bytes computed from the header-protection key and a
 * 16-byte sample of the protected payload. The first byte's low bits and the packet number bytes are XORed
 * with them (that part is the packet's, in http3/initial-protection.ts); here is only the mask.
 *
 * - AES-based (§5.4.3), for AEAD_AES_128_GCM and AEAD_AES_256_GCM: mask = AES-ECB(hp_key, sample). WebCrypto
 *   offers no ECB mode, but ECB of one block is CBC of that block with an all-zero IV (the IV XOR changes
 *   nothing), so AES-CBC's first 16 output bytes are the ECB block; the padding block WebCrypto appends is
 *   dropped.
 * - ChaCha20-based (§5.4.4), for AEAD_CHACHA20_POLY1305: counter = sample[0..3] read little-endian,
 *   nonce = sample[4..15], mask = ChaCha20(hp_key, counter, nonce, five zero bytes).
 */
import { WireError } from '../errors';
import { chacha20Xor } from './chacha20';
import { own, subtle } from './webcrypto';

/** Bytes of payload sampled for header protection (RFC 9001 §5.4.2: 16 for every AEAD QUIC v1 defines). */
export const QUIC_HP_SAMPLE_LENGTH = 16;
/** Bytes of mask used: one for the first byte, up to four for the packet number (RFC 9001 §5.4.1). */
export const QUIC_HP_MASK_LENGTH = 5;

function checkSample(sample: Uint8Array): void {
  if (sample.length !== QUIC_HP_SAMPLE_LENGTH) {
    throw new WireError({
      code: 'hp-sample-length',
      side: 'local',
      message: `A header-protection sample is ${QUIC_HP_SAMPLE_LENGTH} bytes (RFC 9001 §5.4.2), got ${sample.length}.`,
    });
  }
}

/** The 16-byte AES block of `block` under `key` (AES-ECB of one block, done as AES-CBC with a zero IV). */
export async function aesEncryptBlock(key: Uint8Array, block: Uint8Array): Promise<Uint8Array> {
  if ((key.length !== 16 && key.length !== 32) || block.length !== 16) {
    throw new WireError({
      code: 'aes-block-input',
      side: 'local',
      message: `AES takes a 16- or 32-byte key and a 16-byte block here, got ${key.length} and ${block.length}.`,
    });
  }
  const s = subtle();
  const k = await s.importKey('raw', own(key), { name: 'AES-CBC' }, false, ['encrypt']);
  const out = await s.encrypt({ name: 'AES-CBC', iv: new Uint8Array(16) }, k, own(block));
  return new Uint8Array(out, 0, 16);
}

/** RFC 9001 §5.4.3: the first five bytes of AES-ECB(hp_key, sample). */
export async function aesHeaderMask(hpKey: Uint8Array, sample: Uint8Array): Promise<Uint8Array> {
  checkSample(sample);
  return (await aesEncryptBlock(hpKey, sample)).slice(0, QUIC_HP_MASK_LENGTH);
}

/** RFC 9001 §5.4.4: ChaCha20 over five zero bytes, its counter and nonce taken from the sample. */
export function chacha20HeaderMask(hpKey: Uint8Array, sample: Uint8Array): Uint8Array {
  checkSample(sample);
  const counter = (sample[0]! | (sample[1]! << 8) | (sample[2]! << 16) | (sample[3]! << 24)) >>> 0;
  return chacha20Xor(hpKey, counter, sample.subarray(4, 16), new Uint8Array(QUIC_HP_MASK_LENGTH));
}
