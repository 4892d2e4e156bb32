/**
 * Cases for the differential test against Node's llhttp (differential.test.ts): requests and responses
 * covering start lines, versions, whitespace, obs-fold, CR/LF variants, Content-Length and
 * Transfer-Encoding forms, chunk extensions and trailers, empty lines, methods, targets, odd bytes in field
 * names and values, and pipelining. Each case is only input; what both parsers make of it is computed, and
 * the cases where they part are listed with their reason in differential.test.ts. Not public.
 */

export interface DiffCase {
  readonly name: string;
  /** 'server' reads requests, 'client' reads responses. */
  readonly role: 'server' | 'client';
  readonly input: string;
  /** For responses: the method of the request they answer (default GET). */
  readonly method?: string;
}

const H = 'Host: example.com\r\n';
const req = (name: string, input: string): DiffCase => ({ name, role: 'server', input });
const res = (name: string, input: string, method?: string): DiffCase => ({ name, role: 'client', input, ...(method ? { method } : {}) });
const get = (extra = '', version = 'HTTP/1.1') => `GET / ${version}\r\n${H}${extra}\r\n`;
const post = (fields: string, body: string) => `POST /p HTTP/1.1\r\n${H}${fields}\r\n${body}`;
const chunkedPost = (body: string, fields = '') => post(`Transfer-Encoding: chunked\r\n${fields}`, body);
const ok = (fields: string, body = '') => `HTTP/1.1 200 OK\r\n${fields}\r\n${body}`;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PATCH', 'PROPFIND', 'MKCOL', 'PURGE', 'LINK', 'REPORT', 'SEARCH'];

