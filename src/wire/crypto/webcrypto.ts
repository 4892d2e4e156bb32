/**
 * The one door to WebCrypto (`globalThis.crypto.subtle`) for src/wire/crypto: browsers offer it on secure
 * pages (https, localhost) and Node from 19 on. A missing one is the caller's environment, said plainly.
 */
import { WireError } from '../errors';

export function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) {
    throw new WireError({
      code: 'crypto-unavailable',
      side: 'local',
      message: 'WebCrypto (globalThis.crypto.subtle) is not available here; browsers offer it only on secure (https or localhost) pages.',
    });
  }
  return s;
}

/** A copy on its own ArrayBuffer, the kind WebCrypto takes; it also keeps a caller's later writes out of a key. */
export const own = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);
