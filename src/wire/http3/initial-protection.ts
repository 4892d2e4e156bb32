/**
 * Initial packet protection (RFC 9001 §5.2): the keys of the Initial packets come from the Destination
 * Connection ID of the client's first Initial and a salt fixed by the QUIC version, so anyone who sees that
 * packet can derive them, as Wireshark does: RFC 9001 §5 counts Initials as having no confidentiality or
 * integrity protection. What the per-version salt buys is that a middlebox knowing one QUIC version cannot
 * read or change the Initials of another (RFC 9001 §5.2).
 *
 *   initial_secret = HKDF-Extract(initial_salt, client's first DCID)
 *   client_initial_secret = HKDF-Expand-Label(initial_secret, "client in", "", 32)
 *   server_initial_secret = HKDF-Expand-Label(initial_secret, "server in", "", 32)
 *
 * and from each, the AEAD_AES_128_GCM key, IV and header-protection key (packet-protection.ts). Both sides
 * keep using the first DCID's keys for every Initial, even after the server chose its own connection ID, so
 * reading a server Initial needs the client's first DCID (`originalDcid`), which the server's packet does not
 * carry.
 *
 * Only version 1 is here (RFC 9000, its salt from RFC 9001 §5.2); QUIC version 2 (RFC 9369) changes the salt
 * and the labels, and a packet of another version is refused with its version named.
 */
import { hkdfExpandLabel, hkdfExtract } from '../crypto/hkdf';
import { WireError } from '../errors';
import type { QuicFrame } from './packets';
import {
  deriveQuicPacketKeys,
  protectQuicPacket,
  QUIC_AEAD_TAG_LENGTH,
  type QuicOpenedPacket,
  type QuicPacketKeys,
  type QuicProtectedPacket,
  unprotectQuicPacket,
} from './packet-protection';
import { type DecodedQuicPacket, decodeQuicPacket, QUIC_VERSION_1 } from './quic-codec';
import { readVarint, varintLength, writeVarint } from './varint';

/** RFC 9001 §5.2: initial_salt for QUIC version 1. */
export const QUIC_V1_INITIAL_SALT: readonly number[] = Object.freeze([
  0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17, 0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a,
]);

export type QuicInitialSide = 'client' | 'server';

/** Both directions' Initial keys for one connection, with the intermediate secret of RFC 9001 Appendix A.1. */
export interface QuicInitialKeys {
  readonly version: number;
  /** The client's first Destination Connection ID, the input keying material. */
  readonly dcid: Uint8Array;
  readonly initialSecret: Uint8Array;
  readonly client: QuicPacketKeys;
  readonly server: QuicPacketKeys;
}

function unsupportedVersion(version: number, offset: number, side: 'local' | 'remote'): WireError {
  return new WireError({
    code: 'quic-initial-version',
    side,
    offset,
    message: `Initial keys are defined here for QUIC version 1 (RFC 9001 §5.2), not version 0x${version.toString(16).padStart(8, '0')}.`,
  });
}

/** RFC 9001 §5.2: the Initial secrets and keys of both sides, from the client's first DCID. */
export async function deriveQuicInitialKeys(dcid: Uint8Array, version: number = QUIC_VERSION_1): Promise<QuicInitialKeys> {
  if (version !== QUIC_VERSION_1) throw unsupportedVersion(version, 0, 'local');
  const initialSecret = await hkdfExtract(Uint8Array.from(QUIC_V1_INITIAL_SALT), dcid);
  const empty = new Uint8Array(0);
  const [clientSecret, serverSecret] = await Promise.all([
    hkdfExpandLabel(initialSecret, 'client in', empty, 32),
    hkdfExpandLabel(initialSecret, 'server in', empty, 32),
  ]);
  const [client, server] = await Promise.all([deriveQuicPacketKeys(clientSecret), deriveQuicPacketKeys(serverSecret)]);
  return { version, dcid: new Uint8Array(dcid), initialSecret, client, server };
}

