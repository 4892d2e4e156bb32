/**
 * AEAD_AES_128_GCM and AEAD_AES_256_GCM (RFC 5116 §5.1, §5.2) over WebCrypto's AES-GCM: the AEAD that
 * protects QUIC's Initial packets (RFC 9001 §5.3) and TLS 1.3 records of TLS_AES_128_GCM_SHA256 and
 * TLS_AES_256_GCM_SHA384 (RFC 8446 §5.2).
 *
 * The argument order is RFC 5116 §2.1's: key K, nonce N, plaintext P (or ciphertext C), associated data A.
 * The ciphertext is the encrypted bytes followed by the 16-byte tag, as both protocols put it on the wire.
 * The nonce is the caller's: QUIC and TLS 1.3 both XOR the packet number or record sequence number into the
 * IV (RFC 9001 §5.3, RFC 8446 §5.3).
 */
import { WireError } from '../errors';
import { own, subtle } from './webcrypto';

/** Bytes of the authentication tag (RFC 5116 §5.1: AEAD_AES_128_GCM's tag is 16 octets). */
export const AES_GCM_TAG_LENGTH = 16;
/** Bytes of the nonce QUIC and TLS 1.3 use (RFC 5116 §5.1's N_MIN = N_MAX = 12). */
export const AES_GCM_NONCE_LENGTH = 12;

function checkSizes(key: Uint8Array, nonce: Uint8Array): void {
  if (key.length !== 16 && key.length !== 32) {
    throw new WireError({
      code: 'aead-key-length',
      side: 'local',
      message: `An AES-GCM key is 16 bytes (AEAD_AES_128_GCM) or 32 (AEAD_AES_256_GCM) (RFC 5116 §5.1, §5.2), got ${key.length}.`,
    });
  }
  if (nonce.length !== AES_GCM_NONCE_LENGTH) {
    throw new WireError({
      code: 'aead-nonce-length',
      side: 'local',
      message: `QUIC and TLS 1.3 use a ${AES_GCM_NONCE_LENGTH}-byte AES-GCM nonce (RFC 9001 §5.3, RFC 8446 §5.3), got ${nonce.length}.`,
    });
  }
}

async function importKey(key: Uint8Array, use: KeyUsage): Promise<CryptoKey> {
  return subtle().importKey('raw', own(key), { name: 'AES-GCM' }, false, [use]);
}

/** AEAD-Encrypt (RFC 5116 §2.1): the ciphertext of `plaintext` followed by its 16-byte tag over `aad` too. */
export async function aesGcmSeal(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Promise<Uint8Array> {
  checkSizes(key, nonce);
  const k = await importKey(key, 'encrypt');
  const sealed = await subtle().encrypt({ name: 'AES-GCM', iv: own(nonce), additionalData: own(aad), tagLength: AES_GCM_TAG_LENGTH * 8 }, k, own(plaintext));
  return new Uint8Array(sealed);
}

/**
 * AEAD-Decrypt (RFC 5116 §2.2): the plaintext, or null when the tag does not check (a wrong key, a changed
 * byte, the wrong associated data). Null rather than an exception because only the caller knows where the
 * bytes came from: it reports the failure with that place ("the Initial packet at datagram offset 0", "the
 * record at stream offset 517").
 */
export async function aesGcmOpen(key: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array, aad: Uint8Array): Promise<Uint8Array | null> {
  checkSizes(key, nonce);
  if (ciphertext.length < AES_GCM_TAG_LENGTH) return null;
  const k = await importKey(key, 'decrypt');
  try {
    const opened = await subtle().decrypt({ name: 'AES-GCM', iv: own(nonce), additionalData: own(aad), tagLength: AES_GCM_TAG_LENGTH * 8 }, k, own(ciphertext));
    return new Uint8Array(opened);
  } catch (error) {
    // WebCrypto reports a failed tag check as an OperationError and nothing else (the Web Crypto API's AES-GCM decrypt operation).
    if (error instanceof Error && error.name === 'OperationError') return null;
    throw error;
  }
}
