/**
 * Start lines and field sections (RFC 9112 §2-§5), parsed from a complete section already in the buffer.
 *
 * Each function takes the raw byte array and array indices, plus `toStream` (array index + toStream = stream
 * offset, for error offsets). One pass validates every byte against a lookup table; strings are cut only
 * after validation. Strict mode rejects what RFC 9112 lets a recipient reject; lenient mode repairs what the
 * RFC says may be repaired (bare CR to SP, obs-fold to SP, ...) and records each repair in `ctx.tolerated`.
 */
import { FIELD_CHAR, REASON_CHAR, TARGET_CHAR, TCHAR, latin1 } from './abnf';
import { checkContentLengthLine } from './framing';
import { scanLF } from './receive-buffer';
import type { ParseContext } from './codes';
import { sameFieldName } from '../data/headers';
import type { Header, Http1Version } from './events';

const CR = 0x0d;
const SP = 0x20;
const HTAB = 0x09;
const COLON = 0x3a;

/** Where strings come from: the receive buffer decodes a window once and hands out substrings. */
export interface TextSource {
  textOf(from: number, to: number): string;
}

/** raw[start..end) as a string; `high` (obs-text present) takes the exact byte-by-byte path. */
const cut = (src: TextSource, b: Uint8Array, start: number, end: number, high: boolean): string => (high ? latin1(b, start, end) : src.textOf(start, end));

export interface FieldFacts {
  /** Field lines that matter for framing and routing, with the stream offset of their line. */
  readonly contentLength: readonly { value: string; offset: number }[];
  readonly transferEncoding: readonly { value: string; offset: number }[];
  readonly host: readonly { value: string; offset: number }[];
  readonly connection: readonly string[];
  readonly upgrade: boolean;
}

/** FieldFacts while the fields are read: each list is the shared empty one until its first field. */
export interface MutableFacts {
  contentLength: { value: string; offset: number }[];
  transferEncoding: { value: string; offset: number }[];
  host: { value: string; offset: number }[];
  connection: string[];
  upgrade: boolean;
}

const NONE: never[] = Object.freeze([]) as unknown as never[];
export const noFacts = (): MutableFacts => ({ contentLength: NONE, transferEncoding: NONE, host: NONE, connection: NONE, upgrade: false });

export interface RequestLine {
  method: string;
  target: string;
  version: Http1Version;
}

export interface StatusLine {
  version: Http1Version;
  status: number;
  reason: string;
}

/** Array index where a line's content ends: before CRLF, or before a bare LF (a violation, RFC 9112 §2.2). */
export const contentEnd = (b: Uint8Array, ls: number, lf: number, ctx: ParseContext, toStream: number): number => {
  if (lf > ls && b[lf - 1] === CR) return lf - 1;
  ctx.violation('bare-lf', lf + toStream, 'Found a bare LF where CRLF is required (RFC 9112 §2.2); end every line with CR LF.');
  return lf;
};

const isLooseSpace = (c: number): boolean => c === SP || c === HTAB || c === 0x0b || c === 0x0c || c === CR;

/** Splits a start line on single SPs; lenient mode may fall back to "any whitespace run" (RFC 9112 §3). */
const splitStartLine = (b: Uint8Array, ls: number, le: number, ctx: ParseContext, toStream: number): [number, number][] => {
  const parts: [number, number][] = [];
  let loose = -1;
  let s = ls;
  for (let i = ls; i <= le; i++) {
    if (i === le || b[i] === SP) {
      if (i === s && loose < 0) loose = i;
      parts.push([s, i]);
      s = i + 1;
    } else if (loose < 0 && isLooseSpace(b[i]!)) {
      loose = i;
    }
  }
  if (loose < 0) return parts;
  ctx.violation(
    'request-line-whitespace',
    loose + toStream,
    'The request line must separate method, target and version with exactly one SP each (RFC 9112 §3); remove extra or non-SP whitespace.',
  );
  const words: [number, number][] = [];
  s = -1;
  for (let i = ls; i <= le; i++) {
    const space = i === le || isLooseSpace(b[i]!);
    if (space && s >= 0) {
      words.push([s, i]);
      s = -1;
    } else if (!space && s < 0) s = i;
  }
  return words;
};

