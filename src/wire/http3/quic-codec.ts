/**
 * QUIC packets and frames as bytes (RFC 9000 §12, §16, §17, §19): the encoder the simulator sends with and
 * the decoder that turns bytes back into the typed values of packets.ts.
 *
 * - Frames (§19): every frame type of QUIC version 1, from PADDING (0x00) to HANDSHAKE_DONE (0x1e). A frame is
 *   the typed `QuicFrame`; `quicFrameSize` is exactly what `writeQuicFrame` writes. A run of 0x00 bytes
 *   decodes to one PADDING frame of that length.
 * - Packets (§17): long headers (Initial, 0-RTT, Handshake; Retry and Version Negotiation are read) and short
 *   headers (1-RTT), with the packet number truncated to 1-4 bytes (§17.1, Appendix A.2) and expanded again
 *   on receipt (Appendix A.3).
 * - Datagrams (§12.2): several packets coalesced, each long-header packet delimited by its Length field, a
 *   short-header packet running to the end.
 *
 * Protection: the bytes are the unprotected form of a packet (RFC 9001 §5): header protection not applied (the
 * first byte's reserved bits and packet number length are in clear) and the payload in clear. The AEAD tag a
 * protected packet ends with (16 bytes for every QUIC v1 cipher suite, RFC 9001 §5.3) is kept as a slot of
 * `tagLength` bytes, zero here, and counted by the Length field as in a real packet, so a packet's size is its
 * size on the wire. RFC 9001 Appendix A.2 shows the same layout: its unprotected Initial header says Length
 * 1182 for a 4-byte packet number and 1162 bytes of frames, the other 16 being the tag.
 *
 * Errors: a malformed frame is a QuicCodecError FRAME_ENCODING_ERROR (0x07, §12.4, §19), a frame a packet type
 * may not carry or a packet without frames PROTOCOL_VIOLATION (0x0a, §12.4 Table 3), a malformed packet header
 * PROTOCOL_VIOLATION too; each says where (the byte offset in the input) and what.
 *
 * This file holds packets and datagrams. Frames are written in quic-frame-writer.ts and read in
 * quic-frame-reader.ts, packet numbers are truncated and expanded in quic-packet-number.ts, and the errors are
 * in quic-codec-errors.ts: each a concern of its own, and together too long to read in one sitting.
 */
import type { QuicFrame, QuicPacket, QuicSpace } from './packets';
import { misuse, QuicCodecError } from './quic-codec-errors';
import { decodeQuicFrames } from './quic-frame-reader';
import { quicFrameSize, quicFrameType, writeQuicFrame } from './quic-frame-writer';
import { decodePacketNumber, quicPacketNumberLength, truncatePacketNumber } from './quic-packet-number';
import { readVarint, varintLength, writeVarint } from './varint';

// --- packets ----------------------------------------------------------------------------------------

export const QUIC_VERSION_1 = 0x0000_0001;

/** RFC 9000 §17.2: the Long Packet Type of version 1. */
const LONG_TYPE: Record<Exclude<QuicSpace, '1rtt'>, number> = { initial: 0, '0rtt': 1, handshake: 2 };
const LONG_SPACE: readonly (Exclude<QuicSpace, '1rtt'> | 'retry')[] = ['initial', '0rtt', 'handshake', 'retry'];

/** How to write a packet's header. */
export interface QuicPacketHeaderOptions {
  /** Destination Connection ID (0-20 bytes). */
  readonly dcid: Uint8Array;
  /** Source Connection ID (long headers; 0-20 bytes). */
  readonly scid?: Uint8Array;
  /** QUIC version (long headers), default 1. */
  readonly version?: number;
  /** Initial packets: the address-validation token (§17.2.2), default empty. */
  readonly token?: Uint8Array;
  /** Packet number length in bytes; by default the shortest §17.1 allows given `largestAcked`. */
  readonly packetNumberLength?: 1 | 2 | 3 | 4;
  /** The largest packet number of this space the peer has acknowledged (sets the packet number length). */
  readonly largestAcked?: number;
  /** Bytes of AEAD tag counted in the packet (zeros in place of it), default 16 (RFC 9001 §5.3). */
  readonly tagLength?: number;
  /** Short header: the latency spin bit (§17.4) and the key phase (§17.3.1). */
  readonly spin?: boolean;
  readonly keyPhase?: boolean;
}

const EMPTY = new Uint8Array(0);

function checkCid(cid: Uint8Array, name: string): void {
  if (cid.length > 20) throw misuse(`A QUIC v1 ${name} is at most 20 bytes (RFC 9000 §17.2), got ${cid.length}.`);
}

