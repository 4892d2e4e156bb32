/**
 * The RFC 9112 behaviours of issue #17 part 2, each fed whole and one byte at a time: both feedings must give
 * the same transcript (events, error code, offset, line and column), and the whole-buffer API must agree.
 */
import { deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTransferCodings } from './codings';
import { latin1Encode } from './corpus';
import { DIFF_CASES } from './differential-cases';
import { type Http1Response, parseHttp1, parseHttp1Async } from './parse';
import { bytewise, splitAt, type Transcript, transcript } from './testing';

const both = (reads: 'request' | 'response', input: string, ctx: { method?: string } = {}): Transcript => {
  const bytes = latin1Encode(input);
  const whole = transcript(reads, bytes, {}, ctx);
  expect(transcript(reads, bytewise(bytes), {}, ctx)).toEqual(whole);
  return whole;
};

const text = (b: Uint8Array) => String.fromCharCode(...b);

describe('empty lines before a status line are skipped (RFC 9112 §2.2)', () => {
  const ok = 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na';
  it.each([
    ['one CRLF', `\r\n${ok}`],
    ['two CRLF', `\r\n\r\n${ok}`],
    ['a CRLF after a 304', `HTTP/1.1 304 Not Modified\r\n\r\n\r\n${ok}`],
    ['a CRLF between pipelined responses', `${ok}\r\n${ok}`],
  ])('%s', (_, input) => {
    const t = both('response', input);
    expect(t.error).toBeUndefined();
    expect(t.events.filter((e) => (e as { type: string }).type === 'response').at(-1)).toMatchObject({ status: 200 });
    const r = parseHttp1(input, { role: 'client' });
    expect(r.error).toBeUndefined();
    expect(text(r.messages.at(-1)!.body)).toBe('a');
  });

  it('still refuses a bare LF there in strict mode, at its offset', () => {
    const t = both('response', `\n${ok}`);
    expect(t.error).toMatchObject({ code: 'bare-lf', offset: 0, line: 1, column: 1 });
  });
});

describe('HTTP/1.2 and later 1.x minors are read as HTTP/1.1 (RFC 9110 §2.5)', () => {
  it.each(['1.2', '1.5', '1.9'])('HTTP/%s', (v) => {
    const req = both('request', `GET / HTTP/${v}\r\nHost: a\r\n\r\n`);
    expect(req.error).toBeUndefined();
    expect(req.events[0]).toMatchObject({ type: 'request', version: '1.1' });
    const res = both('response', `HTTP/${v} 200 OK\r\nContent-Length: 0\r\n\r\n`);
    expect(res.events[0]).toMatchObject({ type: 'response', version: '1.1' });
  });

  it('still answers 505 to another major version', () => {
    expect(both('request', 'GET / HTTP/2.0\r\nHost: a\r\n\r\n').error).toMatchObject({ code: 'unsupported-version', statusHint: 505 });
  });
});