/** "HTTP/" DIGIT "." DIGIT at b[i..i+8) (RFC 9112 §2.3). Returns the version, or fails. */
const parseVersion = (b: Uint8Array, i: number, end: number, ctx: ParseContext, toStream: number): Http1Version => {
  const ok =
    end - i === 8 &&
    b[i] === 0x48 &&
    b[i + 1] === 0x54 &&
    b[i + 2] === 0x54 &&
    b[i + 3] === 0x50 &&
    b[i + 4] === 0x2f &&
    b[i + 6] === 0x2e &&
    b[i + 5]! >= 0x30 &&
    b[i + 5]! <= 0x39 &&
    b[i + 7]! >= 0x30 &&
    b[i + 7]! <= 0x39;
  if (!ok) ctx.fail('invalid-version', i + toStream, 'Expected an HTTP version written exactly as HTTP/1.1 or HTTP/1.0 (case-sensitive, RFC 9112 §2.3).');
  const major = b[i + 5]! - 0x30;
  const minor = b[i + 7]! - 0x30;
  // RFC 9110 §2.5: a recipient treats a message with a higher minor version of its major version as if it
  // had the highest minor version it implements, so HTTP/1.2 to HTTP/1.9 are read as HTTP/1.1.
  if (major === 1) return minor === 0 ? '1.0' : '1.1';
  return ctx.fail(
    'unsupported-version',
    i + toStream,
    `HTTP/${major}.${minor} cannot be carried in HTTP/1 framing; answer 505 or use that protocol's own framing.`,
  );
};

/** "HTTP/1.1" as bytes; positions 5 and 7 take any digit. */
const VERSION_SHAPE = [0x48, 0x54, 0x54, 0x50, 0x2f, 0, 0x2e, 0];

/**
 * Strict mode: where a request line's version already fails, judged from the bytes before `end` alone, so the
 * answer is the same whether or not the rest of the line has arrived. The line must start "method SP target
 * SP" (the first two bytes below 0x21 both SPs); then the version is compared byte by byte with
 * HTTP/DIGIT.DIGIT, and a major version other than 1 fails at its last digit (RFC 9112 §2.3, RFC 9110 §2.5).
 * Returns the array index the line should be judged up to (it then fails there, as a version or on what comes
 * before it), or -1 when nothing is wrong yet: llhttp likewise stops at the first byte that cannot be a version.
 */
export const versionFailsAt = (b: Uint8Array, ls: number, end: number): number => {
  let i = ls;
  while (i < end && b[i]! > SP) i++;
  if (i >= end || b[i] !== SP) return -1;
  const sp1 = i++;
  while (i < end && b[i]! > SP) i++;
  if (i >= end || b[i] !== SP || i === sp1 + 1) return -1;
  const v = i + 1;
  for (let k = 0; k < 9 && v + k < end; k++) {
    const c = b[v + k]!;
    // A ninth byte that is not whitespace makes the version too long ("HTTP/1.1x").
    if (k === 8) return c > SP ? v + 9 : -1;
    const fits = k === 5 || k === 7 ? c >= 0x30 && c <= 0x39 : c === VERSION_SHAPE[k];
    // A whitespace byte ends the version early: judge the line without it.
    if (!fits) return c > SP ? v + k + 1 : v + k;
    if (k === 7 && b[v + 5] !== 0x31) return v + 8;
  }
  return -1;
};

