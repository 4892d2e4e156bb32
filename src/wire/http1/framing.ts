/**
 * Message body length, RFC 9112 §6.3, step by step, plus the request checks of §3.2 (Host) and §6.1
 * (Transfer-Encoding). This is where request smuggling is stopped: every ambiguity between two framings is
 * an error in strict mode, and in lenient mode the RFC's tie-break is applied and the ambiguity recorded.
 */
import type { ParseContext } from './codes';
import type { FieldFacts } from './head';
import type { Header, Http1Version } from './events';
import { fieldTokens, fieldValues } from './events';
import { DECODABLE_TRANSFER_CODINGS } from './codings';

/**
 * `codings`: transfer codings other than chunked still applied to the body, in the order they were applied
 * (RFC 9112 §6.1), when there are any: the reader marks the body's data events with them, and
 * decodeTransferCodings (codings.ts) undoes them.
 */
export type BodyFraming =
  | { readonly kind: 'none' }
  | { readonly kind: 'content-length'; readonly length: number }
  | { readonly kind: 'chunked'; readonly codings?: readonly string[] }
  /** Read until the connection closes (responses only). */
  | { readonly kind: 'close'; readonly codings?: readonly string[] }
  /** No HTTP body: after this head the connection carries another protocol (2xx to CONNECT, 101). */
  | { readonly kind: 'tunnel' };

/** The framings without a length or codings are the same every time: one shared value each (the writer's too). */
export const NONE: BodyFraming = Object.freeze({ kind: 'none' });
export const CHUNKED: BodyFraming = Object.freeze({ kind: 'chunked' });
export const CLOSE: BodyFraming = Object.freeze({ kind: 'close' });
export const TUNNEL: BodyFraming = Object.freeze({ kind: 'tunnel' });

/**
 * Transfer codings a request may use here: chunked, and those decodeTransferCodings can undo with the
 * platform's DecompressionStream (RFC 9110 §8.4.1; x-gzip is gzip's registered alias). compress (LZW) has no
 * decoder on the web platform, so a request using it is answered 501 like any other unknown coding.
 */
const REQUEST_CODINGS = new Set(['chunked', ...DECODABLE_TRANSFER_CODINGS]);

/** Largest Content-Length we accept: Number.MAX_SAFE_INTEGER has 16 digits; anything longer cannot be exact. */
export const MAX_CL_DIGITS = 15;

export interface FramingInput {
  readonly version: Http1Version;
  readonly facts: FieldFacts;
  /** Stream offset of the start line, for errors that concern the whole head. */
  readonly offset: number;
}

/**
 * Step 3 and 4: a Transfer-Encoding list. Returns the framing: chunked when chunked is the final coding, else
 * (responses only) read until close; either with the other codings, which the body still carries.
 */
const transferCodings = (facts: FieldFacts, isRequest: boolean, ctx: ParseContext): BodyFraming => {
  const offset = facts.transferEncoding[0]!.offset;
  // The common case, one line saying exactly "chunked", needs none of the list handling below.
  if (facts.transferEncoding.length === 1 && facts.transferEncoding[0]!.value.toLowerCase() === 'chunked') return CHUNKED;
  const codings: string[] = [];
  for (const line of facts.transferEncoding) {
    for (const raw of line.value.split(',')) {
      const c = raw.trim().toLowerCase();
      if (c.length === 0) continue;
      const name = c.split(';')[0]!.trim();
      if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(name)) {
        ctx.fail(
          'invalid-transfer-encoding',
          line.offset,
          `Transfer-Encoding holds ${JSON.stringify(raw.trim())}, which is not a transfer coding (RFC 9112 §6.1).`,
        );
      }
      if (name === 'chunked' && c !== 'chunked') {
        ctx.fail('invalid-transfer-encoding', line.offset, 'The chunked transfer coding takes no parameters (RFC 9112 §7.1); send exactly "chunked".');
      }
      codings.push(name);
    }
  }
  if (codings.length === 0) ctx.fail('invalid-transfer-encoding', offset, 'Transfer-Encoding is present but empty (RFC 9112 §6.1).');
  const chunkedCount = codings.filter((c) => c === 'chunked').length;
  if (chunkedCount > 1)
    ctx.fail('te-chunked-repeated', offset, 'chunked appears more than once in Transfer-Encoding (RFC 9112 §6.1 forbids applying it twice).');
  const final = codings[codings.length - 1] === 'chunked';
  if (isRequest) {
    // RFC 9112 §6.1: a sender applies chunked last. A response that does not is read until close (§6.3 step 4).
    if (chunkedCount === 1 && !final) ctx.fail('te-chunked-repeated', offset, 'chunked must be the last transfer coding when present (RFC 9112 §6.1).');
    // RFC 9112 §6.3 step 4: a request whose final coding is not chunked has no determinable length: the server
    // MUST answer 400 and close. That MUST comes before §6.1's SHOULD (501 for an unknown coding).
    if (!final)
      ctx.fail(
        'te-not-chunked-final',
        offset,
        'A request with Transfer-Encoding must end it with chunked (RFC 9112 §6.3); otherwise its length cannot be known.',
      );
    for (const c of codings) {
      if (!REQUEST_CODINGS.has(c))
        ctx.violation('te-unknown-coding', offset, `The transfer coding "${c}" is not implemented; a server answers 501 (RFC 9112 §6.1).`);
    }
  }
  if (final) return codings.length === 1 ? CHUNKED : { kind: 'chunked', codings: Object.freeze(codings.slice(0, -1)) };
  return { kind: 'close', codings: Object.freeze(codings) };
};

