/** Protocol versions 0.9 to 3 as typed data (spec "Versioning" table), corrected against the RFCs. */

export type HttpVersion = '0.9' | '1.0' | '1.1' | '2' | '3';

export interface VersionInfo {
  readonly version: HttpVersion;
  /** Defining document(s): the historical one first, the current one last. */
  readonly rfcs: readonly string[];
  readonly year: number;
  readonly framing: 'text' | 'binary';
  readonly transport: 'TCP' | 'QUIC over UDP';
  readonly hasStatusLine: boolean;
  readonly hasHeaders: boolean;
  readonly persistentByDefault: boolean;
  readonly methods: readonly string[];
  readonly features: readonly string[];
  readonly notes: readonly string[];
}

const version = (v: VersionInfo): VersionInfo => Object.freeze(v);

export const HTTP_VERSIONS = Object.freeze([
  version({
    version: '0.9',
    rfcs: ['"The Original HTTP as defined in 1991" (W3C note)'],
    year: 1991,
    framing: 'text',
    transport: 'TCP',
    hasStatusLine: false,
    hasHeaders: false,
    persistentByDefault: false,
    methods: ['GET'],
    features: ['one-line request: GET /path', 'response is the body alone, ended by closing the connection'],
    notes: ['No status codes: errors are sent as an HTML page describing the problem.'],
  }),
  version({
    version: '1.0',
    rfcs: ['RFC 1945'],
    year: 1996,
    framing: 'text',
    transport: 'TCP',
    hasStatusLine: true,
    hasHeaders: true,
    persistentByDefault: false,
    methods: ['GET', 'HEAD', 'POST'],
    features: [
      'version in the request line',
      'status line',
      'header fields',
      'Content-Type: any media type',
      'opt-in Connection: keep-alive (never standardized in RFC 1945)',
    ],
    notes: ['A 1.0 message carrying Transfer-Encoding has faulty framing and the connection must close after it (RFC 9112 §6.1).'],
  }),
  version({
    version: '1.1',
    rfcs: ['RFC 2068', 'RFC 2616', 'RFC 7230', 'RFC 9110', 'RFC 9112'],
    year: 1997,
    framing: 'text',
    transport: 'TCP',
    hasStatusLine: true,
    hasHeaders: true,
    persistentByDefault: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE'],
    features: [
      'persistent connections by default (RFC 9112 §9.3)',
      'pipelining (RFC 9112 §9.3.2)',
      'chunked transfer coding (RFC 9112 §7.1)',
      'Host required (RFC 9112 §3.2)',
      'Cache-Control',
      'content negotiation',
      '100-continue',
    ],
    notes: [
      'PATCH is often listed among the 1.1 methods; it is an extension method from RFC 5789 (2010), not part of HTTP/1.1 itself.',
      'The Keep-Alive header was never standardized; persistence is signalled by the absence of "Connection: close".',
    ],
  }),
  version({
    version: '2',
    rfcs: ['RFC 7540', 'RFC 9113'],
    year: 2015,
    framing: 'binary',
    transport: 'TCP',
    hasStatusLine: false,
    hasHeaders: true,
    persistentByDefault: true,
    methods: [],
    features: [
      'binary frames',
      'multiplexed streams on one connection',
      'HPACK header compression (RFC 7541)',
      'server push (deprecated in practice)',
      'pseudo-header fields (:method, :scheme, :authority, :path, :status)',
    ],
    notes: [
      'Semantics (methods, status codes, fields) are shared with every version (RFC 9110); "methods" is empty because 2 adds none.',
      'Transfer-Encoding and other connection-specific fields are forbidden (RFC 9113 §8.2.2); the PRIORITY scheme of RFC 7540 is deprecated by RFC 9113 §5.3.',
    ],
  }),
  version({
    version: '3',
    rfcs: ['RFC 9114', 'RFC 9000', 'RFC 9204'],
    year: 2022,
    framing: 'binary',
    transport: 'QUIC over UDP',
    hasStatusLine: false,
    hasHeaders: true,
    persistentByDefault: true,
    methods: [],
    features: [
      'QUIC streams: a lost packet stalls only its own stream',
      'TLS 1.3 built into the QUIC handshake (RFC 9001)',
      '1-RTT first connection, 0-RTT resumption',
      'QPACK header compression (RFC 9204)',
    ],
    notes: [
      'Often said: HTTP/3 needs no slow start. QUIC still runs congestion control with slow start (RFC 9002 §7.3.1). What QUIC removes is the separate TCP handshake and head-of-line blocking across streams.',
    ],
  }),
] as const satisfies readonly VersionInfo[]);

export const versionInfo = (v: HttpVersion): VersionInfo => {
  const found = HTTP_VERSIONS.find((x) => x.version === v);
  if (!found) throw new RangeError(`unknown HTTP version ${String(v)}`);
  return found;
};
