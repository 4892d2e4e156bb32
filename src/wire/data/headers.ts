/**
 * Header fields the spec names, grouped by context and by proxy handling, as typed data.
 *
 * RFC 9110 replaced RFC 7231's "payload header fields" with "content" and "representation metadata"; the
 * spec's four context groups are kept because the docs teach them, and each field says where RFC 9110 puts it.
 * The hop-by-hop set follows RFC 9110 §7.6.1, which differs from the spec's (RFC 2616 §13.5.1) list: see notes.
 */

export type HeaderContext = 'request' | 'response' | 'representation' | 'payload' | 'connection' | 'general';
export type ProxyHandling = 'end-to-end' | 'hop-by-hop';

export interface HeaderInfo {
  /** Canonical spelling; matching is case-insensitive (RFC 9110 §5.1). */
  readonly name: string;
  readonly contexts: readonly HeaderContext[];
  readonly proxy: ProxyHandling;
  readonly since: '1.0' | '1.1' | 'extension';
  readonly rfc: string;
  readonly meaning: string;
  /** Allowed as a trailer field? false where RFC 9110 §6.5.1 needs the field before the content. */
  readonly allowedInTrailer: boolean;
  readonly notes?: readonly string[];
}

const h = (x: HeaderInfo): HeaderInfo => Object.freeze(x);

