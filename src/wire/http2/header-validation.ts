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
export const CONNECTION_SPECIFIC_FIELDS: readonly string[] = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
];

const REQUEST_PSEUDO = new Set([':method', ':scheme', ':path', ':authority']);
const RESPONSE_PSEUDO = new Set([':status']);

export interface BlockInfo {
  readonly method?: string;
  readonly status?: number;
}

// RFC 9113 §8.2.1: 0x00-0x20, 0x41-0x5a (uppercase) and 0x7f-0xff are not allowed in names.
const BAD_NAME_CHAR = /[\u0000-\u0020A-Z\u007f-\uffff]/;
const BAD_VALUE_CHAR = /[\u0000\r\n]/;

export function validateFieldBlock(fields: readonly HeaderField[], kind: BlockKind): { error: string } | BlockInfo {
  const pseudo = new Map<string, string>();
  let regularSeen = false;
  for (const { name, value } of fields) {
    if (name.length === 0) return { error: 'Empty field name (RFC 9113 §8.2.1).' };
    const isPseudo = name.charCodeAt(0) === 0x3a; // ':'
    const bare = isPseudo ? name.slice(1) : name;
    if (bare.length === 0 || BAD_NAME_CHAR.test(bare) || bare.includes(':')) {
      return {
        error: /[A-Z]/.test(name)
          ? `Field name "${name}" has uppercase letters; HTTP/2 field names are lowercase (RFC 9113 §8.2.1).`
          : `Field name "${name}" has characters not allowed in a name (RFC 9113 §8.2.1).`,
      };
    }
    if (BAD_VALUE_CHAR.test(value) || /^[ \t]|[ \t]$/.test(value)) {
      return { error: `Field "${name}" has a value with NUL, CR, LF, or leading/trailing whitespace (RFC 9113 §8.2.1).` };
    }
    if (isPseudo) {
      if (regularSeen) return { error: `Pseudo-header "${name}" after a regular field; they come first (RFC 9113 §8.3).` };
      if (kind === 'trailers') return { error: `Pseudo-header "${name}" in trailers (RFC 9113 §8.1).` };
      const allowed = kind === 'request' ? REQUEST_PSEUDO : RESPONSE_PSEUDO;
      if (!allowed.has(name)) return { error: `Pseudo-header "${name}" is not defined for a ${kind} (RFC 9113 §8.3).` };
      if (pseudo.has(name)) return { error: `Pseudo-header "${name}" appears twice (RFC 9113 §8.3).` };
      pseudo.set(name, value);
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
    const method = pseudo.get(':method');
    if (method === undefined) return { error: 'Request without :method (RFC 9113 §8.3.1).' };
    if (method === 'CONNECT') {
      if (!pseudo.has(':authority')) return { error: 'CONNECT request without :authority (RFC 9113 §8.5).' };
      if (pseudo.has(':scheme') || pseudo.has(':path')) {
        return { error: 'CONNECT request with :scheme or :path (RFC 9113 §8.5).' };
      }
      return { method };
    }
    if (!pseudo.has(':scheme')) return { error: 'Request without :scheme (RFC 9113 §8.3.1).' };
    const path = pseudo.get(':path');
    if (path === undefined || path === '') return { error: 'Request without a non-empty :path (RFC 9113 §8.3.1).' };
    return { method };
  }
  if (kind === 'response') {
    const status = pseudo.get(':status');
    if (status === undefined) return { error: 'Response without :status (RFC 9113 §8.3.2).' };
    if (!/^[1-9]\d\d$/.test(status)) return { error: `:status "${status}" is not a three-digit code (RFC 9113 §8.3.2).` };
    return { status: Number(status) };
  }
  return {};
}

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
  return status !== undefined && status.startsWith('1') ? 'informational' : 'response';
}
