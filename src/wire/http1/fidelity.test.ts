/**
 * The RFC 9112 behaviours of issue #17 part 2, each fed whole and one byte at a time: both feedings must give
 * the same transcript (events, error code, offset, line and column), and the whole-buffer API must agree.
 */
import { describe, expect, it } from 'vitest';
import { latin1Encode } from './corpus';
import { parseHttp1 } from './parse';
import { bytewise, type Transcript, transcript } from './testing';

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
      { type: 'data', data: '3\r\nabc\r\n0\r\n\r\n' },
      { type: 'end-of-message', trailers: [] },
      { type: 'connection-closed' },
    ]);
  });

  it('while a request like that is a 400', () => {
    const t = both('request', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, foo\r\n\r\n3\r\nabc\r\n0\r\n\r\n');
    expect(t.error).toMatchObject({ code: 'te-chunked-repeated', statusHint: 400 });
  });
});
