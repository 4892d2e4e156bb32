/**
 * Test corpus shared by the parser tests and the benchmark: valid messages and one malformed message per
 * error code (most of them request smuggling or response splitting vectors, RFC 9112 §11). Not public.
 */
import type { Http1ErrorCode } from './codes';
import type { ParseHttp1Options } from './parse';

export interface InvalidCase {
  readonly name: string;
  readonly input: string;
  readonly code: Http1ErrorCode;
  readonly opts?: Partial<ParseHttp1Options>;
  /** Default 'server' (the input is requests). */
  readonly role?: 'server' | 'client';
}

const H = 'Host: example.com\r\n';

export const INVALID_CASES: readonly InvalidCase[] = [
  { name: 'bare LF ends the request line', input: `GET / HTTP/1.1\n${H}\r\n`, code: 'bare-lf' },
  { name: 'bare LF ends a field line', input: `GET / HTTP/1.1\r\nHost: a\n\r\n`, code: 'bare-lf' },
  { name: 'bare LF ends the header section', input: `GET / HTTP/1.1\r\n${H}\n`, code: 'bare-lf' },
  { name: 'bare CR inside a field value', input: `GET / HTTP/1.1\r\n${H}X-A: a\rb\r\n\r\n`, code: 'bare-cr' },
  { name: 'whitespace between field name and colon', input: `GET / HTTP/1.1\r\n${H}Content-Length : 5\r\n\r\nhello`, code: 'whitespace-before-colon' },
  { name: 'tab between field name and colon', input: `GET / HTTP/1.1\r\n${H}Transfer-Encoding\t: chunked\r\n\r\n0\r\n\r\n`, code: 'whitespace-before-colon' },
  { name: 'obs-fold continuation line', input: `GET / HTTP/1.1\r\n${H}X-A: one\r\n two\r\n\r\n`, code: 'obs-fold' },
  { name: 'folded Transfer-Encoding', input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n`, code: 'obs-fold' },
  { name: 'whitespace line after the request line', input: `GET / HTTP/1.1\r\n Host: evil\r\n${H}\r\n`, code: 'whitespace-after-start-line' },
  {
    name: 'Transfer-Encoding with Content-Length (CL.TE)',
    input: `POST / HTTP/1.1\r\n${H}Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG`,
    code: 'te-and-cl',
  },
  {
    name: 'two different Content-Length lines',
    input: `POST / HTTP/1.1\r\n${H}Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd`,
    code: 'conflicting-content-length',
  },
  { name: 'Content-Length list with different values', input: `POST / HTTP/1.1\r\n${H}Content-Length: 3, 4\r\n\r\nabcd`, code: 'conflicting-content-length' },
  {
    name: 'the same Content-Length twice',
    input: `POST / HTTP/1.1\r\n${H}Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc`,
    code: 'duplicate-content-length',
  },
  { name: 'signed Content-Length', input: `POST / HTTP/1.1\r\n${H}Content-Length: +3\r\n\r\nabc`, code: 'invalid-content-length' },
  { name: 'negative Content-Length', input: `POST / HTTP/1.1\r\n${H}Content-Length: -1\r\n\r\n`, code: 'invalid-content-length' },
  { name: 'hex Content-Length', input: `POST / HTTP/1.1\r\n${H}Content-Length: 0x3\r\n\r\nabc`, code: 'invalid-content-length' },
  { name: 'Content-Length too long to be exact', input: `POST / HTTP/1.1\r\n${H}Content-Length: 99999999999999999999\r\n\r\n`, code: 'invalid-content-length' },
  { name: 'empty Content-Length', input: `POST / HTTP/1.1\r\n${H}Content-Length:\r\n\r\n`, code: 'invalid-content-length' },
  { name: 'chunk size not hex', input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nzz\r\n`, code: 'invalid-chunk-size' },
  {
    name: 'chunk size with 0x prefix',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n`,
    code: 'invalid-chunk-size',
  },
  {
    name: 'chunk size with leading space',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n 5\r\nhello\r\n0\r\n\r\n`,
    code: 'invalid-chunk-size',
  },
  {
    name: 'request-target over the limit (414)',
    input: `GET /${'a'.repeat(64)} HTTP/1.1\r\n${H}\r\n`,
    code: 'request-target-too-long',
    opts: { maxTargetBytes: 32 },
  },
  {
    name: 'Content-Length over the body limit (413)',
    input: `POST / HTTP/1.1\r\n${H}Content-Length: 5\r\n\r\nhello`,
    code: 'content-too-large',
    opts: { maxBodyBytes: 4 },
  },
  {
    name: 'chunks over the body limit (413)',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    code: 'content-too-large',
    opts: { maxBodyBytes: 4 },
  },
  {
    name: 'chunk size overflow',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n10000000000000005\r\nhello\r\n0\r\n\r\n`,
    code: 'invalid-chunk-size',
  },
  { name: 'chunk size with a sign', input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n-5\r\n`, code: 'invalid-chunk-size' },
  {
    name: 'control byte in a chunk extension',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5;a\x01=b\r\nhello\r\n0\r\n\r\n`,
    code: 'invalid-chunk-ext',
  },
  {
    name: 'chunk extension without a name',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5;=b\r\nhello\r\n0\r\n\r\n`,
    code: 'invalid-chunk-ext',
  },
  {
    name: 'whitespace after the chunk size',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n`,
    code: 'invalid-chunk-ext',
  },
  {
    name: 'chunk extension abuse (huge line)',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5;${'a'.repeat(5000)}\r\nhello\r\n0\r\n\r\n`,
    code: 'chunk-line-too-long',
  },
  {
    name: 'chunk data longer than its size',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n`,
    code: 'missing-chunk-crlf',
  },
  { name: 'bare LF after chunk data', input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n3\r\nabc\n0\r\n\r\n`, code: 'bare-lf' },
  { name: 'invalid method token', input: `G(T / HTTP/1.1\r\n${H}\r\n`, code: 'invalid-method' },
  { name: 'invalid field name token', input: `GET / HTTP/1.1\r\n${H}X@Y: 1\r\n\r\n`, code: 'invalid-field-name' },
  { name: 'empty field name', input: `GET / HTTP/1.1\r\n${H}: 1\r\n\r\n`, code: 'invalid-field-name' },
  { name: 'field line without colon', input: `GET / HTTP/1.1\r\n${H}NoColonHere\r\n\r\n`, code: 'invalid-field-line' },
  { name: 'NUL in a field value', input: `GET / HTTP/1.1\r\n${H}X-A: a\0b\r\n\r\n`, code: 'invalid-field-value' },
  {
    name: 'header section over the limit',
    input: `GET / HTTP/1.1\r\n${H}X-Big: ${'a'.repeat(200)}\r\n\r\n`,
    code: 'header-section-too-large',
    opts: { maxHeaderBytes: 128 },
  },
  { name: 'request line over the limit, no LF yet', input: `GET /${'a'.repeat(300)}`, code: 'header-section-too-large', opts: { maxHeaderBytes: 128 } },
  { name: 'Transfer-Encoding in HTTP/1.0', input: `POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, code: 'te-in-http10' },
  {
    name: 'request Transfer-Encoding not ending in chunked',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked, gzip\r\n\r\n`,
    code: 'te-chunked-repeated',
  },
  { name: 'request Transfer-Encoding gzip only', input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: gzip\r\n\r\nabc`, code: 'te-not-chunked-final' },
  {
    name: 'chunked applied twice',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    code: 'te-chunked-repeated',
  },
  { name: 'unknown transfer coding', input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: xchunked, chunked\r\n\r\n0\r\n\r\n`, code: 'te-unknown-coding' },
  { name: 'chunked with a parameter', input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked;q=1\r\n\r\n0\r\n\r\n`, code: 'invalid-transfer-encoding' },
  { name: 'control byte in Transfer-Encoding', input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: \x0bchunked\r\n\r\n0\r\n\r\n`, code: 'invalid-field-value' },
  { name: 'missing Host in HTTP/1.1', input: 'GET / HTTP/1.1\r\nAccept: */*\r\n\r\n', code: 'missing-host' },
  { name: 'two Host lines', input: `GET / HTTP/1.1\r\n${H}Host: evil.example\r\n\r\n`, code: 'duplicate-host' },
  { name: 'Host with a path', input: 'GET / HTTP/1.1\r\nHost: a.example/evil\r\n\r\n', code: 'invalid-host' },
  { name: 'two spaces in the request line', input: `GET  / HTTP/1.1\r\n${H}\r\n`, code: 'request-line-whitespace' },
  { name: 'tab in the request line', input: `GET\t/ HTTP/1.1\r\n${H}\r\n`, code: 'request-line-whitespace' },
  { name: 'HTTP/3.0 in a request line', input: `GET / HTTP/3.0\r\n${H}\r\n`, code: 'unsupported-version' },
  { name: 'lowercase version', input: `GET / http/1.1\r\n${H}\r\n`, code: 'invalid-version' },
  { name: 'request line with four parts', input: `GET / HTTP/1.1 extra\r\n${H}\r\n`, code: 'invalid-request-line' },
  { name: '0.9 request with POST', input: 'POST /form\r\n', code: 'invalid-request-line' },
  { name: 'fragment in the request-target', input: `GET /a#frag HTTP/1.1\r\n${H}\r\n`, code: 'invalid-request-target' },
  { name: 'CONNECT with a path', input: `CONNECT /x HTTP/1.1\r\n${H}\r\n`, code: 'invalid-request-target' },
  { name: 'body cut short', input: `POST / HTTP/1.1\r\n${H}Content-Length: 10\r\n\r\nabc`, code: 'incomplete-message' },
  { name: 'header section cut short', input: `GET / HTTP/1.1\r\n${H}`, code: 'incomplete-message' },
  { name: 'chunked body cut short', input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5\r\nhel`, code: 'incomplete-message' },
  { name: 'request after HTTP/1.0 without keep-alive', input: 'GET /a HTTP/1.0\r\n\r\nGET /b HTTP/1.0\r\n\r\n', code: 'data-after-close' },
  { name: 'request after Connection: close', input: `GET /a HTTP/1.1\r\n${H}Connection: close\r\n\r\nGET /b HTTP/1.1\r\n${H}\r\n`, code: 'data-after-close' },
  {
    name: 'Content-Length in the trailers',
    input: `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n0\r\nContent-Length: 5\r\n\r\n`,
    code: 'forbidden-trailer-field',
  },
  { name: 'response: status code with four digits', input: 'HTTP/1.1 2000 OK\r\n\r\n', code: 'invalid-status-code', role: 'client' },
  { name: 'response: status code below 100', input: 'HTTP/1.1 099 Odd\r\n\r\n', code: 'invalid-status-code', role: 'client' },
  { name: 'response: not a status line', input: 'HTTX/1.1 200 OK\r\n\r\n', code: 'invalid-version', role: 'client' },
  { name: 'response: garbage start line', input: 'hello\r\n\r\n', code: 'invalid-status-line', role: 'client' },
  {
    name: 'response: TE and CL',
    input: 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    code: 'te-and-cl',
    role: 'client',
  },
  { name: 'response: bare CR in the reason', input: 'HTTP/1.1 200 O\rK\r\nContent-Length: 0\r\n\r\n', code: 'bare-cr', role: 'client' },
  { name: 'response: split by an injected LF', input: 'HTTP/1.1 200 OK\r\nSet-Cookie: a\nContent-Length: 0\r\n\r\n', code: 'bare-lf', role: 'client' },
];

/** Valid requests, pipelined (for the incremental tests and the benchmark). */
export const VALID_REQUESTS: readonly string[] = [
  `GET / HTTP/1.1\r\n${H}\r\n`,
  `GET /search?q=http&lang=en HTTP/1.1\r\nHost: example.com\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\nAccept: text/html,application/xhtml+xml\r\nAccept-Language: en-US,en;q=0.5\r\nAccept-Encoding: gzip, deflate, br\r\nConnection: keep-alive\r\nCookie: session=abc123; theme=dark\r\n\r\n`,
  `POST /api/items HTTP/1.1\r\n${H}Content-Type: application/json\r\nContent-Length: 27\r\n\r\n{"name":"widget","qty":42}\n`,
  `PUT /upload HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Checksum: abc\r\n\r\n`,
  `\r\nOPTIONS * HTTP/1.1\r\n${H}\r\n`,
  `GET http://example.com/abs HTTP/1.1\r\n${H}X-Obs: caf\xe9\r\nX-Empty:\r\nX-Spaces:   padded value  \r\n\r\n`,
  `HEAD /health HTTP/1.1\r\nhost: example.com\r\nCONTENT-LENGTH: 0\r\n\r\n`,
  `DELETE /items/7 HTTP/1.1\r\n${H}Content-Length: 0\r\n\r\n`,
  'GET /legacy HTTP/1.0\r\nConnection: keep-alive\r\n\r\n',
];

/** Valid responses, pipelined, all answering GET. */
export const VALID_RESPONSES: readonly string[] = [
  'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello',
  'HTTP/1.1 100 Continue\r\n\r\n',
  'HTTP/1.1 201 Created\r\nLocation: /items/8\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;note="a b"\r\npedia\r\n0\r\nServer-Timing: db;dur=53\r\n\r\n',
  'HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n',
  'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\nContent-Length: 100\r\n\r\n',
  'HTTP/1.1 404 \r\nContent-Length: 9\r\n\r\nnot found',
  'HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok',
  'HTTP/1.1 200 OK\r\nDate: Mon, 27 Jul 2009 12:28:53 GMT\r\nServer: Apache\r\nLast-Modified: Wed, 22 Jul 2009 19:15:56 GMT\r\nETag: "34aa387-d-1568eb00"\r\nAccept-Ranges: bytes\r\nContent-Length: 51\r\nVary: Accept-Encoding\r\nContent-Type: text/plain\r\n\r\nHello World! My payload includes a trailing CRLF.\r\n',
];

export const latin1Encode = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
