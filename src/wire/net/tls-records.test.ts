import { describe, expect, it } from 'vitest';
import { isWholeTlsRecords, parseTlsPartLabel, readTlsRecords, tlsPartLabel } from './tls-records';

const record = (type: number, payload: string): string => String.fromCharCode(type, 3, 3, payload.length >> 8, payload.length & 0xff) + payload;

describe('readTlsRecords: one reader of record boundaries (RFC 8446 §5.1)', () => {
  it('finds each record in a string or in bytes, the same way', () => {
    const data = record(22, 'ClientHello') + record(20, '\x01') + record(23, 'x'.repeat(300));
    const bytes = Uint8Array.from(data, (c) => c.charCodeAt(0));
    const spans = readTlsRecords(data);
    expect(spans.map((r) => [r.type, r.start, r.payloadStart, r.length, r.end, r.complete])).toEqual([
      [22, 0, 5, 11, 16, true],
      [20, 16, 21, 1, 22, true],
      [23, 22, 27, 300, 327, true],
    ]);
    expect(readTlsRecords(bytes)).toEqual(spans);
    expect(isWholeTlsRecords(data)).toBe(true);
    expect(isWholeTlsRecords(bytes)).toBe(true);
  });

  it('reports a record cut short, or leaves it out for a receiver', () => {
    const data = record(22, 'ServerHello') + record(23, 'abcdef').slice(0, 8);
    expect(readTlsRecords(data).at(-1)).toEqual({ type: 23, start: 16, payloadStart: 21, length: 6, end: 24, complete: false });
    expect(readTlsRecords(data, { completeOnly: true })).toHaveLength(1);
    expect(isWholeTlsRecords(data)).toBe(false);
    // Fewer than five bytes left: no header, no record.
    expect(readTlsRecords(record(22, 'a') + '\x17\x03')).toHaveLength(1);
  });

  it('with check, stops at bytes that are not a record header; `from` starts later', () => {
    const data = `${record(22, 'a')}GET / HTTP/1.1\r\n`;
    expect(readTlsRecords(data, { check: true })).toHaveLength(1);
    expect(readTlsRecords(data)).toHaveLength(2);
    expect(isWholeTlsRecords(data)).toBe(false);
    expect(isWholeTlsRecords('')).toBe(false);
    expect(readTlsRecords(`xx${record(21, 'ab')}`, { from: 2 })).toEqual([{ type: 21, start: 2, payloadStart: 7, length: 2, end: 9, complete: true }]);
  });
});

describe('part labels: written and read by the same pair', () => {
  it('reads back what it writes', () => {
    expect(tlsPartLabel('Certificate', 1, 1)).toBe('Certificate');
    expect(tlsPartLabel('Certificate, CertificateVerify', 2, 3)).toBe('Certificate, CertificateVerify (2/3)');
    expect(parseTlsPartLabel('Certificate, CertificateVerify (2/3)')).toEqual({
      messages: 'Certificate, CertificateVerify',
      part: { index: 2, count: 3 },
      completes: false,
    });
    expect(parseTlsPartLabel('Finished (3/3)').completes).toBe(true);
    expect(parseTlsPartLabel('ServerHello')).toEqual({ messages: 'ServerHello', completes: true });
  });
});