describe('a response whose Transfer-Encoding does not end in chunked is read until close (RFC 9112 §6.3 rule 4)', () => {
  it.each([['chunked, identity'], ['chunked, foo']])('Transfer-Encoding: %s', (te) => {
    const t = both('response', `HTTP/1.1 200 OK\r\nTransfer-Encoding: ${te}\r\n\r\n3\r\nabc\r\n0\r\n\r\n`);
    expect(t.error).toBeUndefined();
    expect(t.events).toEqual([
      expect.objectContaining({ type: 'response', status: 200 }),
      // The bytes still carry every coding, chunked included: they are not the content (RFC 9112 §6.1).
      { type: 'data', data: '3\r\nabc\r\n0\r\n\r\n', codings: te.split(', ') },
      { type: 'end-of-message', trailers: [] },
      { type: 'connection-closed' },
    ]);
  });

  it('while a request like that is a 400', () => {
    const t = both('request', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, foo\r\n\r\n3\r\nabc\r\n0\r\n\r\n');
    expect(t.error).toMatchObject({ code: 'te-chunked-repeated', statusHint: 400 });
  });
});

describe('fail fast: an error already visible is reported when its line is complete, at its offset', () => {
  const H = 'Host: a\r\n';
  // [name, role, the input up to the moment the error is visible, what may follow, code, offset]
  const cases: [string, 'request' | 'response', string, string, string, number][] = [
    ['overflowing Content-Length', 'request', `POST / HTTP/1.1\r\n${H}Content-Length: 99999999999999999999\r\n`, `${H}\r\n`, 'invalid-content-length', 26],
    [
      'a second, different Content-Length',
      'request',
      `POST / HTTP/1.1\r\n${H}Content-Length: 3\r\nContent-Length: 4\r\n`,
      'X: y\r\n\r\nabcd',
      'conflicting-content-length',
      45,
    ],
    [
      'a second, equal Content-Length',
      'request',
      `POST / HTTP/1.1\r\n${H}Content-Length: 3\r\nContent-Length: 3\r\n`,
      '\r\nabc',
      'duplicate-content-length',
      45,
    ],
    ['a Content-Length list that disagrees', 'request', `POST / HTTP/1.1\r\n${H}Content-Length: 3, 4\r\n`, '\r\nabcd', 'conflicting-content-length', 26],
    ['a space after the request line', 'request', 'GET / HTTP/1.1\r\n Host: evil\r\n', `${H}\r\n`, 'whitespace-after-start-line', 16],
    ['a space after the status line', 'response', 'HTTP/1.1 200 OK\r\n X: y\r\n', 'Content-Length: 0\r\n\r\n', 'whitespace-after-start-line', 17],
    ['obs-fold', 'request', `GET / HTTP/1.1\r\n${H}X: a\r\n b\r\n`, '\r\n', 'obs-fold', 31],
    ['a field line ending in CR without LF', 'request', `GET / HTTP/1.1\r\n${H}X: a\rb`, 'c\r\n\r\n', 'bare-cr', 29],
    ['CR without LF where the section should end', 'request', `GET / HTTP/1.1\r\n${H}\rX`, 'Y: z\r\n\r\n', 'invalid-field-name', 25],
    ['a bad field name before a bare CR', 'request', `GET / HTTP/1.1\r\n${H}X@: a\rb`, '\r\n\r\n', 'invalid-field-name', 26],
    ['a request line ending in CR without LF', 'request', 'GET / HTTP/1.1\rX', `\r\n${H}\r\n`, 'request-line-whitespace', 14],
    // The CR ends the version early ("HTTP/1"): a bad version, judged as soon as the CR's next byte shows it is
    // not the line's end (issue #29: the version fails when it is read).
    ['a CR inside the version', 'request', 'GET / HTTP/1\rX', `Y\r\n${H}\r\n`, 'invalid-version', 6],
    ['a status line ending in CR without LF', 'response', 'HTTP/1.1 200 OK\rX', '\r\n\r\n', 'bare-cr', 15],
    ['a response field with a bare CR', 'response', 'HTTP/1.1 200 OK\r\nX: a\rb', '\r\nContent-Length: 0\r\n\r\n', 'bare-cr', 21],
    ['a bad line before the header size limit', 'request', `GET / HTTP/1.1\r\n${H}X@: y\r\n`, `Big: ${'a'.repeat(20000)}\r\n\r\n`, 'invalid-field-name', 26],
  ];

  it.each(cases)('%s', (_, reads, visible, rest, code, offset) => {
    const truncated = both(reads, visible);
    expect(truncated.error).toMatchObject({ code, offset });
    // With the rest of the message it is still the same error: whole, byte at a time, and in parseHttp1.
    const full = both(reads, visible + rest);
    expect(full.error).toEqual(truncated.error);
    const r = parseHttp1(visible + rest, { role: reads === 'request' ? 'server' : 'client' });
    expect(r.error).toMatchObject({ code, offset });
  });

  it('gives the same error for any split of the bytes (property, 300 runs)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), ([, reads, visible, rest, code, offset], whole, cuts) => {
        const bytes = latin1Encode(whole ? visible + rest : visible);
        const split = splitAt(
          bytes,
          cuts.map((x) => x % (bytes.length + 1)),
        );
        expect(transcript(reads, split).error).toMatchObject({ code, offset });
      }),
      { numRuns: 300, seed: 17 },
    );
  });

  it('waits, rather than guessing, while a line could still become valid', () => {
    for (const prefix of ['GET / HTTP/1.1\r\nHost: a\r\nX: a\r', 'GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1', 'HTTP/1.1 2\r'])
      expect(both(prefix.startsWith('HTTP') ? 'response' : 'request', prefix).error?.code).toBe('incomplete-message');
  });
});

