/**
 * Bytes received but not yet parsed. Appending copies once; consuming moves a start offset.
 *
 * Bytes once appended are never written over: appends go after the last byte, and when the buffer is
 * full the unread bytes move to a new one, leaving the old one as it was. So a view of `view()` stays
 * valid for good, and the connection hands out frame payloads (DATA, field block fragments) as views
 * of the buffer instead of copying each one; a frame's bytes keep the buffer they came in alive, as a
 * Node Buffer slice does its pool. The new buffer is twice what it must hold, so feeding one byte at
 * a time stays linear.
 */
export class ReceiveBuffer {
  private buf = new Uint8Array(0);
  private start = 0;
  private end = 0;

  get length(): number {
    return this.end - this.start;
  }

  append(bytes: Uint8Array): void {
    if (this.end + bytes.length > this.buf.length) {
      const live = this.end - this.start;
      const next = new Uint8Array(Math.max(2 * (live + bytes.length), MIN_SIZE));
      next.set(this.buf.subarray(this.start, this.end));
      this.buf = next;
      this.start = 0;
      this.end = live;
    }
    this.buf.set(bytes, this.end);
    this.end += bytes.length;
  }

  /** The unread bytes (a view, valid for good: see the header). */
  view(): Uint8Array {
    return this.buf.subarray(this.start, this.end);
  }

  consume(n: number): void {
    this.start += n;
  }
}

/** The smallest buffer worth allocating: a few frame headers' worth of small frames arrive at a time. */
const MIN_SIZE = 1024;
