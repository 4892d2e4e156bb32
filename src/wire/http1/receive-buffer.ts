/**
 * ReceiveBuffer: bytes received but not yet parsed. One growable array with a read cursor, so feeding a byte
 * at a time costs amortized O(1) and the section-end search resumes where it stopped instead of rescanning.
 * It also counts lines, lazily, so errors can say "line 3, column 7" for any stream offset: bytes are only
 * counted when they are about to be discarded or when an error is located, never on the hot path.
 */
const CR = 0x0d;
const LF = 0x0a;

/**
 * Text is decoded in windows of at least this many bytes: one TextDecoder call costs about as much as
 * scanning a few hundred bytes, so pipelined heads share one decode instead of paying one each.
 */
const TEXT_WINDOW = 64 * 1024;
const windows1252 = new TextDecoder('latin1');

export class ReceiveBuffer {
  private bytes: Uint8Array = new Uint8Array(0);
  private start = 0;
  private end = 0;
  /** Stream offset of bytes[start]. */
  private base = 0;
  /** Lines counted in bytes[0..counted) and everything discarded before; lineStart is a stream offset. */
  private linesBefore = 0;
  private lineStart = 0;
  private counted = 0;
  /** Resume point of findSectionEnd, as a stream offset; -1 when no search is in progress. */
  private scanFrom = -1;
  /**
   * Stream offsets of the LFs the section search passed, so the field parser need not look for them again.
   * Only the first `lineCount` entries are valid.
   */
  readonly lineEnds: number[] = [];
  lineCount = 0;
  /** Decoded text of bytes[textBase ..] (array indices); textBase -1 when nothing is cached. */
  private text = '';
  private textBase = -1;
  /** Whether take() has handed out a view of `bytes` since it was last reused: then it must not be written over. */
  private lent = false;

  get length(): number {
    return this.end - this.start;
  }

  /** Stream offset of the first unconsumed byte. */
  get offset(): number {
    return this.base;
  }

  append(data: Uint8Array): void {
    if (data.length === 0) return;
    if (this.start === this.end && !this.lent && data.length <= this.bytes.length) {
      // Everything read was consumed and nobody holds a view of it (a GET has no body to take): the same
      // array takes the next bytes from its start, so a keep-alive connection reading one request at a
      // time allocates nothing here.
      this.countTo(this.start);
      this.bytes.set(data, 0);
      this.start = 0;
      this.end = data.length;
      this.counted = 0;
      this.textBase = -1;
      return;
    }
    if (this.start === this.end && data.length > this.bytes.length) {
      this.countTo(this.start);
      // Adopt a copy in one step: the common whole-buffer case never compacts. Always a plain Uint8Array
      // (a Node Buffer's slice is a view, and its subarrays are slow to make), so take() really copies.
      this.bytes = new Uint8Array(data);
      this.lent = false;
      this.start = 0;
      this.end = data.length;
      this.counted = 0;
      this.textBase = -1;
      return;
    }
    if (this.end + data.length > this.bytes.length) {
      // Always a fresh array, never copyWithin: take() hands out views, which must never change under a
      // reader. Sized from the live data, not the old capacity, so a long connection does not grow forever.
      const live = this.end - this.start;
      const next = new Uint8Array(Math.max((live + data.length) * 2, 256));
      next.set(this.bytes.subarray(this.start, this.end), 0);
      this.countTo(this.start);
      this.bytes = next;
      this.lent = false;
      this.start = 0;
      this.end = live;
      this.counted = 0;
      this.textBase = -1;
    }
    this.bytes.set(data, this.end);
    this.end += data.length;
  }

  /** Byte at stream offset `at` (must be buffered). */
  at(at: number): number {
    return this.bytes[this.start + (at - this.base)]!;
  }

  /** Index-space helpers: the array, and the array index of the first unconsumed byte. */
  get raw(): Uint8Array {
    return this.bytes;
  }
  get rawStart(): number {
    return this.start;
  }
  get rawEnd(): number {
    return this.end;
  }

  /** Stream offset of the next LF at or after `from`, or -1. */
  indexOfLF(from: number): number {
    const i = scanLF(this.bytes, this.start + (from - this.base), this.end);
    return i < 0 ? -1 : i - this.start + this.base;
  }

  /**
   * Stream offset just past the blank line that ends a header or trailer section whose last line break is at
   * or after `from`, or -1 if it has not arrived. A blank line is CRLF, or a bare LF (which the line parser
   * then judges: RFC 9112 §2.2 lets lenient recipients accept it).
   */
  findSectionEnd(from: number): number {
    const resume = this.scanFrom >= from;
    let scan = resume ? this.scanFrom : from;
    if (!resume) this.lineCount = 0;
    const b = this.bytes;
    const delta = this.start - this.base;
    for (;;) {
      const i = this.nextLF(scan + delta);
      if (i < 0) {
        this.scanFrom = Math.max(from, this.end - delta - 1);
        return -1;
      }
      if (this.lineCount === 0 || this.lineEnds[this.lineCount - 1] !== i - delta) this.lineEnds[this.lineCount++] = i - delta;
      if (i + 1 >= this.end) {
        this.scanFrom = i - delta;
        return -1;
      }
      const n = b[i + 1];
      if (n === LF) return this.found(i + 2 - delta);
      if (n === CR) {
        if (i + 2 >= this.end) {
          this.scanFrom = i - delta;
          return -1;
        }
        if (b[i + 2] === LF) return this.found(i + 3 - delta);
      }
      scan = i + 1 - delta;
    }
  }

