/**
 * Bytes received but not yet parsed. Appending copies once; consuming moves a start offset and the
 * buffer compacts when it has been read past halfway, so feeding one byte at a time stays linear.
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
      const size = Math.max(live + bytes.length, this.buf.length * 2, 1024);
      const next = new Uint8Array(size);
      next.set(this.buf.subarray(this.start, this.end));
      this.buf = next;
      this.start = 0;
      this.end = live;
    }
    this.buf.set(bytes, this.end);
    this.end += bytes.length;
  }

  /** The unread bytes (a view: valid until the next append). */
  view(): Uint8Array {
    return this.buf.subarray(this.start, this.end);
  }

  consume(n: number): void {
    this.start += n;
    if (this.start === this.end) this.start = this.end = 0;
  }
}
