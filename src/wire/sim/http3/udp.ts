/**
 * The I/O shell around an Http3Connection (http3/http3-connection.ts): UDP datagrams over the simulation's
 * Link, a timer on the virtual clock, and trace events. This is the only part of the HTTP/3 model that
 * touches time or the network; the engine itself only returns what to do.
 *
 * Datagrams take the link's serialization and propagation delay (link.ts). Each datagram that carries
 * stream data may be lost (the link's seeded draws, its queue and its loss schedule, told which new stream
 * bytes the datagram carries); datagrams with only handshake, ACK or CONNECTION_CLOSE frames always arrive
 * (see http3/connection.ts). Each datagram costs 28 bytes of UDP/IPv4 headers on the link (RFC 768, RFC 791).
 */
import { UDP_HEADER_OVERHEAD, type Link } from '../../net/link';
import type { NetContext } from '../../net/tcp';
import type { TimerId } from '../../net/clock';
import type { Side, TraceEventInit } from '../../trace/events';
import type { Http3Connection } from '../../http3/http3-connection';
import type { Http3Event } from '../../http3/http3-events';
import { describeFrame, type QuicDatagram } from '../../http3/packets';
import { http3ErrorName, http3PayloadLength } from '../../http3/frames';
import { binaryString } from '../../trace/events';
import type { QuicPacket } from '../../http3/packets';

export class Http3Endpoint {
  readonly engine: Http3Connection;
  readonly side: Side;
  readonly connectionId: string;
  readonly #ctx: NetContext;
  readonly #link: Link;
  readonly #onEvent: (event: Http3Event) => void;
  #peer: Http3Endpoint | undefined;
  #timer: TimerId | undefined;
  #packetBytes: Map<QuicPacket, { data: string; datagramOffset: number }> | undefined;

  constructor(engine: Http3Connection, connectionId: string, ctx: NetContext, link: Link, onEvent: (event: Http3Event) => void) {
    this.engine = engine;
    this.side = engine.role;
    this.connectionId = connectionId;
    this.#ctx = ctx;
    this.#link = link;
    this.#onEvent = onEvent;
  }

  pair(peer: Http3Endpoint): void {
    this.#peer = peer;
  }

  /** The trace's union includes Http3TraceEvent (one line in trace/events.ts), so ours are ordinary events. */
  emit(init: TraceEventInit): void {
    this.#ctx.trace.emit(init);
  }

  /**
   * Performs what the engine did: traces `events`, sends the datagrams it has waiting, re-arms the timer,
   * then runs the reactions. `afterFrames` runs once the leading 'frame-sent' events are traced (a request
   * is traced as sent between its frames and its packets).
   */
  apply(events: readonly Http3Event[], afterFrames?: () => void): void {
    const now = this.#ctx.clock.now();
    // The datagrams these events' packets went out in: each 'quic-packet-sent' carries its packet's bytes.
    const datagrams = this.engine.dataToSend();
    this.#packetBytes = datagrams.length > 0 ? packetBytes(datagrams, events) : undefined;
    let framesDone = afterFrames === undefined;
    for (const event of events) {
      if (!framesDone && event.type !== 'frame-sent') {
        framesDone = true;
        afterFrames!();
      }
      this.#trace(event);
    }
    if (!framesDone) afterFrames!();
    this.#packetBytes = undefined;
    for (const datagram of datagrams) this.#transmit(datagram, now);
    for (const datagram of this.engine.dataToSend()) this.#transmit(datagram, now);
    this.#ctx.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const at = this.engine.nextTimeout(now);
    if (at !== undefined) {
      this.#timer = this.#ctx.clock.setTimeout(
        () => {
          this.#timer = undefined;
          this.apply(this.engine.timeout(this.#ctx.clock.now()));
        },
        Math.max(0, at - now),
      );
    }
    for (const event of events) this.#onEvent(event);
  }

  now(): number {
    return this.#ctx.clock.now();
  }

  #dataOf(packet: QuicPacket): { data: string; datagramOffset: number } | Record<string, never> {
    return this.#packetBytes?.get(packet) ?? {};
  }

