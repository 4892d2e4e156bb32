/**
 * The Retry Integrity Tag (RFC 9001 §5.8): a server's Retry packet ends with 16 bytes that are the AEAD_AES_128_GCM
 * tag, under a key and nonce fixed for QUIC version 1, of nothing, with the Retry Pseudo-Packet as associated
 * data: the client's original Destination Connection ID (behind its one-byte length), then the Retry packet
 * without its tag. Anyone can compute it; it guards against a Retry changed by accident on the way and ties
 * the Retry to the connection attempt it answers (only someone who saw the client's Initial knows its DCID).
 */
import { aesGcmSeal } from '../crypto/aes-gcm';
import { WireError } from '../errors';

/** RFC 9001 §5.8: the fixed key and nonce of QUIC version 1's Retry Integrity Tag. */
const RETRY_KEY_V1 = Uint8Array.from([0xbe, 0x0c, 0x69, 0x0b, 0x9f, 0x66, 0x57, 0x5a, 0x1d, 0x76, 0x6b, 0x54, 0xe3, 0x68, 0xc8, 0x4e]);
const RETRY_NONCE_V1 = Uint8Array.from([0x46, 0x15, 0x99, 0xd3, 0x5d, 0x63, 0x2b, 0xf2, 0x23, 0x98, 0x25, 0xbb]);

/** The 16-byte tag for a Retry packet given without its tag, answering the Initial sent to `originalDcid`. */
export async function quicRetryIntegrityTag(retryWithoutTag: Uint8Array, originalDcid: Uint8Array): Promise<Uint8Array> {
  if (originalDcid.length > 20) {
    throw new WireError({
      code: 'quic-retry-input',
      side: 'local',
      message: `A QUIC v1 connection ID is at most 20 bytes (RFC 9000 §17.2), got ${originalDcid.length}.`,
    });
  }
  const pseudo = new Uint8Array(1 + originalDcid.length + retryWithoutTag.length);
  pseudo[0] = originalDcid.length;
  pseudo.set(originalDcid, 1);
  pseudo.set(retryWithoutTag, 1 + originalDcid.length);
  return aesGcmSeal(RETRY_KEY_V1, RETRY_NONCE_V1, new Uint8Array(0), pseudo);
}

/** Whether the Retry packet's last 16 bytes are its integrity tag for `originalDcid` (RFC 9001 §5.8). */
export async function verifyQuicRetry(retry: Uint8Array, originalDcid: Uint8Array): Promise<boolean> {
  if (retry.length < 16) return false;
  const tag = await quicRetryIntegrityTag(retry.subarray(0, retry.length - 16), originalDcid);
  let diff = 0;
  for (let i = 0; i < 16; i++) diff |= tag[i]! ^ retry[retry.length - 16 + i]!;
  return diff === 0;
}
