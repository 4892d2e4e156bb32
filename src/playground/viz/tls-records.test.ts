/**
 * Application data inside TLS records is read through what protection adds (the simulator sizes records as
 * TLS 1.3 and TLS 1.2 with AES-GCM would), so the Sequence view names the HTTP inside and the Messages view
 * reads it, under either version.
 */
import { describe, expect, it } from 'vitest';
import { createServer, createSimulation, http, type TraceEvent } from 'roundtrip/wire';
import { buildSequence } from './timeline/sequence';
import { StreamLabeller } from './timeline/labels';
import { DirectionReader } from './message/streams';
import { recordPlaintext, TlsRecordReader } from './tls-records';

async function events(tls: '1.2' | '1.3', httpVersion: '1.1' | '2'): Promise<TraceEvent[]> {
  const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1 }]))] });
  const sim = createSimulation({ server, httpVersion, tls, rtt: 50, seed: 1 });
  await (await sim.fetch('https://api.example/todos')).text();
  return [...sim.trace.events];
}

/** The labels of one direction's byte ranges, as the Sequence view names them. */
function rangeLabels(all: TraceEvent[], from: 'client' | 'server', tls: 'tls1.2' | 'tls1.3'): string[] {
  const labeller = new StreamLabeller();
  for (const e of all) if (e.type === 'bytes-sent' && e.from === from) labeller.write(e.data, tls);
  return labeller.ranges.map((r) => r.label);
}

describe('TLS handshake records', () => {
  it('are read by state, as TLS reads them: 1.3 application_data before the Finished is handshake, 1.2 Finished after ChangeCipherSpec is protected', () => {
    const tls13 = new TlsRecordReader();
    expect(tls13.read(22, 'ServerHello\0\0', 'tls1.3')).toEqual({ kind: 'handshake', messages: 'ServerHello', encrypted: false });
    expect(tls13.read(20, '\x01', 'tls1.3')).toEqual({ kind: 'change-cipher-spec' });
    expect(tls13.read(23, `Certificate (1/2)\0\x16${'\0'.repeat(16)}`, 'tls1.3')).toMatchObject({ kind: 'handshake', encrypted: true });
    // Only the last part of a split flight ends it: the next record is still handshake.
    expect(tls13.read(23, `Certificate, Finished (2/2)\0\x16${'\0'.repeat(16)}`, 'tls1.3')).toEqual({
      kind: 'handshake',
      messages: 'Certificate, Finished (2/2)',
      encrypted: true,
    });
    expect(tls13.read(23, `GET\x17${'\0'.repeat(16)}`, 'tls1.3')).toEqual({ kind: 'application-data', plaintext: 'GET' });
    const tls12 = new TlsRecordReader();
    expect(tls12.read(22, 'ClientKeyExchange\0', 'tls1.2')).toMatchObject({ messages: 'ClientKeyExchange', encrypted: false });
    expect(tls12.read(20, '\x01', 'tls1.2')).toEqual({ kind: 'change-cipher-spec' });
    expect(tls12.read(22, `${'\0'.repeat(8)}Finished${'\0'.repeat(24)}`, 'tls1.2')).toEqual({ kind: 'handshake', messages: 'Finished', encrypted: true });
  });

  it('are labelled as the handshake messages they carry in the Sequence view, never as application data', async () => {
    const tls13 = await events('1.3', '1.1');
    expect(rangeLabels(tls13, 'client', 'tls1.3')).toEqual(['TLS ClientHello', 'TLS ChangeCipherSpec', 'TLS Finished (encrypted)', 'GET /todos HTTP/1.1']);
    expect(rangeLabels(tls13, 'server', 'tls1.3')).toEqual([
      'TLS ServerHello',
      'TLS ChangeCipherSpec',
      'TLS EncryptedExtensions, Certificate, CertificateVerify, Finished (encrypted)',
      'HTTP/1.1 200 OK',
    ]);
    const tls12 = await events('1.2', '1.1');
    expect(rangeLabels(tls12, 'client', 'tls1.2')).toEqual([
      'TLS ClientHello',
      'TLS ClientKeyExchange',
      'TLS ChangeCipherSpec',
      'TLS Finished (encrypted)',
      'GET /todos HTTP/1.1',
    ]);
    expect(rangeLabels(tls12, 'server', 'tls1.2')).toEqual([
      'TLS ServerHello, Certificate, ServerKeyExchange, ServerHelloDone',
      'TLS ChangeCipherSpec',
      'TLS Finished (encrypted)',
      'HTTP/1.1 200 OK',
    ]);
    // The server's 1.3 flight (95 + 6 + 3,162 = 3,263 bytes) crosses segments: the first starts with the
    // ServerHello and holds the start of two more records, each named in order; the second segment (bytes 1,448
    // to 2,896) is inside the protected one, named as such.
    const arrows = buildSequence(tls13).arrows.map((a) => a.label);
    expect(arrows).toContain('TLS ServerHello, ChangeCipherSpec, EncryptedExtensions, Certificate, CertificateVerify, Finished (encrypted)');
    expect(arrows).toContain('TLS ChangeCipherSpec, Finished (encrypted)');
    expect(arrows.filter((l) => /^data \(|type \d+/.test(l))).toEqual([]);
    const server = new StreamLabeller();
    for (const e of tls13) if (e.type === 'bytes-sent' && e.from === 'server') server.write(e.data, 'tls1.3');
    expect(server.describe(1448, 1448)).toEqual({
      label: 'TLS EncryptedExtensions, Certificate, CertificateVerify, Finished (encrypted) (continued)',
      category: 'tls',
      starts: false,
    });
  });

  it("are not fed to the Messages view's HTTP reader: the server's side reads as its response alone", async () => {
    const all = await events('1.3', '1.1');
    const reader = new DirectionReader();
    const got = all.flatMap((e) => (e.type === 'bytes-sent' && e.from === 'server' ? [reader.read(e.data)] : [])).join('');
    expect(got).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\[\{"id":1\}\]$/);
  });
});

