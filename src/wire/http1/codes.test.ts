/**
 * What the HTTP/1 errors table says about lenient mode: tolerating a problem that RFC 9112 makes a server
 * reject with 400 must be marked as non-conforming beside the "Yes".
 */
import { describe, expect, it } from 'vitest';
import { HTTP1_ERROR_CODES, type CodeInfo } from './codes';
import { Http1Reader } from './reader';

const entries = Object.entries(HTTP1_ERROR_CODES) as [string, CodeInfo][];

describe('HTTP1_ERROR_CODES lenient-mode notes', () => {
  it('mark the tolerated server MUSTs of RFC 9112 §5.1 and §3.2 as non-conforming', () => {
    for (const code of ['whitespace-before-colon', 'missing-host', 'duplicate-host', 'invalid-host']) {
      const info = HTTP1_ERROR_CODES[code as keyof typeof HTTP1_ERROR_CODES] as CodeInfo;
      expect(info.tolerable, code).toBe(true);
      expect(info.status, code).toBe(400);
      expect(info.lenientNote, code).toMatch(/non-conforming/i);
      expect(info.lenientNote, code).toMatch(/MUST/);
    }
    expect((HTTP1_ERROR_CODES['whitespace-before-colon'] as CodeInfo).lenientNote).toMatch(/smuggling/);
  });

  it('mark Transfer-Encoding in HTTP/1.0 as non-conforming: RFC 9112 §6.1 makes any recipient treat its framing as faulty and close', () => {
    const info = HTTP1_ERROR_CODES['te-in-http10'] as CodeInfo;
    expect(info.tolerable).toBe(true);
    expect(info.rfc).toBe('RFC 9112 §6.1');
    expect(info.lenientNote).toMatch(/non-conforming for a server or a client/i);
    expect(info.lenientNote).toMatch(/MUST treat the framing as faulty and close the connection/);
    expect(info.lenientNote).toMatch(/lenient mode decodes the chunked body/);
  });

  it('lenient mode does decode the chunked body of an HTTP/1.0 request, which is what the note warns of', () => {
    const reader = new Http1Reader('request', { strict: false });
    reader.feed(new TextEncoder().encode('POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'));
    const body: string[] = [];
    for (let i = 0; i < 20; i++) {
      const ev = reader.next();
      if (ev.type === 'data') body.push(new TextDecoder().decode(ev.data));
      if (ev.type === 'end-of-message' || ev.type === 'error' || ev.type === 'need-data') break;
    }
    expect(body.join('')).toBe('abc');
    expect(reader.tolerated.map((t) => t.code)).toContain('te-in-http10');
  });

  it('put a lenient note only on codes lenient mode can tolerate', () => {
    for (const [code, info] of entries) if (info.lenientNote !== undefined) expect(info.tolerable, code).toBe(true);
  });
});
