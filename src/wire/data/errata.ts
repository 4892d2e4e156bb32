/**
 * Common misconceptions about HTTP, and what the RFCs say instead, each with its public source. The data
 * tables and the engines follow the "actually" column; the docs render rows as "Common misconceptions".
 */

export interface SpecErratum {
  readonly id: string;
  /** The topic the claim belongs to; a page shows the rows of one topic. */
  readonly where: string;
  /** The claim as it is often made. */
  readonly specSays: string;
  /** What the RFCs say instead. */
  readonly rfcSays: string;
  readonly source: string;
}

export const SPEC_ERRATA: readonly SpecErratum[] = Object.freeze(
  [
    { id: 'trace-safe', where: 'Methods', specSays: 'TRACE is not safe.', rfcSays: 'TRACE is safe, with GET, HEAD and OPTIONS.', source: 'RFC 9110 §9.2.1' },
    {
      id: 'post-cacheable',
      where: 'Methods',
      specSays: 'POST is cacheable: Yes.',
      rfcSays: 'A POST response is cacheable only with explicit freshness information and a matching Content-Location; caches rarely store it.',
      source: 'RFC 9110 §9.3.3',
    },
    {
      id: 'options-idempotent',
      where: 'Methods',
      specSays: 'OPTIONS is not idempotent.',
      rfcSays: 'All safe methods are idempotent; OPTIONS is safe.',
      source: 'RFC 9110 §9.2.2',
    },
    {
      id: 'connect-bodies',
      where: 'Methods',
      specSays: 'CONNECT: request body Optional, response body Yes.',
      rfcSays: 'A CONNECT request has no content; a 2xx response to it has none either and turns the connection into a tunnel.',
      source: 'RFC 9110 §9.3.6, RFC 9112 §6.3',
    },
    {
      id: 'rfc-7231',
      where: 'Methods',
      specSays: 'Methods are defined by RFC 7231.',
      rfcSays: 'RFC 7231 is obsoleted by RFC 9110 (June 2022).',
      source: 'RFC 9110',
    },
    {
      id: 'patch-in-1.1',
      where: 'Versions',
      specSays: 'PATCH is one of the methods 1.1 introduced.',
      rfcSays: 'PATCH is an extension method defined in 2010, outside the HTTP/1.1 documents.',
      source: 'RFC 5789',
    },
    {
      id: 'trailer-hop-by-hop',
      where: 'Header groups',
      specSays: 'Trailer is hop-by-hop.',
      rfcSays:
        'A proxy must remove Connection and the fields it names, and should remove fields known to be connection-specific, a list "not limited to" Proxy-Connection, Keep-Alive, TE, Transfer-Encoding and Upgrade; Trailer is not among them.',
      source: 'RFC 9110 §7.6.1',
    },
    {
      id: 'payload-headers',
      where: 'Header groups',
      specSays: '"Payload headers" (Content-Length, Transfer-Encoding).',
      rfcSays: 'RFC 9110 dropped the term: Content-Length is content metadata, Transfer-Encoding is HTTP/1.1 message framing.',
      source: 'RFC 9110 §6.4, §8.6; RFC 9112 §6.1',
    },
    {
      id: 'whitespace-around-crlf',
      where: 'Field syntax',
      specSays: 'No whitespace may be added around CR LF; whitespace in front of a value is ignored.',
      rfcSays: 'A field line allows optional whitespace both before and after the value (OWS), and neither is part of the value.',
      source: 'RFC 9112 §5',
    },
    {
      id: 'status-line-crlf',
      where: 'Status line',
      specSays: 'Status line = version, code, reason phrase.',
      rfcSays: 'The status line ends with CRLF and the reason phrase may be empty, but the space before it is still sent.',
      source: 'RFC 9112 §4',
    },
    {
      id: 'connectionless',
      where: 'Connections',
      specSays: 'The 1.x protocol is connectionless by default.',
      rfcSays: 'Only 1.0 closes by default; 1.1 connections persist unless "Connection: close" is sent.',
      source: 'RFC 9112 §9.3',
    },
    {
      id: 'quic-slow-start',
      where: 'Versions',
      specSays: 'HTTP/3 needs no slow start.',
      rfcSays: 'QUIC keeps congestion control with slow start; it removes the TCP handshake and cross-stream head-of-line blocking.',
      source: 'RFC 9002 §7.3.1',
    },
    {
      id: 'goaway-meaning',
      where: 'HTTP/2 frames',
      specSays: 'GOAWAY tells the peer about new streams received.',
      rfcSays: 'GOAWAY starts shutdown and carries the last stream id the sender processed or may process.',
      source: 'RFC 9113 §6.8',
    },
    {
      id: 'priority-frame',
      where: 'HTTP/2 frames',
      specSays: 'PRIORITY shows or changes stream priority.',
      rfcSays: 'The RFC 7540 priority scheme is deprecated; PRIORITY frames are still parsed but carry no required meaning.',
      source: 'RFC 9113 §5.3.2, §6.3',
    },
    {
      id: 'accept-in-1.0',
      where: 'Headers',
      specSays: 'Content negotiation headers are 1.1.',
      rfcSays: 'Accept, Accept-Encoding and Accept-Language already appear in HTTP/1.0 (Appendix D.2); 1.1 made them normative.',
      source: 'RFC 1945 Appendix D.2',
    },
  ].map((e) => Object.freeze(e)),
);
