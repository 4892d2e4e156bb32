/**
 * A QUIC connection endpoint (RFC 9000) as a sans-I/O engine: no clock, no sockets. Each call takes
 * the current virtual time and returns a `QuicOutput`: the datagrams to send, the events that happened,
 * and when the engine wants `timeout()` to be called next. The caller (udp.ts) moves the datagrams over
 * the link and owns the timer.
 *
 * What it does:
 * - The handshake from the table in packets.ts: Initial and Handshake packets carry TLS 1.3 in CRYPTO
 *   frames, laid out in datagrams by handshake-datagrams.ts (the client's first Initial padded to 1200 bytes,
 *   RFC 9000 §14.1; a flight larger than a datagram split over several, §19.6). A resumed client sends
 *   application data in 0-RTT packets in its first flight (RFC 9001 §4.6.1).
 * - Packet numbers and ACK frames per space (Initial, Handshake, application; 0-RTT and 1-RTT share the
 *   last, RFC 9000 §12.3) in packet-spaces.ts; loss detection and NewReno (recovery.ts).
 * - Independent streams (streams.ts): each STREAM frame is delivered to its own stream; a gap in one
 *   stream never holds back another.
 * - Data is packed stream by stream, round-robin, into packets of at most 1452 bytes (recovery.ts), as
 *   many as the congestion window allows; lost data is re-sent in NEW packets with new numbers (QUIC never
 *   retransmits a packet, only its frames, RFC 9000 §13.3).
 * - Stream states: each stream's sending and receiving parts follow the tables in stream-states.ts
 *   (driven from streams.ts); the sending part reaches "Data Recvd" / "Reset Recvd" when an ACK covers
 *   all its data / its RESET_STREAM, which is checked after every ACK frame.
 * - Abandoning streams: `resetStream` sends RESET_STREAM (§19.4) and stops sending and re-sending that
 *   stream's data; `stopSending` sends STOP_SENDING (§19.5) and discards what still arrives. On a
 *   STOP_SENDING the engine answers with RESET_STREAM carrying the same code (§3.5), unless every byte
 *   including the FIN was already sent; then it resets only if some of that data is later lost.
 *   Not checked: the final size against the bytes received (FINAL_SIZE_ERROR, §4.5), and which side may
 *   send which frame on a unidirectional stream (STREAM_STATE_ERROR, §19.4-19.5).
 *
 * Simplifications (besides those in recovery.ts, streams.ts, packets.ts and packet-spaces.ts):
 * - Datagrams without STREAM frames (handshake, ACK, RESET_STREAM, STOP_SENDING, PING, CONNECTION_CLOSE)
 *   are never lost (the same rule as link.ts for TCP control segments): the Initial and Handshake spaces
 *   need no loss recovery (packet-spaces.ts), and RESET_STREAM / STOP_SENDING go out once (RFC 9000 §13.3
 *   would repeat them until acknowledged).
 * - ACKs of 1-RTT packets are delayed as RFC 9000 §13.2 allows (packet-spaces.ts): sent once two
 *   ack-eliciting packets are owed, at once for a packet out of order or after a gap, else max_ack_delay
 *   (25 ms) after the first; they carry the ACK Delay, which the peer takes off its RTT sample (RFC 9002 §5.3).
 * - No connection ids changes, migration, path validation, Retry, version negotiation, key updates,
 *   anti-amplification limit, or stateless reset. The idle timeout is the HTTP/3 layer's: it closes with
 *   CONNECTION_CLOSE (an immediate close, §10.2) rather than silently (§10.1).
 */
import { WireError } from '../errors';
import { planHandshakeDatagrams } from './handshake-datagrams';
import { numberSpace, PacketSpaces, type NumberSpace } from './packet-spaces';
import {
  ackedSet,
  handshakeRow,
  isAckEliciting,
  packetSize,
  type QuicDatagram,
  type QuicFlight,
  type QuicFrame,
  type QuicPacket,
  type QuicSpace,
} from './packets';
import { encodeQuicDatagram } from './quic-codec';
import { quicFrameSize } from './quic-frame-writer';
import { quicPacketNumberLength } from './quic-packet-number';
import type { PlannedHeader } from './handshake-datagrams';
import { QuicRecovery, QUIC_DEFAULT_MAX_ACK_DELAY, QUIC_MAX_DATAGRAM_SIZE, type CongestionChange } from './recovery';
import type { CongestionControl } from '../transport/congestion';

