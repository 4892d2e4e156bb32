/**
 * HTTP/1 events: what a peer sent, as immutable, complete, discriminated values (ARCHITECTURE.md, 'Engines').
 * A message is one head event (request / informational / response), zero or more `data` events and one
 * `end-of-message`; informational (1xx) responses are complete on their own. Builders validate what a
 * sender may put on the wire, so a bad event is refused before any byte is produced.
 */
import { sameFieldName } from '../data/headers';
import { isFieldValue, isToken } from './abnf';
import { localError } from './codes';

/** The versions HTTP/1.x framing carries. '0.9' is the one-line request and the status-less response. */
export type Http1Version = '0.9' | '1.0' | '1.1';

export interface Header {
  readonly name: string;
  readonly value: string;
}

export interface RequestEvent {
  readonly type: 'request';
  readonly method: string;
  readonly target: string;
  readonly version: Http1Version;
  readonly headers: readonly Header[];
}

/** A 1xx interim response (RFC 9110 §15.2). It has no body; the final response follows. */
export interface InformationalEvent {
  readonly type: 'informational';
  readonly version: Http1Version;
  readonly status: number;
  readonly reason: string;
  readonly headers: readonly Header[];
}

export interface ResponseEvent {
  readonly type: 'response';
  readonly version: Http1Version;
  readonly status: number;
  readonly reason: string;
  readonly headers: readonly Header[];
}

export interface DataEvent {
  readonly type: 'data';
  readonly data: Uint8Array;
  /**
   * Set when the message used transfer codings other than chunked (`Transfer-Encoding: gzip, chunked`): the
   * codings still applied to these bytes, in the order applied. The bytes are then not the content: join the
   * body's data and undo them with decodeTransferCodings (RFC 9112 §6.1).
   */
  readonly codings?: readonly string[];
}

export interface EndOfMessageEvent {
  readonly type: 'end-of-message';
  readonly trailers: readonly Header[];
}

/** The peer closed its sending side (EOF). */
export interface ConnectionClosedEvent {
  readonly type: 'connection-closed';
}

export type Http1Event = RequestEvent | InformationalEvent | ResponseEvent | DataEvent | EndOfMessageEvent | ConnectionClosedEvent;

export type Http1EventType = Http1Event['type'];

export const HTTP1_EVENT_TYPES: readonly Http1EventType[] = Object.freeze([
  'request',
  'informational',
  'response',
  'data',
  'end-of-message',
  'connection-closed',
]);

/**
 * Names and values already found valid. A server sends the same few on every response (Date changes once a
 * second), and looking a string up is cheaper than checking it again. Bounded: emptied when full.
 */
const validNames = new Set<string>();
const validValues = new Set<string>();
const REMEMBERED = 256;
const remember = (set: Set<string>, s: string): void => {
  if (set.size >= REMEMBERED) set.clear();
  set.add(s);
};

const checkHeaders = (headers: readonly Header[], what: string): readonly Header[] => {
  for (const h of headers) {
    if (validNames.has(h.name) && validValues.has(h.value)) continue;
    if (!isToken(h.name))
      throw localError(
        'invalid-field-name',
        `${what} field name ${JSON.stringify(h.name)} is not a token (RFC 9110 §5.1); use letters, digits and !#$%&'*+-.^_\`|~ only.`,
      );
    if (!isFieldValue(h.value))
      throw localError(
        'invalid-field-value',
        `${what} field ${h.name} has a value with CR, LF, NUL, control characters, chars above U+00FF or surrounding whitespace (RFC 9110 §5.5); remove them.`,
      );
    remember(validNames, h.name);
    remember(validValues, h.value);
  }
  // A copy, so the caller's objects can change later without changing the event; the list is frozen and
  // each field is readonly by type. Freezing every field object as well cost more than validating it
  // (about 60 ns a field, on every response a server sends).
  const copy: Header[] = [];
  for (const h of headers) copy.push({ name: h.name, value: h.value });
  return Object.freeze(copy);
};