/** Bytes the packet's header takes up to and including its packet number, for a payload of `payload` bytes. */
function headerLength(space: QuicSpace, options: QuicPacketHeaderOptions, pnLength: number, payload: number, tag: number): number {
  if (space === '1rtt') return 1 + options.dcid.length + pnLength;
  const token = space === 'initial' ? (options.token?.length ?? 0) : 0;
  return (
    1 +
    4 +
    1 +
    options.dcid.length +
    1 +
    (options.scid?.length ?? 0) +
    (space === 'initial' ? varintLength(token) + token : 0) +
    varintLength(pnLength + payload + tag) +
    pnLength
  );
}

function pnLengthOf(packet: Pick<QuicPacket, 'number'>, options: QuicPacketHeaderOptions): 1 | 2 | 3 | 4 {
  return options.packetNumberLength ?? quicPacketNumberLength(packet.number, options.largestAcked);
}

/** Bytes the packet takes on the wire, its AEAD tag included: exactly encodeQuicPacket(...).length. */
export function quicPacketSize(packet: QuicPacket, options: QuicPacketHeaderOptions): number {
  let payload = 0;
  for (const frame of packet.frames) payload += quicFrameSize(frame);
  const tag = options.tagLength ?? 16;
  return headerLength(packet.space, options, pnLengthOf(packet, options), payload, tag) + payload + tag;
}

/** Writes `packet` at `out[pos]` (unprotected, with a zeroed tag slot) and returns the position after it. */
export function writeQuicPacket(packet: QuicPacket, options: QuicPacketHeaderOptions, out: Uint8Array, pos: number): number {
  const { space, frames } = packet;
  if (frames.length === 0) throw misuse('A QUIC packet needs at least one frame (RFC 9000 §12.4).');
  const pnLength = pnLengthOf(packet, options);
  const tag = options.tagLength ?? 16;
  let payload = 0;
  for (const frame of frames) payload += quicFrameSize(frame);
  // RFC 9001 §5.4.2: header protection samples 16 bytes starting 4 after the packet number's start.
  if (tag > 0 && pnLength + payload < 4)
    throw misuse(`A protected packet needs at least 4 bytes of packet number and frames to sample (RFC 9001 §5.4.2), got ${pnLength + payload}; add PADDING.`);
  checkCid(options.dcid, 'Destination Connection ID');
  const truncated = truncatePacketNumber(packet.number, pnLength);
  if (space === '1rtt') {
    // §17.3.1: 0 | fixed 1 | spin | reserved 00 | key phase | packet number length - 1.
    out[pos++] = 0x40 | (options.spin ? 0x20 : 0) | (options.keyPhase ? 0x04 : 0) | (pnLength - 1);
    out.set(options.dcid, pos);
    pos += options.dcid.length;
  } else {
    const scid = options.scid ?? EMPTY;
    checkCid(scid, 'Source Connection ID');
    // §17.2: 1 | fixed 1 | type | reserved 00 | packet number length - 1.
    out[pos++] = 0xc0 | (LONG_TYPE[space] << 4) | (pnLength - 1);
    const version = options.version ?? QUIC_VERSION_1;
    out[pos++] = version >>> 24;
    out[pos++] = (version >>> 16) & 0xff;
    out[pos++] = (version >>> 8) & 0xff;
    out[pos++] = version & 0xff;
    out[pos++] = options.dcid.length;
    out.set(options.dcid, pos);
    pos += options.dcid.length;
    out[pos++] = scid.length;
    out.set(scid, pos);
    pos += scid.length;
    if (space === 'initial') {
      const token = options.token ?? EMPTY;
      pos = writeVarint(token.length, out, pos);
      out.set(token, pos);
      pos += token.length;
    }
    pos = writeVarint(pnLength + payload + tag, out, pos);
  }
  for (let i = pnLength - 1; i >= 0; i--) out[pos + pnLength - 1 - i] = Math.floor(truncated / 2 ** (8 * i)) & 0xff;
  pos += pnLength;
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]!;
    if (frame.type === 'STREAM' && frame.lengthOmitted && i !== frames.length - 1)
      throw misuse('A STREAM frame without a Length field runs to the end of the packet, so it must be the last frame (RFC 9000 §19.8).');
    pos = writeQuicFrame(frame, out, pos);
  }
  out.fill(0, pos, pos + tag);
  return pos + tag;
}

export function encodeQuicPacket(packet: QuicPacket, options: QuicPacketHeaderOptions): Uint8Array {
  const out = new Uint8Array(quicPacketSize(packet, options));
  writeQuicPacket(packet, options, out, 0);
  return out;
}