export const HEADER_FIELDS: readonly HeaderInfo[] = Object.freeze([
  h({
    name: 'Host',
    contexts: ['request'],
    proxy: 'end-to-end',
    since: '1.1',
    rfc: 'RFC 9110 §7.2',
    allowedInTrailer: false,
    meaning: 'Authority of the target URI; lets one IP address serve many sites. Exactly one in every HTTP/1.1 request (RFC 9112 §3.2).',
  }),
  h({
    name: 'Content-Type',
    contexts: ['representation'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9110 §8.3',
    allowedInTrailer: false,
    meaning: 'Media type of the representation.',
  }),
  h({
    name: 'Content-Length',
    contexts: ['payload'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9110 §8.6',
    allowedInTrailer: false,
    meaning:
      'Length of the content in octets; also frames the body in HTTP/1.1 when no Transfer-Encoding is present (RFC 9112 §6.3). A HEAD or 304 response may carry it.',
    notes: ['RFC 9110 calls it content metadata rather than a "payload header".'],
  }),
  h({
    name: 'Content-Encoding',
    contexts: ['representation'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9110 §8.4',
    allowedInTrailer: false,
    meaning: 'Codings applied to the representation (e.g. gzip); part of what the resource is, so kept end to end.',
  }),
  h({
    name: 'Transfer-Encoding',
    contexts: ['payload'],
    proxy: 'hop-by-hop',
    since: '1.1',
    rfc: 'RFC 9112 §6.1',
    allowedInTrailer: false,
    meaning: 'Codings applied to this message on this hop, e.g. chunked. Not allowed in HTTP/1.0 messages or in HTTP/2.',
  }),
  h({
    name: 'Connection',
    contexts: ['connection'],
    proxy: 'hop-by-hop',
    since: '1.1',
    rfc: 'RFC 9110 §7.6.1',
    allowedInTrailer: false,
    meaning: 'Comma-separated connection options for this hop: "close", "keep-alive", or names of further hop-by-hop fields.',
  }),
  h({
    name: 'Keep-Alive',
    contexts: ['connection'],
    proxy: 'hop-by-hop',
    since: '1.0',
    rfc: 'RFC 2068 §19.7.1.1',
    allowedInTrailer: false,
    meaning: 'Parameters "timeout" (seconds) and "max" (requests) of a 1.0 keep-alive connection. Never standardized.',
  }),
  h({
    name: 'Proxy-Connection',
    contexts: ['connection'],
    proxy: 'hop-by-hop',
    since: 'extension',
    rfc: 'RFC 9112 Appendix C.2.2',
    allowedInTrailer: false,
    meaning: 'Non-standard; proposed against the 1.0 keep-alive problem with blind proxies. Works only through exactly one proxy.',
    notes: ['RFC 9110 §7.6.1 lists it among the fields an intermediary removes before forwarding.'],
  }),
  h({
    name: 'TE',
    contexts: ['request', 'connection'],
    proxy: 'hop-by-hop',
    since: '1.1',
    rfc: 'RFC 9110 §10.1.4',
    allowedInTrailer: false,
    meaning: 'Transfer codings the client accepts in the response, and "trailers".',
  }),
  h({
    name: 'Trailer',
    contexts: ['general'],
    proxy: 'end-to-end',
    since: '1.1',
    rfc: 'RFC 9110 §6.6.2',
    allowedInTrailer: false,
    meaning: 'Announces which fields will arrive in the trailer section.',
    notes: ['Often listed as hop-by-hop, after RFC 2616 §13.5.1; RFC 9110 §7.6.1 no longer does: trailer fields travel end to end.'],
  }),
  h({
    name: 'Upgrade',
    contexts: ['connection'],
    proxy: 'hop-by-hop',
    since: '1.1',
    rfc: 'RFC 9110 §7.8',
    allowedInTrailer: false,
    meaning: 'Protocols the sender would like to switch this connection to (answered by 101 Switching Protocols).',
  }),
  h({
    name: 'Proxy-Authenticate',
    contexts: ['response'],
    proxy: 'hop-by-hop',
    since: '1.1',
    rfc: 'RFC 9110 §11.7.1',
    allowedInTrailer: false,
    meaning: 'Challenge from a proxy; applies to the next outbound client only.',
    notes: [
      'RFC 9110 does not list it in §7.6.1 but scopes it to the next outbound client (§11.7.1); proxies of one organisation that send the same challenge hop after hop make it look forwarded.',
    ],
  }),
  h({
    name: 'Proxy-Authorization',
    contexts: ['request'],
    proxy: 'hop-by-hop',
    since: '1.1',
    rfc: 'RFC 9110 §11.7.2',
    allowedInTrailer: false,
    meaning: 'Credentials for the next inbound proxy, which consumes them.',
    notes: ['Consumed by the first proxy expecting credentials; relaying is allowed only by cooperating proxies (RFC 9110 §11.7.2).'],
  }),
  h({
    name: 'Cache-Control',
    contexts: ['general'],
    proxy: 'end-to-end',
    since: '1.1',
    rfc: 'RFC 9111 §5.2',
    allowedInTrailer: false,
    meaning: 'Caching directives for requests and responses.',
  }),
  h({
    name: 'Expires',
    contexts: ['response'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9111 §5.3',
    allowedInTrailer: false,
    meaning: 'Date after which the response is stale.',
  }),
  h({
    name: 'Accept',
    contexts: ['request'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9110 §12.5.1',
    allowedInTrailer: false,
    meaning: 'Media types acceptable in the response (proactive negotiation).',
    notes: ['Content negotiation is often dated to 1.1; Accept and Accept-Language already appear in RFC 1945 Appendix D.2, formalized by 1.1.'],
  }),
  h({
    name: 'Accept-Language',
    contexts: ['request'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9110 §12.5.4',
    allowedInTrailer: false,
    meaning: 'Natural languages preferred in the response.',
  }),
  h({
    name: 'Accept-Encoding',
    contexts: ['request'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9110 §12.5.3',
    allowedInTrailer: false,
    meaning: 'Content codings acceptable in the response.',
  }),
  h({
    name: 'Location',
    contexts: ['response'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9110 §10.2.2',
    allowedInTrailer: false,
    meaning: 'Target of a redirect, or the resource a 201 created.',
  }),
  h({
    name: 'Server',
    contexts: ['response'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9110 §10.2.4',
    allowedInTrailer: true,
    meaning: 'Software of the origin server.',
  }),
  h({
    name: 'User-Agent',
    contexts: ['request'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9110 §10.1.5',
    allowedInTrailer: true,
    meaning: 'Software of the client.',
    notes: ['A request field only, though it is sometimes listed with Date as seen in both directions.'],
  }),
  h({
    name: 'Date',
    contexts: ['general'],
    proxy: 'end-to-end',
    since: '1.0',
    rfc: 'RFC 9110 §6.6.1',
    allowedInTrailer: true,
    meaning: 'When the message was generated. An origin server with a clock must send it in most responses.',
  }),
]);

const byLower = new Map(HEADER_FIELDS.map((x) => [x.name.toLowerCase(), x]));

/**
 * Whether field name `name` is `lower` (already lowercase) ignoring ASCII case (RFC 9110 §5.1), without
 * making a lowercased copy: engines and the server ask this of every field of every message, and most
 * names they meet have the length of the one wanted without being it (User-Agent and Connection, say).
 */
export const sameFieldName = (name: string, lower: string): boolean => {
  if (name.length !== lower.length) return false;
  for (let i = 0; i < name.length; i++) {
    let c = name.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
};

/** Case-insensitive lookup (RFC 9110 §5.1). */
export const headerInfo = (name: string): HeaderInfo | undefined => byLower.get(name.toLowerCase());

/**
 * Fields a proxy removes before forwarding, whatever Connection says (RFC 9110 §7.6.1), plus the two proxy
 * authentication fields, which are scoped to one hop by RFC 9110 §11.7. Lowercase.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set(HEADER_FIELDS.filter((x) => x.proxy === 'hop-by-hop').map((x) => x.name.toLowerCase()));

/** The spec's hop-by-hop list, kept verbatim for the docs' comparison table (RFC 2616 §13.5.1). */
export const SPEC_HOP_BY_HOP_HEADERS = Object.freeze([
  'Connection',
  'Keep-Alive',
  'Proxy-Authenticate',
  'Proxy-Authorization',
  'TE',
  'Trailer',
  'Transfer-Encoding',
  'Upgrade',
] as const);

/**
 * Hop-by-hop for this message: the fixed set plus every option the Connection field names (RFC 9110 §7.6.1).
 * `connectionValues` are the raw values of each Connection field line.
 */
export const isHopByHop = (name: string, connectionValues: readonly string[] = []): boolean => {
  const lower = name.toLowerCase();
  if (HOP_BY_HOP_HEADERS.has(lower)) return true;
  return connectionValues.some((v) => v.split(',').some((opt) => opt.trim().toLowerCase() === lower));
};

export const HEADER_GROUPS = Object.freeze({
  byContext: {
    request: HEADER_FIELDS.filter((x) => x.contexts.includes('request')).map((x) => x.name),
    response: HEADER_FIELDS.filter((x) => x.contexts.includes('response')).map((x) => x.name),
    representation: HEADER_FIELDS.filter((x) => x.contexts.includes('representation')).map((x) => x.name),
    payload: HEADER_FIELDS.filter((x) => x.contexts.includes('payload')).map((x) => x.name),
  },
  byProxyHandling: {
    'end-to-end': HEADER_FIELDS.filter((x) => x.proxy === 'end-to-end').map((x) => x.name),
    'hop-by-hop': HEADER_FIELDS.filter((x) => x.proxy === 'hop-by-hop').map((x) => x.name),
  },
});
