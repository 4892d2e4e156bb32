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
 * Not modelled: flow control (MAX_DATA, MAX_STREAM_DATA, MAX_STREAMS: windows are unlimited), and
 * stream priorities (streams are served round-robin).
 */

export interface StreamChunk {
  readonly streamId: number;
  readonly offset: number;
  readonly data: Uint8Array;
  readonly fin: boolean;
}

/** The sending half: new bytes not yet sent, and lost chunks waiting to be sent again. */
export class SendStream {
  readonly id: number;
  #buffer: Uint8Array = new Uint8Array(0);
  #offset = 0;
  #finQueued = false;
  #finSent = false;
  #resetAt: number | undefined;
  /** The peer asked us to stop (STOP_SENDING) after our FIN went out: reset instead of retransmitting. */
  stopRequested: number | undefined;
  readonly retransmit: StreamChunk[] = [];

  constructor(id: number) {
    this.id = id;
  }

  write(data: Uint8Array, fin: boolean): void {
    if (this.#resetAt !== undefined) throw new Error(`Stream ${this.id} was reset (RESET_STREAM); nothing more can be written.`);
    if (this.#finQueued) throw new Error(`Stream ${this.id} has already ended (FIN); nothing more can be written.`);
    const next = new Uint8Array(this.#buffer.length + data.length);
    next.set(this.#buffer);
    next.set(data, this.#buffer.length);
    this.#buffer = next;
    this.#finQueued = fin;
  }

  get hasData(): boolean {
    return this.retransmit.length > 0 || this.#buffer.length > 0 || (this.#finQueued && !this.#finSent);
  }

  /** The FIN has been sent (state "Data Sent" or later, RFC 9000 §3.1). */
  get finSent(): boolean {
    return this.#finSent;
  }

  /** The final size announced in our RESET_STREAM, or undefined while the stream is not reset. */
  get resetAt(): number | undefined {
    return this.#resetAt;
  }

  /** Queues a lost chunk for sending again, unless the stream was reset meanwhile (RFC 9000 §13.3). */
  requeue(chunk: StreamChunk): void {
    if (this.#resetAt === undefined) this.retransmit.push(chunk);
  }

  /** Abandons the stream ("Reset Sent", §3.1); returns the final size (§4.5). */
  reset(): number {
    if (this.#resetAt !== undefined) return this.#resetAt;
    this.#resetAt = this.#offset;
    this.#buffer = new Uint8Array(0);
    this.retransmit.length = 0;
    this.#finQueued = true;
    this.#finSent = true;
    return this.#resetAt;
  }

  /** Takes up to `max` bytes: a lost chunk first (whole, or split), else new data. */
  take(max: number): StreamChunk | undefined {
    const lost = this.retransmit[0];
    if (lost) {
      if (lost.data.length <= max) return this.retransmit.shift();
      this.retransmit[0] = { ...lost, offset: lost.offset + max, data: lost.data.subarray(max) };
      return { streamId: this.id, offset: lost.offset, data: lost.data.subarray(0, max), fin: false };
    }
    if (this.#buffer.length === 0 && !(this.#finQueued && !this.#finSent)) return undefined;
    const data = this.#buffer.subarray(0, max);
    this.#buffer = this.#buffer.subarray(data.length);
    const fin = this.#finQueued && this.#buffer.length === 0;
    if (fin) this.#finSent = true;
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

/** The receiving half: reassembles chunks that may arrive out of order or twice. */
export class ReceiveStream {
  readonly id: number;
  #expected = 0;
  #finAt: number | undefined;
  #finDelivered = false;
  readonly #held = new Map<number, Uint8Array>();
  #abandoned: 'reset' | 'stopped' | undefined;

  constructor(id: number) {
    this.id = id;
  }

  /** Why nothing more is delivered: the peer reset the stream, or we asked it to stop sending. */
  get abandoned(): 'reset' | 'stopped' | undefined {
    return this.#abandoned;
  }

  /** Every byte up to the FIN has been delivered ("Data Read", RFC 9000 §3.2). */
  get complete(): boolean {
    return this.#finDelivered;
  }

  /** The peer's RESET_STREAM: "Reset Recvd" (RFC 9000 §3.2); held bytes are discarded. */
  reset(): void {
    this.#abandoned = 'reset';
    this.#held.clear();
  }

  /** We sent STOP_SENDING (§3.5): whatever still arrives is discarded. */
  stop(): void {
    this.#abandoned ??= 'stopped';
    this.#held.clear();
  }

  receive(chunk: StreamChunk): ReceiveResult {
    if (this.#abandoned) return { data: new Uint8Array(0), fin: false, blocked: undefined };
    if (chunk.fin) this.#finAt = chunk.offset + chunk.data.length;
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
    const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let pos = 0;
    for (const p of parts) {
      data.set(p, pos);
      pos += p.length;
    }
    const fin = !this.#finDelivered && this.#finAt !== undefined && this.#expected >= this.#finAt;
    if (fin) this.#finDelivered = true;
    const heldBytes = [...this.#held.values()].reduce((n, b) => n + b.length, 0);
    return { data, fin, blocked: heldBytes > 0 ? { waitingFor: this.#expected, heldBytes } : undefined };
  }
}
