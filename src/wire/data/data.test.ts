import { describe, expect, it } from 'vitest';
import {
  HEADER_FIELDS,
  HEADER_GROUPS,
  HOP_BY_HOP_HEADERS,
  HTTP_METHODS,
  HTTP_STATUS_CLASSES,
  HTTP_STATUS_CODES,
  HTTP_VERSIONS,
  SPEC_ERRATA,
  SPEC_HOP_BY_HOP_HEADERS,
  headerInfo,
  isHopByHop,
  isIdempotentMethod,
  isSafeMethod,
  methodInfo,
  reasonPhrase,
  statusClassOf,
  statusInfo,
  versionInfo,
} from './index';

describe('methods', () => {
  it('lists the nine methods of the spec in its order', () => {
    expect(HTTP_METHODS.map((m) => m.name)).toEqual(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);
  });

  it('follows RFC 9110 where the spec is wrong, and says so in a note', () => {
    const trace = methodInfo('TRACE')!;
    expect(trace.safe).toBe(true);
    expect(trace.notes.join(' ')).toMatch(/RFC 9110 §9\.2\.1/);
    expect(trace.specSays).toMatchObject({ safe: 'No' });
    const post = methodInfo('POST')!;
    expect(post.cacheable).toBe('conditional');
    expect(post.notes.join(' ')).toMatch(/RFC 9110 §9\.3\.3/);
    expect(methodInfo('OPTIONS')!.idempotent).toBe(true);
    expect(methodInfo('CONNECT')).toMatchObject({ requestBody: 'no', responseBody: 'no' });
  });

  it('dates PATCH as an extension (RFC 5789), not an HTTP/1.1 method', () => {
    const patch = methodInfo('PATCH')!;
    expect(patch.introducedIn).toBe('extension');
    expect(patch.rfc).toBe('RFC 5789');
    expect(patch.specSays).toMatchObject({ introducedIn: '1.1' });
    expect(HTTP_VERSIONS.find((v) => v.version === '1.1')!.methods).not.toContain('PATCH');
  });

  it('tells the history of CONNECT: absent from RFC 2068, reserved by RFC 2616, defined by RFC 2817', () => {
    const history = methodInfo('CONNECT')!.notes.find((n) => /RFC 2068/.test(n))!;
    expect(history).toMatch(/RFC 2068 has no CONNECT/);
    expect(history).toMatch(/RFC 2616 §9\.9[^;]*reserved/);
    expect(history).toMatch(/RFC 2817 §5\.2 defined/);
    expect(history).toMatch(/RFC 7231 §4\.3\.6/);
  });

  it('keeps RFC 9110 §9.2.2: every safe method is idempotent', () => {
    for (const m of HTTP_METHODS) if (m.safe) expect(m.idempotent, m.name).toBe(true);
    expect(HTTP_METHODS.filter((m) => m.safe).map((m) => m.name)).toEqual(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
    expect(HTTP_METHODS.filter((m) => m.idempotent).map((m) => m.name)).toEqual(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']);
  });

  it('matches method names case-sensitively (RFC 9110 §9.1)', () => {
    expect(methodInfo('get')).toBeUndefined();
    expect(isSafeMethod('GET')).toBe(true);
    expect(isIdempotentMethod('POST')).toBe(false);
    expect(isIdempotentMethod('BREW')).toBe(false);
  });
});

describe('status codes', () => {
  it('has the five classes', () => {
    expect(HTTP_STATUS_CLASSES.map((c) => c.class)).toEqual(['1xx', '2xx', '3xx', '4xx', '5xx']);
  });

  it('gives each code its class and reason phrase', () => {
    for (const s of HTTP_STATUS_CODES) expect(s.class).toBe(statusClassOf(s.code));
    expect(reasonPhrase(404)).toBe('Not Found');
    expect(reasonPhrase(418)).toBe('');
    expect(statusInfo(204)?.noContent).toBe(true);
    expect(statusClassOf(99)).toBeUndefined();
    expect(statusClassOf(600)).toBeUndefined();
    expect(new Set(HTTP_STATUS_CODES.map((s) => s.code)).size).toBe(HTTP_STATUS_CODES.length);
  });
});

describe('header fields', () => {
  it('groups by context the way the spec does', () => {
    expect(HEADER_GROUPS.byContext.representation).toEqual(['Content-Type', 'Content-Encoding']);
    expect(HEADER_GROUPS.byContext.payload).toEqual(['Content-Length', 'Transfer-Encoding']);
    expect(HEADER_GROUPS.byContext.response).toEqual(expect.arrayContaining(['Location', 'Server']));
    expect(HEADER_GROUPS.byContext.request).toEqual(expect.arrayContaining(['Host', 'Accept', 'Accept-Language', 'Accept-Encoding']));
  });

  it('uses the RFC 9110 §7.6.1 hop-by-hop set and notes where the spec differs', () => {
    for (const n of ['connection', 'keep-alive', 'te', 'transfer-encoding', 'upgrade', 'proxy-connection']) expect(HOP_BY_HOP_HEADERS.has(n)).toBe(true);
    expect(HOP_BY_HOP_HEADERS.has('content-encoding')).toBe(false);
    expect(headerInfo('trailer')).toMatchObject({ proxy: 'end-to-end' });
    expect(headerInfo('Trailer')!.notes!.join(' ')).toMatch(/RFC 9110 §7\.6\.1/);
    expect(SPEC_HOP_BY_HOP_HEADERS).toContain('Trailer');
  });

  it('covers every header the spec names, looked up case-insensitively', () => {
    const named = [
      'Host',
      'Content-Type',
      'Content-Length',
      'Content-Encoding',
      'Transfer-Encoding',
      'Connection',
      'Keep-Alive',
      'Proxy-Connection',
      'Cache-Control',
      'Expires',
      'Accept',
      'Accept-Language',
      'Accept-Encoding',
      'Location',
      'Server',
      'User-Agent',
      'Date',
      'TE',
      'Trailer',
      'Upgrade',
      'Proxy-Authenticate',
      'Proxy-Authorization',
    ];
    for (const n of named) expect(headerInfo(n.toUpperCase())?.name, n).toBe(n);
    expect(HEADER_FIELDS).toHaveLength(named.length);
  });

  it('treats fields named by Connection as hop-by-hop (RFC 9110 §7.6.1)', () => {
    expect(isHopByHop('X-Trace', ['close, X-Trace'])).toBe(true);
    expect(isHopByHop('X-Trace')).toBe(false);
    expect(isHopByHop('Transfer-Encoding')).toBe(true);
  });
});

describe('versions and errata', () => {
  it('has 0.9, 1.0, 1.1, 2 and 3', () => {
    expect(HTTP_VERSIONS.map((v) => v.version)).toEqual(['0.9', '1.0', '1.1', '2', '3']);
    expect(versionInfo('1.1').persistentByDefault).toBe(true);
    expect(versionInfo('1.0').persistentByDefault).toBe(false);
    expect(versionInfo('0.9')).toMatchObject({ hasStatusLine: false, hasHeaders: false, methods: ['GET'] });
    expect(versionInfo('3').transport).toBe('QUIC over UDP');
  });

  it('lists each spec error once, with an RFC source', () => {
    expect(new Set(SPEC_ERRATA.map((e) => e.id)).size).toBe(SPEC_ERRATA.length);
    expect(SPEC_ERRATA.map((e) => e.id)).toEqual(expect.arrayContaining(['trace-safe', 'post-cacheable', 'options-idempotent']));
    for (const e of SPEC_ERRATA) expect(e.source).toMatch(/RFC \d+/);
  });
});
