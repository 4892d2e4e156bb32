/**
 * What the HTTP/1 errors table says about lenient mode: tolerating a problem that RFC 9112 makes a server
 * reject with 400 must be marked as non-conforming beside the "Yes".
 */
import { describe, expect, it } from 'vitest';
import { HTTP1_ERROR_CODES, type CodeInfo } from './codes';

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

  it('put a lenient note only on codes lenient mode can tolerate', () => {
    for (const [code, info] of entries) if (info.lenientNote !== undefined) expect(info.tolerable, code).toBe(true);
  });
});