/** The fields of one Initial packet to protect (RFC 9000 §17.2.2). */
export interface QuicInitialToProtect {
  readonly version?: number;
  readonly dcid: Uint8Array;
  readonly scid: Uint8Array;
  /** A Retry or NEW_TOKEN token; empty (the default) in a first Initial and in every server Initial. */
  readonly token?: Uint8Array;
  readonly packetNumber: number;
  /** Bytes the packet number takes on the wire, 1 to 4 (default 4, as RFC 9001 A.2 has it). */
  readonly packetNumberLength?: 1 | 2 | 3 | 4;
  /**
   * Bytes the Length field takes: its shortest form by default; RFC 9000 §16 lets a sender use a longer one,
   * and ngtcp2 writes 4 so it can fill in the length after the frames.
   */
  readonly lengthFieldLength?: 1 | 2 | 4 | 8;
  /** The frames, already encoded (PADDING included: a client pads its datagrams to 1,200 bytes, RFC 9000 §14.1). */
  readonly payload: Uint8Array;
}

/** RFC 9000 §17.2.2: the unprotected Initial header, through the packet number. */
export function quicInitialHeader(packet: QuicInitialToProtect): Uint8Array {
  const pnLength = packet.packetNumberLength ?? 4;
  const token = packet.token ?? new Uint8Array(0);
  if (packet.dcid.length > 20 || packet.scid.length > 20) {
    throw new WireError({
      code: 'quic-protect-input',
      side: 'local',
      message: `QUIC v1 connection IDs are at most 20 bytes (RFC 9000 §17.2), got ${packet.dcid.length} and ${packet.scid.length}.`,
    });
  }
  const length = pnLength + packet.payload.length + QUIC_AEAD_TAG_LENGTH;
  const lengthSize = packet.lengthFieldLength ?? varintLength(length);
  if (lengthSize < varintLength(length)) {
    throw new WireError({
      code: 'quic-protect-input',
      side: 'local',
      message: `A Length of ${length} needs a ${varintLength(length)}-byte varint (RFC 9000 §16), not ${lengthSize}.`,
    });
  }
  const size = 1 + 4 + 1 + packet.dcid.length + 1 + packet.scid.length + varintLength(token.length) + token.length + lengthSize + pnLength;
  const out = new Uint8Array(size);
  // Header Form 1, Fixed Bit 1, Long Packet Type 0 (Initial), Reserved 0, Packet Number Length - 1.
  out[0] = 0xc0 | (pnLength - 1);
  new DataView(out.buffer).setUint32(1, packet.version ?? QUIC_VERSION_1);
  let pos = 5;
  out[pos++] = packet.dcid.length;
  out.set(packet.dcid, pos);
  pos += packet.dcid.length;
  out[pos++] = packet.scid.length;
  out.set(packet.scid, pos);
  pos += packet.scid.length;
  pos = writeVarint(token.length, out, pos);
  out.set(token, pos);
  pos += token.length;
  pos = writeVarintOfLength(length, lengthSize, out, pos);
  for (let i = pnLength - 1, rest = packet.packetNumber; i >= 0; i--, rest = Math.floor(rest / 256)) out[pos + i] = rest % 256;
  return out;
}

