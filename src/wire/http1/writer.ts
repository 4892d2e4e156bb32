/**
 * Http1Writer: the sending half. Turns events into bytes and checks, as it goes, that the body agrees with
 * the framing the head announced: a sender that writes 10 bytes after "Content-Length: 5" is the one that
 * would start a smuggling incident, so that is a local error, not a silent truncation.
 */
import { concatBytes as concat } from '../bytes';
import { latin1Bytes } from './abnf';
import { localError } from './codes';
import { sameFieldName } from '../data/headers';
import { type EndOfMessageEvent, type Header, type InformationalEvent, type RequestEvent, type ResponseEvent, fieldTokens } from './events';
import { type BodyFraming, CHUNKED, CLOSE, MAX_CL_DIGITS, NONE, TUNNEL } from './framing';

const CRLF = '\r\n';
/** What an end of message without chunked framing sends: nothing (one shared empty array; it has no bytes to change). */
const NO_BYTES = new Uint8Array(0);

/** 1*DIGIT, at most MAX_CL_DIGITS: a Content-Length this side will send (RFC 9110 §8.6), exact as a number. */
const isLength = (s: string): boolean => {
  if (s.length === 0 || s.length > MAX_CL_DIGITS) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
};

/** Framing of a message we are about to send, from its own header fields (RFC 9112 §6.3, sender side). */
export const senderFraming = (head: RequestEvent | ResponseEvent, requestMethod?: string): BodyFraming => {
  // One pass finds both fields; the tokens are split out only when Transfer-Encoding is there at all.
  let hasTE = false;
  let cl: string | undefined;
  let clLines = 0;
  for (const h of head.headers) {
    if (sameFieldName(h.name, 'content-length')) {
      cl = h.value;
      clLines++;
    } else if (!hasTE && sameFieldName(h.name, 'transfer-encoding')) hasTE = true;
  }
  const te = hasTE ? fieldTokens(head.headers, 'transfer-encoding') : [];
  if (head.type === 'response') {
    if (requestMethod === 'HEAD' || head.status === 204 || head.status === 304) return NONE;
    if (requestMethod === 'CONNECT' && head.status < 300) return TUNNEL;
  }
  if (head.version === '0.9') return head.type === 'response' ? CLOSE : NONE;
  if (te.length > 0 && clLines > 0) throw localError('ambiguous-framing', 'Send Transfer-Encoding or Content-Length, never both (RFC 9112 §6.2).');
  if (te.length > 0) {
    if (head.version === '1.0') throw localError('ambiguous-framing', 'HTTP/1.0 messages cannot use Transfer-Encoding (RFC 9112 §6.1); use Content-Length.');
    if (te[te.length - 1] === 'chunked') return CHUNKED;
    if (head.type === 'request') throw localError('ambiguous-framing', 'A request with Transfer-Encoding must end it with chunked (RFC 9112 §6.1).');
    return CLOSE;
  }
  if (cl !== undefined) {
    if (clLines > 1 || !isLength(cl)) throw localError('ambiguous-framing', 'Send exactly one Content-Length holding a decimal number (RFC 9110 §8.6).');
    return { kind: 'content-length', length: Number(cl) };
  }
  return head.type === 'request' ? NONE : CLOSE;
};

const headerBytes = (headers: readonly Header[]): number => {
  let n = 0;
  for (const h of headers) n += h.name.length + h.value.length + 4;
  return n;
};

const writeHeaders = (out: Uint8Array, at: number, headers: readonly Header[]): number => {
  for (const h of headers) {
    at = latin1Bytes(h.name, out, at);
    out[at++] = 0x3a;
    out[at++] = 0x20;
    at = latin1Bytes(h.value, out, at);
    out[at++] = 0x0d;
    out[at++] = 0x0a;
  }
  return at;
};

/** Bytes of a start line plus header section. HTTP/0.9 responses have none; 0.9 requests are one line. */
/** Where a head's bytes are allocated: a new array each by default (Http1ConnectionOptions.allocate). */
export type ByteAllocator = (size: number) => Uint8Array;
const newBytes: ByteAllocator = (size) => new Uint8Array(size);