/** One packet of a datagram and how to write its header. */
export interface QuicPacketToEncode {
  readonly packet: QuicPacket;
  readonly header: QuicPacketHeaderOptions;
}

/** Several packets coalesced into one UDP datagram (RFC 9000 §12.2); a 1-RTT packet can only be the last. */
export function encodeQuicDatagram(packets: readonly QuicPacketToEncode[]): Uint8Array {
  let size = 0;
  for (let i = 0; i < packets.length; i++) {
    const { packet, header } = packets[i]!;
    // §12.2: a short-header packet has no Length field, so nothing can follow it in the datagram.
    if (packet.space === '1rtt' && i !== packets.length - 1)
      throw misuse('A 1-RTT (short header) packet must be the last packet of a datagram (RFC 9000 §12.2).');
    size += quicPacketSize(packet, header);
  }
  const out = new Uint8Array(size);
  let pos = 0;
  for (const { packet, header } of packets) pos = writeQuicPacket(packet, header, out, pos);
  return out;
}

// --- reading packets ----------------------------------------------------------------------------------

/** A decoded packet: the typed packet, plus its header fields as they were on the wire. */
export interface DecodedQuicPacket extends QuicPacket {
  readonly header: {
    readonly form: 'long' | 'short';
    readonly version?: number;
    readonly dcid: Uint8Array;
    readonly scid?: Uint8Array;
    readonly token?: Uint8Array;
    /** Long headers: the Length field (packet number, frames and tag). */
    readonly length?: number;
    readonly packetNumberLength: 1 | 2 | 3 | 4;
    /** The packet number as the header carried it, before Appendix A.3 expanded it into `number`. */
    readonly truncatedNumber: number;
    readonly spin?: boolean;
    readonly keyPhase?: boolean;
  };
  /** Where the packet starts in the datagram and how many bytes it takes (tag included). */
  readonly start: number;
  readonly size: number;
  /** Where the frames start and end in the datagram. */
  readonly payloadStart: number;
  readonly payloadEnd: number;
}

/** A Version Negotiation packet (RFC 9000 §17.2.1): version 0 and the versions the server supports. */
export interface QuicVersionNegotiation {
  readonly kind: 'version-negotiation';
  readonly dcid: Uint8Array;
  readonly scid: Uint8Array;
  readonly versions: readonly number[];
  readonly start: number;
  readonly size: number;
}

/** A Retry packet (RFC 9000 §17.2.5): a token and the 16-byte Retry Integrity Tag (RFC 9001 §5.8). */
export interface QuicRetry {
  readonly kind: 'retry';
  readonly version: number;
  readonly dcid: Uint8Array;
  readonly scid: Uint8Array;
  readonly token: Uint8Array;
  readonly integrityTag: Uint8Array;
  readonly start: number;
  readonly size: number;
}

export interface QuicDecodeOptions {
  /** The length of the connection IDs this endpoint issued: a short header does not say how long its DCID is. Default 8. */
  readonly shortHeaderDcidLength?: number;
  /** The largest packet number received in a space, to expand a truncated packet number (Appendix A.3). */
  readonly largestReceived?: (space: QuicSpace) => number | undefined;
  /** Bytes of AEAD tag at the end of each packet, default 16; 0 for a payload already decrypted and cut. */
  readonly tagLength?: number;
  /**
   * This endpoint sent the grease_quic_bit transport parameter (RFC 9287 §3), so the peer may send the fixed
   * bit as 0, as ngtcp2 does; otherwise a packet with it clear is refused (RFC 9000 §17.2).
   */
  readonly greaseQuicBit?: boolean;
}

function headerError(message: string, offset: number): QuicCodecError {
  return new QuicCodecError('PROTOCOL_VIOLATION', message, offset);
}

/** §12.4 Table 3: frames a packet type may carry (IH_1 = Initial and Handshake; 0 = 0-RTT; 1 = 1-RTT). */
function allowedIn(frame: QuicFrame, space: QuicSpace): boolean {
  if (space === 'initial' || space === 'handshake') {
    return (
      frame.type === 'PADDING' ||
      frame.type === 'PING' ||
      frame.type === 'ACK' ||
      frame.type === 'CRYPTO' ||
      (frame.type === 'CONNECTION_CLOSE' && !frame.application)
    );
  }
  if (space === '0rtt') {
    return !(
      frame.type === 'ACK' ||
      frame.type === 'CRYPTO' ||
      frame.type === 'HANDSHAKE_DONE' ||
      frame.type === 'NEW_TOKEN' ||
      frame.type === 'PATH_RESPONSE' ||
      frame.type === 'RETIRE_CONNECTION_ID'
    );
  }
  return true;
}

