import { describe, expect, it } from 'vitest';
import { har as validateHar } from 'har-validator';
import { createSimulation } from '../sim/simulation';
import { http } from '../server/router';
import { createServer } from '../server/server';
import { toHar } from './har';

const scenario = async () => {
  const server = createServer({
    routes: [
      http.get('/todos/:id', (_r, { params }) => Response.json({ id: params.id })),
      http.get('/logo.png', () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'Content-Type': 'image/png' } })),
      http.get('/redirect', () => new Response(null, { status: 302, headers: { Location: '/todos/1' } })),
    ],
    resources: true,
  });
  const sim = createSimulation({ server, tls: '1.3', rtt: 80, maxConnectionsPerOrigin: 2, seed: 3 });
  server.faults.failNext(1, { drop: 'reset' });
  await sim.fetch('/todos/0').catch(() => undefined); // a failed entry
  await Promise.all([sim.fetch('/todos/1?x=1&y=2'), sim.fetch('/logo.png'), sim.fetch('/redirect'), sim.fetch('/todos/2')]);
  await sim.fetch('/notes/1', { method: 'PUT', body: 'hello' });
  return sim;
};

describe('HAR export', () => {
  it('passes har-validator', async () => {
    const sim = await scenario();
    const har = sim.har();
    await expect(validateHar(JSON.parse(JSON.stringify(har)))).resolves.toBeTruthy();
  });

  it('has what Chrome DevTools needs: version, creator, connection ids, server IPs, timings', async () => {
    const sim = await scenario();
    const { log } = sim.har();
    expect(log.version).toBe('1.2');
    expect(log.creator.name).toMatch(/Roundtrip/);
    expect(log.entries).toHaveLength(7); // 5 fetches + the redirect's second hop + one failure
    const ok = log.entries.filter((e) => e.response.status !== 0);
    for (const e of ok) {
      expect(e.request.httpVersion).toBe('HTTP/1.1');
      expect(e.response.httpVersion).toBe('HTTP/1.1');
      expect(e.connection).toMatch(/^c\d+$/);
      expect(e.serverIPAddress).toBe('192.0.2.10');
      const t = e.timings;
      expect(t.dns).toBe(-1);
      const sum = [t.blocked, t.connect, t.send, t.wait, t.receive].filter((x) => x > 0).reduce((a, b) => a + b, 0);
      expect(e.time).toBeCloseTo(sum, 2);
      expect(e.startedDateTime).toMatch(/^2026-01-01T00:00:0\d\.\d{3}Z$/);
    }
    // The request that opened a new connection carries its setup; a reused one carries -1.
    const fresh = ok.find((e) => e._reused === false)!;
    // 2 RTT plus serialization at 10 Mbit/s, each segment with 52 bytes of headers (TCP/IPv4 40 + timestamp
    // option 12): the ClientHello record (1,500 with the X25519MLKEM768 share, + 5 bytes: 1,505 in segments of
    // 1,448 and 57, 1,505 + 2 x 52 = 1,609 on the wire) 1,609 x 8 / 1e7 s = 1.2872 ms; the server's flight
    // (ServerHello record 5 + 1,178, ChangeCipherSpec record 5 + 1, then certificate chain 2,800 + 340 more in a
    // protected record, 5 + 3,140 + 1 + 16 = 3,162: 4,351 bytes in four segments of 1,448, 1,448, 1,448 and 7,
    // 4,351 + 4 x 52 = 4,559 bytes on the wire) 4,559 x 8 / 1e7 s = 3.6472 ms:
    // 160 + 1.2872 + 3.6472 = 164.9344, 164.934 in whole microseconds.
    expect(fresh.timings.connect).toBeCloseTo(164.934, 3);
    // The TLS part of it: the second of those round trips with the same serialization, 80 + 1.2872 + 3.6472
    // = 84.9344.
    expect(fresh.timings.ssl).toBeCloseTo(84.934, 3);
    const reused = ok.find((e) => e._reused === true)!;
    expect(reused.timings.connect).toBe(-1);
    expect(reused.timings.ssl).toBe(-1);
  });

  it('keeps bodies: text as text, binary as base64; query strings and redirects are filled in', async () => {
    const sim = await scenario();
    const { entries } = sim.har().log;
    const json = entries.find((e) => e.request.url.endsWith('/todos/1?x=1&y=2'))!;
    expect(json.request.queryString).toEqual([
      { name: 'x', value: '1' },
      { name: 'y', value: '2' },
    ]);
    expect(json.response.content).toMatchObject({ mimeType: 'application/json', text: '{"id":"1"}' });
    const png = entries.find((e) => e.request.url.endsWith('/logo.png'))!;
    expect(png.response.content).toMatchObject({ encoding: 'base64', text: 'iVBORw==', size: 4 });
    const redirect = entries.find((e) => e.response.status === 302)!;
    expect(redirect.response.redirectURL).toBe('/todos/1');
    const failed = entries.find((e) => e.response.status === 0)!;
    expect(failed.response._error).toMatch(/network-error/);
  });

  it('is a pure function of the events (same trace, same HAR)', async () => {
    const sim = await scenario();
    expect(toHar(sim.trace.events, { epoch: sim.options.epoch })).toEqual(sim.har());
  });
});
