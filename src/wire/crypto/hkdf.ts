/**
 * HKDF (RFC 5869) and TLS 1.3's HKDF-Expand-Label (RFC 8446 §7.1), over WebCrypto's HMAC.
 *
 * QUIC derives every packet-protection key this way (RFC 9001 §5.1, §5.2): HKDF-Extract of the client's
 * Destination Connection ID with a version-specific salt gives the Initial secret, and HKDF-Expand-Label
 * turns a secret into a key, an IV and a header-protection key. TLS 1.3's own key schedule (RFC 8446 §7.1)
 * uses the same three functions, so a TLS record reader takes them from here too.
 *
 * Why HMAC rather than WebCrypto's own 'HKDF' algorithm: that one fuses Extract and Expand into one call and
 * never hands out the pseudorandom key, while QUIC and TLS name the intermediate secrets (initial_secret,
 * client_in...) and a reader wants to see them. HMAC is all HKDF is made of (RFC 5869 §2.2, §2.3).
 *
 * `globalThis.crypto.subtle` is in every browser this site supports and in Node from 19 on; nothing here
 * touches I/O or time. Every function is async because WebCrypto is.
 */
import { WireError } from '../errors';
import { own, subtle } from './webcrypto';

/** The hash HKDF runs over. TLS_AES_128_GCM_SHA256 and QUIC's Initial keys use SHA-256; TLS_AES_256_GCM_SHA384 uses SHA-384. */
export type HkdfHash = 'SHA-256' | 'SHA-384';

/** Output length of each hash in bytes (HashLen in RFC 5869). */
const HASH_LENGTH: Readonly<Record<HkdfHash, number>> = { 'SHA-256': 32, 'SHA-384': 48 };

async function hmac(hash: HkdfHash, key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const s = subtle();
  const k = await s.importKey('raw', own(key), { name: 'HMAC', hash }, false, ['sign']);
  return new Uint8Array(await s.sign('HMAC', k, own(data)));
}

/**
 * HKDF-Extract(salt, IKM) = HMAC-Hash(salt, IKM) (RFC 5869 §2.2): the pseudorandom key, HashLen bytes.
 * An empty salt stands for HashLen zero bytes, as RFC 5869 says; WebCrypto refuses a zero-length HMAC key,
 * and HMAC pads a short key with zeros anyway (RFC 2104 §2), so the two are the same key.
 */
export async function hkdfExtract(salt: Uint8Array, ikm: Uint8Array, hash: HkdfHash = 'SHA-256'): Promise<Uint8Array> {
  return hmac(hash, salt.length === 0 ? new Uint8Array(HASH_LENGTH[hash]) : salt, ikm);
}

/**
 * HKDF-Expand(PRK, info, L) (RFC 5869 §2.3): T(1) = HMAC(PRK, info | 0x01), T(n) = HMAC(PRK, T(n-1) | info | n),
 * the first L bytes of T(1) | T(2) | ... . L is at most 255 x HashLen.
 */
export async function hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number, hash: HkdfHash = 'SHA-256'): Promise<Uint8Array> {
  const hashLength = HASH_LENGTH[hash];
  if (!Number.isInteger(length) || length < 0 || length > 255 * hashLength) {
    throw new WireError({
      code: 'hkdf-length',
      side: 'local',
      message: `HKDF-Expand can give 0 to ${255 * hashLength} bytes with ${hash} (RFC 5869 §2.3: L <= 255 x HashLen), asked for ${length}.`,
    });
  }
  if (prk.length < hashLength) {
    throw new WireError({
      code: 'hkdf-prk-length',
      side: 'local',
      message: `HKDF-Expand's pseudorandom key must be at least ${hashLength} bytes for ${hash} (RFC 5869 §2.3), got ${prk.length}.`,
    });
  }
  const out = new Uint8Array(length);
  let previous: Uint8Array = new Uint8Array(0);
  for (let at = 0, counter = 1; at < length; counter++) {
    const block = new Uint8Array(previous.length + info.length + 1);
    block.set(previous, 0);
    block.set(info, previous.length);
    block[block.length - 1] = counter;
    previous = await hmac(hash, prk, block);
    const take = Math.min(previous.length, length - at);
    out.set(previous.subarray(0, take), at);
    at += take;
  }
  return out;
}

const TLS13_PREFIX = 'tls13 ';

/**
 * The HkdfLabel structure of RFC 8446 §7.1: uint16 length, opaque label<7..255> ("tls13 " + label),
 * opaque context<0..255>, each opaque vector behind a one-byte length.
 */
export function hkdfLabel(label: string, context: Uint8Array, length: number): Uint8Array {
  const name = new TextEncoder().encode(TLS13_PREFIX + label);
  if (name.length > 255 || context.length > 255 || !Number.isInteger(length) || length < 0 || length > 0xffff) {
    throw new WireError({
      code: 'hkdf-label',
      side: 'local',
      message: `An HkdfLabel (RFC 8446 §7.1) holds a label of at most 255 bytes with "tls13 ", a context of at most 255 and a uint16 length; got ${name.length}, ${context.length} and ${length}.`,
    });
  }
  const out = new Uint8Array(2 + 1 + name.length + 1 + context.length);
  out[0] = length >> 8;
  out[1] = length & 0xff;
  out[2] = name.length;
  out.set(name, 3);
  out[3 + name.length] = context.length;
  out.set(context, 4 + name.length);
  return out;
}

/**
 * HKDF-Expand-Label(Secret, Label, Context, Length) = HKDF-Expand(Secret, HkdfLabel, Length) (RFC 8446 §7.1).
 * QUIC calls it with an empty context and the labels "client in", "server in", "quic key", "quic iv" and
 * "quic hp" (RFC 9001 §5.1, §5.2); TLS 1.3 with "key", "iv", "c hs traffic"...
 */
export async function hkdfExpandLabel(secret: Uint8Array, label: string, context: Uint8Array, length: number, hash: HkdfHash = 'SHA-256'): Promise<Uint8Array> {
  return hkdfExpand(secret, hkdfLabel(label, context, length), length, hash);
}
