/**
 * One end of a simulated TCP connection (the model and what it leaves out are told in tcp.ts): it sends what
 * the shared loss recovery's window allows, lost segments first, retransmits on its timers, paces when asked,
 * and on the receiving side holds segments behind a gap, delivers bytes in order and acknowledges them at once
 * or delayed as Linux does. TcpNetwork (tcp.ts) makes the two ends of a connection and pairs them.
 */
import { roundTime, type TimerId } from './clock';
import type { Direction, Link } from './link';
import type { Side } from '../trace/events';
import { binaryString } from '../trace/events';
import { Signal, type Unsubscribe } from '../trace/subscribable';
import { concatBytes, type ByteStream, type CloseInfo, type StreamState } from './stream';
import { LossRecovery, type LossReason, type SequenceState, type TransportRules } from '../transport/congestion';
import { DELAYED_ACK_MS, PACING_RATIO, QUICK_ACKS } from './tcp-rules';
import type { NetContext } from './tcp';

interface Segment {
  readonly offset: number;
  readonly data: Uint8Array;
  /** Number of its latest transmission (congestion.ts numbers every send, retransmissions afresh). */
  tx: number;
  retransmits: number;
  /** Cumulatively acknowledged or SACKed. */
  delivered: boolean;
  /** Declared lost and waiting to be sent again; why. */
  lostBy: LossReason | 'timeout' | undefined;
}

/** One shared record per connection, so both ends agree on whether it is over. */
export interface Connection {
  readonly id: string;
  readonly link: Link;
  readonly ctx: NetContext;
  readonly rules: TransportRules;
  /** TCP/IP header bytes per segment: 40, plus the timestamp option's 12 when it is on. */
  readonly headers: number;
  /** Whether receivers delay their ACKs (TcpOptions.delayedAcks). */
  readonly delayedAcks: boolean;
  /** Whether senders pace (TcpOptions.pacing). */
  readonly pacing: boolean;
  closed: boolean;
}

export class TcpSocket implements ByteStream {
  readonly side: Side;
  readonly #conn: Connection;
  readonly #direction: Direction;
  #peer: TcpSocket | undefined;
  #state: StreamState = 'connecting';
  #closeReason = '';
  // Sending.
  readonly #queue: Uint8Array[] = [];
  #queuedBytes = 0;
  #nextOffset = 0;
  /** Highest cumulative ACK received. */
  #una = 0;
  /** Segments sent and neither acknowledged nor SACKed, in stream order. */
  readonly #outstanding = new Map<number, Segment>();
  /** Segments declared lost, in stream order: sent again before any new data (RFC 6675 §5 NextSeg). */
  #resend: Segment[] = [];
  readonly #recovery: LossRecovery<Segment>;
  #nextTx = 0;
  #timer: TimerId | undefined;
  #timerAt: number | undefined;
  #finRequested = false;
  #finSent = false;
  /** Stream offset where the TLS handshake's bytes end and application data begins (0 without TLS). */
  #handshakeEnd = 0;
  // Receiving.
  #expected = 0;
  readonly #held = new Map<number, Uint8Array>();
  /** Data segments still to acknowledge at once (Linux's quick-ack mode at the start of a connection). */
  #quickAcks = QUICK_ACKS;
  /** Bytes received in order and not yet acknowledged (a delayed ACK is owed). */
  #unacked = 0;
  #delayedAck: TimerId | undefined;
  /** Pacing: the earliest time the next segment may leave, and the timer that sends it then. */
  #pacedAt = 0;
  #paceTimer: TimerId | undefined;
  #peerFinAt: number | undefined;
  // Signals.
  readonly #opened = new Signal<void>();
  readonly #data = new Signal<Uint8Array>();
  readonly #closed = new Signal<CloseInfo>();

  constructor(conn: Connection, side: Side) {
    this.#conn = conn;
    this.side = side;
    this.#direction = side === 'client' ? 'up' : 'down';
    this.#recovery = new LossRecovery(conn.rules);
  }

