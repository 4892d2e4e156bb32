/**
 * The I/O shell around a QuicConnection: UDP datagrams over the simulation's Link, a timer on the
 * virtual clock, and trace events. This is the only part of the QUIC model that touches time or the
 * network; the engine itself (connection.ts) only returns what to do.
 *
 * Datagrams take the link's serialization and propagation delay (link.ts). Each datagram that carries
 * stream data is lost with the link's probability, one seeded draw per datagram; datagrams with only
 * handshake, ACK or CONNECTION_CLOSE frames always arrive (see connection.ts). The link charges 40 bytes
 * of TCP/IPv4 headers per datagram; UDP/IPv4 would be 28 (RFC 768, RFC 791), a difference we accept.
 */
import type { Link } from '../net/link';
import type { NetContext } from '../net/tcp';
import type { TimerId } from '../net/clock';
import type { Side, TraceEventInit } from '../trace/events';
import type { QuicConnection, QuicEvent, QuicOutput } from './connection';
import { describeFrame, type QuicDatagram } from './packets';
import { http3ErrorName } from './frames';

export class QuicEndpoint {
  readonly connection: QuicConnection;
  readonly side: Side;
  readonly connectionId: string;
  readonly #ctx: NetContext;
  readonly #link: Link;
  readonly #onEvent: (event: QuicEvent) => void;
  #peer: QuicEndpoint | undefined;
  #timer: TimerId | undefined;

  constructor(connection: QuicConnection, connectionId: string, ctx: NetContext, link: Link, onEvent: (event: QuicEvent) => void) {
    this.connection = connection;
    this.side = connection.role;
    this.connectionId = connectionId;
    this.#ctx = ctx;
    this.#link = link;
    this.#onEvent = onEvent;
  }

  pair(peer: QuicEndpoint): void {
    this.#peer = peer;
  }

  /** The trace's union includes Http3TraceEvent (one line in trace/events.ts), so ours are ordinary events. */
  emit(init: TraceEventInit): void {
    this.#ctx.trace.emit(init);
  }

  /** Performs an engine output: trace it, send its datagrams, re-arm the timer, then run reactions. */
  apply(out: QuicOutput): void {
    const now = this.#ctx.clock.now();
    for (const event of out.events) this.#trace(event);
    for (const datagram of out.datagrams) this.#transmit(datagram, now);
    this.#ctx.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (out.timer !== undefined) {
      this.#timer = this.#ctx.clock.setTimeout(
        () => {
          this.#timer = undefined;
          this.apply(this.connection.timeout(this.#ctx.clock.now()));
        },
        Math.max(0, out.timer - now),
      );
    }
    for (const event of out.events) this.#onEvent(event);
  }

  now(): number {
    return this.#ctx.clock.now();
  }

  #transmit(datagram: QuicDatagram, now: number): void {
    const direction = this.side === 'client' ? 'up' : 'down';
    const arrives = this.#link.transmit(direction, datagram.size, now);
    const frames = datagram.packets.flatMap((p) => p.frames);
    const droppable = frames.some((f) => f.type === 'STREAM') && !frames.some((f) => f.type === 'CONNECTION_CLOSE');
    if (droppable && this.#link.drops()) {
      const streams = [...new Set(frames.flatMap((f) => (f.type === 'STREAM' ? [f.streamId] : [])))].sort((a, b) => a - b);
      this.emit({
        type: 'quic-datagram-dropped',
        connectionId: this.connectionId,
        from: this.side,
        packetNumbers: datagram.packets.map((p) => p.number),
        streams,
      });
      return;
    }
    const peer = this.#peer;
    if (!peer) return;
    this.#ctx.clock.setTimeout(() => peer.apply(peer.connection.receive(datagram, this.#ctx.clock.now())), arrives - now);
  }

  #trace(event: QuicEvent): void {
    const connectionId = this.connectionId;
    const from = this.side;
    switch (event.type) {
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
      default:
        return; // packet-received, stream-data and confirmed are for the HTTP/3 layer, not the trace
    }
  }
}