const checkVersion = (v: string): Http1Version => {
  if (v !== '0.9' && v !== '1.0' && v !== '1.1')
    throw localError('invalid-version', `HTTP/1 framing carries versions 0.9, 1.0 and 1.1, not ${JSON.stringify(v)}.`);
  return v;
};

export const requestEvent = (r: { method: string; target: string; version?: string; headers?: readonly Header[] }): RequestEvent => {
  if (!isToken(r.method)) throw localError('invalid-method', `Method ${JSON.stringify(r.method)} is not a token (RFC 9110 §9.1).`);
  if (r.target.length === 0 || /[^\x21-\x7e]/.test(r.target))
    throw localError('invalid-request-target', 'A request-target must be non-empty visible ASCII without spaces (RFC 9112 §3.2); percent-encode the rest.');
  const version = checkVersion(r.version ?? '1.1');
  const headers = checkHeaders(r.headers ?? [], 'Request');
  if (version === '0.9' && (r.method !== 'GET' || headers.length > 0))
    throw localError('invalid-request-line', 'An HTTP/0.9 request is "GET <path>" only, with no header fields.');
  return Object.freeze({ type: 'request', method: r.method, target: r.target, version, headers });
};

const checkStatus = (status: number, lo: number, hi: number): number => {
  if (!Number.isInteger(status) || status < lo || status > hi)
    throw localError('invalid-status-code', `Status ${status} is outside ${lo}..${hi} for this event (RFC 9110 §15).`);
  return status;
};

const checkReason = (reason: string): string => {
  if (/[^\t\x20-\x7e\x80-\xff]/.test(reason))
    throw localError('invalid-reason', 'A reason phrase holds HTAB, SP, visible ASCII and obs-text only (RFC 9112 §4).');
  return reason;
};

export const informationalEvent = (r: { status: number; reason?: string; version?: string; headers?: readonly Header[] }): InformationalEvent =>
  Object.freeze({
    type: 'informational',
    status: checkStatus(r.status, 100, 199),
    reason: checkReason(r.reason ?? ''),
    version: checkVersion(r.version ?? '1.1'),
    headers: checkHeaders(r.headers ?? [], 'Response'),
  });

export const responseEvent = (r: { status: number; reason?: string; version?: string; headers?: readonly Header[] }): ResponseEvent =>
  Object.freeze({
    type: 'response',
    status: checkStatus(r.status, 200, 599),
    reason: checkReason(r.reason ?? ''),
    version: checkVersion(r.version ?? '1.1'),
    headers: checkHeaders(r.headers ?? [], 'Response'),
  });

export const dataEvent = (data: Uint8Array): DataEvent => ({ type: 'data', data });

export const endOfMessageEvent = (trailers: readonly Header[] = []): EndOfMessageEvent =>
  Object.freeze({ type: 'end-of-message', trailers: checkHeaders(trailers, 'Trailer') });

export const connectionClosedEvent = (): ConnectionClosedEvent => CLOSED;
const CLOSED: ConnectionClosedEvent = Object.freeze({ type: 'connection-closed' });

/** What fieldValues and fieldTokens answer for a field that is absent: one shared empty list. */
const NONE: readonly string[] = Object.freeze([]);

/** Values of every field line named `name` (case-insensitive, RFC 9110 §5.1), in order. */
export const fieldValues = (headers: readonly Header[], name: string): readonly string[] => {
  const lower = name.toLowerCase();
  let out: string[] | undefined;
  for (const h of headers) if (sameFieldName(h.name, lower)) (out ??= []).push(h.value);
  return out ?? NONE;
};

/** The comma-separated list elements of all lines of a field, trimmed and lowercased (RFC 9110 §5.6.1). */
export const fieldTokens = (headers: readonly Header[], name: string): readonly string[] => {
  // A loop rather than flatMap/map/filter: the writer asks this of every head it sends, and the answer is
  // nearly always the empty list.
  let out: string[] | undefined;
  for (const value of fieldValues(headers, name)) {
    for (const raw of value.split(',')) {
      const t = raw.trim().toLowerCase();
      if (t.length > 0) (out ??= []).push(t);
    }
  }
  return out ?? NONE;
};