export const encodeHead = (head: RequestEvent | ResponseEvent | InformationalEvent, allocate: ByteAllocator = newBytes): Uint8Array => {
  let start: string;
  if (head.type === 'request') {
    start = head.version === '0.9' ? `${head.method} ${head.target}${CRLF}` : `${head.method} ${head.target} HTTP/${head.version}${CRLF}`;
    if (head.version === '0.9') return ascii(start);
  } else {
    if (head.version === '0.9') {
      if (head.status !== 200 || head.headers.length > 0)
        throw localError('invalid-message', 'An HTTP/0.9 response is only a body: it cannot carry a status other than 200 or header fields.');
      return new Uint8Array(0);
    }
    const status = head.status;
    if (Number.isInteger(status) && status >= 100 && status <= 999) {
      // The common case written straight into the output, without building the start line as a string.
      // RFC 9112 §4: "HTTP/" version SP 3DIGIT SP reason-phrase CRLF; the SP before the reason phrase is
      // sent even when the phrase is empty.
      const out = allocate(5 + head.version.length + 5 + head.reason.length + 2 + headerBytes(head.headers) + 2);
      out[0] = 0x48; // H
      out[1] = 0x54; // T
      out[2] = 0x54; // T
      out[3] = 0x50; // P
      out[4] = 0x2f; // /
      let at = latin1Bytes(head.version, out, 5);
      out[at++] = 0x20;
      out[at++] = 0x30 + Math.floor(status / 100);
      out[at++] = 0x30 + (Math.floor(status / 10) % 10);
      out[at++] = 0x30 + (status % 10);
      out[at++] = 0x20;
      at = latin1Bytes(head.reason, out, at);
      out[at++] = 0x0d;
      out[at++] = 0x0a;
      at = writeHeaders(out, at, head.headers);
      out[at++] = 0x0d;
      out[at] = 0x0a;
      return out;
    }
    // RFC 9112 §4: the SP before the reason phrase is sent even when the phrase is empty.
    start = `HTTP/${head.version} ${head.status} ${head.reason}${CRLF}`;
  }
  const out = allocate(start.length + headerBytes(head.headers) + 2);
  let at = latin1Bytes(start, out, 0);
  at = writeHeaders(out, at, head.headers);
  out[at++] = 0x0d;
  out[at] = 0x0a;
  return out;
};

const ascii = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length);
  latin1Bytes(s, out, 0);
  return out;
};

export class Http1Writer {
  constructor(private readonly allocate: ByteAllocator = newBytes) {}

  private framing: BodyFraming = NONE;
  private remaining = 0;

  /** The framing of the message being written (for the connection's keep-alive decision). */
  get currentFraming(): BodyFraming {
    return this.framing;
  }

  head(ev: RequestEvent | ResponseEvent | InformationalEvent, requestMethod?: string): Uint8Array {
    const bytes = encodeHead(ev, this.allocate);
    if (ev.type !== 'informational') {
      this.framing = senderFraming(ev, requestMethod);
      this.remaining = this.framing.kind === 'content-length' ? this.framing.length : 0;
    }
    return bytes;
  }

  data(data: Uint8Array): Uint8Array {
    switch (this.framing.kind) {
      case 'none':
      case 'tunnel':
        if (data.length === 0) return data;
        throw localError(
          'body-not-allowed',
          'This message has no body (RFC 9112 §6.3: HEAD, 1xx, 204, 304, CONNECT, or a request without Content-Length/Transfer-Encoding).',
        );
      case 'content-length':
        if (data.length > this.remaining)
          throw localError(
            'content-length-mismatch',
            `Content-Length allows ${this.remaining} more bytes but ${data.length} were sent; fix the header or the body.`,
          );
        this.remaining -= data.length;
        return data;
      case 'chunked':
        if (data.length === 0) return data; // a zero-size chunk would end the body (RFC 9112 §7.1)
        return concat([ascii(`${data.length.toString(16)}${CRLF}`), data, ascii(CRLF)]);
      case 'close':
        return data;
    }
  }

  end(ev: EndOfMessageEvent): Uint8Array {
    if (ev.trailers.length > 0 && this.framing.kind !== 'chunked')
      throw localError('trailers-not-allowed', 'Trailer fields need the chunked transfer coding (RFC 9112 §7.1.2).');
    if (this.framing.kind === 'content-length' && this.remaining !== 0) {
      throw localError('content-length-mismatch', `The body ended ${this.remaining} bytes short of its Content-Length; send the rest or fix the header.`);
    }
    if (this.framing.kind !== 'chunked') return NO_BYTES;
    const out = new Uint8Array(3 + headerBytes(ev.trailers) + 2);
    out.set([0x30, 0x0d, 0x0a]);
    let at = writeHeaders(out, 3, ev.trailers);
    out[at++] = 0x0d;
    out[at] = 0x0a;
    return out;
  }
}

export { concat as concatBytes };
