import { describe, expect, it } from 'vitest';
import { createSimulation, type SimulationOptions } from '../sim/index';
import { createServer, http } from './index';

/** A handler that declares one of its fields hop-by-hop by naming it in Connection (RFC 9110 §7.6.1). */
const routes = (seen: Record<string, string | null>[] = []) =>
  createServer({
    routes: [
      http.get('/hop', (req) => {
        seen.push({ 'x-req': req.headers.get('x-req'), 'x-keep': req.headers.get('x-keep') });
        return new Response('ok', { headers: { 'X-Hop': 'for the next hop only', Connection: 'X-Hop', 'X-End': 'end to end' } });
      }),
      http.get('/bye', () => new Response('bye', { headers: { Connection: 'close' } })),
    ],
  });

const sim = (extra: SimulationOptions, seen?: Record<string, string | null>[]) =>
  createSimulation({ rtt: 100, bandwidth: Infinity, server: routes(seen), ...extra });

describe('fields named in Connection (RFC 9110 §7.6.1)', () => {
  it('HTTP/1.1 origin: its own message keeps them, with Connection naming them', async () => {
    const s = sim({ httpVersion: '1.1' });
    const res = await s.fetch('http://api.example/hop');
    expect(res.headers.get('x-hop')).toBe('for the next hop only');
    expect(res.headers.get('x-end')).toBe('end to end');
    const parsed = s.trace.ofType('message-parsed').find((e) => e.by === 'client' && e.kind === 'response')!;
    const connection = parsed.headers.filter((h) => h.name.toLowerCase() === 'connection');
    expect(connection.map((h) => h.value)).toEqual(['X-Hop']); // one Connection field, persistence left at the 1.1 default
  });

  it("a handler's Connection: close is honoured, not silently dropped", async () => {
    const s = sim({ httpVersion: '1.1' });
    await s.fetch('http://api.example/bye');
    await s.fetch('http://api.example/bye');
    const parsed = s.trace.ofType('message-parsed').filter((e) => e.by === 'client' && e.kind === 'response');
    expect(parsed[0]!.headers.filter((h) => h.name.toLowerCase() === 'connection').map((h) => h.value)).toEqual(['close']);
    expect(new Set(s.trace.ofType('request-finished').map((e) => e.connectionId)).size).toBe(2);
  });

  it('a smart proxy removes them, and Connection itself, before forwarding the response', async () => {
    const s = sim({ httpVersion: '1.1', proxy: {} });
    const res = await s.fetch('http://api.example/hop');
    expect(res.headers.get('x-hop')).toBeNull();
    expect(res.headers.get('x-end')).toBe('end to end');
    const forwarded = s.trace.ofType('proxy-forwarded').find((e) => e.kind === 'response')!;
    expect(forwarded.removedHeaders.map((n) => n.toLowerCase())).toEqual(expect.arrayContaining(['x-hop', 'connection']));
    expect(forwarded.removedHeaders.map((n) => n.toLowerCase())).not.toContain('x-end');
  });

  it('a dumb relay, which does not parse Connection, lets them through (the failure §7.6.1 exists for)', async () => {
    const s = sim({ httpVersion: '1.1', proxy: { kind: 'dumb' } });
    const res = await s.fetch('http://api.example/hop');
    expect(res.headers.get('x-hop')).toBe('for the next hop only');
  });

  it('a smart proxy removes those a request names before forwarding it to the origin', async () => {
    const seen: Record<string, string | null>[] = [];
    const s = sim({ httpVersion: '1.1', proxy: {} }, seen);
    await s.fetch('http://api.example/hop', { headers: { Connection: 'X-Req', 'X-Req': 'proxy only', 'X-Keep': 'origin too' } });
    expect(seen).toEqual([{ 'x-req': null, 'x-keep': 'origin too' }]);
  });

  it('HTTP/2 and HTTP/3 carry neither Connection nor the fields it names (RFC 9113 §8.2.2, RFC 9114 §4.2)', async () => {
    for (const httpVersion of ['2', '3'] as const) {
      const s = sim({ httpVersion, tls: '1.3' });
      const res = await s.fetch('https://api.example/hop');
      expect(res.headers.get('x-end'), httpVersion).toBe('end to end');
      expect(res.headers.get('x-hop'), httpVersion).toBeNull();
      expect(res.headers.get('connection'), httpVersion).toBeNull();
    }
  });
});
