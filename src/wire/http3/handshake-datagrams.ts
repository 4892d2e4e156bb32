/**
 * How a QUIC endpoint lays its queued handshake flights out in datagrams, as a plan of packets (their space
 * and frames, not yet numbered): Initial, then Handshake, then 1-RTT, coalesced into datagrams of at most
 * QUIC_MAX_DATAGRAM_SIZE (RFC 9000 §12.2). A flight that does not fit (the server's, with its certificate
 * chain) is split into CRYPTO frames over as many datagrams as it takes (§19.6), and a client pads every
 * datagram with an Initial packet to 1200 bytes (§14.1). connection.ts numbers and sends the packets.
 */
import type { WireRole } from '../engine';
import { frameSize, packetSize, type QuicFlight, type QuicFrame, type QuicSpace } from './packets';
import type { QuicPacketHeaderOptions } from './quic-codec';
import { numberSpace, type NumberSpace } from './packet-spaces';
import { QUIC_MAX_DATAGRAM_SIZE, QUIC_MIN_INITIAL_DATAGRAM } from './recovery';
import { TLS_FINISHED_BYTES } from '../transport/tls-sizes';

/** RFC 8446 §4: the handshake message types of the flights in QUIC_HANDSHAKE. */
const TLS_MESSAGE_TYPES: Readonly<Record<string, number>> = {
  ClientHello: 1,
  ServerHello: 2,
  NewSessionTicket: 4,
  EncryptedExtensions: 8,
  Certificate: 11,
  CertificateVerify: 15,
  Finished: 20,
};

const flightBytesCache = new WeakMap<QuicFlight, Uint8Array>();

/**
 * A flight's CRYPTO bytes as the simulator sends them: each TLS message with its real 4-byte handshake header
 * (type, 24-bit length; RFC 8446 §4) and a zero body, so a reader of the bytes finds and names the messages.
 * The sizes are transport/tls-sizes.ts's: Finished 36, CertificateVerify 264, EncryptedExtensions 40 before a
 * Certificate, and the one message left (the Certificate, or a resumed EncryptedExtensions) takes the rest.
 */
export function flightBytes(flight: QuicFlight): Uint8Array {
  const cached = flightBytesCache.get(flight);
  if (cached) return cached;
  // "ClientHello (pre_shared_key, early_data)": a comma inside parentheses does not separate messages.
  const names = flight.messages.split(/,\s*(?![^()]*\))/).map((m) => m.replace(/\s*\(.*\)$/, ''));
  const fixed: Record<string, number> = {
    Finished: TLS_FINISHED_BYTES,
    CertificateVerify: 264,
    ...(names.includes('Certificate') ? { EncryptedExtensions: 40 } : {}),
  };
  const known = names.reduce((n, name) => n + (name in fixed && names.length > 1 ? fixed[name]! : 0), 0);
  const out = new Uint8Array(flight.length);
  let pos = 0;
  for (const name of names) {
    const size = names.length > 1 && name in fixed ? fixed[name]! : flight.length - known;
    if (size >= 4 && pos + size <= out.length) {
      out[pos] = TLS_MESSAGE_TYPES[name] ?? 0;
      out[pos + 1] = (size - 4) >> 16;
      out[pos + 2] = ((size - 4) >> 8) & 0xff;
      out[pos + 3] = (size - 4) & 0xff;
    }
    pos += size;
  }
  flightBytesCache.set(flight, out);
  return out;
}

/** A handshake flight is not split into a piece smaller than this; the piece goes in the next datagram. */
const CRYPTO_MIN_FRAGMENT = 64;

/** How a packet's header is written: connection IDs and packet number length (quic-codec.ts). */
export type PlannedHeader = QuicPacketHeaderOptions & { readonly packetNumberLength: 1 | 2 | 3 | 4 };

/** A packet to send: its space, frames and header, numbered when it is sent. */
export interface PlannedPacket {
  readonly space: QuicSpace;
  readonly frames: QuicFrame[];
  readonly header: PlannedHeader;
}

export interface HandshakePlanOptions {
  readonly role: WireRole;
  /** The handshake is confirmed: a server ends its 1-RTT flight with HANDSHAKE_DONE. */
  readonly handshakeDone: boolean;
  /** The ACK frame owed in a number space, if any; asked once per space that has a flight, in send order. */
  readonly ack: (space: NumberSpace) => QuicFrame | undefined;
  /** The header of the `index`-th packet (from 0) this plan opens in `space`: its size depends on its number. */
  readonly header: (space: QuicSpace, index: number) => PlannedHeader;
}