const startLines: DiffCase[] = [
  ...METHODS.map((m) => req(`method ${m}`, `${m} /x HTTP/1.1\r\n${H}Content-Length: 0\r\n\r\n`)),
  req('method lowercase get', `get / HTTP/1.1\r\n${H}\r\n`),
  req('method unknown token FOO', `FOO / HTTP/1.1\r\n${H}\r\n`),
  req('method with a bracket', `G(T / HTTP/1.1\r\n${H}\r\n`),
  req('CONNECT authority-form', `CONNECT example.com:443 HTTP/1.1\r\n${H}\r\n`),
  req('CONNECT with a path', `CONNECT /x HTTP/1.1\r\n${H}\r\n`),
  req('OPTIONS asterisk', `OPTIONS * HTTP/1.1\r\n${H}\r\n`),
  req('GET asterisk', `GET * HTTP/1.1\r\n${H}\r\n`),
  req('absolute-form target', `GET http://example.com/a?b HTTP/1.1\r\n${H}\r\n`),
  req('target with query', `GET /a?b=c&d=%20e HTTP/1.1\r\n${H}\r\n`),
  req('target with a fragment', `GET /a#frag HTTP/1.1\r\n${H}\r\n`),
  req('target with a high byte', `GET /caf\xe9 HTTP/1.1\r\n${H}\r\n`),
  req('target with a control byte', `GET /a\x01b HTTP/1.1\r\n${H}\r\n`),
  req('target not starting with slash', `GET a/b HTTP/1.1\r\n${H}\r\n`),
  req('two spaces after method', `GET  / HTTP/1.1\r\n${H}\r\n`),
  req('tab after method', `GET\t/ HTTP/1.1\r\n${H}\r\n`),
  req('space before CRLF of request line', `GET / HTTP/1.1 \r\n${H}\r\n`),
  req('leading space in request line', ` GET / HTTP/1.1\r\n${H}\r\n`),
  req('four parts in request line', `GET / HTTP/1.1 x\r\n${H}\r\n`),
  req('HTTP/1.0', 'GET / HTTP/1.0\r\n\r\n'),
  req('HTTP/1.2', `GET / HTTP/1.2\r\n${H}\r\n`),
  req('HTTP/1.9', `GET / HTTP/1.9\r\n${H}\r\n`),
  req('HTTP/2.0 in request line', `GET / HTTP/2.0\r\n${H}\r\n`),
  req('HTTP/0.9 with version', `GET / HTTP/0.9\r\n${H}\r\n`),
  req('lowercase http', `GET / http/1.1\r\n${H}\r\n`),
  req('version 1.10', `GET / HTTP/1.10\r\n${H}\r\n`),
  req('version with letter', `GET / HTTP/1.x\r\n${H}\r\n`),
  req('version cut short', `GET / HTTP/1\r\n${H}\r\n`),
  req('invalid version, header section not finished', 'GET / HTTP/1.x\r\nHost: a'),
  req('version followed by junk, line not finished', 'GET / HTTP/1.1x'),
  req('request line ends with CR then junk', 'GET / HTTP/1.1\rX'),
  req('request line bare LF', `GET / HTTP/1.1\n${H}\r\n`),
  req('HTTP/0.9 simple request', 'GET /index.html\r\n'),
  req('PRI preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
  // Fail fast (issue #29): an invalid version is judged when it is read, not at the line's end.
  req('HTTP/5.6, line not finished', 'GET / HTTP/5.6'),
  req('HTTP/5.6', `GET / HTTP/5.6\r\n${H}\r\n`),
  req('version letter, line not finished', 'GET / HTTP/1.x'),
];

const emptyLines: DiffCase[] = [
  req('CRLF before request line', `\r\n${get()}`),
  req('two CRLF before request line', `\r\n\r\n${get()}`),
  req('bare LF before request line', `\n${get()}`),
  req('CRLF between pipelined requests', `${get()}\r\n${get()}`),
  res('CRLF before status line', '\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na'),
  res('two CRLF before status line', '\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na'),
  res('CRLF after a 304, before the next response', 'HTTP/1.1 304 Not Modified\r\n\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na'),
  res('CRLF between pipelined responses', 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb'),
  res('bare LF before status line', '\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na'),
];

const statusLines: DiffCase[] = [
  res('200 OK with body', ok('Content-Length: 5\r\n', 'hello')),
  res('status without reason, with SP', 'HTTP/1.1 404 \r\nContent-Length: 0\r\n\r\n'),
  res('status without reason or SP', 'HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n'),
  res('reason with high bytes', 'HTTP/1.1 200 \xc4\xd6K\r\nContent-Length: 0\r\n\r\n'),
  res('reason with tab', 'HTTP/1.1 200 O\tK\r\nContent-Length: 0\r\n\r\n'),
  res('status 099', 'HTTP/1.1 099 X\r\nContent-Length: 0\r\n\r\n'),
  res('status 600', 'HTTP/1.1 600 X\r\nContent-Length: 0\r\n\r\n'),
  res('status with four digits', 'HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n'),
  res('status with two digits', 'HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n'),
  res('status HTTP/1.0', 'HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\na'),
  res('status HTTP/1.2', 'HTTP/1.2 200 OK\r\nContent-Length: 1\r\n\r\na'),
  res('status HTTP/2.0', 'HTTP/2.0 200 OK\r\nContent-Length: 1\r\n\r\na'),
  res('status lowercase http', 'http/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'),
  res('status line garbage', 'hello\r\n\r\n'),
  res('status line bare LF', 'HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n'),
  res('status line ends with CR then junk', 'HTTP/1.1 200 OK\rX'),
  res('two spaces after version', 'HTTP/1.1  200 OK\r\nContent-Length: 0\r\n\r\n'),
  res('100 Continue then 200', 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na'),
  res('103 Early Hints then 200', 'HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'),
  res('204 with Content-Length', 'HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n'),
  res('304 with Content-Length', 'HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n'),
  res('HEAD response with Content-Length', ok('Content-Length: 10\r\n'), 'HEAD'),
  res('no framing: read until close', ok('', 'all of this')),
  res('HTTP/1.0 no framing: read until close', 'HTTP/1.0 200 OK\r\n\r\nall of this'),
];

const whitespace: DiffCase[] = [
  req('space after start line', `GET / HTTP/1.1\r\n Host: evil\r\n${H}\r\n`),
  req('space after start line, section not finished', 'GET / HTTP/1.1\r\n Host: evil\r\n'),
  req('tab after start line', `GET / HTTP/1.1\r\n\tX: y\r\n${H}\r\n`),
  res('space after status line', 'HTTP/1.1 200 OK\r\n X: y\r\nContent-Length: 0\r\n\r\n'),
  res('space after status line, section not finished', 'HTTP/1.1 200 OK\r\n Host: foo\r\n'),
  req('space after start line, line not finished', 'GET / HTTP/1.1\r\n Host: foo'),
  req('obs-fold', `GET / HTTP/1.1\r\n${H}X-A: one\r\n two\r\n\r\n`),
  req('obs-fold with tab', `GET / HTTP/1.1\r\n${H}X-A: one\r\n\ttwo\r\n\r\n`),
  res('obs-fold in a response', 'HTTP/1.1 200 OK\r\nX-A: one\r\n two\r\nContent-Length: 0\r\n\r\n'),
  req('space before colon', `GET / HTTP/1.1\r\n${H}X-A : b\r\n\r\n`),
  req('tab before colon', `GET / HTTP/1.1\r\n${H}X-A\t: b\r\n\r\n`),
  req('space before colon in Content-Length', post('Content-Length : 5\r\n', 'hello')),
  req('no space after colon', get('X-A:b\r\n')),
  req('many spaces around value', get('X-A:    b    \r\n')),
  req('tabs around value', get('X-A:\tb\t\r\n')),
  req('empty value', get('X-A:\r\n')),
  req('value only whitespace', get('X-A:   \r\n')),
  req('space inside value', get('X-A: a b  c\r\n')),
];

const lineEnds: DiffCase[] = [
  req('bare LF after a field line', 'GET / HTTP/1.1\r\nHost: a\n\r\n'),
  req('bare LF ends the section', `GET / HTTP/1.1\r\n${H}\n`),
  req('all bare LF', 'GET / HTTP/1.1\nHost: a\n\n'),
  req('bare CR in a value', get('X-A: a\rb\r\n')),
  req('bare CR in a value, section not finished', 'GET / HTTP/1.1\r\nX-A: a\rb'),
  req('CR CR LF ends a field line', `GET / HTTP/1.1\r\n${H}X-A: a\r\r\n\r\n`),
  req('CR at the end of the section without LF', `GET / HTTP/1.1\r\n${H}\rX`),
  res('bare LF injected into a response field', 'HTTP/1.1 200 OK\r\nSet-Cookie: a\nContent-Length: 0\r\n\r\n'),
  res('bare CR in a response field', 'HTTP/1.1 200 OK\r\nX-A: a\rb\r\nContent-Length: 0\r\n\r\n'),
  res('bare CR in a response field, section not finished', 'HTTP/1.1 200 OK\r\nX-A: a\rb'),
  res('CR in the reason phrase', 'HTTP/1.1 200 O\rK\r\nContent-Length: 0\r\n\r\n'),
];

const fieldBytes: DiffCase[] = [
  req('header name with @', get('X@Y: 1\r\n')),
  req('header name with space inside', get('X Y: 1\r\n')),
  req('header name with high byte', get('X\xe9: 1\r\n')),
  req('header name with tchar symbols', get("X!#$%&'*+-.^_`|~: 1\r\n")),
  req('empty header name', get(': 1\r\n')),
  req('field line without colon', get('NoColon\r\n')),
  req('NUL in value', get('X-A: a\0b\r\n')),
  req('DEL in value', get('X-A: a\x7fb\r\n')),
  req('vertical tab in value', get('X-A: a\x0bb\r\n')),
  req('form feed in value', get('X-A: a\x0cb\r\n')),
  req('obs-text in value', get('X-A: caf\xe9\r\n')),
  req('high bytes only in value', get('X-A: \xff\xfe\r\n')),
  req('colon in value', get('X-A: a:b:c\r\n')),
  req('quotes in value', get('X-A: "a, b"\r\n')),
  req('many headers', get(Array.from({ length: 20 }, (_, i) => `X-${i}: ${i}\r\n`).join(''))),
  req('header names differ only in case', get('x-a: 1\r\nX-A: 2\r\n')),
  req('long value', get(`X-A: ${'v'.repeat(3000)}\r\n`)),
  res('response header name with @', 'HTTP/1.1 200 OK\r\nX@Y: 1\r\nContent-Length: 0\r\n\r\n'),
  res('response NUL in value', 'HTTP/1.1 200 OK\r\nX-A: a\0b\r\nContent-Length: 0\r\n\r\n'),
  res('response obs-text in value', 'HTTP/1.1 200 OK\r\nX-A: caf\xe9\r\nContent-Length: 0\r\n\r\n'),
];

const host: DiffCase[] = [
  req('missing Host in HTTP/1.1', 'GET / HTTP/1.1\r\nAccept: */*\r\n\r\n'),
  req('missing Host in HTTP/1.0', 'GET / HTTP/1.0\r\nAccept: */*\r\n\r\n'),
  req('two Host lines', `GET / HTTP/1.1\r\n${H}Host: evil.example\r\n\r\n`),
  req('Host with port', 'GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n'),
  req('Host IPv6 literal', 'GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n'),
  req('Host with a path', 'GET / HTTP/1.1\r\nHost: a.example/evil\r\n\r\n'),
  req('empty Host', 'GET / HTTP/1.1\r\nHost:\r\n\r\n'),
];

const contentLength: DiffCase[] = [
  req('Content-Length 5', post('Content-Length: 5\r\n', 'hello')),
  req('Content-Length 0', post('Content-Length: 0\r\n', '')),
  req('Content-Length with leading zeros', post('Content-Length: 005\r\n', 'hello')),
  req('Content-Length with OWS', post('Content-Length:   5  \r\n', 'hello')),
  req('Content-Length signed', post('Content-Length: +5\r\n', 'hello')),
  req('Content-Length negative', post('Content-Length: -1\r\n', '')),
  req('Content-Length hex', post('Content-Length: 0x5\r\n', 'hello')),
  req('Content-Length with a space inside', post('Content-Length: 1 2\r\n', 'hello world!')),
  req('Content-Length empty', post('Content-Length:\r\n', '')),
  req('Content-Length overflow', post('Content-Length: 99999999999999999999\r\n', '')),
  req('Content-Length overflow, section not finished', `POST / HTTP/1.1\r\n${H}Content-Length: 99999999999999999999\r\n`),
  req('Content-Length 2^64', post('Content-Length: 18446744073709551616\r\n', '')),
  req('two equal Content-Length lines', post('Content-Length: 5\r\nContent-Length: 5\r\n', 'hello')),
  req('two different Content-Length lines', post('Content-Length: 3\r\nContent-Length: 4\r\n', 'abcd')),
  req('two different Content-Length lines, section not finished', `POST / HTTP/1.1\r\n${H}Content-Length: 3\r\nContent-Length: 4\r\n`),
  req('two equal Content-Length lines, section not finished', `POST / HTTP/1.1\r\n${H}Content-Length: 3\r\nContent-Length: 3\r\n`),
  req('Content-Length list with equal values', post('Content-Length: 5, 5\r\n', 'hello')),
  req('Content-Length list with different values', post('Content-Length: 3, 4\r\n', 'abcd')),
  req('body shorter than Content-Length', post('Content-Length: 10\r\n', 'abc')),
  req('body longer than Content-Length (next request garbage)', post('Content-Length: 3\r\n', 'abcdef')),
  req('Content-Length then pipelined GET', `${post('Content-Length: 3\r\n', 'abc')}${get()}`),
  req('GET with a Content-Length body', `GET / HTTP/1.1\r\n${H}Content-Length: 3\r\n\r\nabc`),
  req('Content-Length and chunked (CL.TE)', post('Content-Length: 6\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\nG')),
  req('chunked and Content-Length (TE.CL)', post('Transfer-Encoding: chunked\r\nContent-Length: 3\r\n', '0\r\n\r\n')),
  res('response Content-Length 5', ok('Content-Length: 5\r\n', 'hello')),
  res('response two different Content-Length', ok('Content-Length: 3\r\nContent-Length: 4\r\n', 'abcd')),
  res('response Content-Length signed', ok('Content-Length: +3\r\n', 'abc')),
  res('response Content-Length overflow', ok('Content-Length: 99999999999999999999\r\n')),
  res('response Content-Length and chunked', ok('Content-Length: 3\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n')),
  res('response body cut short', ok('Content-Length: 10\r\n', 'abc')),
];

const transferEncoding: DiffCase[] = [
  req('chunked body', chunkedPost('5\r\nhello\r\n0\r\n\r\n')),
  req('chunked uppercase', post('Transfer-Encoding: CHUNKED\r\n', '5\r\nhello\r\n0\r\n\r\n')),
  req('chunked with OWS', post('Transfer-Encoding:   chunked  \r\n', '5\r\nhello\r\n0\r\n\r\n')),
  req('chunked twice in a list', post('Transfer-Encoding: chunked, chunked\r\n', '0\r\n\r\n')),
  req('chunked on two lines', post('Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n')),
  req('chunked then gzip', post('Transfer-Encoding: chunked, gzip\r\n', '0\r\n\r\n')),
  req('gzip only', post('Transfer-Encoding: gzip\r\n', 'abc')),
  req('identity only', post('Transfer-Encoding: identity\r\n', 'abc')),
  req('unknown coding then chunked', post('Transfer-Encoding: xchunked, chunked\r\n', '0\r\n\r\n')),
  req('chunked with a parameter', post('Transfer-Encoding: chunked;q=1\r\n', '0\r\n\r\n')),
  req('chunkedx', post('Transfer-Encoding: chunkedx\r\n', '0\r\n\r\n')),
  req('empty Transfer-Encoding', post('Transfer-Encoding:\r\n', '')),
  req('Transfer-Encoding in HTTP/1.0', 'POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'),
  req('folded Transfer-Encoding', post('Transfer-Encoding:\r\n chunked\r\n', '0\r\n\r\n')),
  req('control byte in Transfer-Encoding', post('Transfer-Encoding: \x0bchunked\r\n', '0\r\n\r\n')),
  res('response chunked', ok('Transfer-Encoding: chunked\r\n', '4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n')),
  res('response chunked then gzip: read until close', ok('Transfer-Encoding: chunked, gzip\r\n', 'abc')),
  res('response gzip only: read until close', ok('Transfer-Encoding: gzip\r\n', 'abc')),
  res('response identity: read until close', ok('Transfer-Encoding: identity\r\n', 'abc')),
  res('response unknown coding: read until close', ok('Transfer-Encoding: foo\r\n', 'abc')),
  // RFC 9112 §6.3 rule 4: a response whose final coding is not chunked is read until close (issue #29).
  res('response chunked, deflate: read until close', ok('Transfer-Encoding: chunked, deflate\r\n', 'abc')),
  res('response chunked, identity: read until close', ok('Transfer-Encoding: chunked, identity\r\n', 'abc')),
  res('response chunkedchunked: read until close', ok('Transfer-Encoding: chunkedchunked\r\n', 'abc')),
  req('request chunked, deflate', post('Transfer-Encoding: chunked, deflate\r\n', 'abc')),
  res('response Transfer-Encoding in HTTP/1.0', 'HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'),
];

const chunks: DiffCase[] = [
  req('chunk size uppercase hex', chunkedPost('A\r\n0123456789\r\n0\r\n\r\n')),
  req('chunk size lowercase hex', chunkedPost('a\r\n0123456789\r\n0\r\n\r\n')),
  req('chunk size with leading zeros', chunkedPost('0005\r\nhello\r\n0\r\n\r\n')),
  req('chunk size not hex', chunkedPost('zz\r\n')),
  req('chunk size with 0x', chunkedPost('0x5\r\nhello\r\n0\r\n\r\n')),
  req('chunk size with a sign', chunkedPost('-5\r\nhello\r\n0\r\n\r\n')),
  req('chunk size with leading space', chunkedPost(' 5\r\nhello\r\n0\r\n\r\n')),
  req('chunk size with trailing space', chunkedPost('5 \r\nhello\r\n0\r\n\r\n')),
  req('chunk size overflow', chunkedPost('10000000000000005\r\nhello\r\n0\r\n\r\n')),
  req('chunk extension name only', chunkedPost('5;ext\r\nhello\r\n0\r\n\r\n')),
  req('chunk extension name=value', chunkedPost('5;a=b\r\nhello\r\n0\r\n\r\n')),
  req('chunk extension quoted value', chunkedPost('5;a="b c"\r\nhello\r\n0\r\n\r\n')),
  req('chunk extension quoted with escape', chunkedPost('5;a="b\\"c"\r\nhello\r\n0\r\n\r\n')),
  req('two chunk extensions', chunkedPost('5;a=b;c=d\r\nhello\r\n0\r\n\r\n')),
  req('chunk extension without name', chunkedPost('5;=b\r\nhello\r\n0\r\n\r\n')),
  req('chunk extension with control byte', chunkedPost('5;a\x01=b\r\nhello\r\n0\r\n\r\n')),
  req('chunk extension unterminated quote', chunkedPost('5;a="b\r\nhello\r\n0\r\n\r\n')),
  req('chunk extension on the last chunk', chunkedPost('5\r\nhello\r\n0;end=1\r\n\r\n')),
  req('chunk data longer than its size', chunkedPost('3\r\nabcd\r\n0\r\n\r\n')),
  req('bare LF after chunk data', chunkedPost('3\r\nabc\n0\r\n\r\n')),
  req('bare LF after chunk size', chunkedPost('3\nabc\r\n0\r\n\r\n')),
  req('chunk data without CRLF, then next chunk', chunkedPost('3\r\nabc0\r\n\r\n')),
  req('trailer field', chunkedPost('5\r\nhello\r\n0\r\nX-Checksum: abc\r\n\r\n')),
  req('two trailer fields', chunkedPost('5\r\nhello\r\n0\r\nX-A: 1\r\nX-B: 2\r\n\r\n')),
  req('Content-Length as trailer', chunkedPost('5\r\nhello\r\n0\r\nContent-Length: 5\r\n\r\n')),
  req('invalid trailer name', chunkedPost('5\r\nhello\r\n0\r\nX@Y: 1\r\n\r\n')),
  req('chunked body cut short', chunkedPost('5\r\nhel')),
  req('chunked body missing final CRLF', chunkedPost('5\r\nhello\r\n0\r\n')),
  req('many small chunks', chunkedPost(`${'1\r\na\r\n'.repeat(30)}0\r\n\r\n`)),
  req('chunked then pipelined GET', `${chunkedPost('3\r\nabc\r\n0\r\n\r\n')}${get()}`),
  res('response chunk extension', ok('Transfer-Encoding: chunked\r\n', '5;note="a b"\r\nhello\r\n0\r\n\r\n')),
  res('response trailers', ok('Transfer-Encoding: chunked\r\n', '5\r\nhello\r\n0\r\nServer-Timing: db;dur=53\r\n\r\n')),
  res('response chunk size not hex', ok('Transfer-Encoding: chunked\r\n', 'xyz\r\n')),
  res('response chunked cut short', ok('Transfer-Encoding: chunked\r\n', '5\r\nhel')),
];

const pipelining: DiffCase[] = [
  req('three GETs pipelined', get() + get() + get()),
  req('GET, POST, GET pipelined', get() + post('Content-Length: 2\r\n', 'hi') + get()),
  req('HTTP/1.0 then another request', 'GET /a HTTP/1.0\r\n\r\nGET /b HTTP/1.0\r\n\r\n'),
  req('HTTP/1.0 keep-alive then another', 'GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n'),
  req('Connection: close then another request', `${get('Connection: close\r\n')}${get()}`),
  req('Connection: close, keep-alive list', get('Connection: keep-alive, close\r\n')),
  req('garbage after a complete request', `${get()}XYZ\r\n`),
  res('two responses pipelined', ok('Content-Length: 1\r\n', 'a') + ok('Content-Length: 1\r\n', 'b')),
  res('response chunked then another', ok('Transfer-Encoding: chunked\r\n', '1\r\na\r\n0\r\n\r\n') + ok('Content-Length: 1\r\n', 'b')),
  res('response Connection: close, then bytes', `${ok('Connection: close\r\nContent-Length: 1\r\n', 'a')}HTTP/1.1 200 OK\r\n\r\n`),
  req('Upgrade request', `GET /chat HTTP/1.1\r\n${H}Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n`),
  res('101 Switching Protocols then other bytes', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x81\x00'),
  req('incomplete header section', `GET / HTTP/1.1\r\n${H}`),
  req('incomplete request line', 'GET / HT'),
  req('empty input', ''),
  res('empty response input', ''),
];

/** Shapes seen in widely deployed parsers' own suites: odd but common methods, URIs, fields and statuses. */
const assorted: DiffCase[] = [
  req('method M-SEARCH', `M-SEARCH * HTTP/1.1\r\n${H}\r\n`),
  req('method ACL', `ACL /x HTTP/1.1\r\n${H}\r\n`),
  req('method with digits', `GET2 / HTTP/1.1\r\n${H}\r\n`),
  req('absolute-form with IPv6 host', `GET http://[::1]:8080/a HTTP/1.1\r\n${H}\r\n`),
  req('absolute-form with userinfo', `GET http://a:b@example.com/ HTTP/1.1\r\n${H}\r\n`),
  req('target with pipes and braces', `GET /a|b{c}^d HTTP/1.1\r\n${H}\r\n`),
  req('target with a backslash', `GET /a\\b HTTP/1.1\r\n${H}\r\n`),
  req('underscore in a header name', get('X_Forwarded_For: 1.2.3.4\r\n')),
  req('tab inside a header value', get('X-A: a\tb\r\n')),
  req('Proxy-Connection', get('Proxy-Connection: keep-alive\r\n')),
  req('Connection: upgrade without Upgrade', get('Connection: upgrade\r\n')),
  req('Expect: 100-continue with body', post('Expect: 100-continue\r\nContent-Length: 2\r\n', 'hi')),
  req('version with leading zero', `GET / HTTP/01.1\r\n${H}\r\n`),
  req('version 1.1 with trailing dot', `GET / HTTP/1.1.\r\n${H}\r\n`),
  req('request line only CRLF then EOF', 'GET / HTTP/1.1\r\n'),
  res('status 999', 'HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n'),
  res('status version with leading zero', 'HTTP/01.1 200 OK\r\nContent-Length: 0\r\n\r\n'),
  res('response with no fields, read until close', 'HTTP/1.1 200 OK\r\n\r\nbody'),
  res('response Connection: keep-alive on 1.0 with length', 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\na'),
  res('response value with tab', 'HTTP/1.1 200 OK\r\nX-A: a\tb\r\nContent-Length: 0\r\n\r\n'),
  res('response 301 with a Location and body', 'HTTP/1.1 301 Moved Permanently\r\nLocation: http://example.com/\r\nContent-Length: 3\r\n\r\nabc'),
  res('response 200 to HEAD with chunked', ok('Transfer-Encoding: chunked\r\n'), 'HEAD'),
  res('response underscore header name', 'HTTP/1.1 200 OK\r\nX_A: 1\r\nContent-Length: 0\r\n\r\n'),
  res('204 with an invalid Content-Length', 'HTTP/1.1 204 No Content\r\nContent-Length: abc\r\n\r\n'),
  res('HEAD response with two different Content-Length', ok('Content-Length: 1\r\nContent-Length: 2\r\n'), 'HEAD'),
  req('Content-Length in the trailers, invalid', chunkedPost('0\r\nContent-Length: x\r\n\r\n')),
  res('response status line with CR at end only', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'),
];

export const DIFF_CASES: readonly DiffCase[] = [
  ...assorted,
  ...startLines,
  ...emptyLines,
  ...statusLines,
  ...whitespace,
  ...lineEnds,
  ...fieldBytes,
  ...host,
  ...contentLength,
  ...transferEncoding,
  ...chunks,
  ...pipelining,
];