/** `value` as a varint of exactly `size` bytes (RFC 9000 §16: the two top bits of the first byte say which). */
function writeVarintOfLength(value: number, size: 1 | 2 | 4 | 8, out: Uint8Array, pos: number): number {
  let rest = value;
  for (let i = size - 1; i >= 0; i--) {
    out[pos + i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  out[pos]! |= { 1: 0x00, 2: 0x40, 4: 0x80, 8: 0xc0 }[size];
  return pos + size;
}

/** Protects one Initial packet with one side's keys (RFC 9001 §5.3, §5.4): the bytes a capture shows. */
export async function protectQuicInitial(keys: QuicPacketKeys, packet: QuicInitialToProtect): Promise<QuicProtectedPacket> {
  if ((packet.version ?? QUIC_VERSION_1) !== QUIC_VERSION_1) throw unsupportedVersion(packet.version!, 0, 'local');
  return protectQuicPacket(keys, quicInitialHeader(packet), packet.payload, packet.packetNumber);
}

/** The header fields that header protection leaves readable (RFC 9000 §17.2.2), and where the packet number starts. */
export interface QuicInitialHeaderFields {
  readonly at: number;
  readonly version: number;
  readonly dcid: Uint8Array;
  readonly scid: Uint8Array;
  readonly token: Uint8Array;
  /** The Length field: packet number, payload and tag. */
  readonly length: number;
  /** Bytes the Length field took (a sender may use a longer varint than needed, RFC 9000 §16). */
  readonly lengthFieldLength: 1 | 2 | 4 | 8;
  /** Offsets in the datagram: the Length field, the packet number, and the byte after the packet. */
  readonly lengthAt: number;
  readonly pnAt: number;
  readonly end: number;
}

function headerError(message: string, offset: number): WireError {
  return new WireError({ code: 'quic-initial-header', side: 'remote', offset, message });
}

/** Reads an Initial packet's long header at `datagram[at]` up to the (still protected) packet number. */
export function readQuicInitialHeader(datagram: Uint8Array, at = 0): QuicInitialHeaderFields {
  let pos = at;
  const where = `the packet at datagram offset ${at}`;
  const need = (n: number, what: string): void => {
    if (pos + n > datagram.length)
      throw headerError(`${where} ends at byte ${datagram.length}, inside its ${what} (${n} bytes from byte ${pos}) (RFC 9000 §17.2).`, pos);
  };
  need(1, 'first byte');
  const first = datagram[pos++]!;
  if ((first & 0x80) === 0)
    throw headerError(`${where} has a short header (first byte 0x${first.toString(16)}); an Initial has a long one (RFC 9000 §17.2).`, at);
  need(4, 'Version');
  const version = new DataView(datagram.buffer, datagram.byteOffset, datagram.byteLength).getUint32(pos);
  if (version === 0) throw headerError(`${where} is a Version Negotiation packet (version 0, RFC 9000 §17.2.1), not an Initial.`, pos);
  if (version !== QUIC_VERSION_1) throw unsupportedVersion(version, pos, 'remote');
  pos += 4;
  const type = (first & 0x30) >> 4;
  if (type !== 0) {
    const name = ['Initial', '0-RTT', 'Handshake', 'Retry'][type];
    throw headerError(`${where} is a ${name} packet (Long Packet Type ${type}), not an Initial (type 0, RFC 9000 §17.2.2).`, at);
  }
  const cid = (what: string): Uint8Array => {
    need(1, `${what} Length`);
    const length = datagram[pos++]!;
    if (length > 20) throw headerError(`${where} has a ${what} Length of ${length} at byte ${pos - 1}; QUIC v1 allows at most 20 (RFC 9000 §17.2).`, pos - 1);
    need(length, what);
    pos += length;
    return datagram.slice(pos - length, pos);
  };
  const dcid = cid('Destination Connection ID');
  const scid = cid('Source Connection ID');
  const varint = (what: string): number => {
    const read = readVarint(datagram, pos);
    if (read.kind === 'need-more') throw headerError(`${where} ends inside its ${what} at byte ${pos} (RFC 9000 §17.2.2).`, pos);
    pos = read.next;
    return read.value;
  };
  const tokenLength = varint('Token Length');
  need(tokenLength, 'Token');
  const token = datagram.slice(pos, pos + tokenLength);
  pos += tokenLength;
  const lengthAt = pos;
  const length = varint('Length');
  if (pos + length > datagram.length) {
    throw headerError(
      `${where} says Length ${length} at byte ${lengthAt}, but only ${datagram.length - pos} bytes follow in the datagram (RFC 9000 §17.2.2).`,
      lengthAt,
    );
  }
  const lengthFieldLength = (pos - lengthAt) as 1 | 2 | 4 | 8;
  return { at, version, dcid, scid, token, length, lengthFieldLength, lengthAt, pnAt: pos, end: pos + length };
}

/** An Initial packet read from a datagram, with every step of removing its protection. */
export interface QuicInitialReading extends QuicInitialHeaderFields, QuicOpenedPacket {
  /** Whose keys opened it: the client's Initials use the client keys, the server's the server keys. */
  readonly side: QuicInitialSide;
  readonly keys: QuicInitialKeys;
  /** The packet decoded from its unprotected bytes: frames, packet number, header. */
  readonly decoded: DecodedQuicPacket;
  readonly frames: readonly QuicFrame[];
  /** The datagram with this packet's header and payload unprotected in place (tags left as they were). */
  readonly unprotectedDatagram: Uint8Array;
  /** The fixed bit (0x40) was 0: greased, as RFC 9287 lets a peer do once the other side sent grease_quic_bit. */
  readonly greasedFixedBit: boolean;
}

export interface QuicInitialReadOptions {
  /**
   * The client's first Destination Connection ID, whose keys protect every Initial of the connection. Default:
   * this packet's DCID, right for a client's first Initials; a server Initial needs it (its DCID is the client's
   * Source Connection ID).
   */
  readonly originalDcid?: Uint8Array;
  /** Whose packet it is; by default the client keys are tried, then the server keys. */
  readonly side?: QuicInitialSide;
  /** The largest packet number already received in the Initial space, to expand a truncated number (RFC 9000 Appendix A.3). */
  readonly largestPn?: number;
}

/**
 * Removes the protection of the Initial packet at `datagram[at]` (RFC 9001 §5.3, §5.4) and decodes its
 * frames. A failed tag check (wrong DCID, a changed byte) is a WireError 'quic-initial-aead' located at the
 * packet; malformed headers and frames give their own located errors.
 */
export async function unprotectQuicInitial(datagram: Uint8Array, at = 0, options: QuicInitialReadOptions = {}): Promise<QuicInitialReading> {
  const fields = readQuicInitialHeader(datagram, at);
  const keys = await deriveQuicInitialKeys(options.originalDcid ?? fields.dcid, fields.version);
  const packet = datagram.subarray(at, fields.end);
  const place = { at, name: 'Initial packet' };
  const sides: readonly QuicInitialSide[] = options.side ? [options.side] : ['client', 'server'];
  let opened: QuicOpenedPacket | null = null;
  let side: QuicInitialSide = sides[0]!;
  for (const s of sides) {
    opened = await unprotectQuicPacket(keys[s], packet, fields.pnAt - at, place, options.largestPn);
    if (opened) {
      side = s;
      break;
    }
  }
  if (!opened) {
    const tried = sides.map((s) => `the ${s}'s`).join(' and ');
    const from = options.originalDcid ? 'the given original DCID' : "the packet's own DCID";
    throw new WireError({
      code: 'quic-initial-aead',
      side: 'remote',
      offset: at,
      message: `AEAD tag check failed for the Initial packet at datagram offset ${at}: ${tried} Initial keys from ${from} ${hexOf(keys.dcid)} do not open it. A server's Initial needs the client's first DCID; otherwise a byte of the packet changed (RFC 9001 §5.2, §5.3).`,
    });
  }
  const unprotectedDatagram = new Uint8Array(datagram);
  unprotectedDatagram.set(opened.unprotectedHeader, at);
  unprotectedDatagram.set(opened.payload, at + opened.unprotectedHeader.length);
  const largest = options.largestPn;
  // RFC 9287: a peer that received the grease_quic_bit transport parameter may send 0 in the fixed bit, and
  // ngtcp2 does (its server Initials start 0x8c). A reader cannot see the transport parameters of the packet in
  // hand, so it accepts the greased bit, as Wireshark does, and says so.
  const greasedFixedBit = (opened.unprotectedHeader[0]! & 0x40) === 0;
  const decoded = decodeQuicPacket(unprotectedDatagram, at, { largestReceived: () => largest, greaseQuicBit: true });
  if (!('space' in decoded)) throw headerError(`The packet at datagram offset ${at} did not decode as an Initial.`, at);
  return { ...fields, ...opened, side, keys, decoded, frames: decoded.frames, unprotectedDatagram, greasedFixedBit };
}

const hexOf = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
