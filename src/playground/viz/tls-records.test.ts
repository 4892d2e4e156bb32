/**
 * Application data inside TLS records is read through what protection adds (the simulator sizes records as
 * TLS 1.3 and TLS 1.2 with AES-GCM would), so the Sequence view names the HTTP inside and the Messages view
 * reads it, under either version.
 */
import { describe, expect, it } from 'vitest';
import { createServer, createSimulation, http, type TraceEvent } from 'roundtrip/wire';
import { buildSequence } from './timeline/sequence';
import { DirectionReader } from './message/streams';
import { recordPlaintext } from './tls-records';

async function events(tls: '1.2' | '1.3', httpVersion: '1.1' | '2'): Promise<TraceEvent[]> {
  const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1 }]))] });
  const sim = createSimulation({ server, httpVersion, tls, rtt: 50, seed: 1 });
  await (await sim.fetch('https://api.example/todos')).text();
  return [...sim.trace.events];
}

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