describe('transfer codings other than chunked are decoded, or refused (RFC 9112 §6.1)', () => {
  const gz = String.fromCharCode(...gzipSync(Buffer.from('hello, gzip')));
  const chunk = (data: string) => `${data.length.toString(16)}\r\n${data}\r\n0\r\n\r\n`;
  const request = (te: string, body: string) => `POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: ${te}\r\n\r\n${body}`;

  it('marks the data events with the codings left, whole and byte at a time', () => {
    const t = both('request', request('gzip, chunked', chunk(gz)));
    expect(t.error).toBeUndefined();
    expect(t.events[1]).toEqual({ type: 'data', data: gz, codings: ['gzip'] });
    const res = both('response', `HTTP/1.1 200 OK\r\nTransfer-Encoding: deflate\r\n\r\nxyz`);
    expect(res.events[1]).toEqual({ type: 'data', data: 'xyz', codings: ['deflate'] });
  });

  it.each([
    ['gzip, chunked', 'request'],
    ['x-gzip, chunked', 'request'],
    ['gzip, chunked', 'response'],
    ['gzip', 'response'],
  ])('parseHttp1Async decodes Transfer-Encoding: %s in a %s; parseHttp1 refuses it in words', async (te, kind) => {
    const body = te.endsWith('chunked') ? chunk(gz) : gz;
    const input = kind === 'request' ? request(te, body) : `HTTP/1.1 200 OK\r\nTransfer-Encoding: ${te}\r\n\r\n${body}`;
    const role = kind === 'request' ? 'server' : 'client';
    const r = await parseHttp1Async(input, { role });
    expect(r.error).toBeUndefined();
    expect(text(r.messages[0]!.body)).toBe('hello, gzip');
    const sync = parseHttp1(input, { role });
    expect(sync.messages).toEqual([]);
    expect(sync.error).toMatchObject({ code: 'transfer-coding-not-decoded' });
  });

  it('decodes deflate (the zlib format) and undoes stacked codings in reverse order', async () => {
    const once = deflateSync(Buffer.from('twice coded'));
    const twice = String.fromCharCode(...gzipSync(once));
    expect(text(await decodeTransferCodings(latin1Encode(twice), ['deflate', 'gzip']))).toBe('twice coded');
  });

  it('answers 501 to a request coding it cannot decode, in both feedings', () => {
    for (const te of ['compress, chunked', 'br, chunked', 'foo, chunked'])
      expect(both('request', request(te, '0\r\n\r\n')).error).toMatchObject({ code: 'te-unknown-coding', statusHint: 501 });
  });

  it('says why a body cannot be decoded', async () => {
    const bad = await parseHttp1Async(`HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${chunk('plain')}`, { role: 'client' });
    expect(bad.messages).toEqual([]);
    expect(bad.error).toMatchObject({ code: 'transfer-coding-failed', side: 'remote' });
    expect(bad.error?.message).toMatch(/not valid gzip/);
    // A coding nobody here can undo is no error in a response (RFC 9112 §6.3 rule 4 frames it until close):
    // the bytes as received, with a note that says why (issue #29).
    const unknown = await parseHttp1Async('HTTP/1.1 200 OK\r\nTransfer-Encoding: foo\r\n\r\nabc', { role: 'client' });
    expect(unknown.error).toBeUndefined();
    const note = (unknown.messages[0] as Http1Response).undecoded;
    expect(note?.codings).toEqual(['foo']);
    expect(note?.note).toMatch(/"foo" cannot be undone here/);
    const sync = parseHttp1('HTTP/1.1 200 OK\r\nTransfer-Encoding: foo\r\n\r\nabc', { role: 'client' });
    expect(sync.messages).toEqual(unknown.messages);
    await expect(decodeTransferCodings(latin1Encode('abc'), ['foo'])).rejects.toThrow(/"foo" cannot be decoded here/);
  });

  it('keeps the messages before an undecodable one', async () => {
    const ok = 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na';
    const r = await parseHttp1Async(`${ok}HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${chunk('plain')}`, { role: 'client' });
    expect(r.messages).toHaveLength(1);
    expect(r.error?.code).toBe('transfer-coding-failed');
  });
});

describe('the differential corpus gives the same transcript whole and byte at a time', () => {
  it.each(DIFF_CASES.flatMap((c) => [true, false].map((strict) => [`${strict ? 'strict' : 'lenient'}: ${c.name}`, c, strict] as const)))(
    '%s',
    (_, c, strict) => {
      const reads = c.role === 'server' ? 'request' : 'response';
      const bytes = latin1Encode(c.input);
      const ctx = { method: c.method ?? 'GET' };
      expect(transcript(reads, bytewise(bytes), { strict }, ctx)).toEqual(transcript(reads, bytes, { strict }, ctx));
    },
  );
});
