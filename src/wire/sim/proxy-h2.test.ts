import { describe, expect, it } from 'vitest';
import { createSimulation } from './index';
import { createServer, http } from '../server/index';

const routes = () => createServer({ routes: [http.get('/todos/:id', (_req, { params }) => Response.json({ id: Number(params.id) }))] });

describe('HTTP/2 through a forward proxy: CONNECT, then TLS and h2 inside the tunnel', () => {
  it('https: fetches work, multiplexed on one tunnelled connection the proxy cannot read', async () => {
    const sim = createSimulation({ httpVersion: '2', tls: '1.3', rtt: 100, bandwidth: Infinity, proxy: {}, server: routes() });
    const [a, b] = await Promise.all([sim.fetch('https://api.example/todos/1'), sim.fetch('https://api.example/todos/2')]);
    expect(await a.json()).toEqual({ id: 1 });
    expect(await b.json()).toEqual({ id: 2 });
    const tunnels = sim.trace.ofType('tunnel-established');
    expect(tunnels.map((e) => e.authority)).toEqual(['api.example:443']);
    // The proxy parsed only the CONNECT; everything after it is relayed unread.
    expect(
      sim.trace
        .ofType('message-parsed')
        .filter((e) => e.by === 'proxy')
        .map((e) => e.startLine),
    ).toEqual(['CONNECT api.example:443 HTTP/1.1']);
    expect(sim.trace.ofType('proxy-forwarded')).toEqual([]);
    expect(sim.trace.ofType('h2-session').map((e) => [e.side, e.protocol])).toEqual([
      ['client', 'h2'],
      ['server', 'h2'],
    ]);
    const finished = sim.trace.ofType('request-finished');
    expect(finished.map((e) => e.response.httpVersion)).toEqual(['h2', 'h2']);
    expect(new Set(finished.map((e) => e.connectionId)).size).toBe(1);
    // Client to proxy: TCP (100). CONNECT: to the proxy (50), proxy-origin TCP (100), 200 back (50).
    // TLS 1.3 end to end through both hops (200). Then the requests' round trip (200).
    expect(finished[0]!.timings.connect).toBe(500);
    expect(finished[0]!.timings.ssl).toBe(200);
    expect(finished[0]!.serverIPAddress).toBe('198.51.100.1');
    expect(sim.clock.now()).toBe(700);
  });

  it('an http: URL fails with an error that says HTTP/2 needs the tunnel, and https: keeps working', async () => {
    const sim = createSimulation({ httpVersion: '2', tls: '1.3', rtt: 100, proxy: {}, server: routes() });
    const error = await sim.fetch('http://api.example/todos/1').then(
      () => undefined,
      (e: unknown) => e as TypeError,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error!.cause as Error).message)).toMatch(/HTTP\/2 through a proxy needs an https: URL/);
    expect(sim.trace.ofType('request-failed').map((e) => e.reason)).toEqual(['network-error']);
    expect((await sim.fetch('https://api.example/todos/3')).status).toBe(200);
  });
});

describe('the tunnel does not depend on the proxy understanding HTTP beyond CONNECT', () => {
  it('a blind HTTP/1.0 relay carries HTTP/2 just as well, since it never reads the tunnelled bytes', async () => {
    const sim = createSimulation({ httpVersion: '2', tls: '1.3', rtt: 100, bandwidth: Infinity, proxy: { kind: 'dumb' }, server: routes() });
    const res = await sim.fetch('https://api.example/todos/7');
    expect(await res.json()).toEqual({ id: 7 });
    expect(sim.trace.ofType('tunnel-established')).toHaveLength(1);
    expect(
      sim.trace
        .ofType('transition')
        .filter((e) => e.machine === 'proxy-dumb')
        .map((e) => e.input),
    ).toEqual(['CONNECT']);
  });
});
