/**
 * Trace events: every observable step of a simulation as an immutable, discriminated value.
 *
 * Each event has a `type`, a `seq` (its position in the trace, starting at 1) and `at` (virtual
 * milliseconds since the simulation started). Ids (`connectionId` 'c1', `requestId` 'r1', ...) come from
 * per-simulation counters, so the same options and seed give the same trace, byte for byte.
 *
 * Bytes are carried as "binary strings" (`data`): one UTF-16 code unit per byte, 0-255. That keeps events
 * immutable (a Uint8Array cannot be frozen), JSON-exportable, and readable for HTTP/1 text; use
 * `bytesOf(event.data)` to get a Uint8Array back.
 *
 * What is deliberately not here: DNS (the simulator resolves names instantly, so HAR `dns` is -1) and
 * encryption (TLS records carry plaintext so readers can see what would be protected).
 */
import type { HpackStep } from '../hpack/annotations';

export type Side = 'client' | 'server';
/** Who is at each end of a simulated TCP connection. */
export type Peer = 'client' | 'proxy' | 'server';
export type HeaderList = readonly { readonly name: string; readonly value: string }[];

interface Base<T extends string> {
  readonly type: T;
  readonly seq: number;
  readonly at: number;
}

// --- connections (net/tcp, net/tls) -------------------------------------------------------------

export interface ConnectionOpeningEvent extends Base<'connection-opening'> {
  readonly connectionId: string;
  readonly from: Peer;
  readonly to: Peer;
  /** "host:port" of the listening side. */
  readonly address: string;
  /** Round-trip time of the link this connection uses (a packet takes rtt / 2 each way). */
  readonly rtt: number;
  /** The congestion control both ends run: 'cubic' (RFC 9438 with HyStart++, the default) or 'newreno'. */
  readonly congestionControl?: 'cubic' | 'newreno';
}
export interface ConnectionOpenedEvent extends Base<'connection-opened'> {
  readonly connectionId: string;
  /** Virtual ms spent on the TCP three-way handshake. */
  readonly tcpMs: number;
}
export interface ConnectionClosedEvent extends Base<'connection-closed'> {
  readonly connectionId: string;
  /** The side whose close (FIN) or reset (RST) ended the connection. */
  readonly by: Side;
  readonly how: 'fin' | 'reset';
  readonly reason: string;
}
export interface HandshakeEvent extends Base<'handshake'> {
  readonly connectionId: string;
  readonly protocol: 'tcp' | 'tls1.2' | 'tls1.3';
  /** e.g. 'SYN', 'SYN-ACK', 'ACK', 'ClientHello', 'ServerHello, Certificate, ServerKeyExchange, ServerHelloDone'. */
  readonly step: string;
  readonly from: Side;
}
export interface SecureEvent extends Base<'tls-established'> {
  readonly connectionId: string;
  readonly protocol: 'tls1.2' | 'tls1.3';
  readonly side: Side;
  /** Virtual ms from the first ClientHello to this side being ready for application data. */
  readonly tlsMs: number;
}

// --- bytes and segments (net/tcp) ---------------------------------------------------------------

