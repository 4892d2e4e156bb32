/**
 * TCP as timed round trips: enough of RFC 9293 to show where the time goes, and no more.
 *
 * What is modelled:
 * - The three-way handshake (SYN, SYN-ACK, ACK; RFC 9293 §3.5): the client may send data after one RTT,
 *   the server sees the connection once the ACK arrives. This cost is paid once per connection and is
 *   visible per request in the trace and in HAR `connect`.
 * - Segments of at most MSS = 1460 bytes (an Ethernet MTU of 1500 minus 40 bytes of headers).
 * - Slow start, SIMPLIFIED: the initial window is 10 segments (RFC 6928 §2) and every ACK grows it by one
 *   segment (RFC 5681 §3.1), so it doubles once per RTT. There is no ssthresh, no congestion avoidance,
 *   no receive window, and loss does not shrink the window: this simulator teaches latency, not fairness.
 * - Loss and retransmission: a lost data segment is resent when the retransmission timer expires
 *   (RFC 6298). One timer covers the oldest unacknowledged segment (§5.1); on expiry only that segment is
 *   resent and the timer backs off by doubling (§5.5). RTO is 3 x RTT, which is what §2.2 gives after the
 *   first sample (SRTT + 4 x RTTVAR = R + 4 x R/2), floored at 200 ms like Linux's TCP_RTO_MIN instead of
 *   §2.4's 1 s so lessons do not stall for a second. Fast retransmit (RFC 5681 §3.2) is not modelled.
 * - In-order delivery: the receiver holds segments that arrive after a gap and hands bytes to the
 *   application only once the gap is filled. That stall is TCP head-of-line blocking, traced as
 *   'hol-blocked'. Every segment is acknowledged at once with a cumulative ACK (no delayed ACKs).
 * - Close: FIN is delivered after all data (in stream order) and ends the connection for both sides (no
 *   half-close). `abort` sends RST, which discards what has not yet arrived.
 *
 * Control segments (SYN, ACK, FIN, RST) are never lost and take no bandwidth (see link.ts).
 */
import type { Clock, TimerId } from './clock';
import type { Direction, Link } from './link';
import type { Trace } from '../trace/trace';
import type { Peer, Side } from '../trace/events';
import { binaryString } from '../trace/events';
import { Signal, type Unsubscribe } from '../trace/subscribable';
import { concatBytes, type ByteStream, type CloseInfo, type StreamState } from './stream';

export const MSS = 1460;
export const INITIAL_CWND = 10;
export const MIN_RTO = 200;

export interface NetContext {
  readonly clock: Clock;
  readonly trace: Trace;
  /** Deterministic ids: nextId('c') -> 'c1', 'c2', ... */
  readonly nextId: (prefix: string) => string;
}

interface Listener {
  readonly peer: Peer;
  readonly accept: (socket: TcpSocket) => void;
}

interface Segment {
  readonly offset: number;
  readonly data: Uint8Array;
}

/** One shared record per connection, so both ends agree on whether it is over. */
interface Connection {
  readonly id: string;
  readonly link: Link;
  readonly ctx: NetContext;
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
  #nextOffset = 0;
  readonly #inFlight: Segment[] = [];
  #cwnd = INITIAL_CWND;
  #rtoTimer: TimerId | undefined;
  #backoff = 0;
  #finRequested = false;
  #finSent = false;
  // Receiving.
  #expected = 0;
  readonly #held = new Map<number, Uint8Array>();
  #peerFinAt: number | undefined;
  // Signals.
  readonly #opened = new Signal<void>();
  readonly #data = new Signal<Uint8Array>();
  readonly #closed = new Signal<CloseInfo>();

  constructor(conn: Connection, side: Side) {
    this.#conn = conn;
    this.side = side;
    this.#direction = side === 'client' ? 'up' : 'down';
  }

