/**
 * Trace events of the HTTP/3 model: QUIC packets, loss, congestion and HTTP/3 frames. A separate union
 * (`Http3TraceEvent`) that the simulation's trace carries alongside its own events; like every trace
 * event each is immutable, has a `type`, a `seq` and a virtual time `at` (filled in by the trace).
 *
 * Packet arrivals are not traced separately: a packet arrives one link delay after its 'quic-packet-sent'
 * unless a 'quic-datagram-dropped' names it.
 *
 * `connectionId` values come from the simulation's id counter with the prefix 'q' (q1, q2, ...), so they
 * never collide with TCP connection ids ('c1').
 */
// The same shapes as trace/events.ts's, written here: trace/ imports these events, so they cannot import trace/.
type Side = 'client' | 'server';
type HeaderList = readonly { readonly name: string; readonly value: string }[];
import type { QuicRecvInput, QuicRecvState, QuicSendInput, QuicSendState, QuicStreamPart } from './stream-states';

interface Base<T extends string> {
  readonly type: T;
  readonly seq: number;
  readonly at: number;
}

export type QuicPacketSpace = 'initial' | 'handshake' | '0rtt' | '1rtt';

/** A QUIC connection is being opened to `address`; `resumed` means a session ticket allows 0-RTT. */
export interface QuicConnectionOpeningEvent extends Base<'quic-connection-opening'> {
  readonly connectionId: string;
  readonly address: string;
  readonly rtt: number;
  readonly resumed: boolean;
  /** The congestion control both ends run: 'cubic' (RFC 9438 with HyStart++, the default) or 'newreno'. */
  readonly congestionControl?: 'cubic' | 'newreno';
}
/** A flight of TLS messages in CRYPTO frames. */
export interface QuicHandshakeEvent extends Base<'quic-handshake'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly space: QuicPacketSpace;
  readonly messages: string;
}
/** This side may send 1-RTT data: the client after ONE round trip (TCP + TLS 1.3 take two). */
export interface QuicReadyEvent extends Base<'quic-ready'> {
  readonly connectionId: string;
  readonly side: Side;
  readonly handshakeMs: number;
  readonly resumed: boolean;
}
export interface QuicPacketSentEvent extends Base<'quic-packet-sent'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly space: QuicPacketSpace;
  readonly packetNumber: number;
  readonly size: number;
  /** One line per frame, e.g. 'STREAM 0 @0+54 FIN', 'ACK 0-3'. */
  readonly frames: readonly string[];
  /** Sender's congestion window and bytes in flight after sending, bytes. */
  readonly cwnd: number;
  readonly bytesInFlight: number;
  /** Sent because the probe timeout fired (RFC 9002 §6.2). */
  readonly probe: boolean;
  /**
   * The packet's bytes as sent (quic-codec.ts; unprotected, with a zero 16-byte tag where the AEAD's would be),
   * as a binary string (trace/events.ts `bytesOf`). Optional: older traces have none.
   */
  readonly data?: string;
  /** Where the packet starts in its UDP datagram: more than 0 for a packet coalesced after another (RFC 9000 §12.2). */
  readonly datagramOffset?: number;
}
/** The network lost a datagram: at the full bottleneck queue, by the seeded draw from the loss rate, or by the loss schedule. */
export interface QuicDatagramDroppedEvent extends Base<'quic-datagram-dropped'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly packetNumbers: readonly number[];
  /** Streams whose data was in it: only these are delayed. */
  readonly streams: readonly number[];
  /** Why (net/link.ts DropCause): 'queue' (drop-tail at the full queue), 'random' or 'schedule'. Optional only for older traces. */
  readonly cause?: 'queue' | 'random' | 'schedule';
}
/** The sender concluded packets were lost (RFC 9002 §6.1) and queued their data again. */
export interface QuicPacketsLostEvent extends Base<'quic-packets-lost'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly packetNumbers: readonly number[];
  readonly streams: readonly number[];
  readonly reason: 'packet-threshold' | 'time-threshold';
}
export interface QuicPtoEvent extends Base<'quic-pto'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly pto: number;
  readonly count: number;
}
export interface QuicCongestionEvent extends Base<'quic-congestion'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly cwnd: number;
  /** Slow start threshold, bytes; null while still infinite (no loss yet, RFC 9002 §7.3.1). */
  readonly ssthresh: number | null;
  /** 'conservative-slow-start': HyStart++'s CSS (RFC 9406 §4.2), slow start at a quarter of the pace. */
  readonly phase: 'slow-start' | 'conservative-slow-start' | 'recovery' | 'congestion-avoidance';
  readonly reason: 'ack' | 'loss';
  /** The congestion-control algorithm: 'cubic' (RFC 9438, the default) or 'newreno'. */
  readonly algorithm?: 'cubic' | 'newreno';
}
/** Bytes of one stream are held behind a gap: head-of-line blocking limited to that stream. */
export interface QuicStreamBlockedEvent extends Base<'quic-stream-blocked'> {
  readonly connectionId: string;
  readonly by: Side;
  readonly streamId: number;
  readonly waitingFor: number;
  readonly heldBytes: number;
}
export interface QuicConnectionClosedEvent extends Base<'quic-connection-closed'> {
  readonly connectionId: string;
  readonly by: Side;
  readonly errorCode: number;
  readonly reason: string;
}
/**
 * RESET_STREAM sent (RFC 9000 §19.4): `from` abandons its half of the stream; nothing more of it is sent
 * or re-sent. Over HTTP/3 an aborted fetch is a client reset with H3_REQUEST_CANCELLED (RFC 9114 §4.1.1).
 */
