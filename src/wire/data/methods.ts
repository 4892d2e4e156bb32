/**
 * Request methods as typed data, checked against RFC 9110 §9.
 *
 * Where a common claim about a method is wrong, the data follows the RFC and a note says what is often said;
 * `specSays` keeps that claim's cell value so the docs can show the misconception beside the correction.
 */
import type { HttpVersion } from './versions';

/** How a message part relates to a method: required, allowed with caveats, or not allowed. */
export type BodyRule = 'yes' | 'optional' | 'no';

/** Cacheability per RFC 9111 §3 and RFC 9110 §9.2.3. 'conditional' means "only with explicit freshness". */
export type Cacheable = 'yes' | 'conditional' | 'no';

export interface MethodInfo {
  readonly name: string;
  /** First HTTP version whose specification defined the method; 'extension' for one defined outside them. */
  readonly introducedIn: HttpVersion | 'extension';
  /** The RFC that defines the method today (RFC 9110 obsoletes RFC 7231, which is still widely cited). */
  readonly rfc: string;
  readonly section: string;
  readonly requestBody: BodyRule;
  readonly responseBody: BodyRule;
  readonly safe: boolean;
  readonly idempotent: boolean;
  readonly cacheable: Cacheable;
  readonly notes: readonly string[];
  /** Cells where a common claim differs from the RFC: the claimed value, shown as "often said". */
  readonly specSays?: Readonly<Record<string, string>>;
}

const method = (m: MethodInfo): MethodInfo => Object.freeze(m);

