/**
 * Per-stream buffers of a QUIC connection (RFC 9000 §2-3): what is left to send on each stream, and
 * reassembly of what arrives.
 *
 * This is where QUIC differs from TCP for HTTP: every stream has its own byte offsets and its own
 * reassembly buffer. A lost packet leaves a gap only in the streams whose data it carried; the other
 * streams' bytes are delivered as soon as they arrive. Over TCP, one gap holds back every byte behind
 * it, whichever request it belongs to (head-of-line blocking, see net/tcp.ts).
 *
 * Abandoning a stream (RFC 9000 §3.1-3.3, §19.4-19.5): `SendStream.reset` drops everything not yet
 * sent and everything waiting for retransmission (§13.3: data of a reset stream is not sent again) and
 * returns the final size, the highest offset sent (§4.5); `ReceiveStream.reset` (the peer's RESET_STREAM)
 * and `ReceiveStream.stop` (our STOP_SENDING) discard what is held and ignore what still arrives.
 *
 * Each part's state is the RFC's, kept by the transition tables in stream-states.ts: every step goes
 * through `quicSendTransition` / `quicRecvTransition` and is reported to the connection (which traces it
 * as 'quic-stream-transition'). The getters the connection reads (`finSent`, `resetAt`, `complete`,
 * `abandoned`) are derived from that state, not kept beside it.
 *
 * Not modelled: flow control (MAX_DATA, MAX_STREAM_DATA, MAX_STREAMS: windows are unlimited), and
 * stream priorities (streams are served round-robin).
 */

import {
  quicRecvTransition,
  quicSendTransition,
  type QuicRecvInput,
  type QuicRecvState,
  type QuicSendInput,
  type QuicSendState,
  type QuicStreamTransition,
} from './stream-states';

export interface StreamChunk {
  readonly streamId: number;
  readonly offset: number;
  readonly data: Uint8Array;
  readonly fin: boolean;
}

/** Receives each state change of a stream part; the connection turns them into events. */
export type TransitionListener = (transition: QuicStreamTransition) => void;

// More data, a retransmission or a straggler: a self-loop on every packet, so it is not reported.
const quiet = (from: string, input: string, to: string): boolean => from === to && (input === 'send STREAM' || input === 'recv STREAM');

/** The sending half: new bytes not yet sent, and lost chunks waiting to be sent again. */
export class SendStream {
  readonly id: number;
  #state: QuicSendState = 'Ready';
  readonly #onTransition: TransitionListener | undefined;
  #buffer: Uint8Array = new Uint8Array(0);
  #offset = 0;
  #finQueued = false;
  #finalSize = 0;
  /** The peer asked us to stop (STOP_SENDING) after our FIN went out: reset instead of retransmitting. */
  stopRequested: number | undefined;
  /** Number of the packet that carried our RESET_STREAM, to see it acknowledged ("Reset Recvd"). */
  resetPacket: number | undefined;
  readonly retransmit: StreamChunk[] = [];

  constructor(id: number, onTransition?: TransitionListener) {
    this.id = id;
    this.#onTransition = onTransition;
  }

  /** The RFC 9000 §3.1 state of this part. */
  get state(): QuicSendState {
    return this.#state;
  }

