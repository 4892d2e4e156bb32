/**
 * HPACK primitive types (RFC 7541 §5): prefixed integers and string literals, plus the growable byte
 * buffer the encoder writes into and the octet-string helpers both sides share.
 */
import { compressionError } from './errors';
import { huffmanDecodeInto, huffmanEncodeInto, huffmanEncodedLength } from './huffman';

/**
 * Largest integer the decoder accepts. RFC 7541 §5.1 allows any size and leaves the limit to the
 * implementation; nothing in HTTP/2 (table sizes, string lengths) needs more than 32 bits, and an
 * attacker-supplied run of continuation bytes must not grow a number without bound.
 */
export const MAX_HPACK_INTEGER = 0xffff_ffff;

/** Growable output buffer. */
export class ByteWriter {
  buf: Uint8Array;
  pos = 0;

  constructor(initial = 256) {
    this.buf = new Uint8Array(initial);
  }

  ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** RFC 7541 §5.1: `value` with an N-bit prefix; `firstByte` carries the representation's pattern bits. */
  integer(value: number, prefixBits: number, firstByte: number): void {
    this.ensure(6);
    const max = (1 << prefixBits) - 1;
    if (value < max) {
      this.buf[this.pos++] = firstByte | value;
      return;
    }
    this.buf[this.pos++] = firstByte | max;
    let rest = value - max;
    while (rest >= 128) {
      this.buf[this.pos++] = (rest % 128) | 0x80;
      rest = Math.floor(rest / 128);
    }
    this.buf[this.pos++] = rest;
  }

  /**
   * RFC 7541 §5.2: a string literal (H bit, 7-bit-prefix length, octets). `octets` is a byte string.
   * Returns whether Huffman was used.
   */
  string(octets: string, huffman: 'auto' | 'always' | 'never'): boolean {
    const raw = octets.length;
    const packed = huffman === 'never' ? raw : huffmanEncodedLength(octets);
    // 'auto': Huffman only when strictly shorter, as nghttp2 does (a tie gains nothing and costs CPU).
    const useHuffman = huffman === 'always' || (huffman === 'auto' && packed < raw);
    const len = useHuffman ? packed : raw;
    this.integer(len, 7, useHuffman ? 0x80 : 0);
    this.ensure(len);
    if (useHuffman) {
      this.pos = huffmanEncodeInto(octets, this.buf, this.pos);
    } else {
      for (let i = 0; i < raw; i++) this.buf[this.pos++] = octets.charCodeAt(i);
    }
    return useHuffman;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

/** Cursor-based reader over one header block; throws COMPRESSION_ERROR with the offending offset. */
export class ByteReader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  integer(prefixBits: number): number {
    const start = this.pos;
    const max = (1 << prefixBits) - 1;
    let value = this.buf[this.pos++]! & max;
    if (value < max) return value;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.buf.length) {
        throw compressionError('Header block ends inside an integer (RFC 7541 §5.1).', start);
      }
      const b = this.buf[this.pos++]!;
      value += (b & 0x7f) * scale;
      if (value > MAX_HPACK_INTEGER) {
        throw compressionError(`Integer exceeds the decoder limit of ${MAX_HPACK_INTEGER} (RFC 7541 §5.1 leaves the limit to implementations).`, start);
      }
      if ((b & 0x80) === 0) return value;
      scale *= 128;
    }
  }

  /**
   * Reads a string literal and returns it as text (octets read as UTF-8). `out` receives whether it
   * was Huffman-coded and its length in octets, which is what table sizes count (RFC 7541 §4.1).
   */
  string(out: { huffman: boolean; octets: number }): string {
    const start = this.pos;
    if (this.pos >= this.buf.length) throw compressionError('Header block ends before a string literal.', start);
    const huffman = (this.buf[this.pos]! & 0x80) !== 0;
    const len = this.integer(7);
    const end = this.pos + len;
    if (end > this.buf.length) {
      throw compressionError(`String literal of ${len} bytes runs past the end of the header block.`, start);
    }
    out.huffman = huffman;
    let text: string;
    if (huffman) {
      const tmp = scratchFor(Math.ceil((len * 8) / 5));
      const n = huffmanDecodeInto(this.buf, this.pos, end, tmp);
      text = bytesToText(tmp, 0, n);
      out.octets = n;
    } else {
      text = bytesToText(this.buf, this.pos, end);
      out.octets = len;
    }
    this.pos = end;
    return text;
  }
}

let scratchBuf = new Uint8Array(1024);
function scratchFor(size: number): Uint8Array {
  if (scratchBuf.length < size) scratchBuf = new Uint8Array(size * 2);
  return scratchBuf;
}

/** Octets -> byte string (one char per octet). */
export function octetsToString(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 24) {
    // Short strings: a loop beats creating a subarray view for `apply`.
    let s = '';
    for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
    return s;
  }
  let s = '';
  for (let i = start; i < end; i += 4096) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 4096)) as unknown as number[]);
  }
  return s;
}

/** Octets -> text, reading them as UTF-8; ASCII (nearly every header) takes the fast path. */
export function bytesToText(bytes: Uint8Array, start: number, end: number): string {
  for (let i = start; i < end; i++) {
    if (bytes[i]! >= 0x80) return utf8Decoder.decode(bytes.subarray(start, end));
  }
  return octetsToString(bytes, start, end);
}

const utf8Encoder = new TextEncoder();
// Invalid UTF-8 is replaced with U+FFFD for display; the table still counts the octets received.
const utf8Decoder = new TextDecoder();

/** Text -> byte string of its UTF-8 octets. ASCII, by far the common case, passes through unchanged. */
export function textToOctets(text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      const bytes = utf8Encoder.encode(text);
      return octetsToString(bytes, 0, bytes.length);
    }
  }
  return text;
}

/** Length of `text` in UTF-8 octets. */
export function octetLength(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) return utf8Encoder.encode(text).length;
  }
  return text.length;
}
