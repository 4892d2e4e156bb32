/**
 * HTTP/2 field validation (RFC 9113 §8.2, §8.3). A field block that breaks these rules is "malformed"
 * (§8.1.1): a stream error of type PROTOCOL_ERROR when received, an API misuse when we are asked to
 * send it. Returns a sentence saying what is wrong, or null.
 *
 * - names are lowercase and contain no separators or control characters (§8.2.1, §8.2);
 * - values contain no NUL, CR or LF and no leading or trailing whitespace (§8.2.1);
 * - connection-specific fields are forbidden, and `te` may only say "trailers" (§8.2.2);
 * - pseudo-header fields come first, once each, only the ones defined for the message kind, and never
 *   in trailers (§8.3); requests need :method, :scheme and :path (CONNECT: :authority only, §8.5);
 *   responses need a three-digit :status.
 */
import type { HeaderField } from '../hpack/index';
import type { HeadersKind } from './events';

export type BlockKind = 'request' | 'response' | 'trailers';

/** RFC 9113 §8.2.2: fields that only make sense for one HTTP/1.1 connection. */
export const CONNECTION_SPECIFIC_FIELDS: readonly string[] = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'];

/** Pseudo-header fields by name, as bits: what a block may carry and what it carried (§8.3). */
const PSEUDO_BIT: Readonly<Record<string, number>> = { ':method': 1, ':scheme': 2, ':path': 4, ':authority': 8, ':status': 16 };
const REQUEST_PSEUDO = 1 | 2 | 4 | 8;
const RESPONSE_PSEUDO = 16;

export interface BlockInfo {
  readonly method?: string;
  readonly status?: number;
}

/**
 * RFC 9113 §8.2.1: 0x00-0x20, 0x41-0x5a (uppercase) and 0x7f-0xff are not allowed in names; nor is ':'
 * after a pseudo-header's leading one. A table over char codes: this runs for every field of every block
 * sent and received.
 */
const NAME_CHAR = (() => {
  const t = new Uint8Array(128);
  for (let c = 0x21; c < 0x7f; c++) t[c] = c >= 0x41 && c <= 0x5a ? 0 : 1;
  t[0x3a] = 0;
  return t;
})();

const goodName = (name: string, from: number): boolean => {
  if (name.length <= from) return false;
  for (let i = from; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128 || NAME_CHAR[c] === 0) return false;
  }
  return true;
};

/** No NUL, CR or LF, and no leading or trailing SP or HTAB (§8.2.1). */
const goodValue = (value: string): boolean => {
  const n = value.length;
  if (n === 0) return true;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(n - 1);
  if (first === 0x20 || first === 0x09 || last === 0x20 || last === 0x09) return false;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c === 0 || c === 0x0d || c === 0x0a) return false;
  }
  return true;
};