  get connectionId(): string {
    return this.#conn.id;
  }
  get state(): StreamState {
    return this.#state;
  }
  /** Current congestion window in whole segments. */
  get cwnd(): number {
    return Math.floor(this.#recovery.cwnd / this.#conn.rules.maxSegmentSize);
  }
  /** The sender's loss recovery and congestion state (RTT estimate, cwnd and ssthresh in bytes). */
  get recovery(): LossRecovery<unknown> {
    return this.#recovery;
  }
  get link(): Link {
    return this.#conn.link;
  }

  onOpen(listener: () => void): Unsubscribe {
    return this.#opened.subscribe(listener);
  }
  onData(listener: (bytes: Uint8Array) => void): Unsubscribe {
    return this.#data.subscribe(listener);
  }
  onClose(listener: (info: CloseInfo) => void): Unsubscribe {
    return this.#closed.subscribe(listener);
  }

  write(bytes: Uint8Array, kind?: 'handshake'): void {
    if (this.#state === 'closing' || this.#state === 'closed' || this.#finRequested) return;
    if (bytes.length === 0) return;
    // TLS writes its whole handshake before any application data, so one boundary separates the two.
    if (kind === 'handshake') this.#handshakeEnd = this.#nextOffset + this.#queuedBytes + bytes.length;
    const copy = bytes.slice();
    this.#conn.ctx.trace.emit({
      type: 'bytes-sent',
      connectionId: this.#conn.id,
      from: this.side,
      data: binaryString(copy),
    });
    this.#queue.push(copy);
    this.#queuedBytes += copy.length;
    if (this.#state === 'open') this.#pump();
  }

  close(reason = 'closed by application'): void {
    if (this.#state === 'closed' || this.#finRequested) return;
    this.#finRequested = true;
    this.#closeReason = reason;
    if (this.#state === 'open') {
      this.#state = 'closing';
      this.#pump();
    }
  }

  abort(reason = 'aborted by application'): void {
    if (this.#state === 'closed') return;
    const { ctx, link } = this.#conn;
    this.#conn.closed = true;
    this.#handshake('RST');
    ctx.trace.emit({ type: 'connection-closed', connectionId: this.#conn.id, by: this.side, how: 'reset', reason });
    const peer = this.#peer;
    this.#shutdown({ how: 'reset', by: this.side, reason });
    if (peer) ctx.clock.setTimeout(() => peer.#shutdown({ how: 'reset', by: this.side, reason }), link.oneWay);
  }

  // --- internals, called by TcpNetwork and the peer ----------------------------------------------

  static pair(client: TcpSocket, server: TcpSocket): void {
    client.#peer = server;
    server.#peer = client;
  }

  /**
   * The peer answered our SYN with RST (nobody listens on `address`): the connection fails before it opens.
   * The reason names the address, as curl's "Failed to connect to host port N" does: a fetch that fails this
   * way is most often a typo in the host, or a host the simulation does not serve.
   */
  refused(address: string): void {
    this.#conn.closed = true;
    const reason = refusedReason(address);
    this.#conn.ctx.trace.emit({ type: 'connection-closed', connectionId: this.#conn.id, by: 'server', how: 'reset', reason });
    this.#shutdown({ how: 'reset', by: 'server', reason });
  }

  /**
   * Marks the socket established and sends anything written while connecting. `handshakeRtt` is the
   * round trip the handshake measured (SYN to SYN-ACK for the client, SYN-ACK to ACK for the server).
   */
  establish(handshakeRtt?: number): void {
    if (this.#state !== 'connecting') return;
    if (handshakeRtt !== undefined) this.#recovery.sampleRtt(handshakeRtt);
    this.#state = this.#finRequested ? 'closing' : 'open';
    this.#opened.emit();
    this.#pump();
  }

  #handshake(step: string): void {
    this.#conn.ctx.trace.emit({ type: 'handshake', connectionId: this.#conn.id, protocol: 'tcp', step, from: this.side });
  }

  /**
   * Sends what the window allows: lost segments first, then new data. The fast retransmit that begins a
   * recovery is inside the window too: Proportional Rate Reduction allows one segment for it (prr.ts).
   */
  #pump(): void {
    if (this.#state !== 'open' && this.#state !== 'closing') return;
    const recovery = this.#recovery;
    const mss = this.#conn.rules.maxSegmentSize;
    for (;;) {
      while (this.#resend.length > 0 && this.#resend[0]!.delivered) this.#resend.shift();
      const lost = this.#resend[0];
      if ((lost || this.#queuedBytes > 0) && this.#paced()) break;
      if (lost) {
        if (!recovery.canSend(lost.data.length)) break;
        this.#resend.shift();
        this.#retransmit(lost);
        continue;
      }
      if (this.#queuedBytes === 0 || !recovery.canSend(Math.min(mss, this.#queuedBytes))) break;
      // Handshake bytes travel in segments of their own, so a segment is all handshake or all application.
      const data = this.#take(this.#nextOffset < this.#handshakeEnd ? Math.min(mss, this.#handshakeEnd - this.#nextOffset) : mss);
      const segment: Segment = { offset: this.#nextOffset, data, tx: -1, retransmits: 0, delivered: false, lostBy: undefined };
      this.#nextOffset += data.length;
      this.#outstanding.set(segment.offset, segment);
      this.#transmit(segment, false);
    }
    if (this.#finRequested && !this.#finSent && this.#queuedBytes === 0) this.#sendFin();
    this.#armTimer();
  }

  /**
   * With pacing on, whether the next segment must wait: if so, a timer pumps again when it may leave. Each
   * segment sent moves that time on by its length at the pacing rate (`#transmit`).
   */
  #paced(): boolean {
    if (!this.#conn.pacing) return false;
    const { clock } = this.#conn.ctx;
    const now = clock.now();
    if (now >= this.#pacedAt) return false;
    this.#paceTimer ??= clock.setTimeout(() => {
      this.#paceTimer = undefined;
      this.#pump();
    }, this.#pacedAt - now);
    return true;
  }

  /** Linux's pacing rate, bytes per ms: cwnd / SRTT times 2 in slow start, 1.2 after. */
  get pacingRate(): number {
    const r = this.#recovery;
    const ratio = r.cwnd < r.ssthresh ? PACING_RATIO.slowStart : PACING_RATIO.congestionAvoidance;
    return (ratio * r.cwnd) / r.smoothedRtt;
  }

  #take(max: number): Uint8Array {
    const parts: Uint8Array[] = [];
    let size = 0;
    while (size < max && this.#queue.length > 0) {
      const head = this.#queue[0]!;
      const room = max - size;
      if (head.length <= room) {
        parts.push(head);
        size += head.length;
        this.#queue.shift();
      } else {
        parts.push(head.subarray(0, room));
        this.#queue[0] = head.subarray(room);
        size += room;
      }
    }
    this.#queuedBytes -= size;
    return parts.length === 1 ? parts[0]! : concatBytes(parts);
  }

  /**
   * RACK-TLP's tail loss probe (RFC 8985 §7.3): one segment past the window, new data if any is waiting,
   * else the highest-sequence segment in flight again, so that its ACK (with SACK) reveals a lost tail
   * without waiting for the RTO.
   */
  #probe(now: number): void {
    this.#recovery.onTlp(now);
    if (this.#queuedBytes === 0) {
      let last: Segment | undefined;
      for (const segment of this.#outstanding.values()) if (segment.lostBy === undefined) last = segment;
      if (last) {
        this.#recovery.supersede(last.tx);
        this.#retransmit(last, 'tail-loss-probe');
      }
    }
    this.#pump();
  }

  #retransmit(segment: Segment, probe?: 'tail-loss-probe'): void {
    const reason = probe ?? segment.lostBy ?? 'timeout';
    segment.lostBy = undefined;
    segment.retransmits++;
    this.#conn.ctx.trace.emit({
      type: 'retransmit',
      connectionId: this.#conn.id,
      from: this.side,
      offset: segment.offset,
      length: segment.data.length,
      reason,
      rto: reason === 'timeout' ? this.#expiredRto : this.#recovery.timeout,
      attempt: segment.retransmits,
    });
    this.#transmit(segment, true);
  }

  #transmit(segment: Segment, retransmission: boolean): void {
    const { ctx, link, id, headers } = this.#conn;
    const now = ctx.clock.now();
    // An owed ACK leaves with the data (every segment carries one); here it is its own event, sent now.
    if (this.#unacked > 0) this.#sendAck(undefined);
    if (this.#conn.pacing) this.#pacedAt = roundTime(Math.max(this.#pacedAt, now) + segment.data.length / this.pacingRate);
    segment.tx = this.#nextTx++;
    this.#recovery.onSent({ number: segment.tx, sentAt: now, size: segment.data.length, ackEliciting: true, retransmission, payload: segment });
    const arrival = link.transmit(this.#direction, segment.data.length, now, headers);
    ctx.trace.emit({
      type: 'segment-sent',
      connectionId: id,
      from: this.side,
      offset: segment.offset,
      length: segment.data.length,
      cwnd: this.cwnd,
      retransmission,
    });
    const peer = this.#peer!;
    const start = segment.offset - this.#handshakeEnd;
    const handshake = start < 0;
    const firstSent = retransmission ? undefined : ([start, start + segment.data.length] as const);
    const cause = handshake ? undefined : link.dropCause({ direction: this.#direction, firstSent });
    if (cause !== undefined) {
      // Stamped when the packet meets the bottleneck, which this model puts at the sender's side of the link:
      // a drop-tail queue refuses it on entry, and QUIC's 'quic-datagram-dropped' is stamped at the same
      // moment, so one drop shows at one time in both stacks (issue #32 item 5).
      ctx.trace.emit({ type: 'packet-lost', connectionId: id, from: this.side, offset: segment.offset, length: segment.data.length, cause });
    } else {
      const { offset, data } = segment;
      ctx.clock.setTimeout(() => peer.#receive(offset, data), arrival - now);
    }
  }

  /** SND.UNA and SND.NXT (their difference is RFC 5681's FlightSize), for the recovery point and PRR. */
  #sequence(unaAdvanced = false): SequenceState {
    return { una: this.#una, nxt: this.#nextOffset, unaAdvanced };
  }

  /** Queues segments the recovery declared lost for retransmission, keeping stream order. */
  #markLost(lost: readonly { readonly payload: Segment }[], why: LossReason | 'timeout'): void {
    if (lost.length === 0) return;
    for (const { payload } of lost) {
      payload.lostBy = why;
      this.#resend.push(payload);
    }
    this.#resend.sort((a, b) => a.offset - b.offset);
  }

  #expiredRto = 0;

  /** One timer for the time-threshold loss deadline or the RTO, whichever the recovery names. */
  #armTimer(): void {
    const { clock } = this.#conn.ctx;
    const next = this.#state === 'closed' ? undefined : this.#recovery.nextTimer();
    if (next?.at === this.#timerAt) return;
    clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = next?.at;
    if (!next) return;
    this.#timer = clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = undefined;
        if (this.#state === 'closed') return;
        const now = clock.now();
        if (next.kind === 'loss') {
          const found = this.#recovery.detectLost(now, this.#sequence());
          this.#markLost(found.lost, found.lostBy ?? 'time-threshold');
          this.#pump();
          return;
        }
        if (next.kind === 'tlp') {
          this.#probe(now);
          return;
        }
        this.#expiredRto = this.#recovery.timeout;
        this.#markLost(this.#recovery.onRto(now, this.#sequence()).lost, 'timeout');
        this.#pump();
      },
      Math.max(0, next.at - clock.now()),
    );
  }

  #receive(offset: number, data: Uint8Array): void {
    if (this.#state === 'closed') return;
    const { ctx, id } = this.#conn;
    const end = offset + data.length;
    if (end <= this.#expected || this.#held.has(offset)) {
      this.#sendAck(undefined); // duplicate (a retransmission of something we already have)
      return;
    }
    const inOrder = offset === this.#expected;
    ctx.trace.emit({ type: 'segment-arrived', connectionId: id, by: this.side, offset, length: data.length, inOrder });
    if (!inOrder) {
      this.#held.set(offset, data);
      let heldBytes = 0;
      for (const d of this.#held.values()) heldBytes += d.length;
      ctx.trace.emit({ type: 'hol-blocked', connectionId: id, by: this.side, waitingFor: this.#expected, heldBytes });
      this.#sendAck(offset);
      return;
    }
    const ready = [data];
    // RFC 5681 §4.2: a segment that fills all or part of a gap is acknowledged at once.
    const fillsGap = this.#held.size > 0;
    this.#expected = end;
    for (let next = this.#held.get(this.#expected); next; next = this.#held.get(this.#expected)) {
      this.#held.delete(this.#expected);
      ready.push(next);
      this.#expected += next.length;
    }
    this.#ackInOrder(data.length, fillsGap);
    const bytes = ready.length === 1 ? ready[0]! : concatBytes(ready);
    ctx.trace.emit({ type: 'bytes-received', connectionId: id, by: this.side, data: binaryString(bytes) });
    this.#data.emit(bytes);
    this.#maybeFinished();
  }

  /**
   * Acknowledges in-order data now or later (TcpOptions.delayedAcks): at once in quick-ack mode, for a segment
   * that fills a gap, or once more than one full segment is owed (Linux's __tcp_ack_snd_check: RFC 5681 §4.2's
   * "at least every second full-sized segment"); otherwise after DELAYED_ACK_MS.
   */
  #ackInOrder(bytes: number, fillsGap: boolean): void {
    const { delayedAcks, rules, ctx } = this.#conn;
    this.#unacked += bytes;
    if (!delayedAcks || fillsGap || this.#quickAcks > 0 || this.#unacked > rules.maxSegmentSize) {
      if (this.#quickAcks > 0) this.#quickAcks--;
      this.#sendAck(undefined);
      return;
    }
    this.#delayedAck ??= ctx.clock.setTimeout(() => {
      this.#delayedAck = undefined;
      if (this.#state !== 'closed' && this.#unacked > 0) this.#sendAck(undefined);
    }, DELAYED_ACK_MS);
  }

  /** A cumulative ACK; `sack` names the out-of-order segment that caused it (RFC 2018's first block). */
  #sendAck(sack: number | undefined): void {
    this.#unacked = 0;
    if (this.#delayedAck !== undefined) {
      this.#conn.ctx.clock.clearTimeout(this.#delayedAck);
      this.#delayedAck = undefined;
    }
    const ack = this.#expected;
    const peer = this.#peer!;
    this.#conn.ctx.trace.emit({ type: 'ack', connectionId: this.#conn.id, from: this.side, ack });
    this.#conn.ctx.clock.setTimeout(() => peer.#onAck(ack, sack), this.#conn.link.oneWay);
  }

  /** Transmission numbers an ACK delivers; one set, cleared per ACK, as ACKs are the hottest path here. */
  readonly #delivered = new Set<number>();

  #deliver(segment: Segment): void {
    segment.delivered = true;
    this.#outstanding.delete(segment.offset);
    if (segment.lostBy === undefined) this.#delivered.add(segment.tx); // a segment waiting to be resent is not in flight
  }

  #onAck(ack: number, sack: number | undefined): void {
    if (this.#state === 'closed') return;
    const delivered = this.#delivered;
    delivered.clear();
    const unaAdvanced = ack > this.#una;
    if (unaAdvanced) {
      for (const segment of this.#outstanding.values()) {
        if (segment.offset + segment.data.length > ack) break;
        this.#deliver(segment);
      }
      this.#una = ack;
    }
    if (sack !== undefined) {
      const segment = this.#outstanding.get(sack);
      if (segment) this.#deliver(segment);
    }
    if (delivered.size === 0) return;
    const outcome = this.#recovery.onAck(delivered, this.#conn.ctx.clock.now(), this.#sequence(unaAdvanced));
    this.#markLost(outcome.lost, outcome.lostBy ?? 'packet-threshold');
    this.#pump();
  }

  #sendFin(): void {
    this.#finSent = true;
    this.#handshake('FIN');
    const at = this.#nextOffset;
    const peer = this.#peer!;
    this.#conn.ctx.clock.setTimeout(() => {
      if (peer.#state === 'closed') return;
      peer.#peerFinAt = at;
      peer.#maybeFinished();
    }, this.#conn.link.oneWay);
  }

  /** Once the peer's FIN is in order, the connection ends for both sides. */
  #maybeFinished(): void {
    if (this.#peerFinAt === undefined || this.#expected < this.#peerFinAt || this.#conn.closed) return;
    const closer = this.#peer!;
    this.#conn.closed = true;
    const info: CloseInfo = { how: 'fin', by: closer.side, reason: closer.#closeReason };
    this.#conn.ctx.trace.emit({ type: 'connection-closed', connectionId: this.#conn.id, by: closer.side, how: 'fin', reason: info.reason });
    this.#shutdown(info);
    closer.#shutdown(info);
  }

  #shutdown(info: CloseInfo): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#conn.ctx.clock.clearTimeout(this.#timer);
    this.#conn.ctx.clock.clearTimeout(this.#delayedAck);
    this.#delayedAck = undefined;
    this.#conn.ctx.clock.clearTimeout(this.#paceTimer);
    this.#paceTimer = undefined;
    this.#timer = undefined;
    this.#timerAt = undefined;
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    this.#outstanding.clear();
    this.#resend = [];
    this.#held.clear();
    this.#closed.emit(info);
  }
}

/** The close reason of a connection refused at `address` ("host:port"); proxies test for it (isRefused). */
export const refusedReason = (address: string): string => `connection refused: nothing listens on ${address}`;

/** Whether a close reason says the connection was refused (see refusedReason). */
export const isRefused = (reason: string): boolean => reason.startsWith('connection refused');
