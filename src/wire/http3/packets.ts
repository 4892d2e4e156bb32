/**
 * QUIC packets and frames as typed values (RFC 9000 §12, §17, §19), and the handshake as a table.
 *
 * The typed values are what the trace carries and what quic-codec.ts decodes bytes into; the simulator
 * serialises every datagram it sends with quic-codec.ts, so a datagram's `size` is the length of its bytes,
 * not an estimate. Two things differ from a capture: packets are not protected (readers see what QUIC would
 * hide, as with TLS in net/tls.ts), though each keeps the 16 bytes of its AEAD tag (RFC 9001 §5.3) as zeros
 * so its size is a protected packet's; and CRYPTO frames carry each TLS message as its handshake header and a
 * zero body of the size transport/tls-sizes.ts gives (handshake-datagrams.ts flightBytes), as the simulator
 * runs no TLS.
 */
import { type QuicPacketHeaderOptions, quicPacketSize } from './quic-codec';
import { quicFrameSize } from './quic-frame-writer';
import {
  TLS_CLIENT_HELLO_BYTES,
  TLS_FINISHED_BYTES,
  TLS_NEW_SESSION_TICKET_BYTES,
  TLS_RESUME_CLIENT_HELLO_BYTES,
  TLS_RESUME_SERVER_AUTH_BYTES,
  TLS_RESUME_SERVER_HELLO_BYTES,
  TLS_SERVER_AUTH_EXTRA_BYTES,
  TLS_SERVER_HELLO_BYTES,
} from '../transport/tls-sizes';

export type QuicSpace = 'initial' | 'handshake' | '0rtt' | '1rtt';

export type QuicFrame =
  /**
   * TLS handshake messages, named; `length` is how many of their bytes this frame carries. A flight too
   * large for one datagram is split over several frames (RFC 9000 §19.6): `offset` is where this frame's
   * bytes start in the flight (default 0) and `total` the flight's size (default `length`); the receiver
   * handles the flight once its last byte has arrived (a real one reads the TLS messages' own lengths).
   * `data` holds the bytes: a decoded frame's, or the simulator's stand-in (each message's TLS header and a
   * zero body, handshake-datagrams.ts flightBytes); without it the encoder writes `length` zero bytes.
   */
  | {
      readonly type: 'CRYPTO';
      readonly messages: string;
      readonly length: number;
      readonly offset?: number;
      readonly total?: number;
      readonly data?: Uint8Array;
    }
  /**
   * RFC 9000 §19.8. The encoder writes the Length field unless `lengthOmitted` (then the frame runs to the
   * end of its packet, and must be the packet's last frame) and the Offset field when `offset` is not 0.
   */
  | {
      readonly type: 'STREAM';
      readonly streamId: number;
      readonly offset: number;
      readonly data: Uint8Array;
      readonly fin: boolean;
      readonly lengthOmitted?: boolean;
    }
  /**
   * RFC 9000 §19.3: every packet number of the space the sender has received, as inclusive [low, high]
   * ranges, highest first. `ackDelay` is the ACK Delay field as sent (microseconds scaled down by the
   * ack_delay_exponent, §18.2; default 0); `ecn` the ECN counts of an ACK_ECN frame (type 0x03, §19.3.2).
   */
  | {
      readonly type: 'ACK';
      readonly ranges: readonly (readonly [number, number])[];
      readonly ackDelay?: number;
      readonly ecn?: { readonly ect0: number; readonly ect1: number; readonly ce: number };
    }
  /** RFC 9000 §19.4: the sender abandons its half of a stream; `finalSize` is how many bytes it had sent. */
  | { readonly type: 'RESET_STREAM'; readonly streamId: number; readonly errorCode: number; readonly finalSize: number }
  /** RFC 9000 §19.5: the receiver asks the peer to stop sending on a stream. */
  | { readonly type: 'STOP_SENDING'; readonly streamId: number; readonly errorCode: number }
  /** RFC 9000 §19.2: nothing but ack-eliciting; a probe when there is no data to send (RFC 9002 §6.2.4). */
  | { readonly type: 'PING' }
  | { readonly type: 'HANDSHAKE_DONE' }
  /** RFC 9000 §19.1: `length` bytes of 0x00 (a run of PADDING frames, one byte each, counted as one). */
  | { readonly type: 'PADDING'; readonly length: number }
  /** RFC 9000 §19.7: a token for the address validation of a future connection. */
  | { readonly type: 'NEW_TOKEN'; readonly token: Uint8Array }
  /** RFC 9000 §19.9: the connection-level flow-control limit. */
  | { readonly type: 'MAX_DATA'; readonly maximum: number }
  /** RFC 9000 §19.10: a stream's flow-control limit. */
  | { readonly type: 'MAX_STREAM_DATA'; readonly streamId: number; readonly maximum: number }
  /** RFC 9000 §19.11: how many streams of a kind the peer may open (type 0x12 bidirectional, 0x13 unidirectional). */
  | { readonly type: 'MAX_STREAMS'; readonly bidirectional: boolean; readonly maximum: number }
  /** RFC 9000 §19.12: the sender has data to send but the connection's limit stops it. */
  | { readonly type: 'DATA_BLOCKED'; readonly limit: number }
  /** RFC 9000 §19.13: the sender has data to send but the stream's limit stops it. */
  | { readonly type: 'STREAM_DATA_BLOCKED'; readonly streamId: number; readonly limit: number }
  /** RFC 9000 §19.14: the sender wants to open a stream but the stream limit stops it. */
  | { readonly type: 'STREAMS_BLOCKED'; readonly bidirectional: boolean; readonly limit: number }
  /** RFC 9000 §19.15: a connection ID (1-20 bytes) the peer may use, with its 16-byte stateless reset token. */
  | {
      readonly type: 'NEW_CONNECTION_ID';
      readonly sequence: number;
      readonly retirePriorTo: number;
      readonly connectionId: Uint8Array;
      readonly resetToken: Uint8Array;
    }
  /** RFC 9000 §19.16. */
  | { readonly type: 'RETIRE_CONNECTION_ID'; readonly sequence: number }
  /** RFC 9000 §19.17 and §19.18: 8 bytes to be echoed. */
  | { readonly type: 'PATH_CHALLENGE' | 'PATH_RESPONSE'; readonly data: Uint8Array }
  /**
   * RFC 9000 §19.19: type 0x1c (a transport error; `frameType` is the frame that caused it, 0 when none) or,
   * with `application`, type 0x1d (an application's error, e.g. an H3_* code; it has no Frame Type field).
   */
  | {
      readonly type: 'CONNECTION_CLOSE';
      readonly errorCode: number;
      readonly reason: string;
      readonly frameType?: number;
      readonly application?: boolean;
    };