describe('TLS application records', () => {
  it('give back their plaintext: TLS 1.3 drops the type byte and tag, TLS 1.2 the nonce and tag', () => {
    expect(recordPlaintext(`GET\x17${'\0'.repeat(16)}`, 'tls1.3')).toBe('GET');
    expect(recordPlaintext(`${'\0'.repeat(8)}GET${'\0'.repeat(16)}`, 'tls1.2')).toBe('GET');
    expect(recordPlaintext('short', 'tls1.2')).toBe('');
  });

  for (const tls of ['1.2', '1.3'] as const) {
    it(`name the HTTP/1.1 request and response, and HTTP/2's frames, over TLS ${tls}`, async () => {
      const h1 = buildSequence(await events(tls, '1.1')).arrows.map((a) => a.label);
      expect(h1).toContain('GET /todos HTTP/1.1');
      expect(h1).toContain('HTTP/1.1 200 OK');
      const h2 = buildSequence(await events(tls, '2')).arrows.map((a) => a.label);
      expect(h2.some((l) => l.startsWith('preface, SETTINGS'))).toBe(true);
      expect(h2.some((l) => /^HEADERS s1\b/.test(l))).toBe(true);
      expect(h2.filter((l) => /type \d+|^data \(/.test(l))).toEqual([]);
    });

    it(`read the request's exact bytes over TLS ${tls}`, async () => {
      const all = await events(tls, '1.1');
      const reader = new DirectionReader();
      reader.protocol = tls === '1.2' ? 'tls1.2' : 'tls1.3';
      const sent = all.flatMap((e) => (e.type === 'bytes-sent' && e.from === 'client' ? [reader.read(e.data)] : [])).join('');
      expect(sent).toMatch(/^GET \/todos HTTP\/1\.1\r\n[\s\S]*\r\n\r\n$/);
    });
  }
});