export const parseRequestLine = (b: Uint8Array, ls: number, le: number, ctx: ParseContext, toStream: number, src: TextSource): RequestLine => {
  // Fast path: exactly "method SP target SP version" or "GET SP target"; anything else takes splitStartLine.
  let fast: [number, number][] | undefined;
  let sp1 = ls;
  while (sp1 < le && b[sp1] !== SP) sp1++;
  if (sp1 > ls && sp1 < le) {
    let sp2 = sp1 + 1;
    while (sp2 < le && b[sp2] !== SP) sp2++;
    if (
      sp2 < le &&
      sp2 > sp1 + 1 &&
      le - sp2 === 9 &&
      plainRange(b, ls, sp1, TCHAR) &&
      plainRange(b, sp1 + 1, sp2, TARGET_CHAR) &&
      plainRange(b, sp2 + 1, le, TARGET_CHAR)
    ) {
      // The common case, a token, a target of visible ASCII and a version, needs none of the part lists
      // below: the same checks, without allocating them.
      const method = cut(src, b, ls, sp1, false);
      const target = cut(src, b, sp1 + 1, sp2, false);
      const version = parseVersion(b, sp2 + 1, le, ctx, toStream);
      checkTargetForm(method, target, sp1 + 1 + toStream, ctx);
      return { method, target, version };
    }
    if (sp2 >= le)
      fast =
        sp1 + 1 < le
          ? [
              [ls, sp1],
              [sp1 + 1, le],
            ]
          : undefined;
    else if (sp2 > sp1 + 1 && le - sp2 === 9)
      fast = [
        [ls, sp1],
        [sp1 + 1, sp2],
        [sp2 + 1, le],
      ];
  }
  if (ctx.strict) {
    // Judge the line only up to where its version fails, as byte-at-a-time feeding does (reader.ts). (The fast
    // path above needs no cut: its version is eight visible bytes, judged in place with the same result.)
    const cut = versionFailsAt(b, ls, le);
    if (cut >= 0 && cut < le) return parseRequestLine(b, ls, cut, ctx, toStream, src);
  }
  const plain = fast !== undefined && plainRequestLine(b, fast);
  // Whitespace other than the two SPs, a bare CR included, always takes the split, wherever it is: the error
  // then names the first odd byte whatever follows it (strict mode reports it before the line's LF).
  const parts = fast !== undefined && !hasLooseSpace(b, plain ? fast[fast.length - 1]![0] : ls, le) ? fast : splitStartLine(b, ls, le, ctx, toStream);
  if (parts.length !== 2 && parts.length !== 3) {
    ctx.fail('invalid-request-line', ls + toStream, 'A request line is "METHOD SP target SP HTTP/1.1" (RFC 9112 §3); this one has the wrong number of parts.');
  }
  const [m, t] = parts as [[number, number], [number, number]];
  for (let i = m[0]; i < m[1] && !plain; i++) {
    if (TCHAR[b[i]!] === 0) ctx.fail('invalid-method', i + toStream, "The method must be a token (RFC 9110 §9.1): letters, digits and !#$%&'*+-.^_`|~ only.");
  }
  const method = cut(src, b, m[0], m[1], false);
  let high = false;
  for (let i = t[0]; i < t[1] && !plain; i++) {
    const c = b[i]!;
    if (TARGET_CHAR[c] === 0) {
      if (c < 0x80) ctx.fail('invalid-request-target', i + toStream, 'The request-target contains a control character (RFC 9112 §3.2); percent-encode it.');
      high = true;
    }
  }
  if (high) ctx.violation('invalid-request-target', t[0] + toStream, 'The request-target contains non-ASCII bytes (RFC 9112 §3.2); percent-encode them.');
  const target = cut(src, b, t[0], t[1], high);
  if (parts.length === 2) {
    // HTTP/0.9 simple request: "GET" SP path (W3C's 1991 note); no version, no headers, no body.
    if (method !== 'GET')
      ctx.fail('invalid-request-line', ls + toStream, 'A request line without a version is HTTP/0.9, which only knows GET; add " HTTP/1.1".');
    return { method, target, version: '0.9' };
  }
  const v = parts[2]!;
  const version = parseVersion(b, v[0], v[1], ctx, toStream);
  checkTargetForm(method, target, t[0] + toStream, ctx);
  return { method, target, version };
};

