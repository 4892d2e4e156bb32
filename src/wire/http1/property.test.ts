import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Http1Message, type Http1Request, type Http1Response, parseHttp1, serializeHttp1 } from './parse';

const TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const RESERVED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'trailer',
  'te',
  'keep-alive',
  'content-type',
  'content-encoding',
  'content-range',
  'expect',
  'authorization',
  'proxy-authorization',
  'www-authenticate',
  'proxy-authenticate',
  'set-cookie',
  'cookie',
  'cache-control',
  'max-forwards',
  'range',
]);

const token = fc.string({ unit: fc.constantFrom(...TCHARS), minLength: 1, maxLength: 12 });
const fieldName = token.filter((n) => !RESERVED.has(n.toLowerCase()));
const visible = fc.oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c));
const fieldValue = fc
  .array(fc.oneof({ weight: 6, arbitrary: visible }, { weight: 1, arbitrary: fc.constantFrom(' ', '\t') }), { maxLength: 20 })
  .map((cs) => cs.join('').replace(/^[ \t]+|[ \t]+$/g, ''));
const header = fc.record({ name: fieldName, value: fieldValue });
const target = fc.string({ unit: fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:@/?%"), maxLength: 30 }).map((s) => `/${s}`);
const method = fc.oneof(
  fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE'),
  token.filter((t) => t !== 'CONNECT'),
);
const body = fc.uint8Array({ maxLength: 64 });
const framing = fc.constantFrom('length', 'chunked');

const withFraming = (
  version: '1.0' | '1.1',
  headers: { name: string; value: string }[],
  b: Uint8Array,
  how: string,
  trailers: { name: string; value: string }[],
) => {
  if (how === 'chunked' && version === '1.1') return { headers: [...headers, { name: 'Transfer-Encoding', value: 'chunked' }], trailers };
  if (b.length === 0 && how === 'none') return { headers, trailers: [] };
  return { headers: [...headers, { name: 'Content-Length', value: String(b.length) }], trailers: [] };
};

const request: fc.Arbitrary<Http1Request> = fc
  .record({
    method,
    target,
    version: fc.constantFrom('1.0' as const, '1.1' as const),
    headers: fc.array(header, { maxLength: 6 }),
    body,
    how: fc.constantFrom('length', 'chunked', 'none'),
    trailers: fc.array(header, { maxLength: 3 }),
  })
  .map(({ method: m, target: t, version, headers, body: b, how, trailers }) => {
    const host = version === '1.1' ? [{ name: 'Host', value: 'example.com' }] : [];
    const bodyBytes = how === 'none' ? new Uint8Array(0) : b;
    const f = withFraming(version, [...host, ...headers], bodyBytes, how, trailers);
    return { kind: 'request' as const, method: m, target: t, version, headers: f.headers, body: bodyBytes, trailers: f.trailers };
  });

const reason = fc.string({ unit: fc.oneof(visible, fc.constant(' ')), maxLength: 20 }).map((s) => s.trim());

const response: fc.Arbitrary<Http1Response> = fc
  .record({
    status: fc.integer({ min: 200, max: 599 }).filter((s) => s !== 204 && s !== 304),
    reason,
    version: fc.constantFrom('1.0' as const, '1.1' as const),
    headers: fc.array(header, { maxLength: 6 }),
    body,
    how: framing,
    trailers: fc.array(header, { maxLength: 3 }),
  })
  .map(({ status, reason: r, version, headers, body: b, how, trailers }) => {
    const f = withFraming(version, headers, b, how, trailers);
    return { kind: 'response' as const, version, status, reason: r, headers: f.headers, body: b, trailers: f.trailers };
  });

const informational: fc.Arbitrary<Http1Response> = fc
  .record({ status: fc.integer({ min: 100, max: 199 }).filter((s) => s !== 101), reason, headers: fc.array(header, { maxLength: 3 }) })
  .map(({ status, reason: r, headers }) => ({
    kind: 'response' as const,
    version: '1.1' as const,
    status,
    reason: r,
    headers,
    body: new Uint8Array(0),
    trailers: [],
  }));

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const persistent = (m: Http1Message) => m.version === '1.1';

describe('parseHttp1(serializeHttp1(m)) = m', () => {
  it('requests (200 runs)', () => {
    fc.assert(
      fc.property(request, (m) => {
        const r = parseHttp1(serializeHttp1(m), { role: 'server' });
        expect(r.error).toBeUndefined();
        expect(r.messages).toEqual([m]);
      }),
      { numRuns: 200, seed: 1 },
    );
  });

  it('responses (200 runs)', () => {
    fc.assert(
      fc.property(response, (m) => {
        const r = parseHttp1(serializeHttp1(m), { role: 'client' });
        expect(r.error).toBeUndefined();
        expect(r.messages).toEqual([m]);
      }),
      { numRuns: 200, seed: 2 },
    );
  });

  it('pipelined HTTP/1.1 requests, and 1xx + final responses (200 runs)', () => {
    fc.assert(
      fc.property(
        fc.array(request.filter(persistent), { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(fc.option(informational), response.filter(persistent)), { minLength: 1, maxLength: 4 }),
        (reqs, pairs) => {
          const r = parseHttp1(concat(reqs.map((m) => serializeHttp1(m))), { role: 'server' });
          expect(r.error).toBeUndefined();
          expect(r.messages).toEqual(reqs);
          const resps = pairs.flatMap(([i, f]) => (i ? [i, f] : [f]));
          const s = parseHttp1(concat(resps.map((m) => serializeHttp1(m))), { role: 'client' });
          expect(s.error).toBeUndefined();
          expect(s.messages).toEqual(resps);
        },
      ),
      { numRuns: 200, seed: 3 },
    );
  });
});
