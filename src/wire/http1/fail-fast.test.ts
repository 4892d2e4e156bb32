/**
 * Issue #29, item 1: six cases where the reader used to wait for the end of the input (or refuse a framed
 * response). Each is fed whole and one byte at a time; both feedings must give the same transcript, and an
 * error must come as soon as its bytes are in, before any EOF.
 */
import { describe, expect, it } from 'vitest';
import { latin1Encode } from './corpus';
import { parseHttp1, parseHttp1Async } from './parse';
import { Http1Reader } from './reader';
import { bytewise, type Transcript, transcript } from './testing';

const both = (reads: 'request' | 'response', input: string, strict = true): Transcript => {
  const bytes = latin1Encode(input);
  const whole = transcript(reads, bytes, { strict });
  expect(transcript(reads, bytewise(bytes), { strict })).toEqual(whole);
  return whole;
};

/** The error the reader reports with the bytes fed and no EOF, one byte at a time or all at once. */
const errorBeforeEof = (reads: 'request' | 'response', input: string, bytewiseFeed: boolean): { code: string; offset: number; fedUpTo: number } | undefined => {
  const bytes = latin1Encode(input);
  const reader = new Http1Reader(reads);
  const chunks = bytewiseFeed ? bytewise(bytes) : [bytes];
  let fed = 0;
  for (const c of chunks) {
    reader.feed(c);
    fed += c.length;
    for (;;) {
      const step = reader.next();
      if (step.type === 'error') return { code: step.error.code, offset: step.error.offset!, fedUpTo: fed };
      if (step.type === 'need-data') break;
    }
  }
  return undefined;
};

describe('fail fast: an invalid version is reported when it is read (RFC 9112 §2.3)', () => {
  it.each([
    // [input, code, offset of the version, bytes needed before it fails]
    ['GET / HTTP/5.6', 'unsupported-version', 6, 14],
    ['GET / HTTP/0.9', 'unsupported-version', 6, 14],
    ['GET / HTTP/1.x', 'invalid-version', 6, 14],
    ['GET / HTTPX', 'invalid-version', 6, 11],
    ['GET / HTTP/1.1x', 'invalid-version', 6, 15],
    ['GET / http/1.1', 'invalid-version', 6, 7],
  ])('%s: %s at offset %i, before the line ends', (input, code, offset, needed) => {
    const t = both('request', input);
    expect(t.error).toMatchObject({ code, offset });
    expect(errorBeforeEof('request', input, false)).toEqual({ code, offset, fedUpTo: input.length });
    // One byte at a time it fails at the byte that settles it, not later.
    expect(errorBeforeEof('request', input, true)).toEqual({ code, offset, fedUpTo: needed });
  });

  it('a whole line judges the version first, as byte-at-a-time feeding does ("HTTP/1.1x y" is a bad version, not four parts)', () => {
    for (const input of ['GET / HTTP/1.1x y\r\nHost: a\r\n\r\n', 'GET / HTTP/1 x\r\nHost: a\r\n\r\n']) {
      expect(both('request', input).error).toMatchObject({ code: 'invalid-version', offset: 6 });
    }
    // A method error before the version still comes first, however the bytes arrive.
    expect(both('request', 'G(T / HTTP/5.6').error).toMatchObject({ code: 'invalid-method', offset: 1 });
    // A valid version followed by a fourth part is still a line with the wrong number of parts.
    expect(both('request', 'GET / HTTP/1.1 x\r\nHost: a\r\n\r\n').error).toMatchObject({ code: 'invalid-request-line', offset: 0 });
  });

  it('lenient mode waits for the line end (whitespace in it may still be repaired), then refuses the version', () => {
    expect(both('request', 'GET / HTTP/5.6', false).error).toMatchObject({ code: 'incomplete-message' });
    expect(both('request', 'GET / HTTP/5.6\r\nHost: a\r\n\r\n', false).error).toMatchObject({ code: 'unsupported-version', offset: 6 });
  });
});

describe('fail fast: whitespace before the first field line (RFC 9112 §2.2)', () => {
  it.each([
    ['request', 'GET / HTTP/1.1\r\n Host: foo\r\n', 16],
    ['request', 'GET / HTTP/1.1\r\n\tHost: foo\r\n', 16],
    ['response', 'HTTP/1.1 200 OK\r\n Host: foo\r\n', 17],
  ] as const)('strict mode rejects %s %j at the whitespace, before the section ends', (reads, input, offset) => {
    const t = both(reads, input);
    expect(t.error).toMatchObject({ code: 'whitespace-after-start-line', offset, statusHint: reads === 'request' ? 400 : 502 });
    expect(errorBeforeEof(reads, input, false)).toEqual({ code: 'whitespace-after-start-line', offset, fedUpTo: input.length });
    expect(errorBeforeEof(reads, input, true)).toEqual({ code: 'whitespace-after-start-line', offset, fedUpTo: offset + 1 });
  });

  it('lenient mode takes the other choice RFC 9112 §2.2 allows: it consumes the line unprocessed and notes it', () => {
    const t = both('request', 'GET / HTTP/1.1\r\n Host: evil\r\nHost: a\r\n\r\n', false);
    expect(t.error).toBeUndefined();
    expect(t.events[0]).toMatchObject({ type: 'request', headers: [{ name: 'Host', value: 'a' }] });
    expect(t.tolerated).toEqual([{ code: 'whitespace-after-start-line', offset: 16 }]);
    // Its section is then simply not finished yet.
    expect(both('request', 'GET / HTTP/1.1\r\n Host: foo\r\n', false).error).toMatchObject({ code: 'incomplete-message' });
  });
});

describe('a response whose Transfer-Encoding does not end in chunked is read until close (RFC 9112 §6.3 rule 4)', () => {
  it.each(['chunked, deflate', 'chunked, identity', 'chunkedchunked'])('%s: framed until close, its bytes as received, with a note', async (te) => {
    const input = `HTTP/1.1 200 OK\r\nTransfer-Encoding: ${te}\r\n\r\nabc`;
    const t = both('response', input);
    expect(t.error).toBeUndefined();
    const codings = te.split(', ');
    expect(t.events).toEqual([
      expect.objectContaining({ type: 'response', status: 200 }),
      { type: 'data', data: 'abc', codings },
      { type: 'end-of-message', trailers: [] },
      { type: 'connection-closed' },
    ]);
    for (const r of [parseHttp1(input, { role: 'client' }), await parseHttp1Async(input, { role: 'client' })]) {
      expect(r.error).toBeUndefined();
      expect(r.messages).toHaveLength(1);
      const m = r.messages[0]!;
      expect(String.fromCharCode(...m.body)).toBe('abc');
      expect('undecoded' in m && m.undecoded).toMatchObject({ codings });
      expect('undecoded' in m && m.undecoded?.note).toMatch(/was not decoded/);
    }
  });

  it.each(['chunked, deflate', 'chunked, identity', 'chunkedchunked'])('a request with %s is refused with 400, whole or byte by byte', (te) => {
    const t = both('request', `POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: ${te}\r\n\r\nabc`);
    expect(t.error?.statusHint).toBe(400);
    expect(t.events).toEqual([]);
  });
});
