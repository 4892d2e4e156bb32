/**
 * Per-stream buffers of a QUIC connection (RFC 9000 §2-3): what is left to send on each stream, and
 * reassembly of what arrives.
 *
 * This is where QUIC differs from TCP for HTTP: every stream has its own byte offsets and its own
 * reassembly buffer. A lost packet leaves a gap only in the streams whose data it carried; the other
 * streams' bytes are delivered as soon as they arrive. Over TCP, one gap holds back every byte behind
 * it, whichever request it belongs to (head-of-line blocking, see net/tcp.ts).
 *
 * Not modelled: flow control (MAX_DATA, MAX_STREAM_DATA, MAX_STREAMS: windows are unlimited),
 * RESET_STREAM and STOP_SENDING, and stream priorities (streams are served round-robin).
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
  readonly retransmit: StreamChunk[] = [];

  constructor(id: number) {
    this.id = id;
  }

  write(data: Uint8Array, fin: boolean): void {
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

  constructor(id: number) {
    this.id = id;
  }

  receive(chunk: StreamChunk): ReceiveResult {
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