/** The datagrams (each a list of coalesced packets) that carry `flights`. */
export function planHandshakeDatagrams(flights: readonly QuicFlight[], options: HandshakePlanOptions): PlannedPacket[][] {
  const datagrams: PlannedPacket[][] = [[]];
  const used = (packets: readonly PlannedPacket[]) => packets.reduce((n, p) => n + packetSize(p, p.header), 0);
  for (const space of ['initial', 'handshake', '1rtt'] as const) {
    const inSpace = flights.filter((f) => f.space === space);
    if (inSpace.length === 0) continue;
    const ack = options.ack(numberSpace(space));
    const leading: QuicFrame[] = ack ? [ack] : [];
    // RFC 9001 §4.1.2: the server confirms the handshake to the client with HANDSHAKE_DONE.
    const trailing: QuicFrame[] = space === '1rtt' && options.role === 'server' && options.handshakeDone ? [{ type: 'HANDSHAKE_DONE' }] : [];
    const reserve = trailing.reduce((n, f) => n + frameSize(f), 0);
    let packet: PlannedPacket | undefined;
    let opened = 0;
    for (const flight of inSpace) {
      for (let offset = 0; offset < flight.length; ) {
        const remaining = flight.length - offset;
        const header = frameSize({ type: 'CRYPTO', messages: flight.messages, length: remaining, offset }) - remaining;
        // What this datagram leaves for the frame's data, with this space's packet opened in it if need be.
        const room = (datagram: readonly PlannedPacket[], open: PlannedPacket | undefined) =>
          QUIC_MAX_DATAGRAM_SIZE -
          used(datagram) -
          (open ? 0 : packetSize({ space, frames: packet ? [] : leading }, options.header(space, opened))) -
          reserve -
          header;
        let current = datagrams[datagrams.length - 1]!;
        let open = packet && current.includes(packet) ? packet : undefined;
        if (room(current, open) < Math.min(remaining, CRYPTO_MIN_FRAGMENT) && current.length > 0) {
          current = [];
          datagrams.push(current);
          open = undefined;
        }
        let length = Math.min(remaining, room(current, open));
        if (!open) {
          open = { space, frames: packet ? [] : [...leading], header: options.header(space, opened++) };
          current.push(open);
          packet = open;
        }
        const bytes = flightBytes(flight);
        const crypto = (n: number): QuicFrame =>
          n === flight.length
            ? { type: 'CRYPTO', messages: flight.messages, length: n, data: bytes }
            : { type: 'CRYPTO', messages: flight.messages, length: n, offset, total: flight.length, data: bytes.subarray(offset, offset + n) };
        open.frames.push(crypto(length));
        // The packet's Length field grows with what it carries (RFC 9000 §16): trim a byte or two if it overshot.
        for (let over = used(current) + reserve - QUIC_MAX_DATAGRAM_SIZE; over > 0 && length > over; over = used(current) + reserve - QUIC_MAX_DATAGRAM_SIZE) {
          length -= over;
          open.frames[open.frames.length - 1] = crypto(length);
        }
        offset += length;
      }
    }
    packet?.frames.push(...trailing);
  }
  // RFC 9000 §14.1: every client datagram with an Initial packet is padded to at least 1200 bytes, so the
  // path is known to carry full-size datagrams, and a server may answer three times as much before it has
  // validated the client's address (§8.1). A ClientHello with the hybrid key share (1,500 bytes) takes two
  // Initial packets, in two datagrams: both are padded.
  if (options.role === 'client') {
    for (const datagram of datagrams) {
      const initial = datagram.find((p) => p.space === 'initial');
      if (!initial) continue;
      // Adding PADDING can lengthen the packet's Length field, so repeat until the datagram is 1200 bytes.
      for (let size = used(datagram); size < QUIC_MIN_INITIAL_DATAGRAM; size = used(datagram)) {
        const last = initial.frames[initial.frames.length - 1];
        const more = QUIC_MIN_INITIAL_DATAGRAM - size;
        if (last?.type === 'PADDING') initial.frames[initial.frames.length - 1] = { type: 'PADDING', length: last.length + more };
        else initial.frames.push({ type: 'PADDING', length: more });
      }
    }
  }
  return datagrams;
}