export interface BytesSentEvent extends Base<'bytes-sent'> {
  readonly connectionId: string;
  readonly from: Side;
  /** Exact bytes the application wrote, as a binary string (see file header). */
  readonly data: string;
}
export interface BytesReceivedEvent extends Base<'bytes-received'> {
  readonly connectionId: string;
  /** The side that received (read) the bytes. */
  readonly by: Side;
  readonly data: string;
}
export interface SegmentSentEvent extends Base<'segment-sent'> {
  readonly connectionId: string;
  readonly from: Side;
  /** Byte offset of the segment in its direction's stream, and its payload length. */
  readonly offset: number;
  readonly length: number;
  /** Congestion window (segments) at the time of sending. */
  readonly cwnd: number;
  readonly retransmission: boolean;
}
export interface SegmentArrivedEvent extends Base<'segment-arrived'> {
  readonly connectionId: string;
  readonly by: Side;
  readonly offset: number;
  readonly length: number;
  /** False when the segment arrived before an earlier lost one and must wait (head-of-line blocking). */
  readonly inOrder: boolean;
}
/** A cumulative acknowledgement left `from`; it arrives one one-way delay (rtt / 2) later. */
export interface AckEvent extends Base<'ack'> {
  readonly connectionId: string;
  readonly from: Side;
  /** Every byte before this stream offset has arrived in order. */
  readonly ack: number;
}
/** The network lost a TCP segment; stamped when it was sent (the bottleneck is at the sender's end of the link). */
export interface PacketLostEvent extends Base<'packet-lost'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly offset: number;
  readonly length: number;
  /**
   * Why the network lost it (net/link.ts DropCause): 'queue', dropped at the full bottleneck queue (drop-tail,
   * the sender's own burst overflowed it); 'random', the link's random loss; 'schedule', a `lossSchedule`
   * offset. Always set by the simulator; optional only so that traces recorded before it still type-check.
   */
  readonly cause?: 'queue' | 'random' | 'schedule';
}
export interface RetransmitEvent extends Base<'retransmit'> {
  readonly connectionId: string;
  readonly from: Side;
  readonly offset: number;
  readonly length: number;
  /**
   * What found the loss: 'timeout', the retransmission timer expired (RFC 6298); 'packet-threshold', three
   * later segments arrived (fast retransmit, RFC 5681 §3.2, with SACK); 'time-threshold', a later segment
   * arrived and this one is overdue by RACK's RTT + reordering window (RFC 8985 §6.2); 'tail-loss-probe', no
   * ACK came for 2 x SRTT and this last segment went again to draw one (RFC 8985 §7).
   */
  readonly reason: 'timeout' | 'packet-threshold' | 'time-threshold' | 'tail-loss-probe';
  /** For 'timeout', the retransmission timeout that expired; otherwise the one in force. Virtual ms. */
  readonly rto: number;
  /** How many times this segment has been sent again. */
  readonly attempt: number;
}
export interface HeadOfLineBlockedEvent extends Base<'hol-blocked'> {
  readonly connectionId: string;
  readonly by: Side;
  /** Stream offset the receiver is waiting for. */
  readonly waitingFor: number;
  /** Bytes that have arrived but cannot be delivered yet. */
  readonly heldBytes: number;
}

// --- HTTP (client agent, proxy, server) ---------------------------------------------------------

export interface MessageParsedEvent extends Base<'message-parsed'> {
  readonly connectionId: string;
  readonly by: Peer;
  readonly kind: 'request' | 'response';
  /** Request line or status line as it would appear on the wire, without CRLF. */
  readonly startLine: string;
  readonly headers: HeaderList;
  readonly bodyLength: number;
  /** What a reader should know about the message, e.g. that its transfer codings were not decoded. */
  readonly note?: string;
}
/**
 * A protocol engine rejected what the peer sent (HTTP/1 today): its error code and text, the byte offset in
 * the connection's input where it stopped, and the status the server answered with (null on the client).
 */
export interface ProtocolErrorEvent extends Base<'protocol-error'> {
  readonly connectionId: string;
  /** Who refused the bytes: a client, a server, or the forward proxy (sim/proxy.ts), which answers like a server. */
  readonly by: Peer;
  readonly protocol: 'http/1';
  readonly code: string;
  readonly message: string;
  readonly offset: number | null;
  readonly status: number | null;
}
/**
 * A row of a state table fired. Machines:
 * - 'client-connection': the client's connection management (net/connection-table.ts);
 * - 'http1-client' / 'http1-server': src/wire/http1's connection table, run alongside each connection;
 *   `from`/`to` read 'role:STATE' and `input` is the id of the row (or rule) that fired;
 * - 'proxy-smart' / 'proxy-dumb': the proxy's per-connection mode.
 */