export const HTTP_METHODS = Object.freeze([
  method({
    name: 'GET',
    introducedIn: '0.9',
    rfc: 'RFC 9110',
    section: '9.3.1',
    requestBody: 'optional',
    responseBody: 'yes',
    safe: true,
    idempotent: true,
    cacheable: 'yes',
    notes: [
      'Content in a GET request has no generally defined semantics (RFC 9110 §9.3.1); framing allows it, but servers may reject or ignore it.',
      'The only method of HTTP/0.9.',
    ],
    specSays: { rfc: '7231' },
  }),
  method({
    name: 'HEAD',
    introducedIn: '1.0',
    rfc: 'RFC 9110',
    section: '9.3.2',
    requestBody: 'optional',
    responseBody: 'no',
    safe: true,
    idempotent: true,
    cacheable: 'yes',
    notes: [
      'The response carries the header fields a GET would, never content; Content-Length may describe the GET body (RFC 9110 §8.6).',
      'Content in a HEAD request has no generally defined semantics (RFC 9110 §9.3.2).',
    ],
    specSays: { rfc: '7231' },
  }),
  method({
    name: 'POST',
    introducedIn: '1.0',
    rfc: 'RFC 9110',
    section: '9.3.3',
    requestBody: 'yes',
    responseBody: 'yes',
    safe: false,
    idempotent: false,
    cacheable: 'conditional',
    notes: [
      'Often said: cacheable "Yes". RFC 9110 §9.3.3: a POST response is cacheable only with explicit freshness information (Cache-Control/Expires) and a Content-Location equal to the target URI.',
    ],
    specSays: { cacheable: 'Yes', rfc: '7231' },
  }),
  method({
    name: 'PUT',
    introducedIn: '1.1',
    rfc: 'RFC 9110',
    section: '9.3.4',
    requestBody: 'yes',
    responseBody: 'yes',
    safe: false,
    idempotent: true,
    cacheable: 'no',
    notes: [
      'Creating answers 201 (Created); replacing answers 200 (OK) or 204 (No Content) (RFC 9110 §9.3.4).',
      'RFC 1945 (HTTP/1.0) already listed PUT among "additional methods" in Appendix D.1, but only HTTP/1.1 (RFC 2068) defined it normatively.',
    ],
    specSays: { rfc: '7231' },
  }),
  method({
    name: 'DELETE',
    introducedIn: '1.1',
    rfc: 'RFC 9110',
    section: '9.3.5',
    requestBody: 'optional',
    responseBody: 'yes',
    safe: false,
    idempotent: true,
    cacheable: 'no',
    notes: [
      'Content in a DELETE request has no generally defined semantics (RFC 9110 §9.3.5).',
      'Like PUT, listed in RFC 1945 Appendix D.1 but first defined normatively by HTTP/1.1.',
    ],
    specSays: { rfc: '7231' },
  }),
  method({
    name: 'CONNECT',
    introducedIn: '1.1',
    rfc: 'RFC 9110',
    section: '9.3.6',
    requestBody: 'no',
    responseBody: 'no',
    safe: false,
    idempotent: false,
    cacheable: 'no',
    notes: [
      'Often said: request body "Optional" and response body "Yes". RFC 9110 §9.3.6: a CONNECT request has no content, and a 2xx response has no content either: after its header section the connection becomes a tunnel.',
      'The request-target is in authority-form, host:port (RFC 9112 §3.2.3).',
      'RFC 2068 has no CONNECT; RFC 2616 §9.9 (still HTTP/1.1) reserved the name for tunnelling proxies; RFC 2817 §5.2 defined it, and RFC 7231 §4.3.6 made it part of the core HTTP/1.1 semantics (today RFC 9110 §9.3.6).',
    ],
    specSays: { requestBody: 'Optional', responseBody: 'Yes', rfc: '7231' },
  }),
  method({
    name: 'OPTIONS',
    introducedIn: '1.1',
    rfc: 'RFC 9110',
    section: '9.3.7',
    requestBody: 'optional',
    responseBody: 'yes',
    safe: true,
    idempotent: true,
    cacheable: 'no',
    notes: [
      'Often said: not idempotent. RFC 9110 §9.2.2 makes every safe method idempotent, and OPTIONS is safe (§9.2.1).',
      'The asterisk-form target "*" applies to the server as a whole (RFC 9112 §3.2.4). CORS uses OPTIONS for preflight requests.',
    ],
    specSays: { idempotent: 'No', rfc: '7231' },
  }),
  method({
    name: 'TRACE',
    introducedIn: '1.1',
    rfc: 'RFC 9110',
    section: '9.3.8',
    requestBody: 'no',
    responseBody: 'yes',
    safe: true,
    idempotent: true,
    cacheable: 'no',
    notes: [
      'Often said: not safe. RFC 9110 §9.2.1 lists TRACE among the safe methods.',
      'A client MUST NOT send content in a TRACE request; the response body is the received request, as message/http (RFC 9110 §9.3.8).',
    ],
    specSays: { safe: 'No', rfc: '7231' },
  }),
  method({
    name: 'PATCH',
    introducedIn: 'extension',
    rfc: 'RFC 5789',
    section: '2',
    requestBody: 'yes',
    responseBody: 'yes',
    safe: false,
    idempotent: false,
    cacheable: 'no',
    notes: [
      'An extension method (RFC 5789, 2010), not part of the HTTP/1.1 specification itself; it is usable with any version that allows extension methods.',
      'Not idempotent in general, though a particular PATCH document can be (RFC 5789 §2).',
    ],
    specSays: { introducedIn: '1.1' },
  }),
] as const satisfies readonly MethodInfo[]);

export type MethodName = (typeof HTTP_METHODS)[number]['name'];

const byName = new Map<string, MethodInfo>(HTTP_METHODS.map((m) => [m.name, m]));

/** Looks a method up by its exact name: methods are case-sensitive (RFC 9110 §9.1), so 'get' is not GET. */
export const methodInfo = (name: string): MethodInfo | undefined => byName.get(name);

/** RFC 9110 §9.2.2: PUT, DELETE and the safe methods are idempotent; unknown methods are assumed not to be. */
export const isIdempotentMethod = (name: string): boolean => byName.get(name)?.idempotent ?? false;

/** RFC 9110 §9.2.1. */
export const isSafeMethod = (name: string): boolean => byName.get(name)?.safe ?? false;