  #input(input: QuicSendInput): void {
    const from = this.#state;
    const to = quicSendTransition(from, input, this.id);
    this.#state = to;
    if (!quiet(from, input, to)) this.#onTransition?.({ streamId: this.id, part: 'send', from, input, to });
  }

  get #isReset(): boolean {
    return this.#state === 'Reset Sent' || this.#state === 'Reset Recvd';
  }

  write(data: Uint8Array, fin: boolean): void {
    if (this.#isReset) throw new Error(`Stream ${this.id} was reset (RESET_STREAM); nothing more can be written.`);
    if (this.#finQueued) throw new Error(`Stream ${this.id} has already ended (FIN); nothing more can be written.`);
    const next = new Uint8Array(this.#buffer.length + data.length);
    next.set(this.#buffer);
    next.set(data, this.#buffer.length);
    this.#buffer = next;
    this.#finQueued = fin;
  }

  get hasData(): boolean {
    if (this.#isReset) return false;
    return this.retransmit.length > 0 || this.#buffer.length > 0 || (this.#finQueued && !this.finSent);
  }

  /** The FIN has been sent (state "Data Sent" or "Data Recvd", RFC 9000 §3.1). */
  get finSent(): boolean {
    return this.#state === 'Data Sent' || this.#state === 'Data Recvd';
  }

  /** The final size announced in our RESET_STREAM, or undefined while the stream is not reset. */
  get resetAt(): number | undefined {
    return this.#isReset ? this.#finalSize : undefined;
  }

  /** Queues a lost chunk for sending again, unless the stream was reset meanwhile (RFC 9000 §13.3). */
  requeue(chunk: StreamChunk): void {
    if (!this.#isReset) this.retransmit.push(chunk);
  }

  /** Abandons the stream ("Reset Sent", §3.1); returns the final size, the highest offset sent (§4.5). */
  reset(): number {
    if (this.#isReset) return this.#finalSize;
    this.#input('send RESET_STREAM');
    this.#finalSize = this.#offset;
    this.#buffer = new Uint8Array(0);
    this.retransmit.length = 0;
    return this.#finalSize;
  }

  /** The peer's STOP_SENDING arrived; what to do about it is the connection's decision (§3.5). */
  stopReceived(): void {
    this.#input('recv STOP_SENDING');
  }

  /** Every byte and the FIN are acknowledged ("Data Recvd"). */
  allAcked(): void {
    this.#input('recv all ACKs');
  }

  /** The packet with our RESET_STREAM is acknowledged ("Reset Recvd"). */
  resetAcked(): void {
    this.#input('recv ACK of RESET_STREAM');
  }

  /** Takes up to `max` bytes: a lost chunk first (whole, or split), else new data. */
  take(max: number): StreamChunk | undefined {
    const lost = this.retransmit[0];
    if (lost) {
      this.#input('send STREAM');
      if (lost.data.length <= max) return this.retransmit.shift();
      this.retransmit[0] = { ...lost, offset: lost.offset + max, data: lost.data.subarray(max) };
      return { streamId: this.id, offset: lost.offset, data: lost.data.subarray(0, max), fin: false };
    }
    if (!this.hasData) return undefined;
    const data = this.#buffer.subarray(0, max);
    this.#buffer = this.#buffer.subarray(data.length);
    const fin = this.#finQueued && this.#buffer.length === 0;
    // RFC 9000 §3.1: a STREAM frame with FIN is "Send STREAM", then "Send STREAM + FIN".
    this.#input('send STREAM');
    if (fin) this.#input('send FIN');
    const chunk = { streamId: this.id, offset: this.#offset, data, fin };
    this.#offset += data.length;
    return chunk;
  }
}

export interface ReceiveResult {
  /** Bytes now deliverable in order (possibly empty). */
  readonly data: Uint8Array;
  readonly fin: boolean;
  /** When data is held behind a gap: the offset this stream waits for, and how much is held. */
  readonly blocked: { readonly waitingFor: number; readonly heldBytes: number } | undefined;
}

const NOTHING: ReceiveResult = Object.freeze({ data: new Uint8Array(0), fin: false, blocked: undefined });

/** The receiving half: reassembles chunks that may arrive out of order or twice. */
export class ReceiveStream {
  readonly id: number;
  #state: QuicRecvState = 'Recv';
  readonly #onTransition: TransitionListener | undefined;
  #expected = 0;
  #finAt: number | undefined;
  readonly #held = new Map<number, Uint8Array>();
  #stopSent = false;

  constructor(id: number, onTransition?: TransitionListener) {
    this.id = id;
    this.#onTransition = onTransition;
  }

  /** The RFC 9000 §3.2 state of this part. */
  get state(): QuicRecvState {
    return this.#state;
  }

  #input(input: QuicRecvInput): void {
    const from = this.#state;
    const to = quicRecvTransition(from, input, this.id);
    this.#state = to;
    if (!quiet(from, input, to)) this.#onTransition?.({ streamId: this.id, part: 'recv', from, input, to });
  }

  get #isReset(): boolean {
    return this.#state === 'Reset Recvd' || this.#state === 'Reset Read';
  }

  /** Why nothing more is delivered: the peer reset the stream, or we asked it to stop sending. */
  get abandoned(): 'reset' | 'stopped' | undefined {
    if (this.#isReset) return 'reset';
    return this.#stopSent ? 'stopped' : undefined;
  }

  /** Every byte up to the FIN has been delivered ("Data Read", RFC 9000 §3.2). */
  get complete(): boolean {
    return this.#state === 'Data Read';
  }

  /**
   * The peer's RESET_STREAM. Returns true when it reset the stream ("Reset Recvd", then read at once:
   * "Reset Read"); false when it came too late ("Data Read") or twice, and changes nothing.
   */
  reset(): boolean {
    const before = this.#state;
    this.#input('recv RESET_STREAM');
    if (this.#state === before) return false;
    this.#held.clear();
    this.#input('app read reset');
    return true;
  }

  /** We send STOP_SENDING (§3.5). Returns false when there is nothing left to stop (done, reset, or stopped already). */
  stop(): boolean {
    if (this.#stopSent || (this.#state !== 'Recv' && this.#state !== 'Size Known')) return false;
    this.#input('send STOP_SENDING');
    this.#stopSent = true;
    return true;
  }

  receive(chunk: StreamChunk): ReceiveResult {
    this.#input('recv STREAM');
    // Past "Size Known" everything has arrived or the stream was reset: what comes now is discarded.
    if (this.#state !== 'Recv' && this.#state !== 'Size Known') return NOTHING;
    if (chunk.fin && this.#finAt === undefined) {
      this.#finAt = chunk.offset + chunk.data.length;
      this.#input('recv FIN');
    }
    const end = chunk.offset + chunk.data.length;
    if (end > this.#expected) {
      const skip = Math.max(0, this.#expected - chunk.offset);
      const start = chunk.offset + skip;
      const existing = this.#held.get(start);
      if (!existing || existing.length < chunk.data.length - skip) this.#held.set(start, chunk.data.subarray(skip));
    }
    const parts: Uint8Array[] = [];
    for (let next = this.#held.get(this.#expected); next !== undefined; next = this.#held.get(this.#expected)) {
      this.#held.delete(this.#expected);
      parts.push(next);
      this.#expected += next.length;
      // Drop held chunks the delivery has overtaken, keeping any tail beyond the new offset.
      for (const [at, bytes] of [...this.#held]) {
        if (at < this.#expected) {
          this.#held.delete(at);
          if (at + bytes.length > this.#expected && !this.#held.has(this.#expected)) this.#held.set(this.#expected, bytes.subarray(this.#expected - at));
        }
      }
    }
    let fin = false;
    if (this.#state === 'Size Known' && this.#finAt !== undefined && this.#expected >= this.#finAt) {
      this.#input('recv all data');
      // The simulator hands bytes over as they arrive, so the application has read them all now,
      // unless it asked the peer to stop: then nobody reads and the part stays in "Data Recvd".
      if (!this.#stopSent) {
        this.#input('app read data');
        fin = true;
      }
    }
    // After STOP_SENDING the bytes are still counted (to know when all have arrived) but never delivered.
    if (this.#stopSent) return NOTHING;
    const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let pos = 0;
    for (const p of parts) {
      data.set(p, pos);
      pos += p.length;
    }
    const heldBytes = [...this.#held.values()].reduce((n, b) => n + b.length, 0);
    return { data, fin, blocked: heldBytes > 0 ? { waitingFor: this.#expected, heldBytes } : undefined };
  }
}