/**
 * Connection IDs (RFC 9000 §5.1), 8 bytes each side, fixed so runs repeat: the client's first Initial goes to
 * the Destination Connection ID of RFC 9001 Appendix A until the server answers with its own (§7.2).
 */
const ORIGINAL_DCID = Uint8Array.of(0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08);
const SERVER_CID = Uint8Array.of(0xf0, 0x67, 0xa5, 0x50, 0x2a, 0x42, 0x62, 0xb5);
const CLIENT_CID = Uint8Array.of(0xc1, 0x1e, 0x47, 0x0a, 0x5e, 0x3d, 0x91, 0x2b);

/** RFC 9002 §6.2.4: "An endpoint MAY send up to two full-sized datagrams containing ack-eliciting packets" per PTO. */
const PTO_PROBES = 2;
import { roundTime } from '../transport/time';
import { TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES, TLS_DEFAULT_KEY_SHARE, TLS_KEY_SHARE_EXTRA_BYTES, type TlsKeyShare } from '../transport/tls-sizes';
import type { QuicStreamTransition } from './stream-states';
import { ReceiveStream, type StreamChunk } from './streams';
import { SendStreams } from './send-streams';
import type { QuicEvent, QuicOutput, QuicRole } from './quic-events';

/** RFC 9002 §7.7: pace at N x cwnd / smoothed_rtt, N = 1.25, so a pacer that falls behind can catch up. */
export const QUIC_PACING_GAIN = 1.25;

export interface QuicConnectionOptions {
  readonly role: QuicRole;
  /** Client only: a session ticket from an earlier connection to this server, enabling 0-RTT. */
  readonly resume?: boolean;
  /** Shrink the congestion window after an idle period longer than the PTO (recovery.ts). Default true. */
  readonly restartAfterIdle?: boolean;
  /** The congestion-control algorithm: 'cubic' (default, RFC 9438 with HyStart++) or 'newreno' (RFC 9002 §7.3). */
  readonly congestionControl?: CongestionControl;
  /**
   * Pace 1-RTT data packets at RFC 9002 §7.7's rate, N x cwnd / smoothed_rtt with N = 1.25 (QUIC_PACING_GAIN),
   * instead of sending all the window allows at once. Default false.
   */
  readonly pacing?: boolean;
  /**
   * Server: size of its Certificate message (RFC 8446 §4.4.2), bytes. Default
   * TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES (2,800), the same as TLS over TCP (net/tls.ts).
   */
  readonly certificateChainBytes?: number;
  /** The key exchange both sides use (TLS 1.3 key_share, RFC 8446 §4.2.8). Default TLS_DEFAULT_KEY_SHARE. */
  readonly keyShare?: TlsKeyShare;
}

type AppChunks = readonly StreamChunk[];