/** Step 5: one valid Content-Length out of possibly many lines and list members. */
const contentLength = (facts: FieldFacts, ctx: ParseContext): number => {
  if (facts.contentLength.length === 1) {
    const v = facts.contentLength[0]!.value;
    let n = 0;
    let i = 0;
    for (; i < v.length && i < MAX_CL_DIGITS; i++) {
      const d = v.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    if (i === v.length && i > 0) return n; // plain digits: the common case
  }
  let value: string | undefined;
  let count = 0;
  for (const line of facts.contentLength) {
    for (const raw of line.value.split(',')) {
      const v = raw.trim();
      count++;
      if (!/^[0-9]+$/.test(v) || v.length > MAX_CL_DIGITS) {
        ctx.fail(
          'invalid-content-length',
          line.offset,
          `Content-Length ${JSON.stringify(line.value)} is not a decimal number of octets (RFC 9110 §8.6); no sign, spaces or hex.`,
        );
      }
      if (value !== undefined && Number(v) !== Number(value)) {
        ctx.fail('conflicting-content-length', line.offset, `Content-Length says both ${value} and ${v} (RFC 9112 §6.3 step 5); a message has one length.`);
      }
      value = v;
    }
  }
  if (value === undefined) ctx.fail('invalid-content-length', facts.contentLength[0]!.offset, 'Content-Length is empty (RFC 9110 §8.6).');
  if (count > 1) {
    ctx.violation(
      'duplicate-content-length',
      facts.contentLength[0]!.offset,
      'Content-Length is repeated; even equal copies are a smuggling hint (RFC 9112 §6.3 step 5). Send it once.',
    );
  }
  return Number(value);
};

/**
 * Strict mode's judgement of one Content-Length line as soon as it is read (RFC 9112 §6.3 step 5): its
 * value must be a decimal length, or a list of equal ones, and no earlier line may have given a length.
 * `earlier` holds the lines before it.
 */
export const checkContentLengthLine = (earlier: readonly { value: string; offset: number }[], value: string, offset: number, ctx: ParseContext): void => {
  if (earlier.length === 0 && value.length > 0 && value.length <= MAX_CL_DIGITS) {
    let i = 0;
    while (i < value.length && value.charCodeAt(i) >= 0x30 && value.charCodeAt(i) <= 0x39) i++;
    if (i === value.length) return; // one plain length: the common case
  }
  let members = 0;
  let first: string | undefined;
  for (const raw of value.split(',')) {
    const v = raw.trim();
    members++;
    if (!/^[0-9]+$/.test(v) || v.length > MAX_CL_DIGITS) {
      ctx.fail(
        'invalid-content-length',
        offset,
        `Content-Length ${JSON.stringify(value)} is not a decimal number of octets (RFC 9110 §8.6); no sign, spaces or hex.`,
      );
    }
    const before = first ?? (earlier.length > 0 ? earlier[0]!.value.split(',')[0]!.trim() : undefined);
    if (before !== undefined && Number(v) !== Number(before))
      ctx.fail('conflicting-content-length', offset, `Content-Length says both ${before} and ${v} (RFC 9112 §6.3 step 5); a message has one length.`);
    first ??= v;
  }
  if (members > 1 || earlier.length > 0)
    ctx.violation(
      'duplicate-content-length',
      offset,
      'Content-Length is repeated; even equal copies are a smuggling hint (RFC 9112 §6.3 step 5). Send it once.',
    );
};

/** Framing of a request (RFC 9112 §6.3 steps 3-6), after the Host checks of §3.2. */
export const requestFraming = (head: FramingInput, ctx: ParseContext): BodyFraming => {
  const { facts, version } = head;
  checkHost(head, ctx);
  const hasTE = facts.transferEncoding.length > 0;
  const hasCL = facts.contentLength.length > 0;
  if (hasTE) {
    if (hasCL)
      ctx.violation(
        'te-and-cl',
        facts.contentLength[0]!.offset,
        'A message with both Transfer-Encoding and Content-Length is a request smuggling attempt (RFC 9112 §6.3 step 3); send only one.',
      );
    if (version === '1.0')
      ctx.violation('te-in-http10', facts.transferEncoding[0]!.offset, 'An HTTP/1.0 message cannot use Transfer-Encoding (RFC 9112 §6.1); use Content-Length.');
    return transferCodings(facts, true, ctx);
  }
  if (hasCL) {
    const length = contentLength(facts, ctx);
    return length === 0 ? NONE : { kind: 'content-length', length };
  }
  return NONE; // step 6: a request without either has no content.
};

/**
 * Framing of a response (RFC 9112 §6.3 steps 1-7). `requestMethod` is the method of the request it
 * answers (undefined when unknown, e.g. parsing a capture).
 */
export const responseFraming = (head: FramingInput & { status: number }, requestMethod: string | undefined, ctx: ParseContext): BodyFraming => {
  const { facts, version, status } = head;
  // Step 1: HEAD, 1xx, 204 and 304 responses end with their header section, whatever the fields say.
  if (requestMethod === 'HEAD' || status < 200 || status === 204 || status === 304) return NONE;
  // Step 2: a 2xx answer to CONNECT turns the connection into a tunnel.
  if (requestMethod === 'CONNECT' && status < 300) return TUNNEL;
  const hasTE = facts.transferEncoding.length > 0;
  const hasCL = facts.contentLength.length > 0;
  if (hasTE) {
    if (hasCL)
      ctx.violation(
        'te-and-cl',
        facts.contentLength[0]!.offset,
        'A response with both Transfer-Encoding and Content-Length is ambiguous (RFC 9112 §6.3 step 3); send only one.',
      );
    if (version === '1.0')
      ctx.violation('te-in-http10', facts.transferEncoding[0]!.offset, 'An HTTP/1.0 message cannot use Transfer-Encoding (RFC 9112 §6.1); use Content-Length.');
    // Step 4: chunked last means chunked; any other final coding is read until close.
    return transferCodings(facts, false, ctx);
  }
  if (hasCL) return { kind: 'content-length', length: contentLength(facts, ctx) };
  return CLOSE; // step 7
};

/** RFC 9112 §3.2: exactly one Host in HTTP/1.1, never more than one in any version, and a valid value. */
const checkHost = (head: FramingInput, ctx: ParseContext): void => {
  const { host } = head.facts;
  if (host.length === 0) {
    if (head.version === '1.1')
      ctx.violation('missing-host', head.offset, 'An HTTP/1.1 request must carry a Host header field (RFC 9112 §3.2); add "Host: <authority>".');
    return;
  }
  if (host.length > 1)
    ctx.violation('duplicate-host', host[1]!.offset, 'A request must not carry more than one Host field line (RFC 9112 §3.2); send exactly one.');
  const v = host[0]!.value;
  // uri-host [ ":" port ]: an IP-literal in brackets or a reg-name (RFC 3986 §3.2.2); empty is allowed.
  if (v !== '' && !isRegNameWithPort(v) && !/^\[[0-9A-Fa-f:.vV]+\](:[0-9]*)?$/.test(v)) {
    ctx.violation('invalid-host', host[0]!.offset, `Host ${JSON.stringify(v)} is not host[:port] (RFC 9112 §3.2, RFC 3986 §3.2.2).`);
  }
};

/** reg-name chars (unreserved, pct-encoded, sub-delims; RFC 3986 §3.2.2), by char code. */
const REG_NAME = (() => {
  const t = new Uint8Array(128);
  for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=%") t[c.charCodeAt(0)] = 1;
  return t;
})();

/** host = reg-name, then optionally ":" and digits. A loop instead of a regex: it runs on every request. */
const isRegNameWithPort = (v: string): boolean => {
  let i = 0;
  while (i < v.length && v.charCodeAt(i) < 128 && REG_NAME[v.charCodeAt(i)] === 1) i++;
  if (i === 0) return false;
  if (i === v.length) return true;
  if (v.charCodeAt(i) !== 0x3a) return false;
  for (i++; i < v.length; i++) if (v.charCodeAt(i) < 0x30 || v.charCodeAt(i) > 0x39) return false;
  return true;
};

/**
 * Whether the connection may carry another message after this one (RFC 9112 §9.3): HTTP/1.1 persists unless
 * "close"; HTTP/1.0 closes unless "keep-alive" (RFC 2068 §19.7.1); HTTP/0.9 always closes.
 */
export const isPersistent = (version: Http1Version, headers: readonly Header[]): boolean => persistentBy(version, fieldValues(headers, 'connection'));

/** isPersistent from the raw Connection values (the parser collects them while it reads the fields). */
export const persistentBy = (version: Http1Version, connection: readonly string[]): boolean => {
  if (version === '0.9') return false;
  if (connection.length === 0) return version === '1.1';
  let keepAlive = false;
  for (const line of connection) {
    for (const raw of line.split(',')) {
      const option = raw.trim().toLowerCase();
      if (option === 'close') return false;
      if (option === 'keep-alive') keepAlive = true;
    }
  }
  return version === '1.1' || keepAlive;
};

/** Keep-Alive parameters (RFC 2068 §19.7.1.1, never standardized): "timeout=5, max=100". */
export const parseKeepAlive = (headers: readonly Header[]): { timeout?: number; max?: number } => {
  const out: { timeout?: number; max?: number } = {};
  for (const t of fieldTokens(headers, 'keep-alive')) {
    const [k, v] = t.split('=').map((x) => x.trim());
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) continue;
    if (k === 'timeout') out.timeout = n;
    else if (k === 'max') out.max = n;
  }
  return out;
};