export interface QuicResetStreamEvent extends Base<'quic-reset-stream'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly streamId: number;
  readonly errorCode: number;
  /** The HTTP/3 name of the code, e.g. 'H3_REQUEST_CANCELLED'. */
  readonly errorName: string;
  /** Bytes of the stream the sender had sent (§4.5), so the receiver can settle its accounting. */
  readonly finalSize: number;
}
/** STOP_SENDING sent (RFC 9000 §19.5): `from` no longer wants the peer's data on this stream. */
export interface QuicStopSendingEvent extends Base<'quic-stop-sending'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly streamId: number;
  readonly errorCode: number;
  readonly errorName: string;
}
/**
 * One part of a stream changed state (RFC 9000 §3.1 sending part, §3.2 receiving part), by a row of
 * QUIC_SEND_TRANSITIONS / QUIC_RECV_TRANSITIONS (stream-states.ts). `side` is the endpoint whose part it
 * is. Self-loops on more STREAM data are not traced; every other accepted input is.
 */
export interface QuicStreamTransitionEvent extends Base<'quic-stream-transition'> {
  readonly connectionId: string;
  readonly side: Side;
  readonly streamId: number;
  readonly part: QuicStreamPart;
  readonly from: QuicSendState | QuicRecvState;
  readonly input: QuicSendInput | QuicRecvInput;
  readonly to: QuicSendState | QuicRecvState;
}
/** An HTTP/3 frame written on a stream; HEADERS carry the decoded field lines. */
export interface Http3FrameEvent extends Base<'http3-frame'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly streamId: number;
  readonly frame: 'DATA' | 'HEADERS' | 'SETTINGS' | 'GOAWAY';
  /** Frame payload length, bytes. */
  readonly length: number;
  readonly fields?: HeaderList;
}

/**
 * QPACK instructions `from` wrote on its encoder stream (RFC 9204 §4.3: inserts, capacity) or decoder stream
 * (§4.4: Section Acknowledgment, Stream Cancellation, Insert Count Increment). `hex` is the instructions'
 * bytes; `offset` where they start in `from`'s application data, the offset a `lossSchedule` names to lose
 * the packet that carries them.
 */
export interface QpackInstructionsEvent extends Base<'qpack-instructions'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly stream: 'encoder' | 'decoder';
  readonly streamId: number;
  readonly hex: string;
  readonly length: number;
  /** The sender's Insert Count after these instructions (its encoder's, or its decoder's). */
  readonly insertCount: number;
  readonly offset: number;
}
/**
 * A field section on `streamId` needs entries `side`'s decoder has not received (RFC 9204 §2.1.2): the
 * request or response waits, though all its bytes are here, until the encoder stream brings them.
 */
export interface QpackBlockedEvent extends Base<'qpack-blocked'> {
  readonly connectionId: string;
  readonly side: Side;
  readonly streamId: number;
  readonly requiredInsertCount: number;
  /** The decoder's Insert Count when the section arrived (the entries it had). */
  readonly insertCount: number;
}
/** The encoder stream brought what a blocked section needed: it is decoded now (its message follows). */
export interface QpackUnblockedEvent extends Base<'qpack-unblocked'> {
  readonly connectionId: string;
  readonly side: Side;
  readonly streamId: number;
  readonly requiredInsertCount: number;
  readonly insertCount: number;
}

export type Http3TraceEvent =
  | QuicConnectionOpeningEvent
  | QuicHandshakeEvent
  | QuicReadyEvent
  | QuicPacketSentEvent
  | QuicDatagramDroppedEvent
  | QuicPacketsLostEvent
  | QuicPtoEvent
  | QuicCongestionEvent
  | QuicStreamBlockedEvent
  | QuicConnectionClosedEvent
  | QuicResetStreamEvent
  | QuicStopSendingEvent
  | QuicStreamTransitionEvent
  | Http3FrameEvent
  | QpackInstructionsEvent
  | QpackBlockedEvent
  | QpackUnblockedEvent;

export type Http3TraceEventInit = Http3TraceEvent extends infer E ? (E extends Http3TraceEvent ? Omit<E, 'seq' | 'at'> : never) : never;