export interface TransitionEvent extends Base<'transition'> {
  readonly machine: string;
  readonly connectionId: string;
  readonly from: string;
  readonly input: string;
  readonly to: string;
}
export interface RequestStartedEvent extends Base<'request-started'> {
  readonly requestId: string;
  readonly method: string;
  readonly url: string;
  readonly httpVersion: string;
}
export interface RequestQueuedEvent extends Base<'request-queued'> {
  readonly requestId: string;
  readonly origin: string;
  /** Every connection slot for the pool key is taken (maxConnectionsPerOrigin) and none can pipeline. */
  readonly reason: 'connection-limit';
  /** Requests ahead of this one in the origin's queue. */
  readonly position: number;
}
export interface RequestDispatchedEvent extends Base<'request-dispatched'> {
  readonly requestId: string;
  readonly connectionId: string;
  /** False when this request pays for a new connection (its setup cost shows in HAR connect/ssl). */
  readonly reused: boolean;
  /** Requests already waiting for a response on this connection when this one was written. */
  readonly pipelineDepth: number;
}
export interface RequestSentEvent extends Base<'request-sent'> {
  /** The fetch's id; for the CONNECT a client sends to open a tunnel, '<connectionId>/CONNECT'. */
  readonly requestId: string;
  readonly connectionId: string;
  /** The request as written, start line first. */
  readonly startLine: string;
  readonly headers: HeaderList;
}
export interface ResponseStartedEvent extends Base<'response-started'> {
  readonly requestId: string;
  readonly connectionId: string;
}
/** HAR-style phases in virtual ms; -1 means "does not apply" (HAR 1.2 §timings). */
export interface RequestTimings {
  /** Queued, waiting for a connection slot. */
  readonly blocked: number;
  /** Always -1: the simulator resolves names instantly. */
  readonly dns: -1;
  /** New connection setup (TCP, CONNECT tunnel and TLS), -1 on a reused connection. Includes ssl. */
  readonly connect: number;
  /** TLS handshake part of connect, -1 when there is none or the connection was reused. */
  readonly ssl: number;
  readonly send: number;
  /** Request written until the first response byte arrived. */
  readonly wait: number;
  /** First to last response byte. */
  readonly receive: number;
}
export interface RequestFinishedEvent extends Base<'request-finished'> {
  readonly requestId: string;
  readonly connectionId: string;
  /** Virtual time the request was started (fetch called). */
  readonly startedAt: number;
  readonly timings: RequestTimings;
  /** Address of the peer the client talked to (a documentation address from RFC 5737). */
  readonly serverIPAddress: string;
  readonly reused: boolean;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly headers: HeaderList;
    readonly headersSize: number;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly headers: HeaderList;
    readonly headersSize: number;
    readonly bodySize: number;
    readonly mimeType: string;
    /** Body as a binary string. */
    readonly body: string;
  };
}
export interface RequestFailedEvent extends Base<'request-failed'> {
  readonly requestId: string;
  readonly reason: 'aborted' | 'network-error' | 'stalled';
  readonly message: string;
}
export interface RequestRetriedEvent extends Base<'request-retried'> {
  readonly requestId: string;
  readonly connectionId: string;
  readonly reason: string;
}
export interface ProxyForwardedEvent extends Base<'proxy-forwarded'> {
  /** Proxy-side connection ids: downstream (from the client) and upstream (to the server). */
  readonly connectionId: string;
  readonly upstreamConnectionId: string;
  readonly kind: 'request' | 'response';
  readonly removedHeaders: readonly string[];
}
export interface TunnelEstablishedEvent extends Base<'tunnel-established'> {
  readonly connectionId: string;
  readonly upstreamConnectionId: string;
  readonly authority: string;
}
export interface ServerHandledEvent extends Base<'server-handled'> {
  readonly connectionId: string;
  readonly method: string;
  readonly target: string;
  /** The route pattern that answered, or the built-in rule ('builtin:HEAD', 'builtin:404', ...). */
  readonly route: string;
  readonly status: number;
  /**
   * The client reset the stream while the handler ran (HTTP/2): the handler worked to its end anyway, and its
   * reply was dropped. What rapid reset (CVE-2023-44487) costs a server.
   */
  readonly discarded?: true;
}
export interface FaultInjectedEvent extends Base<'fault-injected'> {
  readonly connectionId: string;
  readonly fault: 'status' | 'drop' | 'latency' | 'slow-body';
  readonly detail: string;
}

// --- HTTP/2 over the simulated network (http2/sim-*.ts) ----------------------------------------

/** One side began speaking HTTP/2 on a connection: over TLS with ALPN "h2", or cleartext by prior knowledge. */
export interface Http2SessionEvent extends Base<'h2-session'> {
  readonly connectionId: string;
  readonly side: Side;
  /** 'h2': TLS with ALPN "h2" (RFC 9113 §3.2); 'h2c': cleartext with prior knowledge (§3.3). */
  readonly protocol: 'h2' | 'h2c';
  readonly alpn: 'h2' | null;
}
/** The 24-octet client connection preface (RFC 9113 §3.4), sent or received. */
export interface Http2PrefaceEvent extends Base<'h2-preface'> {
  readonly connectionId: string;
  readonly side: Side;
  readonly direction: 'sent' | 'received';
  readonly data: string;
}
/**
 * One HPACK representation of a field block, with its byte range inside the reassembled block and the
 * table entry it used or created (hpack/annotations.ts has the fields of each representation).
 */