  get connectionId(): string {
    return this.#conn.id;
  }
  get state(): StreamState {
    return this.#state;
  }
  /** Current congestion window in segments. */
  get cwnd(): number {
    return this.#cwnd;
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

  write(bytes: Uint8Array): void {
    if (this.#state === 'closing' || this.#state === 'closed' || this.#finRequested) return;
    if (bytes.length === 0) return;
    const copy = bytes.slice();
    this.#conn.ctx.trace.emit({
      type: 'bytes-sent',
      connectionId: this.#conn.id,
      from: this.side,
      data: binaryString(copy),
    });
    this.#queue.push(copy);
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

  /** Marks the socket established and sends anything written while connecting. */
  establish(): void {
    if (this.#state !== 'connecting') return;
    this.#state = this.#finRequested ? 'closing' : 'open';
    this.#opened.emit();
    this.#pump();
  }

  #handshake(step: string): void {
    this.#conn.ctx.trace.emit({ type: 'handshake', connectionId: this.#conn.id, protocol: 'tcp', step, from: this.side });
  }

  #rto(): number {
    return Math.max(MIN_RTO, 3 * this.#conn.link.rtt) * 2 ** this.#backoff;
  }

  #pump(): void {
    if (this.#state !== 'open' && this.#state !== 'closing') return;
    while (this.#inFlight.length < this.#cwnd && this.#queue.length > 0) {
      const data = this.#take(MSS);
      const segment = { offset: this.#nextOffset, data };
      this.#nextOffset += data.length;
      this.#inFlight.push(segment);
      this.#transmit(segment, false);
    }
    if (this.#finRequested && !this.#finSent && this.#queue.length === 0) this.#sendFin();
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
    return parts.length === 1 ? parts[0]! : concatBytes(parts);
  }

  #transmit(segment: Segment, retransmission: boolean): void {
    const { ctx, link, id } = this.#conn;
    const now = ctx.clock.now();
    const arrival = link.transmit(this.#direction, segment.data.length, now);
    ctx.trace.emit({
      type: 'segment-sent',
      connectionId: id,
      from: this.side,
      offset: segment.offset,
      length: segment.data.length,
      cwnd: this.#cwnd,
      retransmission,
    });
    const peer = this.#peer!;
    if (link.drops()) {
      ctx.clock.setTimeout(() => {
        if (this.#conn.closed) return;
        ctx.trace.emit({ type: 'packet-lost', connectionId: id, from: this.side, offset: segment.offset, length: segment.data.length });
      }, arrival - now);
    } else {
      ctx.clock.setTimeout(() => peer.#receive(segment), arrival - now);
    }
    if (this.#rtoTimer === undefined) this.#armRto();
  }

  #armRto(): void {
    const { clock } = this.#conn.ctx;
    clock.clearTimeout(this.#rtoTimer);
    this.#rtoTimer = undefined;
    if (this.#inFlight.length === 0 || this.#state === 'closed') return;
    const rto = this.#rto();
    this.#rtoTimer = clock.setTimeout(() => {
      this.#rtoTimer = undefined;
      const oldest = this.#inFlight[0];
      if (!oldest || this.#state === 'closed') return;
      this.#backoff++;
      this.#conn.ctx.trace.emit({
        type: 'retransmit',
        connectionId: this.#conn.id,
        from: this.side,
        offset: oldest.offset,
        length: oldest.data.length,
        rto,
        attempt: this.#backoff,
      });
      this.#transmit(oldest, true);
    }, rto);
  }

  #receive(segment: Segment): void {
    if (this.#state === 'closed') return;
    const { ctx, id } = this.#conn;
    const end = segment.offset + segment.data.length;
    if (end <= this.#expected || this.#held.has(segment.offset)) {
      this.#sendAck(); // duplicate (a retransmission of something we already have)
      return;
    }
    const inOrder = segment.offset === this.#expected;
    ctx.trace.emit({ type: 'segment-arrived', connectionId: id, by: this.side, offset: segment.offset, length: segment.data.length, inOrder });
    if (!inOrder) {
      this.#held.set(segment.offset, segment.data);
      let heldBytes = 0;
      for (const d of this.#held.values()) heldBytes += d.length;
      ctx.trace.emit({ type: 'hol-blocked', connectionId: id, by: this.side, waitingFor: this.#expected, heldBytes });
      this.#sendAck();
      return;
    }
    const ready = [segment.data];
    this.#expected = end;
    for (let next = this.#held.get(this.#expected); next; next = this.#held.get(this.#expected)) {
      this.#held.delete(this.#expected);
      ready.push(next);
      this.#expected += next.length;
    }
    this.#sendAck();
    const bytes = ready.length === 1 ? ready[0]! : concatBytes(ready);
    ctx.trace.emit({ type: 'bytes-received', connectionId: id, by: this.side, data: binaryString(bytes) });
    this.#data.emit(bytes);
    this.#maybeFinished();
  }

  #sendAck(): void {
    const ack = this.#expected;
    const peer = this.#peer!;
    this.#conn.ctx.trace.emit({ type: 'ack', connectionId: this.#conn.id, from: this.side, ack });
    this.#conn.ctx.clock.setTimeout(() => peer.#onAck(ack), this.#conn.link.oneWay);
  }

  #onAck(ack: number): void {
    if (this.#state === 'closed') return;
    let acked = 0;
    while (this.#inFlight.length > 0) {
      const head = this.#inFlight[0]!;
      if (head.offset + head.data.length > ack) break;
      this.#inFlight.shift();
      acked++;
    }
    if (acked === 0) return;
    this.#cwnd += acked; // slow start: one segment per acknowledged segment (RFC 5681 §3.1)
    this.#backoff = 0;
    this.#armRto(); // RFC 6298 §5.3: restart the timer when new data is acknowledged
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
    this.#conn.ctx.clock.clearTimeout(this.#rtoTimer);
    this.#rtoTimer = undefined;
    this.#queue.length = 0;
    this.#inFlight.length = 0;
    this.#held.clear();
    this.#closed.emit(info);
  }
}

/** The close reason of a connection refused at `address` ("host:port"); proxies test for it (isRefused). */
export const refusedReason = (address: string): string => `connection refused: nothing listens on ${address}`;

/** Whether a close reason says the connection was refused (see refusedReason). */
export const isRefused = (reason: string): boolean => reason.startsWith('connection refused');

/** The set of listening addresses on a simulated network, and the way to open connections to them. */
export class TcpNetwork {
  readonly ctx: NetContext;
  readonly #listeners = new Map<string, Listener>();

  constructor(ctx: NetContext) {
    this.ctx = ctx;
  }

  /** Accepts connections to `address` ("host:port"). Returns a function that stops listening. */
  listen(address: string, peer: Peer, accept: (socket: TcpSocket) => void): () => void {
    if (this.#listeners.has(address)) throw new Error(`Something already listens on ${address}.`);
    this.#listeners.set(address, { peer, accept });
    return () => this.#listeners.delete(address);
  }

  /** Starts a three-way handshake to `address` over `link`. The socket is usable at once (writes queue). */
  connect(address: string, options: { readonly from: Peer; readonly link: Link }): TcpSocket {
    const { ctx } = this;
    const { clock, trace } = ctx;
    const conn: Connection = { id: ctx.nextId('c'), link: options.link, ctx, closed: false };
    const client = new TcpSocket(conn, 'client');
    const listener = this.#listeners.get(address);
    const start = clock.now();
    const oneWay = options.link.oneWay;
    trace.emit({ type: 'connection-opening', connectionId: conn.id, from: options.from, to: listener?.peer ?? 'server', address, rtt: options.link.rtt });
    trace.emit({ type: 'handshake', connectionId: conn.id, protocol: 'tcp', step: 'SYN', from: 'client' });
    clock.setTimeout(() => {
      if (client.state === 'closed') return;
      if (!listener || !this.#listeners.has(address)) {
        // RFC 9293 §3.10.7.1: a SYN to a port nobody listens on is answered with RST.
        trace.emit({ type: 'handshake', connectionId: conn.id, protocol: 'tcp', step: 'RST', from: 'server' });
        clock.setTimeout(() => client.refused(address), oneWay);
        return;
      }
      const server = new TcpSocket(conn, 'server');
      TcpSocket.pair(client, server);
      trace.emit({ type: 'handshake', connectionId: conn.id, protocol: 'tcp', step: 'SYN-ACK', from: 'server' });
      clock.setTimeout(() => {
        if (client.state === 'closed') return;
        trace.emit({ type: 'handshake', connectionId: conn.id, protocol: 'tcp', step: 'ACK', from: 'client' });
        // Schedule the ACK's arrival before the client can write, so the server is accepted first.
        clock.setTimeout(() => {
          if (conn.closed) return;
          listener.accept(server);
          server.establish();
        }, oneWay);
        trace.emit({ type: 'connection-opened', connectionId: conn.id, tcpMs: clock.now() - start });
        client.establish();
      }, oneWay);
    }, oneWay);
    return client;
  }
}
