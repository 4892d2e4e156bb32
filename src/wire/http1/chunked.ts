/**
 * Incremental decoder of the chunked transfer coding (RFC 9112 §7.1):
 *
 *   chunked-body = *chunk last-chunk trailer-section CRLF
 *   chunk        = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
 *   chunk-ext    = *( BWS ";" BWS ext-name [ BWS "=" BWS ( token / quoted-string ) ] )
 *
 * Chunk boundaries carry no meaning (RFC 9112 §7.1: intermediaries may re-chunk), so data is handed out as
 * soon as it arrives, not chunk by chunk. Extensions are validated and dropped.
 */
import { HEX_VALUE, TCHAR } from './abnf';
import type { ParseContext } from './codes';
import { type DataEvent, type EndOfMessageEvent, dataEvent } from './events';

const END: EndOfMessageEvent = Object.freeze({ type: 'end-of-message', trailers: Object.freeze([]) });
import { contentEnd, parseFields } from './head';
import type { ReceiveBuffer } from './receive-buffer';

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HTAB = 0x09;

/** 16 hex digits cover any safe integer; more is an overflow attempt (cf. CVE-2018-7159-style length tricks). */
const MAX_SIZE_DIGITS = 16;

/**
 * Trailer fields a recipient must not act on (RFC 9110 §6.5.1): framing, routing, content format,
 * authentication and connection control all have to be known before the content.
 */
const FORBIDDEN_TRAILERS = new Set([
  'transfer-encoding',
  'content-length',
  'host',
  'trailer',
  'content-type',
  'content-encoding',
  'content-range',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'expect',
  'authorization',
  'proxy-authorization',
  'www-authenticate',
  'proxy-authenticate',
  'set-cookie',
  'cookie',
  'cache-control',
  'max-forwards',
  'range',
]);

type Phase = 'size' | 'data' | 'data-crlf' | 'trailers';

export class ChunkedDecoder {
  private phase: Phase = 'size';
  private remaining = 0;
  /** Content announced by the chunk sizes so far. */
  private announced = 0;

  constructor(
    private readonly ctx: ParseContext,
    private readonly maxLineBytes: number,
    private readonly maxTrailerBytes: number,
    /** Largest body accepted: a chunk size that would pass it is refused with 413 before its data is read. */
    private readonly maxBodyBytes = Infinity,
  ) {}

  /** The next data or end-of-message event, or null when more bytes are needed. */
  next(buf: ReceiveBuffer): DataEvent | EndOfMessageEvent | null {
    for (;;) {
      if (buf.length === 0) return null;
      switch (this.phase) {
        case 'size':
          if (!this.readSizeLine(buf)) return null;
          break;
        case 'data': {
          const n = Math.min(this.remaining, buf.length);
          this.remaining -= n;
          if (this.remaining === 0) this.phase = 'data-crlf';
          return dataEvent(buf.take(n));
        }
        case 'data-crlf':
          if (!this.readDataEnd(buf)) return null;
          break;
        case 'trailers':
          return this.readTrailers(buf);
      }
    }
  }

  private readSizeLine(buf: ReceiveBuffer): boolean {
    const start = buf.offset;
    const lf = buf.indexOfLF(start);
    if ((lf < 0 ? buf.length : lf - start) > this.maxLineBytes) {
      this.ctx.fail(
        'chunk-line-too-long',
        start + this.maxLineBytes,
        `A chunk-size line is longer than ${this.maxLineBytes} bytes; chunk extensions that long are an abuse (RFC 9112 §7.1.1).`,
      );
    }
    if (lf < 0) return false;
    const b = buf.raw;
    const toStream = start - buf.rawStart;
    const ls = buf.rawStart;
    const le = contentEnd(b, ls, lf - toStream, this.ctx, toStream);
    let i = ls;
    let size = 0;
    while (i < le && HEX_VALUE[b[i]!]! >= 0) {
      size = size * 16 + HEX_VALUE[b[i]!]!;
      i++;
    }
    if (i === ls || i - ls > MAX_SIZE_DIGITS || size > Number.MAX_SAFE_INTEGER) {
      this.ctx.fail(
        'invalid-chunk-size',
        (i === ls ? i : ls) + toStream,
        'A chunk must start with its size in hex digits, no sign, prefix or leading space, and no more than 16 digits (RFC 9112 §7.1).',
      );
    }
    if (i < le) this.checkExtensions(b, i, le, toStream);
    this.announced += size;
    if (this.announced > this.maxBodyBytes) {
      this.ctx.fail(
        'content-too-large',
        start,
        `The chunks announce ${this.announced} bytes of body, more than the ${this.maxBodyBytes} this server accepts; it answers 413 (Content Too Large, RFC 9110 §15.5.14).`,
      );
    }
    buf.consume(lf - start + 1);
    if (size === 0) {
      this.phase = 'trailers';
    } else {
      this.remaining = size;
      this.phase = 'data';
    }
    return true;
  }