export function validateFieldBlock(fields: readonly HeaderField[], kind: BlockKind): { error: string } | BlockInfo {
  let seen = 0;
  let method: string | undefined;
  let path: string | undefined;
  let status: string | undefined;
  let regularSeen = false;
  for (let i = 0; i < fields.length; i++) {
    const { name, value } = fields[i]!;
    if (name.length === 0) return { error: 'Empty field name (RFC 9113 §8.2.1).' };
    const isPseudo = name.charCodeAt(0) === 0x3a; // ':'
    if (!goodName(name, isPseudo ? 1 : 0)) {
      return {
        error: /[A-Z]/.test(name)
          ? `Field name "${name}" has uppercase letters; HTTP/2 field names are lowercase (RFC 9113 §8.2.1).`
          : `Field name "${name}" has characters not allowed in a name (RFC 9113 §8.2.1).`,
      };
    }
    if (!goodValue(value)) {
      return { error: `Field "${name}" has a value with NUL, CR, LF, or leading/trailing whitespace (RFC 9113 §8.2.1).` };
    }
    if (isPseudo) {
      if (regularSeen) return { error: `Pseudo-header "${name}" after a regular field; they come first (RFC 9113 §8.3).` };
      if (kind === 'trailers') return { error: `Pseudo-header "${name}" in trailers (RFC 9113 §8.1).` };
      const bit = PSEUDO_BIT[name] ?? 0;
      if ((bit & (kind === 'request' ? REQUEST_PSEUDO : RESPONSE_PSEUDO)) === 0)
        return { error: `Pseudo-header "${name}" is not defined for a ${kind} (RFC 9113 §8.3).` };
      if (seen & bit) return { error: `Pseudo-header "${name}" appears twice (RFC 9113 §8.3).` };
      seen |= bit;
      if (bit === 1) method = value;
      else if (bit === 4) path = value;
      else if (bit === 16) status = value;
      continue;
    }
    regularSeen = true;
    if (CONNECTION_SPECIFIC_FIELDS.includes(name)) {
      return { error: `Connection-specific field "${name}" is not allowed in HTTP/2 (RFC 9113 §8.2.2).` };
    }
    if (name === 'te' && value.toLowerCase() !== 'trailers') {
      return { error: `"te" may only carry "trailers" in HTTP/2, got "${value}" (RFC 9113 §8.2.2).` };
    }
  }
  if (kind === 'request') {
    if (method === undefined) return { error: 'Request without :method (RFC 9113 §8.3.1).' };
    if (method === 'CONNECT') {
      if (!(seen & 8)) return { error: 'CONNECT request without :authority (RFC 9113 §8.5).' };
      if (seen & (2 | 4)) {
        return { error: 'CONNECT request with :scheme or :path (RFC 9113 §8.5).' };
      }
      return { method };
    }
    if (!(seen & 2)) return { error: 'Request without :scheme (RFC 9113 §8.3.1).' };
    if (path === undefined || path === '') return { error: 'Request without a non-empty :path (RFC 9113 §8.3.1).' };
    return { method };
  }
  if (kind === 'response') {
    if (status === undefined) return { error: 'Response without :status (RFC 9113 §8.3.2).' };
    if (!isStatusCode(status)) return { error: `:status "${status}" is not a three-digit code (RFC 9113 §8.3.2).` };
    return { status: Number(status) };
  }
  return {};
}

/** [1-9] DIGIT DIGIT. */
const isStatusCode = (s: string): boolean => {
  if (s.length !== 3) return false;
  const a = s.charCodeAt(0);
  const b = s.charCodeAt(1);
  const c = s.charCodeAt(2);
  return a >= 0x31 && a <= 0x39 && b >= 0x30 && b <= 0x39 && c >= 0x30 && c <= 0x39;
};

/** The content length a message announces, or null when it announces none or carries no content. */
export function announcedLength(headers: readonly HeaderField[], method: string | null, status: number | undefined): number | null {
  // A response to HEAD, and 204/304 responses, describe content they do not carry (RFC 9110 §8.6).
  if (method === 'HEAD' || status === 204 || status === 304) return null;
  const field = headers.find((h) => h.name === 'content-length');
  return field && /^\d{1,15}$/.test(field.value) ? Number(field.value) : null;
}

/**
 * What a received field block is: a server gets a request, then trailers; a client gets any number of
 * 1xx informational responses, one final response, then trailers (RFC 9113 §8.1).
 */
export function receivedKind(role: 'client' | 'server', messageReceived: boolean, headers: readonly HeaderField[]): HeadersKind {
  if (messageReceived) return 'trailers';
  if (role === 'server') return 'request';
  const status = headers.find((h) => h.name === ':status')?.value;
  return status?.startsWith('1') ? 'informational' : 'response';
}

/**
 * A received field block as a part of a message (§8.1): its kind, what it says, and why it is malformed
 * (null when it is not): a field rule above broken, trailers that do not end the stream, or a 1xx response
 * that does.
 */
export function checkReceivedBlock(
  role: 'client' | 'server',
  messageReceived: boolean,
  headers: readonly HeaderField[],
  endStream: boolean,
): { readonly kind: HeadersKind; readonly info: BlockInfo; readonly malformed: string | null } {
  const kind = receivedKind(role, messageReceived, headers);
  const check = validateFieldBlock(headers, kind === 'informational' ? 'response' : kind);
  if ('error' in check) return { kind, info: {}, malformed: check.error };
  const malformed =
    kind === 'trailers' && !endStream
      ? 'Trailers without END_STREAM (RFC 9113 §8.1).'
      : kind === 'informational' && endStream
        ? 'A 1xx response with END_STREAM (RFC 9113 §8.1).'
        : null;
  return { kind, info: check, malformed };
}
