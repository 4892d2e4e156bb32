/**
 * QUIC packet protection (RFC 9001 §5.3, §5.4), for any packet whose keys are known: payload protection with
 * an AEAD, then header protection over the first byte's low bits and the packet number.
 *
 * Sending (§5.3, §5.4.1): nonce = IV XOR packet number (left-padded to 12 bytes); the AEAD seals the payload
 * with the whole unprotected header (through the packet number) as associated data; the sample is the 16
 * bytes starting 4 bytes after the packet number's first byte, as if it were 4 bytes long (§5.4.2); the mask
 * XORs the low 4 bits of a long header's first byte (5 bits of a short one's) and each packet number byte.
 * Receiving runs it backwards: the sample does not depend on the packet number length, so the mask can be
 * computed first, and the unmasked first byte then says how long the packet number is.
 *
 * The engine's simulated Handshake and 1-RTT packets are not protected (they carry no real TLS secrets);
 * this module protects Initial packets (initial-protection.ts) and reads captures, and its short-header path
 * reproduces RFC 9001 Appendix A.5 for a 1-RTT secret given from outside.
 */
import { aesGcmOpen, aesGcmSeal } from '../crypto/aes-gcm';
import { chacha20Poly1305Open, chacha20Poly1305Seal } from '../crypto/chacha20-poly1305';
import { aesHeaderMask, chacha20HeaderMask, QUIC_HP_SAMPLE_LENGTH } from '../crypto/header-protection';
import { hkdfExpandLabel } from '../crypto/hkdf';
import { WireError } from '../errors';
import { decodePacketNumber } from './quic-packet-number';

/** The AEADs QUIC v1 uses with TLS 1.3 (RFC 9001 §5.3); AEAD_AES_128_CCM is left out (no WebCrypto CCM, rare). */
export type QuicAead = 'AEAD_AES_128_GCM' | 'AEAD_AES_256_GCM' | 'AEAD_CHACHA20_POLY1305';

/** Key length of each AEAD (RFC 5116 §5.1, §5.2; RFC 8439 §2.8); the header-protection key has the same length (RFC 9001 §5.4.3, §5.4.4). */
const KEY_LENGTH: Readonly<Record<QuicAead, number>> = { AEAD_AES_128_GCM: 16, AEAD_AES_256_GCM: 32, AEAD_CHACHA20_POLY1305: 32 };

/** Bytes of the AEAD tag every QUIC v1 AEAD appends (16). */
export const QUIC_AEAD_TAG_LENGTH = 16;

/** One direction's packet protection keys (RFC 9001 §5.1). */
export interface QuicPacketKeys {
  readonly aead: QuicAead;
  /** The traffic secret the three keys below were expanded from. */
  readonly secret: Uint8Array;
  readonly key: Uint8Array;
  readonly iv: Uint8Array;
  readonly hp: Uint8Array;
}

/**
 * RFC 9001 §5.1: key = HKDF-Expand-Label(secret, "quic key", "", key length), iv = ... "quic iv" (12 bytes),
 * hp = ... "quic hp". The "quic " labels keep QUIC's keys apart from TLS-over-TCP's (§9.6).
 */
export async function deriveQuicPacketKeys(secret: Uint8Array, aead: QuicAead = 'AEAD_AES_128_GCM'): Promise<QuicPacketKeys> {
  const hash = aead === 'AEAD_AES_256_GCM' ? 'SHA-384' : 'SHA-256';
  const empty = new Uint8Array(0);
  const length = KEY_LENGTH[aead];
  const [key, iv, hp] = await Promise.all([
    hkdfExpandLabel(secret, 'quic key', empty, length, hash),
    hkdfExpandLabel(secret, 'quic iv', empty, 12, hash),
    hkdfExpandLabel(secret, 'quic hp', empty, length, hash),
  ]);
  return { aead, secret, key, iv, hp };
}

