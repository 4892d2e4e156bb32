/**
 * The stable error codes of the HTTP/1 engine. Tests and docs key on `code`; each entry carries the status a
 * server would answer with (RFC 9112 asks for 400 in most cases) and, where it applies, whether lenient mode
 * may tolerate it. A response-side problem gets 502: the status a gateway would give its own client.
 */
import { WireError } from '../errors';

export interface CodeInfo {
  readonly status: number;
  /** true: strict:false records it in `tolerated` and carries on. */
  readonly tolerable: boolean;
  readonly rfc: string;
  /** Said beside "tolerated": where tolerating it breaks a rule the RFC makes mandatory for servers. */
  readonly lenientNote?: string;
}

export const HTTP1_ERROR_CODES = Object.freeze({
  'bare-lf': { status: 400, tolerable: true, rfc: 'RFC 9112 §2.2' },
  'bare-cr': { status: 400, tolerable: true, rfc: 'RFC 9112 §2.2' },
  'invalid-request-line': { status: 400, tolerable: false, rfc: 'RFC 9112 §3' },
  'request-line-whitespace': { status: 400, tolerable: true, rfc: 'RFC 9112 §3' },
  'invalid-method': { status: 400, tolerable: false, rfc: 'RFC 9110 §9.1' },
  'invalid-request-target': { status: 400, tolerable: true, rfc: 'RFC 9112 §3.2' },
  'invalid-version': { status: 400, tolerable: false, rfc: 'RFC 9112 §2.3' },
  'unsupported-version': { status: 505, tolerable: false, rfc: 'RFC 9110 §15.6.6' },
  'invalid-status-line': { status: 502, tolerable: false, rfc: 'RFC 9112 §4' },
  'invalid-status-code': { status: 502, tolerable: false, rfc: 'RFC 9110 §15' },
  'whitespace-after-start-line': { status: 400, tolerable: true, rfc: 'RFC 9112 §2.2' },
  'invalid-field-name': { status: 400, tolerable: false, rfc: 'RFC 9110 §5.1' },
  'invalid-field-line': { status: 400, tolerable: false, rfc: 'RFC 9112 §5' },
  'whitespace-before-colon': {
    status: 400,
    tolerable: true,
    rfc: 'RFC 9112 §5.1',
    lenientNote: 'Non-conforming for a server, which MUST reject it with 400; whitespace before the colon is a classic request smuggling vector.',
  },
  'obs-fold': { status: 400, tolerable: true, rfc: 'RFC 9112 §5.2' },
  'invalid-field-value': { status: 400, tolerable: true, rfc: 'RFC 9110 §5.5' },
  'header-section-too-large': { status: 431, tolerable: false, rfc: 'RFC 6585 §5' },
  'missing-host': {
    status: 400,
    tolerable: true,
    rfc: 'RFC 9112 §3.2',
    lenientNote: 'Non-conforming for a server, which MUST answer an HTTP/1.1 request without Host with 400.',
  },
  'duplicate-host': {
    status: 400,
    tolerable: true,
    rfc: 'RFC 9112 §3.2',
    lenientNote: 'Non-conforming for a server, which MUST answer a request with more than one Host field line with 400.',
  },
  'invalid-host': {
    status: 400,
    tolerable: true,
    rfc: 'RFC 9112 §3.2',
    lenientNote: 'Non-conforming for a server, which MUST answer a request whose Host value is invalid with 400.',
  },
  'te-and-cl': { status: 400, tolerable: true, rfc: 'RFC 9112 §6.3' },
  'te-in-http10': {
    status: 400,
    tolerable: true,
    rfc: 'RFC 9112 §6.1',
    lenientNote:
      'Non-conforming for a server or a client, which MUST treat the framing as faulty and close the connection after the message; lenient mode decodes the chunked body.',
  },
  'te-not-chunked-final': { status: 400, tolerable: false, rfc: 'RFC 9112 §6.3' },
  'te-chunked-repeated': { status: 400, tolerable: false, rfc: 'RFC 9112 §6.1' },
  'te-unknown-coding': { status: 501, tolerable: true, rfc: 'RFC 9112 §6.1' },
  'transfer-coding-failed': { status: 400, tolerable: false, rfc: 'RFC 9110 §8.4.1' },
  'invalid-transfer-encoding': { status: 400, tolerable: false, rfc: 'RFC 9112 §6.1' },
  'invalid-content-length': { status: 400, tolerable: false, rfc: 'RFC 9112 §6.3' },
  'conflicting-content-length': { status: 400, tolerable: false, rfc: 'RFC 9112 §6.3' },
  'duplicate-content-length': { status: 400, tolerable: true, rfc: 'RFC 9112 §6.3' },
  'invalid-chunk-size': { status: 400, tolerable: false, rfc: 'RFC 9112 §7.1' },
  'invalid-chunk-ext': { status: 400, tolerable: true, rfc: 'RFC 9112 §7.1.1' },
  'chunk-line-too-long': { status: 400, tolerable: false, rfc: 'RFC 9112 §7.1.1' },
  'missing-chunk-crlf': { status: 400, tolerable: false, rfc: 'RFC 9112 §7.1' },
  'forbidden-trailer-field': { status: 400, tolerable: true, rfc: 'RFC 9110 §6.5.1' },
  'incomplete-message': { status: 400, tolerable: false, rfc: 'RFC 9112 §8' },
  'data-after-close': { status: 400, tolerable: true, rfc: 'RFC 9112 §9.6' },
  'unexpected-response': { status: 502, tolerable: false, rfc: 'RFC 9112 §9.3' },
  'request-target-too-long': { status: 414, tolerable: false, rfc: 'RFC 9112 §3' },
  'content-too-large': { status: 413, tolerable: false, rfc: 'RFC 9110 §15.5.14' },
  'request-timeout': { status: 408, tolerable: false, rfc: 'RFC 9110 §15.5.9' },
} as const satisfies Record<string, CodeInfo>);

export type Http1ErrorCode = keyof typeof HTTP1_ERROR_CODES;

/** A problem lenient mode let through: what strict mode would have rejected, and where. */
export interface Tolerated {
  readonly code: Http1ErrorCode;
  readonly offset: number;
  readonly message: string;
}

/** Where an error happened, for line/column. Supplied by the ReceiveBuffer that owns the bytes. */
export type Locate = (offset: number) => { line: number; column: number };

/**
 * Parse-time context: strictness, where tolerated problems go, and how to locate an offset. `violation` is the
 * single point where strict and lenient part ways.
 */
export class ParseContext {
  readonly tolerated: Tolerated[] = [];
  constructor(
    readonly strict: boolean,
    readonly side: 'request' | 'response',
    readonly locate: Locate,
  ) {}

  fail(code: Http1ErrorCode, offset: number, message: string): never {
    const info: CodeInfo = HTTP1_ERROR_CODES[code];
    const { line, column } = this.locate(offset);
    const statusHint = this.side === 'response' && info.status < 500 ? 502 : info.status;
    throw new WireError({ code, offset, message, side: 'remote', line, column, statusHint });
  }

  /** Strict: fail. Lenient: record and let the caller repair, if the code is tolerable at all. */
  violation(code: Http1ErrorCode, offset: number, message: string): void {
    if (this.strict || !HTTP1_ERROR_CODES[code].tolerable) this.fail(code, offset, message);
    this.tolerated.push(Object.freeze({ code, offset, message }));
  }
}

/** An error in how our caller used the API (sending an event the state forbids, a bad message to serialize). */
export const localError = (code: string, message: string): WireError => new WireError({ code, message, side: 'local' });