/** Method all tchar and target all visible ASCII, in one branch-free pass each: the common case. */
const plainRequestLine = (b: Uint8Array, parts: [number, number][]): boolean => {
  let bad = 0;
  const [m, t] = parts as [[number, number], [number, number]];
  for (let i = m[0]; i < m[1]; i++) bad |= TCHAR[b[i]!]! ^ 1;
  for (let i = t[0]; i < t[1]; i++) bad |= TARGET_CHAR[b[i]!]! ^ 1;
  return bad === 0;
};

/** Every byte of b[from..to) is in `table`, in one branch-free pass. */
const plainRange = (b: Uint8Array, from: number, to: number, table: Uint8Array): boolean => {
  let bad = 0;
  for (let i = from; i < to; i++) bad |= table[b[i]!]! ^ 1;
  return bad === 0;
};

/** Whitespace other than SP, or a bare CR, anywhere in the line: only the slow split can judge it. */
const hasLooseSpace = (b: Uint8Array, ls: number, le: number): boolean => {
  for (let i = ls; i < le; i++) {
    const c = b[i]!;
    if (c < 0x21 && c !== SP) return true;
  }
  return false;
};

/** RFC 9112 §3.2: origin-form, absolute-form, authority-form (CONNECT only), asterisk-form (OPTIONS only). */
const checkTargetForm = (method: string, target: string, offset: number, ctx: ParseContext): void => {
  if (method === 'CONNECT') {
    if (!/^[^/?#@\s]+:\d+$/.test(target))
      ctx.violation('invalid-request-target', offset, 'A CONNECT target must be authority-form, host:port (RFC 9112 §3.2.3).');
  } else if (target === '*') {
    if (method !== 'OPTIONS') ctx.violation('invalid-request-target', offset, 'The asterisk-form target "*" is only for OPTIONS (RFC 9112 §3.2.4).');
  } else if (target.charCodeAt(0) !== 0x2f && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(target)) {
    ctx.violation('invalid-request-target', offset, 'The request-target must start with "/" (origin-form) or be an absolute URI (RFC 9112 §3.2).');
  } else if (target.includes('#')) {
    ctx.violation('invalid-request-target', offset, 'A request-target carries no fragment (RFC 9112 §3.2); drop the "#..." part.');
  }
};

export const parseStatusLine = (b: Uint8Array, ls: number, le: number, ctx: ParseContext, toStream: number, src: TextSource): StatusLine => {
  if (le - ls < 12 || b[ls + 8] !== SP || b[ls] !== 0x48) {
    ctx.fail('invalid-status-line', ls + toStream, 'A status line is "HTTP/1.1 SP 3DIGIT SP reason" (RFC 9112 §4).');
  }
  const version = parseVersion(b, ls, ls + 8, ctx, toStream);
  let status = 0;
  for (let i = ls + 9; i < ls + 12; i++) {
    const d = b[i]! - 0x30;
    if (d < 0 || d > 9) ctx.fail('invalid-status-code', i + toStream, 'The status code must be exactly three digits (RFC 9112 §4).');
    status = status * 10 + d;
  }
  if (status < 100 || status > 599) ctx.fail('invalid-status-code', ls + 9 + toStream, `Status ${status} is outside 100..599 (RFC 9110 §15).`);
  let reason = '';
  if (le > ls + 12) {
    // h11 and most clients accept a status line that stops after the code; RFC 9112 §4 wants the SP.
    if (b[ls + 12] !== SP) ctx.fail('invalid-status-code', ls + 12 + toStream, 'The status code must be followed by SP and the reason phrase (RFC 9112 §4).');
    let high = false;
    let repair = false;
    for (let i = ls + 13; i < le; i++) {
      const c = b[i]!;
      if (REASON_CHAR[c] === 0) {
        if (c === CR) ctx.violation('bare-cr', i + toStream, 'Found a bare CR in the reason phrase (RFC 9112 §2.2); CR may only precede LF.');
        else ctx.violation('invalid-field-value', i + toStream, 'The reason phrase contains a control character (RFC 9112 §4).');
        repair = true;
      } else if (c >= 0x80) high = true;
    }
    reason = cut(src, b, ls + 13, le, high);
    if (repair) reason = reason.replace(/[\r\0]/g, ' ');
  }
  return { version, status, reason };
};

/** The fields framing and routing need, by name length, so most names are never lowercased. */
const SPECIAL_BY_LENGTH: Record<number, string> = { 4: 'host', 7: 'upgrade', 10: 'connection', 14: 'content-length', 17: 'transfer-encoding' };

/**
 * Field lines from array index `from` to `end` (just past the blank line). Returns the headers in order with
 * their original case, and the facts framing needs. `trailer` switches the whitespace-first-line rule off.
 */
export const parseFields = (
  b: Uint8Array,
  from: number,
  end: number,
  ctx: ParseContext,
  toStream: number,
  src: TextSource,
  lineEnds: readonly number[] = [],
  lineCount = 0,
  skip = 0,
  /** Facts of the field lines before `from`, when a section is checked a few lines at a time (strict only). */
  facts: MutableFacts = noFacts(),
  /** Whether the line at `from` is the first after the start line (whitespace there is not obs-fold). */
  firstLine = true,
): { headers: Header[]; facts: FieldFacts } => {
  // lineEnds: stream offsets of the LFs the section search already found (ReceiveBuffer.lineEnds).
  let k = skip;
  let folded = false;
  // Line offsets are only needed to re-note the facts after obs-fold, which only lenient mode repairs.
  const offsets: number[] | null = ctx.strict ? null : [];
  const headers: Header[] = [];
  let ls = from;
  while (ls < end) {
    const lf = k < lineCount ? lineEnds[k++]! - toStream : scanLF(b, ls, end);
    // No LF: a line cut short at a bare CR and the byte after it, which strict mode checks before the LF.
    const le = lf < 0 ? end : contentEnd(b, ls, lf, ctx, toStream);
    if (le === ls) break; // the blank line that ends the section
    const first = b[ls]!;
    if (first === SP || first === HTAB) {
      if (headers.length === 0 && firstLine) {
        // RFC 9112 §2.2: reject, or consume each whitespace-preceded line without processing it. Strict mode
        // rejects (at the whitespace, before the line ends: reader.ts failFast); lenient mode consumes the line
        // unprocessed and records it in `tolerated`.
        ctx.violation(
          'whitespace-after-start-line',
          ls + toStream,
          'A line starting with whitespace follows the start line (RFC 9112 §2.2); remove the leading whitespace.',
        );
      } else {
        ctx.violation(
          'obs-fold',
          ls + toStream,
          'A field value is folded onto a continuation line (obs-fold, RFC 9112 §5.2); put the whole value on one line.',
        );
        // Only lenient mode gets here, and it reads a section whole, so the folded line is in `headers`.
        const prev = headers[headers.length - 1]!;
        const more = fieldValue(b, ls, le, ctx, toStream, src);
        headers[headers.length - 1] = { name: prev.name, value: more.length > 0 ? `${prev.value} ${more}` : prev.value };
        folded = true;
      }
      ls = lf < 0 ? end : lf + 1;
      continue;
    }
    let i = ls;
    while (i < le && TCHAR[b[i]!] === 1) i++;
    if (i === le) ctx.fail('invalid-field-line', ls + toStream, 'A field line has no colon (RFC 9112 §5); write it as "Name: value".');
    if (b[i] !== COLON) {
      let j = i;
      while (j < le && (b[j] === SP || b[j] === HTAB)) j++;
      if (j > i && b[j] === COLON && i > ls) {
        ctx.violation(
          'whitespace-before-colon',
          i + toStream,
          'Whitespace between a field name and its colon is forbidden (RFC 9112 §5.1); a server must reject it with 400.',
        );
      } else {
        ctx.fail('invalid-field-name', i + toStream, 'A field name must be a token followed directly by ":" (RFC 9110 §5.1).');
      }
      i = j;
    } else if (i === ls) {
      ctx.fail('invalid-field-name', ls + toStream, 'A field line has an empty name (RFC 9110 §5.1).');
    }
    let ne = i;
    while (ne > ls && (b[ne - 1] === SP || b[ne - 1] === HTAB)) ne--;
    const name = cut(src, b, ls, ne, false);
    const value = fieldValue(b, i + 1, le, ctx, toStream, src);
    headers.push({ name, value });
    offsets?.push(ls + toStream);
    noteSpecial(facts, name, value, ls + toStream, ctx);
    ls = lf < 0 ? end : lf + 1;
  }
  if (folded) {
    // Lenient obs-fold changed values after they were noted: framing must see the joined values.
    const refolded = noFacts();
    headers.forEach((h, i) => noteSpecial(refolded, h.name, h.value, offsets![i]!, ctx));
    return { headers, facts: refolded };
  }
  return { headers, facts };
};

/** Records the fields framing and routing need; most names are never lowercased (see SPECIAL_BY_LENGTH). */
const noteSpecial = (facts: MutableFacts, name: string, value: string, offset: number, ctx: ParseContext): void => {
  const special = SPECIAL_BY_LENGTH[name.length];
  if (special === undefined || !sameFieldName(name, special)) return;
  if (special === 'content-length') {
    // Strict mode judges each Content-Length line as it arrives, so a bad or second length fails at its own
    // line, however the bytes were split (lenient mode reads whole sections and may still repair obs-fold).
    if (ctx.strict) checkContentLengthLine(facts.contentLength, value, offset, ctx);
    (facts.contentLength === NONE ? (facts.contentLength = []) : facts.contentLength).push({ value, offset });
  } else if (special === 'transfer-encoding')
    (facts.transferEncoding === NONE ? (facts.transferEncoding = []) : facts.transferEncoding).push({ value, offset });
  else if (special === 'host') (facts.host === NONE ? (facts.host = []) : facts.host).push({ value, offset });
  else if (special === 'connection') (facts.connection === NONE ? (facts.connection = []) : facts.connection).push(value);
  else facts.upgrade = true;
};

/** field-value between optional whitespace (RFC 9112 §5), validated; lenient repairs CR and NUL to SP. */
const fieldValue = (b: Uint8Array, vs: number, ve: number, ctx: ParseContext, toStream: number, src: TextSource): string => {
  while (vs < ve && (b[vs] === SP || b[vs] === HTAB)) vs++;
  while (ve > vs && (b[ve - 1] === SP || b[ve - 1] === HTAB)) ve--;
  // One branch-free pass for the common case: OR the bytes (for obs-text) and the "bad" flags; only a value
  // with a bad byte is walked again to report each one.
  let any = 0;
  let bad = 0;
  for (let i = vs; i < ve; i++) {
    const c = b[i]!;
    any |= c;
    bad |= FIELD_CHAR[c]! ^ 1;
  }
  const high = (any & 0x80) !== 0;
  if (bad === 0) return cut(src, b, vs, ve, high);
  let repair = false;
  for (let i = vs; i < ve; i++) {
    const c = b[i]!;
    if (FIELD_CHAR[c] === 1) continue;
    if (c === CR) {
      ctx.violation('bare-cr', i + toStream, 'Found a bare CR inside a field value (RFC 9112 §2.2); CR may only precede LF.');
      repair = true;
    } else {
      ctx.violation(
        'invalid-field-value',
        i + toStream,
        `A field value contains the control byte 0x${c.toString(16).padStart(2, '0')} (RFC 9110 §5.5); remove it.`,
      );
      if (c === 0) repair = true;
    }
  }
  const s = cut(src, b, vs, ve, high);
  // RFC 9110 §5.5: a recipient may replace CR, LF and NUL with SP instead of rejecting the message.
  return repair ? s.replace(/[\r\0]/g, ' ') : s;
};