  #transmit(datagram: QuicDatagram, now: number): void {
    const direction = this.side === 'client' ? 'up' : 'down';
    const arrives = this.#link.transmit(direction, datagram.size, now, UDP_HEADER_OVERHEAD);
    const frames = datagram.packets.flatMap((p) => p.frames);
    const droppable = frames.some((f) => f.type === 'STREAM') && !frames.some((f) => f.type === 'CONNECTION_CLOSE');
    const cause = droppable ? this.#link.dropCause({ direction, firstSent: datagram.firstSent }) : undefined;
    if (cause !== undefined) {
      const streams = [...new Set(frames.flatMap((f) => (f.type === 'STREAM' ? [f.streamId] : [])))].sort((a, b) => a - b);
      this.emit({
        type: 'quic-datagram-dropped',
        connectionId: this.connectionId,
        from: this.side,
        packetNumbers: datagram.packets.map((p) => p.number),
        streams,
        cause,
      });
      return;
    }
    const peer = this.#peer;
    if (!peer) return;
    this.#ctx.clock.setTimeout(() => peer.apply(peer.engine.receive(datagram, this.#ctx.clock.now())), arrives - now);
  }

  #trace(event: Http3Event): void {
    const connectionId = this.connectionId;
    const from = this.side;
    switch (event.type) {
      case 'frame-sent': {
        const frame = event.frame;
        if (frame.type === 'UNKNOWN') return; // the trace names the four frame types this model sends
        this.emit({
          type: 'http3-frame',
          connectionId,
          from,
          streamId: event.streamId,
          frame: frame.type,
          length: http3PayloadLength(frame),
          ...(event.fields ? { fields: event.fields } : {}),
        });
        return;
      }
      case 'handshake':
        this.emit({ type: 'quic-handshake', connectionId, from, space: event.space, messages: event.messages });
        return;
      case 'ready':
        this.emit({ type: 'quic-ready', connectionId, side: event.side, handshakeMs: event.handshakeMs, resumed: event.resumed });
        return;
      case 'packet-sent':
        this.emit({
          type: 'quic-packet-sent',
          connectionId,
          from,
          space: event.packet.space,
          packetNumber: event.packet.number,
          size: event.size,
          frames: event.packet.frames.map(describeFrame),
          cwnd: event.cwnd,
          bytesInFlight: event.bytesInFlight,
          probe: event.probe,
          ...this.#dataOf(event.packet),
        });
        return;
      case 'packets-lost':
        this.emit({ type: 'quic-packets-lost', connectionId, from, packetNumbers: event.numbers, streams: event.streams, reason: event.reason });
        return;
      case 'pto':
        this.emit({ type: 'quic-pto', connectionId, from, pto: event.pto, count: event.count });
        return;
      case 'congestion':
        this.emit({
          type: 'quic-congestion',
          connectionId,
          from,
          cwnd: event.cwnd,
          ssthresh: Number.isFinite(event.ssthresh) ? event.ssthresh : null,
          phase: event.phase,
          reason: event.reason,
          algorithm: event.algorithm,
        });
        return;
      case 'stream-transition':
        this.emit({
          type: 'quic-stream-transition',
          connectionId,
          side: from,
          streamId: event.streamId,
          part: event.part,
          from: event.from,
          input: event.input,
          to: event.to,
        });
        return;
      case 'stream-blocked':
        this.emit({ type: 'quic-stream-blocked', connectionId, by: from, streamId: event.streamId, waitingFor: event.waitingFor, heldBytes: event.heldBytes });
        return;
      case 'stream-reset':
        if (event.by !== from) return; // traced once, by the sender (arrival is one link delay later)
        this.emit({
          type: 'quic-reset-stream',
          connectionId,
          from,
          streamId: event.streamId,
          errorCode: event.errorCode,
          errorName: http3ErrorName(event.errorCode),
          finalSize: event.finalSize,
        });
        return;
      case 'stop-sending':
        if (event.by !== from) return;
        this.emit({
          type: 'quic-stop-sending',
          connectionId,
          from,
          streamId: event.streamId,
          errorCode: event.errorCode,
          errorName: http3ErrorName(event.errorCode),
        });
        return;
      case 'closed':
        if (event.by !== from) return; // traced once, by the side that closed
        this.emit({ type: 'quic-connection-closed', connectionId, by: event.by, errorCode: event.errorCode, reason: event.reason });
        return;
      case 'qpack-instructions':
        this.emit({
          type: 'qpack-instructions',
          connectionId,
          from,
          stream: event.stream,
          streamId: event.streamId,
          hex: hex(event.bytes),
          length: event.bytes.length,
          insertCount: event.insertCount,
          offset: event.offset,
        });
        return;
      case 'qpack-blocked':
      case 'qpack-unblocked':
        this.emit({
          type: event.type,
          connectionId,
          side: from,
          streamId: event.streamId,
          requiredInsertCount: event.requiredInsertCount,
          insertCount: event.insertCount,
        });
        return;
      default:
        return; // packet-received, stream-data, confirmed and the HTTP/3 layer's events are for the endpoints, not the trace
    }
  }
}

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/**
 * Each packet's bytes in the datagram that carries it, as a binary string (trace/events.ts), and where in the
 * datagram it starts (coalesced packets, RFC 9000 §12.2). Packets are laid end to end; each one's size is its
 * 'packet-sent' event's. A packet whose event is not among `events` ends the walk of its datagram.
 */
function packetBytes(datagrams: readonly QuicDatagram[], events: readonly Http3Event[]): Map<QuicPacket, { data: string; datagramOffset: number }> {
  const sizes = new Map<QuicPacket, number>();
  for (const event of events) if (event.type === 'packet-sent') sizes.set(event.packet, event.size);
  const out = new Map<QuicPacket, { data: string; datagramOffset: number }>();
  for (const datagram of datagrams) {
    const bytes = datagram.bytes;
    if (bytes === undefined) continue;
    let at = 0;
    for (const packet of datagram.packets) {
      const size = sizes.get(packet);
      if (size === undefined || at + size > bytes.length) break;
      out.set(packet, { data: binaryString(bytes.subarray(at, at + size)), datagramOffset: at });
      at += size;
    }
  }
  return out;
}