export type Http2HpackStep = HpackStep;
/** One HTTP/2 frame as it went out or came in, decoded and annotated. */
export interface Http2FrameEvent extends Base<'h2-frame'> {
  readonly connectionId: string;
  /** The endpoint that sent or received it. */
  readonly side: Side;
  readonly direction: 'sent' | 'received';
  /** Frame type name (RFC 9113 §6), e.g. 'HEADERS'. */
  readonly frameType: string;
  readonly streamId: number;
  /** Names of the flags set, e.g. ['END_STREAM', 'END_HEADERS']. */
  readonly flags: readonly string[];
  /** Payload length (the 24-bit Length field). */
  readonly length: number;
  /** The decoded fields that matter for this type (error codes by name, settings by name...). */
  readonly fields: Readonly<Record<string, string | number | boolean>>;
  /** Exact bytes of the frame, 9-octet header included, as a binary string. */
  readonly data: string;
  /** Byte ranges [start, end) of each field inside `data`. */
  readonly ranges: readonly { readonly field: string; readonly start: number; readonly end: number }[];
  /** On the frame that completes a field block (END_HEADERS): the decoded fields and HPACK steps. */
  readonly headers?: HeaderList;
  readonly hpack?: readonly Http2HpackStep[];
}
/** A row of the stream state table (http2/stream-states.ts) changed a stream's state. */
export interface Http2StreamTransitionEvent extends Base<'h2-stream-transition'> {
  readonly connectionId: string;
  readonly side: Side;
  readonly streamId: number;
  readonly from: string;
  /** The stream event: 'HEADERS', 'END_STREAM', 'PUSH_PROMISE', 'RST_STREAM', 'DATA'... */
  readonly input: string;
  readonly direction: 'send' | 'recv';
  readonly to: string;
}

export type TraceEvent =
  | import('../http3/events').Http3TraceEvent
  | Http2SessionEvent
  | Http2PrefaceEvent
  | Http2FrameEvent
  | Http2StreamTransitionEvent
  | ConnectionOpeningEvent
  | ConnectionOpenedEvent
  | ConnectionClosedEvent
  | HandshakeEvent
  | SecureEvent
  | BytesSentEvent
  | BytesReceivedEvent
  | SegmentSentEvent
  | SegmentArrivedEvent
  | AckEvent
  | PacketLostEvent
  | RetransmitEvent
  | HeadOfLineBlockedEvent
  | MessageParsedEvent
  | ProtocolErrorEvent
  | TransitionEvent
  | RequestStartedEvent
  | RequestQueuedEvent
  | RequestDispatchedEvent
  | RequestSentEvent
  | ResponseStartedEvent
  | RequestFinishedEvent
  | RequestFailedEvent
  | RequestRetriedEvent
  | ProxyForwardedEvent
  | TunnelEstablishedEvent
  | ServerHandledEvent
  | FaultInjectedEvent;

export type TraceEventType = TraceEvent['type'];
export type TraceEventOf<T extends TraceEventType> = Extract<TraceEvent, { type: T }>;
/** What an emitter supplies; the trace fills in `seq` and `at`. */
export type TraceEventInit = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, 'seq' | 'at'> : never) : never;

/** Converts bytes to the binary-string form used in events. */
export function binaryString(bytes: Uint8Array): string {
  // `apply` takes the typed array as it is; spreading it goes through the iterator, ~10x slower on
  // the simulator's hot path (every traced segment and frame). Chunks keep within argument limits.
  const n = bytes.length;
  if (n < 24) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  if (n <= 0x2000) {
    // From a few dozen bytes on, copying into a plain array first is faster (~1.3-1.5x in V8): `apply`
    // reads a typed array element by element through a generic path, a packed array in one go.
    const codes = new Array<number>(n);
    for (let i = 0; i < n; i++) codes[i] = bytes[i]!;
    return String.fromCharCode.apply(null, codes);
  }
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x2000) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x2000) as unknown as number[]);
  }
  return out;
}

/** Converts an event's binary string back to bytes. */
export function bytesOf(data: string): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data.charCodeAt(i) & 0xff;
  return out;
}