const SPACE_NAME: Record<QuicSpace, string> = { initial: 'Initial', handshake: 'Handshake', '0rtt': '0-RTT', '1rtt': '1-RTT' };

/**
 * Reads the packet starting at `bytes[pos]` (an unprotected packet, see the header comment). Every error is a
 * QuicCodecError whose offset is in `bytes`.
 */
export function decodeQuicPacket(bytes: Uint8Array, pos = 0, options: QuicDecodeOptions = {}): DecodedQuicPacket | QuicVersionNegotiation | QuicRetry {
  const start = pos;
  const tag = options.tagLength ?? 16;
  const need = (n: number, what: string) => {
    if (pos + n > bytes.length) throw headerError(`The packet at byte ${start} ends at byte ${bytes.length}, inside its ${what} (RFC 9000 §17).`, pos);
  };
  need(1, 'first byte');
  const first = bytes[pos++]!;
  const long = (first & 0x80) !== 0;
  let version: number | undefined;
  let dcid: Uint8Array;
  let scid: Uint8Array | undefined;
  let token: Uint8Array | undefined;
  let space: QuicSpace;
  let end: number;
  if (long) {
    need(4, 'version');
    version = ((bytes[pos]! << 24) | (bytes[pos + 1]! << 16) | (bytes[pos + 2]! << 8) | bytes[pos + 3]!) >>> 0;
    pos += 4;
    need(1, 'Destination Connection ID Length');
    const dcidLength = bytes[pos++]!;
    // §17.2: version 1 connection IDs are at most 20 bytes; other versions' are up to 255 (read as such for VN).
    if (version !== 0 && dcidLength > 20)
      throw headerError(`Destination Connection ID Length ${dcidLength} at byte ${pos - 1}: QUIC v1 allows at most 20 (RFC 9000 §17.2).`, pos - 1);
    need(dcidLength, 'Destination Connection ID');
    dcid = bytes.subarray(pos, pos + dcidLength);
    pos += dcidLength;
    need(1, 'Source Connection ID Length');
    const scidLength = bytes[pos++]!;
    if (version !== 0 && scidLength > 20)
      throw headerError(`Source Connection ID Length ${scidLength} at byte ${pos - 1}: QUIC v1 allows at most 20 (RFC 9000 §17.2).`, pos - 1);
    need(scidLength, 'Source Connection ID');
    scid = bytes.subarray(pos, pos + scidLength);
    pos += scidLength;
    if (version === 0) {
      // §17.2.1: the rest of the datagram is a list of 32-bit versions.
      if ((bytes.length - pos) % 4 !== 0)
        throw headerError(
          `Version Negotiation packet at byte ${start}: ${bytes.length - pos} bytes of versions is not a multiple of 4 (RFC 9000 §17.2.1).`,
          pos,
        );
      const versions: number[] = [];
      for (; pos < bytes.length; pos += 4) versions.push(((bytes[pos]! << 24) | (bytes[pos + 1]! << 16) | (bytes[pos + 2]! << 8) | bytes[pos + 3]!) >>> 0);
      return { kind: 'version-negotiation', dcid, scid, versions, start, size: bytes.length - start };
    }
    if (version !== QUIC_VERSION_1)
      throw headerError(
        `Version 0x${version.toString(16).padStart(8, '0')} at byte ${start + 1} is not QUIC version 1 (RFC 9000 §15); this decoder reads v1 only.`,
        start + 1,
      );
    // §17.2: the fixed bit is 1; a packet with 0 there is not a valid v1 packet (unless greased, RFC 9287).
    if ((first & 0x40) === 0 && !options.greaseQuicBit)
      throw headerError(`The packet at byte ${start} has the fixed bit (0x40) clear (RFC 9000 §17.2).`, start);
    const kind = LONG_SPACE[(first >> 4) & 0x03]!;
    if (kind === 'retry') {
      // §17.2.5: a token, then the 16-byte Retry Integrity Tag, to the end of the datagram.
      if (bytes.length - pos < 16) throw headerError(`Retry packet at byte ${start} is shorter than its 16-byte Retry Integrity Tag (RFC 9000 §17.2.5).`, pos);
      return {
        kind: 'retry',
        version,
        dcid,
        scid,
        token: bytes.subarray(pos, bytes.length - 16),
        integrityTag: bytes.subarray(bytes.length - 16),
        start,
        size: bytes.length - start,
      };
    }
    space = kind;
    // §17.2: the two reserved bits are 0 once header protection is removed, else PROTOCOL_VIOLATION.
    if (first & 0x0c) throw headerError(`The packet at byte ${start} has its reserved bits (0x0c) set (RFC 9000 §17.2).`, start);
    if (space === 'initial') {
      const length = readVarint(bytes, pos);
      if (length.kind === 'need-more')
        throw headerError(`The Initial packet at byte ${start} ends inside its Token Length at byte ${pos} (RFC 9000 §17.2.2).`, pos);
      pos = length.next;
      need(length.value, 'Token');
      token = bytes.subarray(pos, pos + length.value);
      pos += length.value;
    }
    const lengthAt = pos;
    const length = readVarint(bytes, pos);
    if (length.kind === 'need-more') throw headerError(`The packet at byte ${start} ends inside its Length field at byte ${pos} (RFC 9000 §17.2).`, pos);
    pos = length.next;
    end = pos + length.value;
    if (end > bytes.length)
      throw headerError(
        `The packet at byte ${start} says Length ${length.value} (at byte ${lengthAt}) but only ${bytes.length - pos} bytes follow (RFC 9000 §17.2).`,
        lengthAt,
      );
  } else {
    if ((first & 0x40) === 0 && !options.greaseQuicBit)
      throw headerError(`The packet at byte ${start} has the fixed bit (0x40) clear (RFC 9000 §17.3.1).`, start);
    if (first & 0x18) throw headerError(`The 1-RTT packet at byte ${start} has its reserved bits (0x18) set (RFC 9000 §17.3.1).`, start);
    space = '1rtt';
    const dcidLength = options.shortHeaderDcidLength ?? 8;
    need(dcidLength, 'Destination Connection ID');
    dcid = bytes.subarray(pos, pos + dcidLength);
    pos += dcidLength;
    end = bytes.length;
  }
  const pnLength = ((first & 0x03) + 1) as 1 | 2 | 3 | 4;
  if (end - pos < pnLength + tag)
    throw headerError(`The packet at byte ${start} is too short for its ${pnLength}-byte packet number and ${tag}-byte tag (RFC 9000 §17).`, pos);
  let truncated = 0;
  for (let i = 0; i < pnLength; i++) truncated = truncated * 256 + bytes[pos + i]!;
  pos += pnLength;
  const number = decodePacketNumber(options.largestReceived?.(space), truncated, pnLength * 8);
  const payloadStart = pos;
  const payloadEnd = end - tag;
  // §12.4: a packet without frames is a PROTOCOL_VIOLATION.
  if (payloadEnd === payloadStart) throw headerError(`The ${SPACE_NAME[space]} packet at byte ${start} carries no frames (RFC 9000 §12.4).`, payloadStart);
  const frames = decodeQuicFrames(bytes.subarray(payloadStart, payloadEnd), payloadStart);
  let at = payloadStart;
  for (const frame of frames) {
    if (!allowedIn(frame, space))
      throw new QuicCodecError(
        'PROTOCOL_VIOLATION',
        `A ${frame.type} frame at byte ${at} is not allowed in a ${SPACE_NAME[space]} packet (RFC 9000 §12.4, Table 3).`,
        at,
        quicFrameType(frame),
      );
    at += quicFrameSize(frame);
  }
  const header: DecodedQuicPacket['header'] = long
    ? {
        form: 'long',
        version,
        dcid,
        scid,
        ...(token ? { token } : {}),
        length: end - (payloadStart - pnLength),
        packetNumberLength: pnLength,
        truncatedNumber: truncated,
      }
    : { form: 'short', dcid, packetNumberLength: pnLength, truncatedNumber: truncated, spin: (first & 0x20) !== 0, keyPhase: (first & 0x04) !== 0 };
  return { space, number, frames, header, start, size: end - start, payloadStart, payloadEnd };
}

/** Every packet coalesced in a datagram (RFC 9000 §12.2), in order. */
export function decodeQuicDatagram(bytes: Uint8Array, options: QuicDecodeOptions = {}): (DecodedQuicPacket | QuicVersionNegotiation | QuicRetry)[] {
  const packets: (DecodedQuicPacket | QuicVersionNegotiation | QuicRetry)[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const packet = decodeQuicPacket(bytes, pos, options);
    packets.push(packet);
    pos = packet.start + packet.size;
  }
  if (packets.length === 0) throw headerError('An empty datagram holds no QUIC packet (RFC 9000 §12.2).', 0);
  return packets;
}