/** RFC 9001 §5.3: the 12-byte IV XORed with the packet number in network byte order, left-padded with zeros. */
export function quicNonce(iv: Uint8Array, packetNumber: number): Uint8Array {
  const nonce = new Uint8Array(iv);
  let rest = packetNumber;
  for (let i = nonce.length - 1; i >= 0 && rest > 0; i--) {
    nonce[i]! ^= rest % 256;
    rest = Math.floor(rest / 256);
  }
  return nonce;
}

async function seal(keys: QuicPacketKeys, nonce: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Promise<Uint8Array> {
  return keys.aead === 'AEAD_CHACHA20_POLY1305' ? chacha20Poly1305Seal(keys.key, nonce, plaintext, aad) : aesGcmSeal(keys.key, nonce, plaintext, aad);
}

async function open(keys: QuicPacketKeys, nonce: Uint8Array, sealed: Uint8Array, aad: Uint8Array): Promise<Uint8Array | null> {
  return keys.aead === 'AEAD_CHACHA20_POLY1305' ? chacha20Poly1305Open(keys.key, nonce, sealed, aad) : aesGcmOpen(keys.key, nonce, sealed, aad);
}

/** RFC 9001 §5.4.3 / §5.4.4: the five mask bytes for this sample. */
export async function quicHeaderMask(keys: QuicPacketKeys, sample: Uint8Array): Promise<Uint8Array> {
  return keys.aead === 'AEAD_CHACHA20_POLY1305' ? chacha20HeaderMask(keys.hp, sample) : aesHeaderMask(keys.hp, sample);
}

const isLong = (firstByte: number): boolean => (firstByte & 0x80) !== 0;
/** RFC 9001 §5.4.1: a long header protects 4 bits of its first byte (reserved + packet number length), a short one 5 (adds the key phase). */
const firstByteMask = (firstByte: number): number => (isLong(firstByte) ? 0x0f : 0x1f);

/** What protection did to one packet, for a reader who wants to see each step. */
export interface QuicProtectedPacket {
  /** The whole protected packet: protected header, then the AEAD output (ciphertext and tag). */
  readonly packet: Uint8Array;
  readonly unprotectedHeader: Uint8Array;
  readonly protectedHeader: Uint8Array;
  readonly nonce: Uint8Array;
  readonly sample: Uint8Array;
  readonly mask: Uint8Array;
}

/**
 * Protects one packet. `header` is the unprotected header through the packet number, whose length is read
 * from its first byte's low two bits (RFC 9000 §17.2, §17.3); for a long header its Length field must
 * already count the packet number, the payload and the 16-byte tag.
 */
export async function protectQuicPacket(keys: QuicPacketKeys, header: Uint8Array, payload: Uint8Array, packetNumber: number): Promise<QuicProtectedPacket> {
  const pnLength = (header[0]! & 0x03) + 1;
  const pnOffset = header.length - pnLength;
  let truncated = 0;
  for (let i = pnOffset; i < header.length; i++) truncated = truncated * 256 + header[i]!;
  if (pnOffset < 1 || truncated !== packetNumber % 2 ** (8 * pnLength)) {
    throw new WireError({
      code: 'quic-protect-input',
      side: 'local',
      message: `The header's last ${pnLength} bytes (its packet number, by the first byte's low bits) hold ${truncated}, which is not packet number ${packetNumber} truncated to ${pnLength} bytes (RFC 9000 §17.1).`,
    });
  }
  // RFC 9001 §5.4.2: the sample needs packet number + payload + tag >= 4 + 16 bytes; a sender pads to get there.
  if (pnLength + payload.length + QUIC_AEAD_TAG_LENGTH < 4 + QUIC_HP_SAMPLE_LENGTH) {
    throw new WireError({
      code: 'quic-protect-input',
      side: 'local',
      message: `A ${pnLength}-byte packet number with ${payload.length} bytes of payload leaves too little to sample for header protection: add ${4 + QUIC_HP_SAMPLE_LENGTH - pnLength - QUIC_AEAD_TAG_LENGTH - payload.length} bytes of PADDING (RFC 9001 §5.4.2).`,
    });
  }
  const nonce = quicNonce(keys.iv, packetNumber);
  const sealed = await seal(keys, nonce, payload, header);
  const packet = new Uint8Array(header.length + sealed.length);
  packet.set(header, 0);
  packet.set(sealed, header.length);
  const sampleAt = pnOffset + 4;
  const sample = packet.slice(sampleAt, sampleAt + QUIC_HP_SAMPLE_LENGTH);
  const mask = await quicHeaderMask(keys, sample);
  packet[0]! ^= mask[0]! & firstByteMask(header[0]!);
  for (let i = 0; i < pnLength; i++) packet[pnOffset + i]! ^= mask[1 + i]!;
  return { packet, unprotectedHeader: header, protectedHeader: packet.slice(0, header.length), nonce, sample, mask };
}

/** A packet with its protection removed. */
export interface QuicOpenedPacket {
  readonly unprotectedHeader: Uint8Array;
  readonly protectedHeader: Uint8Array;
  readonly pnOffset: number;
  readonly pnLength: 1 | 2 | 3 | 4;
  /** The packet number as sent (truncated) and in full (RFC 9000 Appendix A.3, from `largestPn`). */
  readonly truncatedPacketNumber: number;
  readonly packetNumber: number;
  readonly nonce: Uint8Array;
  readonly sample: Uint8Array;
  readonly mask: Uint8Array;
  readonly payload: Uint8Array;
}

/** Where a packet sits, for errors: its first byte's offset in the datagram and a name ("Initial packet"). */
export interface QuicPacketPlace {
  readonly at: number;
  readonly name: string;
}

/**
 * Removes header and payload protection from `packet` (one packet, from its first byte to the end of its
 * tag), whose packet number starts at `pnOffset`. Returns null when the AEAD tag does not check: wrong keys,
 * or a changed byte; the caller says which packet failed. Errors for a packet too short to sample.
 */
export async function unprotectQuicPacket(
  keys: QuicPacketKeys,
  packet: Uint8Array,
  pnOffset: number,
  place: QuicPacketPlace,
  largestPn?: number,
): Promise<QuicOpenedPacket | null> {
  const sampleAt = pnOffset + 4;
  if (sampleAt + QUIC_HP_SAMPLE_LENGTH > packet.length) {
    throw new WireError({
      code: 'quic-packet-too-short',
      offset: place.at + packet.length,
      message: `The ${place.name} at datagram offset ${place.at} ends at byte ${place.at + packet.length}, before the 16-byte header-protection sample that starts at byte ${place.at + sampleAt} can end (RFC 9001 §5.4.2).`,
    });
  }
  const sample = packet.slice(sampleAt, sampleAt + QUIC_HP_SAMPLE_LENGTH);
  const mask = await quicHeaderMask(keys, sample);
  const first = packet[0]! ^ (mask[0]! & firstByteMask(packet[0]!));
  const pnLength = ((first & 0x03) + 1) as 1 | 2 | 3 | 4;
  const header = packet.slice(0, pnOffset + pnLength);
  header[0] = first;
  let truncated = 0;
  for (let i = 0; i < pnLength; i++) {
    header[pnOffset + i]! ^= mask[1 + i]!;
    truncated = truncated * 256 + header[pnOffset + i]!;
  }
  const packetNumber = decodePacketNumber(largestPn, truncated, 8 * pnLength);
  const nonce = quicNonce(keys.iv, packetNumber);
  const payload = await open(keys, nonce, packet.subarray(header.length), header);
  if (!payload) return null;
  return {
    unprotectedHeader: header,
    protectedHeader: packet.slice(0, header.length),
    pnOffset,
    pnLength,
    truncatedPacketNumber: truncated,
    packetNumber,
    nonce,
    sample,
    mask,
    payload,
  };
}