export interface QuicPacket {
  readonly space: QuicSpace;
  readonly number: number;
  readonly frames: readonly QuicFrame[];
}

/** One UDP datagram: several packets may be coalesced into it (RFC 9000 §12.2). */
export interface QuicDatagram {
  readonly packets: readonly QuicPacket[];
  readonly size: number;
  /**
   * The stream bytes this datagram sends for the first time, as [start, end) of everything the sender has
   * sent on all its streams: its application data, which a loss schedule addresses (net/link.ts).
   */
  readonly firstSent?: readonly [number, number];
  /** The datagram as sent (quic-codec.ts, unprotected): `size` is its length. */
  readonly bytes?: Uint8Array;
}

/** Bytes a frame takes on the wire (quic-codec.ts writes exactly this many). */
export const frameSize: (frame: QuicFrame) => number = quicFrameSize;

/** Bytes a packet takes on the wire with `header`, its AEAD tag included (quic-codec.ts writes exactly this many). */
export function packetSize(packet: Omit<QuicPacket, 'number'>, header: QuicPacketHeaderOptions & { readonly packetNumberLength: 1 | 2 | 3 | 4 }): number {
  return quicPacketSize({ space: packet.space, number: 0, frames: packet.frames }, header);
}

/** RFC 9002 §2: a packet is ack-eliciting unless it holds only ACK, PADDING and CONNECTION_CLOSE. */
export function isAckEliciting(frames: readonly QuicFrame[]): boolean {
  return frames.some((f) => f.type !== 'ACK' && f.type !== 'PADDING' && f.type !== 'CONNECTION_CLOSE');
}

/** Sorted inclusive ranges, highest first, from a set of packet numbers. */
export function ackRanges(received: ReadonlySet<number>): [number, number][] {
  const sorted = [...received].sort((a, b) => b - a);
  const ranges: [number, number][] = [];
  for (const n of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && last[0] === n + 1) last[0] = n;
    else ranges.push([n, n]);
  }
  return ranges;
}