export class QuicConnection {
  readonly role: QuicRole;
  readonly resumed: boolean;
  readonly recovery: QuicRecovery<AppChunks>;
  #state: 'idle' | 'handshaking' | 'open' | 'closed' = 'idle';
  #oneRtt = false;
  #startedAt: number | undefined;
  /** Packet numbers, ACKs owed, and our Initial and Handshake packets in flight, per number space. */
  readonly #spaces: PacketSpaces;
  readonly #flights: QuicFlight[] = [];
  #handshakeDone = false;
  #handshakeState: string;
  /** Our sending parts, and which of them may have data to send (send-streams.ts). */
  readonly #sending: SendStreams;
  readonly #receive = new Map<number, ReceiveStream>();
  /** RESET_STREAM and STOP_SENDING frames waiting for the next packet. */
  readonly #control: QuicFrame[] = [];
  #rotation = 0;
  #phase: string = 'slow-start';
  #events: QuicEvent[] = [];
  /** Sending parts waiting for an ACK to settle them ("Data Sent", "Reset Sent"), so an ACK visits only these. */
  readonly #unsettled = new Set<number>();
  readonly #onTransition = (t: QuicStreamTransition): void => {
    if (t.part === 'send' && (t.to === 'Data Sent' || t.to === 'Reset Sent')) this.#unsettled.add(t.streamId);
    this.#events.push({ type: 'stream-transition', ...t });
  };
  #datagrams: QuicDatagram[] = [];
  /** The largest of our packet numbers the peer has acknowledged, per number space: it sets how many bytes a packet number takes (RFC 9000 §17.1). */
  readonly #largestAcked: Record<NumberSpace, number | undefined> = { initial: undefined, handshake: undefined, app: undefined };
  /** A packet from the peer has arrived: a client then sends to the server's connection ID (RFC 9000 §7.2). */
  #heard = false;
  /** Stream bytes sent for the first time so far, on all streams: the offset of our next new application byte. */
  #appSent = 0;
  /** Pacing: whether it is on, the earliest time the next data packet may leave, and whether one is waiting. */
  readonly #pacing: boolean;
  #pacedAt = 0;
  #paceBlocked = false;
  readonly #certificateChainBytes: number;
  readonly #keyShare: TlsKeyShare;

  constructor(options: QuicConnectionOptions) {
    this.role = options.role;
    this.#certificateChainBytes = options.certificateChainBytes ?? TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES;
    this.#keyShare = options.keyShare ?? TLS_DEFAULT_KEY_SHARE;
    this.resumed = options.role === 'client' && options.resume === true;
    this.recovery = new QuicRecovery({ restartAfterIdle: options.restartAfterIdle, congestionControl: options.congestionControl });
    this.#pacing = options.pacing ?? false;
    this.#spaces = new PacketSpaces(options.role, this.recovery);
    this.#sending = new SendStreams(this.#onTransition);
    if (options.role === 'server') this.#state = 'handshaking';
    this.#handshakeState = options.role === 'client' ? 'start' : 'wait-client-hello';
  }

  get state(): 'idle' | 'handshaking' | 'open' | 'closed' {
    return this.#state;
  }

  /** True once this side may send application data: 1-RTT keys, or 0-RTT keys on a resumed client. */
  get canSendData(): boolean {
    return this.#oneRtt || (this.resumed && this.#state === 'handshaking');
  }

  get oneRtt(): boolean {
    return this.#oneRtt;
  }

  /** Client: sends the first flight (ClientHello, plus 0-RTT data already written when resuming). */
  start(now: number): QuicOutput {
    if (this.role !== 'client' || this.#state !== 'idle') {
      throw new WireError({ code: 'quic-state', side: 'local', message: 'start() is for a client that has not started yet.' });
    }
    this.#state = 'handshaking';
    this.#startedAt = now;
    this.#runRow(this.resumed ? 'resume' : '', now);
    return this.#flush(now);
  }

  /** Queues bytes on a stream (opened implicitly, RFC 9000 §2.1) and sends what the window allows. */
  write(streamId: number, data: Uint8Array, fin: boolean, now: number): QuicOutput {
    if (this.#state === 'closed')
      throw new WireError({ code: 'quic-closed', side: 'local', message: `Cannot write on stream ${streamId}: the connection is closed.` });
    this.#sending.wake(this.#sending.stream(streamId)).write(data, fin);
    return this.#flush(now);
  }

  /**
   * Abandons our half of a stream (RFC 9000 §3.1 "Reset Sent"): RESET_STREAM with `errorCode` and the final
   * size, and nothing of the stream is sent again. A stream whose data and FIN are all acknowledged ("Data
   * Recvd") has nothing left to abandon: then nothing is sent.
   */
  resetStream(streamId: number, errorCode: number, now: number): QuicOutput {
    if (this.#state !== 'closed') this.#reset(streamId, errorCode);
    return this.#flush(now);
  }

  /**
   * Asks the peer to stop sending on a stream (RFC 9000 §3.5, §19.5) and discards whatever of it still
   * arrives. Nothing is sent when the stream is already complete or reset by the peer.
   */
  stopSending(streamId: number, errorCode: number, now: number): QuicOutput {
    if (this.#state !== 'closed') this.#stop(streamId, errorCode);
    return this.#flush(now);
  }

  /**
   * Cancels a stream both ways in one packet: STOP_SENDING for what the peer sends, RESET_STREAM for what
   * we send. What a client does to cancel an HTTP/3 request (RFC 9114 §4.1.1).
   */
  cancel(streamId: number, errorCode: number, now: number): QuicOutput {
    if (this.#state === 'closed') return this.#output(now);
    this.#stop(streamId, errorCode);
    this.#reset(streamId, errorCode);
    return this.#flush(now);
  }

  /** True when our half of the stream was reset (by us, possibly in answer to STOP_SENDING). */
  isReset(streamId: number): boolean {
    return this.#sending.get(streamId)?.resetAt !== undefined;
  }

  receive(datagram: QuicDatagram, now: number): QuicOutput {
    if (this.#state === 'closed') return this.#output(now);
    this.#startedAt ??= now;
    this.#heard = true;
    for (const packet of datagram.packets) {
      this.#events.push({ type: 'packet-received', packet });
      this.#spaces.onReceived(packet, now);
      for (const frame of packet.frames) this.#onFrame(frame, packet.space, now);
      if (this.#isClosed()) return this.#output(now);
    }
    return this.#flush(now);
  }

  /** The timer from the last output fired. */
  timeout(now: number): QuicOutput {
    if (this.#state === 'closed') return this.#output(now);
    const timer = this.recovery.nextTimer();
    if (timer && now >= timer.at) {
      if (timer.kind === 'loss') {
        const result = this.recovery.detectLost(now);
        if (result.lost.length > 0)
          this.#requeue(
            result.lost.map((p) => p.payload),
            result.lostBy ?? 'time-threshold',
            result.lost.map((p) => p.number),
          );
        this.#congestion(result.congestion);
      } else {
        const pto = this.recovery.pto;
        const oldest = this.recovery.onPto();
        this.#events.push({ type: 'pto', pto, count: this.recovery.ptoCount });
        if (oldest) {
          // §6.2.4: a probe must elicit an ACK, and a sender may send two; we re-send the two oldest
          // unacknowledged packets' data, outside the window (§7.5).
          for (const packet of this.recovery.unacked.slice(0, PTO_PROBES))
            for (const chunk of packet.payload) this.#sending.wake(this.#sending.stream(chunk.streamId)).requeue(chunk);
          // Nothing left to re-send (its stream was reset): RFC 9002 §6.2.4 says probe with a PING.
          if (this.#sending.ready().length > 0) this.#sendApp(now, PTO_PROBES);
          else this.#datagrams.push(this.#datagram([this.#packet(this.#oneRtt ? '1rtt' : '0rtt', [{ type: 'PING' }], now, true, [], true)]));
        }
      }
    }
    return this.#flush(now);
  }

  /**
   * Immediate close by the application (RFC 9000 §10.2) with its error code (an H3_* code): a CONNECTION_CLOSE of
   * type 0x1d; `frames` go in the same packet (e.g. an HTTP/3 GOAWAY).
   */
  close(errorCode: number, reason: string, now: number, frames: readonly QuicFrame[] = []): QuicOutput {
    this.#close(errorCode, reason, now, frames, true);
    return this.#output(now);
  }

  #close(errorCode: number, reason: string, now: number, frames: readonly QuicFrame[] = [], application = false): void {
    if (this.#state === 'closed') return;
    const space: QuicSpace = this.#oneRtt ? '1rtt' : 'initial';
    // RFC 9000 §10.2.3: an application's close must not reveal its state in an Initial or Handshake packet: it
    // goes as type 0x1c with APPLICATION_ERROR (0x0c) and no reason, and without the application's frames.
    const close: QuicFrame = !application
      ? { type: 'CONNECTION_CLOSE', errorCode, reason }
      : space === '1rtt'
        ? { type: 'CONNECTION_CLOSE', errorCode, reason, application: true }
        : { type: 'CONNECTION_CLOSE', errorCode: 0x0c, reason: '' };
    const carried = space === '1rtt' || !application ? frames : [];
    this.#datagrams.push(this.#datagram([this.#packet(space, [...carried, close], now, false)]));
    this.#state = 'closed';
    this.#events.push({ type: 'closed', by: this.role, errorCode, reason });
  }

  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  // --- receiving ------------------------------------------------------------------------------------

  #onFrame(frame: QuicFrame, space: QuicSpace, now: number): void {
    switch (frame.type) {
      case 'CRYPTO':
        // Handshake packets are never lost and arrive in order: the frame with the flight's last byte completes it.
        if ((frame.offset ?? 0) + frame.length >= (frame.total ?? frame.length)) this.#runRow(frame.messages, now);
        return;
      case 'STREAM': {
        const result = this.#receiving(frame.streamId).receive(frame);
        if (result.data.length > 0 || result.fin) this.#events.push({ type: 'stream-data', streamId: frame.streamId, data: result.data, fin: result.fin });
        if (result.blocked) this.#events.push({ type: 'stream-blocked', streamId: frame.streamId, ...result.blocked });
        return;
      }
      case 'ACK': {
        const ns = numberSpace(space);
        const largest = frame.ranges[0]?.[1];
        if (largest !== undefined && largest > (this.#largestAcked[ns] ?? -1)) this.#largestAcked[ns] = largest;
        if (ns !== 'app') {
          this.#congestion(this.#spaces.onAck(ns, frame.ranges, now));
          return;
        }
        const acked = ackedSet(frame.ranges);
        // RFC 9002 §5.3: the peer's ACK Delay (units of 8 µs, §18.2's default exponent), at most its max_ack_delay.
        const ackDelay = Math.min(((frame.ackDelay ?? 0) * 8) / 1000, QUIC_DEFAULT_MAX_ACK_DELAY);
        const outcome = this.recovery.onAck(acked, now, undefined, ackDelay);
        if (outcome.lost.length > 0)
          this.#requeue(
            outcome.lost.map((p) => p.payload),
            outcome.lostBy ?? 'packet-threshold',
            outcome.lost.map((p) => p.number),
          );
        this.#congestion(outcome.congestion);
        this.#settle(acked);
        return;
      }
      case 'RESET_STREAM': {
        // §3.2: once every byte has been delivered ("Data Read") a late reset changes nothing; nor does a repeat.
        if (!this.#receiving(frame.streamId).reset()) return;
        this.#events.push({ type: 'stream-reset', by: this.#peer, streamId: frame.streamId, errorCode: frame.errorCode, finalSize: frame.finalSize });
        return;
      }
      case 'STOP_SENDING': {
        this.#events.push({ type: 'stop-sending', by: this.#peer, streamId: frame.streamId, errorCode: frame.errorCode });
        const stream = this.#sending.stream(frame.streamId);
        stream.stopReceived();
        if (stream.resetAt !== undefined || stream.state === 'Data Recvd') return;
        // §3.5: in "Ready" or "Send" we must reset, and should copy the error code. In "Data Sent" the
        // reset may wait: we reset only if some of the data sent is later declared lost (see #requeue).
        if (!stream.finSent || stream.retransmit.length > 0) this.#reset(frame.streamId, frame.errorCode);
        else stream.stopRequested = frame.errorCode;
        return;
      }
      case 'PING':
        return;
      case 'HANDSHAKE_DONE':
        if (!this.#handshakeDone) {
          this.#handshakeDone = true;
          this.#events.push({ type: 'confirmed', side: this.role });
          this.#spaces.discard('handshake');
        }
        return;
      case 'CONNECTION_CLOSE':
        this.#state = 'closed';
        this.#events.push({ type: 'closed', by: this.#peer, errorCode: frame.errorCode, reason: frame.reason });
        return;
      case 'PADDING':
        return;
    }
  }

  #runRow(received: string, now: number): void {
    const row = handshakeRow(this.role, this.#handshakeState, received);
    if (!row) {
      const message = `QUIC handshake: a ${this.role} in state ${this.#handshakeState} cannot receive "${received}" (not in QUIC_HANDSHAKE).`;
      this.#close(0x0a, message, now); // PROTOCOL_VIOLATION, RFC 9000 §20.1
      return;
    }
    this.#handshakeState = row.next;
    for (const flight of row.send) {
      const extra = (flight.certificate ? this.#certificateChainBytes : 0) + (flight.keyShare ? TLS_KEY_SHARE_EXTRA_BYTES[this.#keyShare][flight.keyShare] : 0);
      this.#flights.push(extra > 0 ? { ...flight, length: flight.length + extra } : flight);
    }
    for (const flight of row.send) this.#events.push({ type: 'handshake', from: this.role, space: flight.space, messages: flight.messages });
    if (row.oneRtt && !this.#oneRtt) {
      this.#oneRtt = true;
      this.#state = 'open';
      this.#events.push({
        type: 'ready',
        side: this.role,
        handshakeMs: roundTime(now - (this.#startedAt ?? now)),
        resumed: this.resumed || received.includes('pre_shared_key'),
      });
    }
    if (row.confirmed && !this.#handshakeDone) {
      this.#handshakeDone = true;
      this.#events.push({ type: 'confirmed', side: this.role });
      this.#spaces.discard('handshake');
    }
  }

  #requeue(payloads: readonly AppChunks[], reason: 'packet-threshold' | 'time-threshold', numbers: readonly number[]): void {
    const streams = new Set<number>();
    for (const chunks of payloads) {
      for (const chunk of chunks) {
        streams.add(chunk.streamId);
        const stream = this.#sending.stream(chunk.streamId);
        // §3.5: the peer asked us to stop; lost data is a reason to reset rather than send it again.
        if (stream.stopRequested !== undefined) this.#reset(chunk.streamId, stream.stopRequested);
        else this.#sending.wake(stream).requeue(chunk);
      }
    }
    this.#events.push({ type: 'packets-lost', numbers, streams: [...streams].sort((a, b) => a - b), reason });
  }

  /** Reports window changes that matter: every loss response and every change of phase (packet-sent events carry cwnd). */
  #congestion(change: CongestionChange | undefined): void {
    if (!change || (change.reason === 'ack' && change.phase === this.#phase)) return;
    this.#phase = change.phase;
    this.#events.push({ type: 'congestion', ...change });
  }

  get #peer(): QuicRole {
    return this.role === 'client' ? 'server' : 'client';
  }

  /**
   * After an ACK: sending parts whose data and FIN are all acknowledged move to "Data Recvd", those
   * whose RESET_STREAM is acknowledged to "Reset Recvd" (RFC 9000 §3.1).
   */
  #settle(acked: ReadonlySet<number>): void {
    if (this.#unsettled.size === 0) return;
    // One pass over the packets still in flight, rather than one per waiting stream.
    const inFlight = new Set<number>();
    for (const packet of this.recovery.unacked) for (const chunk of packet.payload) inFlight.add(chunk.streamId);
    for (const id of this.#unsettled) {
      const stream = this.#sending.stream(id);
      if (stream.state === 'Reset Sent' && stream.resetPacket !== undefined && acked.has(stream.resetPacket)) stream.resetAcked();
      else if (stream.state === 'Data Sent' && !stream.hasData && !inFlight.has(id)) stream.allAcked();
      if (stream.state !== 'Data Sent' && stream.state !== 'Reset Sent') this.#unsettled.delete(id);
    }
  }

  #receiving(id: number): ReceiveStream {
    let stream = this.#receive.get(id);
    if (!stream) {
      stream = new ReceiveStream(id, this.#onTransition);
      this.#receive.set(id, stream);
    }
    return stream;
  }

  #stop(streamId: number, errorCode: number): void {
    if (!this.#receiving(streamId).stop()) return;
    this.#control.push({ type: 'STOP_SENDING', streamId, errorCode });
    this.#events.push({ type: 'stop-sending', by: this.role, streamId, errorCode });
  }

  #reset(streamId: number, errorCode: number): void {
    const stream = this.#sending.stream(streamId);
    // Already reset, or "Data Recvd": everything arrived, nothing to abandon (the table has no such row).
    if (stream.resetAt !== undefined || stream.state === 'Data Recvd') return;
    const finalSize = stream.reset();
    this.#control.push({ type: 'RESET_STREAM', streamId, errorCode, finalSize });
    this.#events.push({ type: 'stream-reset', by: this.role, streamId, errorCode, finalSize });
  }

  // --- sending --------------------------------------------------------------------------------------

  #flush(now: number): QuicOutput {
    if (this.#state === 'closed') return this.#output(now);
    this.#sendHandshake(now);
    if (this.#control.length > 0 && this.canSendData) {
      // RFC 9000 §12.4: RESET_STREAM and STOP_SENDING may go in 0-RTT and 1-RTT packets; 0-RTT has no ACKs.
      const space: QuicSpace = this.#oneRtt ? '1rtt' : '0rtt';
      const frames = [...(space === '1rtt' && this.#spaces.ackPending('app') ? [this.#spaces.ack('app', now)] : []), ...this.#control.splice(0)];
      const packet = this.#packet(space, frames, now, true);
      for (const f of frames) if (f.type === 'RESET_STREAM') this.#sending.stream(f.streamId).resetPacket = packet.number;
      this.#datagrams.push(this.#datagram([packet]));
    }
    if (this.canSendData) this.#sendApp(now);
    if (this.#spaces.ackDue('app', now) && this.#oneRtt) {
      this.#datagrams.push(this.#datagram([this.#packet('1rtt', [this.#spaces.ack('app', now)], now, false)]));
    }
    return this.#output(now);
  }

  /** Sends the queued handshake flights, coalesced into datagrams as handshake-datagrams.ts plans them. */
  #sendHandshake(now: number): void {
    if (this.#flights.length === 0) return;
    const datagrams = planHandshakeDatagrams(this.#flights, {
      role: this.role,
      handshakeDone: this.#handshakeDone,
      ack: (space) => (this.#spaces.ackPending(space) ? this.#spaces.ack(space) : undefined),
      header: (space, index) => this.#header(space, this.#spaces.peekNumber(space) + index),
    });
    this.#flights.length = 0;
    for (const planned of datagrams) this.#datagrams.push(this.#datagram(planned.map((p) => this.#packet(p.space, p.frames, now, p.space === '1rtt'))));
  }

  /** Packs stream data into full packets while the window allows (or up to `probes` probe packets, regardless). */
  #sendApp(now: number, probes = 0): void {
    const space: QuicSpace = this.#oneRtt ? '1rtt' : '0rtt';
    const probe = probes > 0;
    this.#paceBlocked = false;
    for (let sent = 0; ; sent++) {
      const ready = this.#sending.ready();
      if (ready.length === 0) return;
      if (probe ? sent >= probes : !this.recovery.canSend(QUIC_MAX_DATAGRAM_SIZE)) return;
      // RFC 9002 §7.7: probes are not paced; other packets wait for the pacer.
      this.#paceBlocked = this.#pacing && !probe && now < this.#pacedAt;
      if (this.#paceBlocked) return;
      const frames: QuicFrame[] = [];
      // RFC 9000 §17.2.3: a 0-RTT packet cannot carry ACK frames; 1-RTT packets piggy-back them.
      if (space === '1rtt' && this.#spaces.ackPending('app')) frames.push(this.#spaces.ack('app', now));
      const header = this.#header(space, this.#spaces.peekNumber(space));
      let room = QUIC_MAX_DATAGRAM_SIZE - packetSize({ space, frames }, header);
      const order = [...ready.slice(this.#rotation % ready.length), ...ready.slice(0, this.#rotation % ready.length)];
      this.#rotation++;
      const chunks: StreamChunk[] = [];
      let fresh = 0;
      for (const stream of order) {
        while (room > 16 && stream.hasData) {
          const again = stream.retransmit.length > 0; // take() sends lost chunks first
          const chunk = stream.take(room - 16);
          if (!chunk) break;
          if (!again) fresh += chunk.data.length;
          chunks.push(chunk);
          frames.push({ type: 'STREAM', ...chunk });
          room = QUIC_MAX_DATAGRAM_SIZE - packetSize({ space, frames }, header);
        }
        if (room <= 16) break;
      }
      const packet = this.#packet(space, frames, now, true, chunks, probe);
      const datagram = this.#datagram([packet]);
      if (this.#pacing && !probe) {
        const rate = (QUIC_PACING_GAIN * this.recovery.cwnd) / this.recovery.smoothedRtt;
        this.#pacedAt = roundTime(Math.max(this.#pacedAt, now) + datagram.size / rate);
      }
      this.#datagrams.push(fresh > 0 ? { ...datagram, firstSent: [this.#appSent, (this.#appSent += fresh)] } : datagram);
    }
  }

  /** How our packet `number` of `space` is written: connection IDs, and the shortest packet number length §17.1 allows. */
  #header(space: QuicSpace, number: number): PlannedHeader {
    const client = this.role === 'client';
    return {
      dcid: client ? (this.#heard ? SERVER_CID : ORIGINAL_DCID) : CLIENT_CID,
      scid: client ? CLIENT_CID : SERVER_CID,
      packetNumberLength: quicPacketNumberLength(number, this.#largestAcked[numberSpace(space)]),
    };
  }

  #packet(space: QuicSpace, frames: readonly QuicFrame[], now: number, track: boolean, chunks: AppChunks = [], probe = false): QuicPacket {
    const number = this.#spaces.nextNumber(space);
    const header = this.#header(space, number);
    // RFC 9001 §5.4.2: header protection samples 16 bytes from 4 bytes after the packet number's start, so
    // packet number and frames take at least 4 bytes; a lone PING is padded, as a real sender does.
    let payload = 0;
    for (const frame of frames) payload += quicFrameSize(frame);
    if (header.packetNumberLength + payload < 4) frames = [...frames, { type: 'PADDING', length: 4 - header.packetNumberLength - payload }];
    const packet: QuicPacket = { space, number, frames };
    const size = packetSize(packet, header);
    if (track && numberSpace(space) === 'app')
      this.recovery.onSent({ number: packet.number, sentAt: now, size, ackEliciting: isAckEliciting(frames), payload: chunks });
    else this.#spaces.onSent(packet, size, now); // Initial and Handshake packets only
    this.#events.push({ type: 'packet-sent', packet, size, cwnd: Math.floor(this.recovery.cwnd), bytesInFlight: this.recovery.bytesInFlight, probe });
    return packet;
  }

  /** The datagram as bytes (quic-codec.ts): its size is what is serialised. */
  #datagram(packets: readonly QuicPacket[]): QuicDatagram {
    const bytes = encodeQuicDatagram(packets.map((packet) => ({ packet, header: this.#header(packet.space, packet.number) })));
    return { packets, size: bytes.length, bytes };
  }

  #output(now: number): QuicOutput {
    // The earlier of loss recovery's timer and the delayed ACK's (RFC 9000 §13.2.1).
    const recoveryAt = this.recovery.nextTimer()?.at;
    const ackAt = this.#oneRtt ? this.#spaces.ackDeadline : undefined;
    const paceAt = this.#paceBlocked && this.#pacedAt > now ? this.#pacedAt : undefined;
    const timer = [recoveryAt, ackAt, paceAt].reduce<number | undefined>((a, b) => (b === undefined ? a : a === undefined ? b : Math.min(a, b)), undefined);
    const out: QuicOutput = { datagrams: this.#datagrams, events: this.#events, timer: this.#state === 'closed' ? undefined : timer };
    this.#datagrams = [];
    this.#events = [];
    void now;
    return out;
  }
}
