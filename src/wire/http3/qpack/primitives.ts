/**
 * QPACK's primitives (RFC 9204 §4.1): HPACK's prefixed integers (RFC 7541 §5.1) with prefixes from 3 to 8
 * bits, and string literals whose Huffman flag and length may start mid-byte ("N-bit prefix string
 * literals", §4.1.2). Huffman coding is HPACK's, code table and all (RFC 7541 Appendix B).
 *
 * The reader serves both field sections, which arrive whole in a HEADERS frame, and the encoder and
 * decoder streams, which are unframed and may stop anywhere: there, running out of bytes is not an error
 * but `INCOMPLETE`, and the caller waits for more.
 */
import { huffmanDecodeInto, huffmanEncodedLength, huffmanEncodeInto } from '../../hpack/huffman';
import { ByteWriter, bytesToText } from '../../hpack/primitives';
import { type QpackErrorCode, QpackError, type QpackInput } from './errors';

export type QpackHuffmanMode = 'auto' | 'always' | 'never';

/** §4.1.1: decoders must read integers up to 62 bits; anything longer is refused. */
export const QPACK_MAX_INTEGER = 2 ** 62 - 1;

/** Thrown by a stream reader that ran out of bytes inside an instruction: wait for more, not an error. */
export const INCOMPLETE: unique symbol = Symbol('incomplete');

export class QpackWriter extends ByteWriter {
  /**
   * A string literal whose H flag is `hBit` in the first byte and whose length has a `lengthBits`-bit prefix
   * (an (N-1)-bit prefix of an N-bit prefix string, §4.1.2); `firstByte` carries the bits before it.
   * Returns whether Huffman coding was used ('auto': only when strictly shorter).
   */
  str(octets: string, lengthBits: number, hBit: number, firstByte: number, mode: QpackHuffmanMode): boolean {
    const raw = octets.length;
    const packed = mode === 'never' ? raw : huffmanEncodedLength(octets);
    const huffman = mode === 'always' || (mode === 'auto' && packed < raw);
    const length = huffman ? packed : raw;
    this.integer(length, lengthBits, firstByte | (huffman ? hBit : 0));
    this.ensure(length);
    if (huffman) {
      this.pos = huffmanEncodeInto(octets, this.buf, this.pos);
    } else {
      for (let i = 0; i < raw; i++) this.buf[this.pos++] = octets.charCodeAt(i);
    }
    return huffman;
  }

  /** Takes what was written and starts over. */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.pos);
    this.pos = 0;
    return out;
  }
}

export interface QpackString {
  readonly text: string;
  /** Octets of the decoded string: what table sizes count (§3.2.1). */
  readonly octets: number;
  readonly huffman: boolean;
  /** Byte offsets (in the reader's numbering): the first byte (flag + length), the string bytes, the end. */
  readonly start: number;
  readonly dataStart: number;
  readonly end: number;
}

let scratch = new Uint8Array(1024);

export class QpackReader {
  pos: number;

  /**
   * Reads `buf` from `start`. `base` is added to every reported offset (the stream offset of `buf[0]`);
   * `partial` makes running out of bytes throw `INCOMPLETE` instead of an error.
   */
  constructor(
    readonly buf: Uint8Array,
    readonly code: QpackErrorCode,
    readonly input: QpackInput,
    readonly partial: boolean,
    readonly base = 0,
    readonly streamId?: number,
    start = 0,
  ) {
    this.pos = start;
  }

  fail(message: string, at: number): QpackError {
    return new QpackError(this.code, message, at + this.base, this.input, this.streamId);
  }

  #truncated(what: string, at: number): never {
    if (this.partial) throw INCOMPLETE;
    throw this.fail(`The field section ends inside ${what} (it is ${this.buf.length} bytes long).`, at);
  }

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  /** §4.1.1 / RFC 7541 §5.1: an integer whose first `prefixBits` bits are the low bits of the current byte. */
  integer(prefixBits: number, what = 'an integer'): number {
    const start = this.pos;
    if (start >= this.buf.length) this.#truncated(what, start);
    const max = (1 << prefixBits) - 1;
    let value = this.buf[this.pos++]! & max;
    if (value < max) return value;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.buf.length) this.#truncated(what, start);
      const b = this.buf[this.pos++]!;
      value += (b & 0x7f) * scale;
      if (value > QPACK_MAX_INTEGER) {
        throw this.fail(`${capital(what)} is longer than 62 bits, the most RFC 9204 §4.1.1 asks a decoder to read.`, start);
      }
      if ((b & 0x80) === 0) return value;
      scale *= 128;
    }
  }

  /** §4.1.2: a string literal with its H flag at `hBit` and a `lengthBits`-bit length prefix. */
  string(lengthBits: number, hBit: number, what: string): QpackString {
    const start = this.pos;
    if (start >= this.buf.length) this.#truncated(what, start);
    const huffman = (this.buf[start]! & hBit) !== 0;
    const length = this.integer(lengthBits, `the length of ${what}`);
    const dataStart = this.pos;
    const end = dataStart + length;
    if (end > this.buf.length) {
      if (this.partial) throw INCOMPLETE;
      throw this.fail(`${capital(what)} is ${length} bytes long but only ${this.buf.length - dataStart} remain in the field section.`, start);
    }
    let text: string;
    let octets: number;
    if (huffman) {
      const need = Math.ceil((length * 8) / 5);
      if (scratch.length < need) scratch = new Uint8Array(need * 2);
      try {
        octets = huffmanDecodeInto(this.buf, dataStart, end, scratch);
      } catch (error) {
        const at = typeof (error as { offset?: unknown }).offset === 'number' ? (error as { offset: number }).offset : dataStart;
        throw this.fail(`${capital(what)} is not valid Huffman code: ${(error as Error).message}`, at);
      }
      text = bytesToText(scratch, 0, octets);
    } else {
      octets = length;
      text = bytesToText(this.buf, dataStart, end);
    }
    this.pos = end;
    return { text, octets, huffman, start: start + this.base, dataStart: dataStart + this.base, end: end + this.base };
  }
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The bits of one byte from bit `from` (0 = most significant) for `count` bits, as '0'/'1' text. */
export function bitsOf(byte: number, from: number, count: number): string {
  return byte
    .toString(2)
    .padStart(8, '0')
    .slice(from, from + count);
}