export function ackedSet(ranges: readonly (readonly [number, number])[]): Set<number> {
  const out = new Set<number>();
  for (const [low, high] of ranges) for (let n = low; n <= high; n++) out.add(n);
  return out;
}

/** One line per frame for the trace: 'STREAM 0 @0+54 FIN', 'ACK 0-3', 'CRYPTO ClientHello'. */
export function describeFrame(frame: QuicFrame): string {
  switch (frame.type) {
    case 'CRYPTO':
      return frame.total !== undefined && frame.total !== frame.length
        ? `CRYPTO ${frame.messages} @${frame.offset ?? 0}+${frame.length}`
        : `CRYPTO ${frame.messages}`;
    case 'STREAM':
      return `STREAM ${frame.streamId} @${frame.offset}+${frame.data.length}${frame.fin ? ' FIN' : ''}`;
    case 'ACK':
      return `ACK ${frame.ranges.map(([l, h]) => (l === h ? `${l}` : `${l}-${h}`)).join(',')}`;
    case 'PADDING':
      return `PADDING ${frame.length}`;
    case 'CONNECTION_CLOSE':
      return `CONNECTION_CLOSE 0x${frame.errorCode.toString(16)} ${frame.reason}`;
    case 'RESET_STREAM':
      return `RESET_STREAM ${frame.streamId} 0x${frame.errorCode.toString(16)} final=${frame.finalSize}`;
    case 'STOP_SENDING':
      return `STOP_SENDING ${frame.streamId} 0x${frame.errorCode.toString(16)}`;
    case 'HANDSHAKE_DONE':
      return 'HANDSHAKE_DONE';
    case 'PING':
      return 'PING';
    case 'NEW_TOKEN':
      return `NEW_TOKEN ${frame.token.length} bytes`;
    case 'MAX_DATA':
      return `MAX_DATA ${frame.maximum}`;
    case 'MAX_STREAM_DATA':
      return `MAX_STREAM_DATA ${frame.streamId} ${frame.maximum}`;
    case 'MAX_STREAMS':
      return `MAX_STREAMS ${frame.bidirectional ? 'bidi' : 'uni'} ${frame.maximum}`;
    case 'DATA_BLOCKED':
      return `DATA_BLOCKED ${frame.limit}`;
    case 'STREAM_DATA_BLOCKED':
      return `STREAM_DATA_BLOCKED ${frame.streamId} ${frame.limit}`;
    case 'STREAMS_BLOCKED':
      return `STREAMS_BLOCKED ${frame.bidirectional ? 'bidi' : 'uni'} ${frame.limit}`;
    case 'NEW_CONNECTION_ID':
      return `NEW_CONNECTION_ID #${frame.sequence} ${[...frame.connectionId].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    case 'RETIRE_CONNECTION_ID':
      return `RETIRE_CONNECTION_ID #${frame.sequence}`;
    case 'PATH_CHALLENGE':
    case 'PATH_RESPONSE':
      return `${frame.type} ${[...frame.data].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  }
}

// --- the handshake (RFC 9001 §4, RFC 8446 §2) -----------------------------------------------------

export interface QuicFlight {
  readonly space: QuicSpace;
  readonly messages: string;
  /** Typical size of these TLS messages, bytes (the certificate chain aside). */
  readonly length: number;
  /** The flight carries the server's Certificate (RFC 8446 §4.4.2): the chain's size is added to `length`. */
  readonly certificate?: boolean;
  /** The flight carries a key share: what the negotiated group adds is added to `length` (TLS_KEY_SHARE_EXTRA_BYTES). */
  readonly keyShare?: 'client' | 'server';
}

export interface QuicHandshakeRow {
  readonly side: 'client' | 'server';
  /** The side's handshake state before this row. */
  readonly state: string;
  /** The CRYPTO messages received; '' and 'resume' are the client's start (without / with a ticket). */
  readonly received: string;
  readonly send: readonly QuicFlight[];
  readonly next: string;
  /** After this row the side may send 1-RTT packets. */
  readonly oneRtt: boolean;
  /** After this row the handshake is confirmed (RFC 9001 §4.1.2). */
  readonly confirmed: boolean;
}

const FULL_CH = 'ClientHello';
const PSK_CH = 'ClientHello (pre_shared_key, early_data)';
const FULL_SH = 'EncryptedExtensions, Certificate, CertificateVerify, Finished';
const PSK_SH = 'EncryptedExtensions (early_data), Finished';

/**
 * QUIC carries TLS 1.3 in CRYPTO frames, so transport and cryptographic handshakes are one: the client
 * can send 1-RTT data after ONE round trip (TCP + TLS 1.3 need two). With a session ticket from an earlier
 * connection, the client also sends 0-RTT data in its first flight (RFC 9001 §4.6.1). Message sizes come
 * from transport/tls-sizes.ts, shared with TLS over TCP (net/tls.ts); the server's Certificate adds the
 * chain's size (QuicConnectionOptions.certificateChainBytes), so its flight spans several datagrams. A
 * (state, flight) pair not in this table is a protocol violation that closes the connection.
 */
export const QUIC_HANDSHAKE: readonly QuicHandshakeRow[] = [
  {
    side: 'client',
    state: 'start',
    received: '',
    send: [{ space: 'initial', messages: FULL_CH, length: TLS_CLIENT_HELLO_BYTES, keyShare: 'client' }],
    next: 'wait-server-hello',
    oneRtt: false,
    confirmed: false,
  },
  {
    side: 'client',
    state: 'start',
    received: 'resume',
    send: [{ space: 'initial', messages: PSK_CH, length: TLS_RESUME_CLIENT_HELLO_BYTES, keyShare: 'client' }],
    next: 'wait-server-hello',
    oneRtt: false,
    confirmed: false,
  },
  {
    side: 'server',
    state: 'wait-client-hello',
    received: FULL_CH,
    send: [
      { space: 'initial', messages: 'ServerHello', length: TLS_SERVER_HELLO_BYTES, keyShare: 'server' },
      { space: 'handshake', messages: FULL_SH, length: TLS_SERVER_AUTH_EXTRA_BYTES, certificate: true },
    ],
    next: 'wait-client-finished',
    // RFC 9001 §4.1.1: the server may send 1-RTT ("0.5-RTT") data right after its Finished.
    oneRtt: true,
    confirmed: false,
  },
  {
    side: 'server',
    state: 'wait-client-hello',
    received: PSK_CH,
    send: [
      { space: 'initial', messages: 'ServerHello (pre_shared_key)', length: TLS_RESUME_SERVER_HELLO_BYTES, keyShare: 'server' },
      { space: 'handshake', messages: PSK_SH, length: TLS_RESUME_SERVER_AUTH_BYTES },
    ],
    next: 'wait-client-finished',
    oneRtt: true,
    confirmed: false,
  },
  // The ServerHello (Initial space) and the rest of the server's flight (Handshake space) arrive together.
  { side: 'client', state: 'wait-server-hello', received: 'ServerHello', send: [], next: 'wait-server-finished', oneRtt: false, confirmed: false },
  {
    side: 'client',
    state: 'wait-server-hello',
    received: 'ServerHello (pre_shared_key)',
    send: [],
    next: 'wait-server-finished',
    oneRtt: false,
    confirmed: false,
  },
  {
    side: 'client',
    state: 'wait-server-finished',
    received: FULL_SH,
    send: [{ space: 'handshake', messages: 'Finished', length: TLS_FINISHED_BYTES }],
    next: 'wait-ticket',
    oneRtt: true,
    confirmed: false,
  },
  {
    side: 'client',
    state: 'wait-server-finished',
    received: PSK_SH,
    send: [{ space: 'handshake', messages: 'Finished', length: TLS_FINISHED_BYTES }],
    next: 'wait-ticket',
    oneRtt: true,
    confirmed: false,
  },
  // RFC 9001 §4.1.2: the server confirms on the client's Finished and says so with HANDSHAKE_DONE; it also
  // issues a session ticket (RFC 8446 §4.6.1) that the client can resume with next time.
  {
    side: 'server',
    state: 'wait-client-finished',
    received: 'Finished',
    send: [{ space: '1rtt', messages: 'NewSessionTicket', length: TLS_NEW_SESSION_TICKET_BYTES }],
    next: 'confirmed',
    oneRtt: true,
    confirmed: true,
  },
  { side: 'client', state: 'wait-ticket', received: 'NewSessionTicket', send: [], next: 'confirmed', oneRtt: true, confirmed: true },
];

export function handshakeRow(side: 'client' | 'server', state: string, received: string): QuicHandshakeRow | undefined {
  return QUIC_HANDSHAKE.find((r) => r.side === side && r.state === state && r.received === received);
}