  /**
   * Raw index of the next LF at or after raw index `i`, or -1. Long unscanned stretches (whole-buffer parsing)
   * use the decoded window's native indexOf; a few new bytes at a time (incremental feeding) are cheaper to
   * scan in place than to decode.
   */
  private nextLF(i: number): number {
    if (this.end - i <= 512) return scanLF(this.bytes, i, this.end);
    const base = this.windowFor(i, i + 512);
    const j = this.text.indexOf('\n', i - base);
    return j >= 0 ? j + base : scanLF(this.bytes, base + this.text.length, this.end);
  }

  private found(at: number): number {
    this.scanFrom = -1;
    return at;
  }

  /** Forget a search in progress (the section it belonged to was abandoned). */
  resetScan(): void {
    this.scanFrom = -1;
  }

  /**
   * `n` bytes from the front, consumed. A view, not a copy: bytes before `end` are never written again (the
   * array is private, appends go after `end`, and compaction moves to a new array).
   */
  take(n: number): Uint8Array {
    const out = this.bytes.subarray(this.start, this.start + n);
    this.lent = true;
    this.consume(n);
    return out;
  }

  /**
   * Drop `n` bytes from the front. Nothing moves: the space is reclaimed by the next append that needs it,
   * which counts the lines of what it discards first.
   */
  consume(n: number): void {
    this.start += n;
    this.base += n;
  }

  /**
   * The bytes raw[from..to) as a string, one char per byte. Only for ranges the caller has checked hold no
   * byte above 0x7F: WHATWG's 'latin1' decoder is windows-1252, which remaps 0x80-0x9F.
   */
  textOf(from: number, to: number): string {
    const at = this.windowFor(from, to);
    return this.text.substring(from - at, to - at);
  }

  /** Makes the decoded window cover raw[from..to) and returns the raw index of its first char. */
  private windowFor(from: number, to: number): number {
    if (this.textBase < 0 || from < this.textBase || to > this.textBase + this.text.length) {
      const stop = Math.min(this.end, Math.max(to, from + TEXT_WINDOW));
      this.text = windows1252.decode(this.bytes.subarray(from, stop));
      this.textBase = from;
    }
    return this.textBase;
  }

  /** Count line breaks in bytes[counted..to), array indices; the stream offset of bytes[i] is i - start + base. */
  private countTo(to: number): void {
    if (to <= this.counted) return;
    const last = lastLF(this.bytes, this.counted, to);
    if (last >= 0) {
      this.linesBefore += countLF(this.bytes, this.counted, to);
      this.lineStart = last - this.start + this.base + 1;
    }
    this.counted = to;
  }

  /** Everything unconsumed, as a copy (it outlives this buffer's use by HTTP/1). */
  rest(): Uint8Array {
    return this.bytes.slice(this.start, this.end);
  }

  /** 1-based line and column of stream offset `at` (at or after the consumed part). */
  locate(at: number): { line: number; column: number } {
    this.countTo(this.start);
    let line = this.linesBefore;
    let lineStart = this.lineStart;
    const stop = this.start + Math.min(at - this.base, this.end - this.start);
    const last = lastLF(this.bytes, this.start, stop);
    if (last >= 0) {
      line += countLF(this.bytes, this.start, stop);
      lineStart = last - this.start + this.base + 1;
    }
    return { line: line + 1, column: at - lineStart + 1 };
  }
}

/** Below this many bytes a loop beats making a subarray for the native search (heads are a few hundred). */
const NATIVE_SCAN = 1024;

const countLF = (b: Uint8Array, from: number, to: number): number => {
  let n = 0;
  if (to - from <= NATIVE_SCAN) {
    for (let i = from; i < to; i++) if (b[i] === LF) n++;
    return n;
  }
  const view = b.subarray(from, to);
  for (let i = view.indexOf(LF); i >= 0; i = view.indexOf(LF, i + 1)) n++;
  return n;
};

const lastLF = (b: Uint8Array, from: number, to: number): number => {
  if (to - from <= NATIVE_SCAN) {
    for (let i = to - 1; i >= from; i--) if (b[i] === LF) return i;
    return -1;
  }
  const i = b.subarray(from, to).lastIndexOf(LF);
  return i < 0 ? -1 : from + i;
};

/**
 * Index of the first LF in b[from..to), or -1. A plain loop: header lines are short, and a call to
 * TypedArray.prototype.indexOf costs more than scanning a few dozen bytes in optimized JavaScript.
 */
export const scanLF = (b: Uint8Array, from: number, to: number): number => {
  for (let i = from; i < to; i++) if (b[i] === LF) return i;
  return -1;
};