  /** chunk-ext after the size, scanned by hand: a regex cannot say where it went wrong. */
  private checkExtensions(b: Uint8Array, i: number, le: number, toStream: number): void {
    const bad = (at: number, why: string): void => {
      this.ctx.violation('invalid-chunk-ext', at + toStream, `Malformed chunk extension: ${why} (RFC 9112 §7.1.1); send "size;name=value" or no extension.`);
    };
    const ws = () => {
      while (i < le && (b[i] === SP || b[i] === HTAB)) i++;
    };
    if (b[i] !== SP && b[i] !== HTAB && b[i] !== 0x3b) {
      this.ctx.fail('invalid-chunk-size', i + toStream, 'The chunk size is followed by something that is neither ";" nor whitespace (RFC 9112 §7.1).');
    }
    for (let j = i; j < le; j++) {
      const c = b[j]!;
      if (c === CR) this.ctx.violation('bare-cr', j + toStream, 'Found a bare CR in a chunk-size line (RFC 9112 §2.2).');
      else if ((c < 0x20 && c !== HTAB) || c === 0x7f) return bad(j, 'control character');
    }
    while (i < le) {
      ws();
      if (b[i] !== 0x3b) return bad(i, 'expected ";"');
      i++;
      ws();
      const ns = i;
      while (i < le && TCHAR[b[i]!] === 1) i++;
      if (i === ns) return bad(i, 'empty extension name');
      ws();
      if (i < le && b[i] === 0x3d) {
        i++;
        ws();
        if (b[i] === 0x22) {
          i++;
          while (i < le && b[i] !== 0x22) i += b[i] === 0x5c ? 2 : 1;
          if (i >= le) return bad(le, 'unterminated quoted string');
          i++;
        } else {
          const vs = i;
          while (i < le && TCHAR[b[i]!] === 1) i++;
          if (i === vs) return bad(i, 'empty extension value');
        }
      }
    }
  }

  private readDataEnd(buf: ReceiveBuffer): boolean {
    const at = buf.offset;
    const first = buf.at(at);
    if (first === LF) {
      this.ctx.violation('bare-lf', at, 'Chunk data must be followed by CRLF, not a bare LF (RFC 9112 §7.1).');
      buf.consume(1);
    } else if (first === CR) {
      if (buf.length < 2) return false;
      if (buf.at(at + 1) !== LF)
        this.ctx.fail('missing-chunk-crlf', at + 1, 'Chunk data must be followed by CRLF (RFC 9112 §7.1); the chunk size does not match the data.');
      buf.consume(2);
    } else {
      this.ctx.fail('missing-chunk-crlf', at, 'Chunk data must be followed by CRLF (RFC 9112 §7.1); the chunk size does not match the data.');
    }
    this.phase = 'size';
    return true;
  }

  private readTrailers(buf: ReceiveBuffer): EndOfMessageEvent | null {
    const start = buf.offset;
    const first = buf.at(start);
    if (first === LF || first === CR) {
      if (first === CR && buf.length < 2) return null;
      if (first === LF || buf.at(start + 1) === LF) {
        if (first === LF) this.ctx.violation('bare-lf', start, 'The chunked body must end with CRLF, not a bare LF (RFC 9112 §7.1).');
        buf.consume(first === LF ? 1 : 2);
        return END;
      }
    }
    const end = buf.findSectionEnd(start);
    if ((end < 0 ? buf.length : end - start) > this.maxTrailerBytes) {
      this.ctx.fail('header-section-too-large', start + this.maxTrailerBytes, `The trailer section is larger than ${this.maxTrailerBytes} bytes.`);
    }
    if (end < 0) return null;
    const toStream = start - buf.rawStart;
    const { headers } = parseFields(buf.raw, buf.rawStart, end - toStream, this.ctx, toStream, buf, buf.lineEnds, buf.lineCount, 0);
    for (const h of headers) {
      if (FORBIDDEN_TRAILERS.has(h.name.toLowerCase())) {
        this.ctx.violation(
          'forbidden-trailer-field',
          start,
          `${h.name} cannot be sent as a trailer field (RFC 9110 §6.5.1): it must be known before the content.`,
        );
      }
    }
    buf.consume(end - start);
    return { type: 'end-of-message', trailers: headers };
  }
}
