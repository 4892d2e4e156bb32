/**
 * Connection management scenarios, each checked through the trace (spec "States and transitions").
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, type Simulation } from '../sim/simulation';
import type { SimulationOptions } from '../sim/options';
import { http } from '../server/router';
import { createServer } from '../server/server';

const server = () =>
  createServer({
    routes: [
      http.get('/a/:n', (_r, { params }) => new Response(`resource ${params.n}`)),
      http.get('/slow', () => new Response('slow'), { latency: 1000 }),
      http.get('/echo-headers', (req) => Response.json(Object.fromEntries(req.headers))),
    ],
    keepAlive: { timeout: 5000, max: 100 },
  });

const sim = (options: SimulationOptions): Simulation => createSimulation({ rtt: 100, bandwidth: Infinity, server: server(), ...options });
const opened = (s: Simulation, from = 'client') => s.trace.ofType('connection-opening').filter((e) => e.from === from);

async function sequential(s: Simulation, paths: string[]): Promise<Response[]> {
  const out: Response[] = [];
  for (const p of paths) out.push(await s.fetch(p));
  return out;
}

describe('HTTP/1.0', () => {
  it('short-lived by default: N requests open N connections, each paying the handshake', async () => {
    const s = sim({ httpVersion: '1.0' });
    const responses = await sequential(s, ['/a/1', '/a/2', '/a/3']);
    expect(await Promise.all(responses.map((r) => r.text()))).toEqual(['resource 1', 'resource 2', 'resource 3']);
    expect(opened(s)).toHaveLength(3);
    expect(s.trace.ofType('request-dispatched').every((e) => !e.reused)).toBe(true);
    expect(s.trace.ofType('request-finished').map((e) => e.timings.connect)).toEqual([100, 100, 100]);
    expect(s.trace.ofType('request-sent')[0]!.startLine).toBe('GET /a/1 HTTP/1.0');
    expect(s.trace.ofType('transition').some((t) => t.input === 'send-last' && t.to === 'closing')).toBe(true);
  });

  it('Keep-Alive is opt-in: with it one connection serves every request', async () => {
    const s = sim({ httpVersion: '1.0', keepAlive: true });
    const responses = await sequential(s, ['/a/1', '/a/2', '/a/3']);
    expect(opened(s)).toHaveLength(1);
    expect(responses[0]!.headers.get('connection')).toBe('keep-alive');
    expect(responses[0]!.headers.get('keep-alive')).toBe('timeout=5, max=99');
    expect(s.trace.ofType('request-dispatched').map((e) => e.reused)).toEqual([false, true, true]);
    expect(s.trace.ofType('request-finished').map((e) => e.timings.connect)).toEqual([100, -1, -1]);
  });

  it('Keep-Alive needs the server to agree: one that does not answers Connection: close', async () => {
    const s = createSimulation({
      httpVersion: '1.0',
      keepAlive: true,
      bandwidth: Infinity,
      server: createServer({ routes: [http.get('/x', () => new Response('x'))], keepAlive: false }),
    });
    const [first] = await sequential(s, ['/x', '/x']);
    expect(s.trace.ofType('request-sent')[0]!.headers).toContainEqual({ name: 'Connection', value: 'keep-alive' });
    expect(first!.headers.get('connection')).toBe('close');
    expect(opened(s)).toHaveLength(2);
  });

  it('Keep-Alive max: after max requests the server closes and the next request opens a new connection', async () => {
    const s = createSimulation({
      httpVersion: '1.0',
      keepAlive: true,
      rtt: 100,
      bandwidth: Infinity,
      server: createServer({ routes: [http.get('/x', () => new Response('x'))], keepAlive: { max: 2 } }),
    });
    const responses = await sequential(s, ['/x', '/x', '/x']);
    expect(responses[1]!.headers.get('connection')).toBe('close');
    expect(opened(s)).toHaveLength(2);
  });

  it('Keep-Alive timeout: an idle kept-alive connection is closed and the next request reconnects', async () => {
    const s = sim({ httpVersion: '1.0', keepAlive: true });
    await s.fetch('/a/1');
    await s.advance(6000);
    expect(s.trace.ofType('connection-closed')[0]).toMatchObject({ connectionId: 'c1' });
    await s.fetch('/a/2');
    expect(opened(s)).toHaveLength(2);
  });
});

describe('HTTP/1.1', () => {
  it('persistent by default: one connection, no Connection header needed', async () => {
    const s = sim({ httpVersion: '1.1' });
    await sequential(s, ['/a/1', '/a/2', '/a/3', '/a/4']);
    expect(opened(s)).toHaveLength(1);
    expect(s.trace.ofType('request-sent').every((e) => !e.headers.some((h) => h.name === 'Connection'))).toBe(true);
  });

  it('Connection: close from the client ends the connection after that response', async () => {
    const s = sim({});
    await s.fetch('/a/1', { headers: { Connection: 'close' } });
    await s.fetch('/a/2');
    expect(opened(s)).toHaveLength(2);
    const moves = s.trace
      .ofType('transition')
      .filter((t) => t.connectionId === 'c1' && t.machine === 'client-connection')
      .map((t) => `${t.from}-${t.input}->${t.to}`);
    expect(moves).toEqual(['connecting-ready->idle', 'idle-send-last->closing', 'closing-response-close->closing', 'closing-peer-closed->closed']);
  });

  it('keepAlive: false sends Connection: close on every request', async () => {
    const s = sim({ keepAlive: false });
    await sequential(s, ['/a/1', '/a/2']);
    expect(opened(s)).toHaveLength(2);
    expect(s.trace.ofType('request-sent')[0]!.headers).toContainEqual({ name: 'Connection', value: 'close' });
  });

  it('at most 6 connections per origin: the 7th request queues until one is free', async () => {
    const s = sim({});
    const all = await Promise.all(Array.from({ length: 7 }, (_, i) => s.fetch(`/a/${i}`)));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(opened(s)).toHaveLength(6);
    const queued = s.trace.ofType('request-queued');
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ requestId: 'r7', reason: 'connection-limit', position: 0 });
    const last = s.trace.ofType('request-finished').find((e) => e.requestId === 'r7')!;
    expect(last.reused).toBe(true);
    expect(last.timings.blocked).toBe(200); // waited for the first connection to become idle
  });

  it('the limit is configurable', async () => {
    const s = sim({ maxConnectionsPerOrigin: 2 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => s.fetch(`/a/${i}`)));
    expect(opened(s)).toHaveLength(2);
    expect(s.trace.ofType('request-queued')).toHaveLength(3);
  });

  it('pipelining: responses come back in order, so a slow first response delays the second (HOL)', async () => {
    const s = sim({ maxConnectionsPerOrigin: 1, pipelining: true });
    await s.fetch('/a/0'); // confirms the connection persists (RFC 9112 §9.3.2)
    const t0 = s.clock.now();
    const done: Record<string, number> = {};
    await Promise.all([s.fetch('/slow').then(() => (done.slow = s.clock.now() - t0)), s.fetch('/a/1').then(() => (done.fast = s.clock.now() - t0))]);
    expect(opened(s)).toHaveLength(1);
    expect(s.trace.ofType('request-dispatched').map((e) => e.pipelineDepth)).toEqual([0, 0, 1]);
    expect(s.trace.ofType('transition').some((t) => t.to === 'pipelined')).toBe(true);
    // The fast one was sent at once but its response waits behind the slow one.
    expect(done.slow).toBe(1100);
    expect(done.fast).toBe(1100);
    const sent = s.trace
      .ofType('request-sent')
      .slice(1)
      .map((e) => e.at - t0);
    expect(sent).toEqual([0, 0]);
  });

  it('without pipelining the same two requests use two connections and the fast one is not held back', async () => {
    const s = sim({});
    await s.fetch('/a/0');
    const t0 = s.clock.now();
    const done: Record<string, number> = {};
    await Promise.all([s.fetch('/slow').then(() => (done.slow = s.clock.now() - t0)), s.fetch('/a/1').then(() => (done.fast = s.clock.now() - t0))]);
    expect(done.fast).toBe(200); // new connection: 1 RTT handshake + 1 RTT
    expect(done.slow).toBe(1100);
  });
});

describe('proxies', () => {
  it('a smart proxy removes hop-by-hop fields, including those named in Connection, and adds Via', async () => {
    const s = sim({ proxy: { kind: 'smart' } });
    const res = await s.fetch('/echo-headers', {
      headers: { Connection: 'X-Secret-Hop, keep-alive', 'X-Secret-Hop': '1', 'Keep-Alive': 'timeout=3', TE: 'trailers', 'X-End-To-End': 'yes' },
    });
    const seen = (await res.json()) as Record<string, string>;
    expect(seen['x-end-to-end']).toBe('yes');
    for (const gone of ['connection', 'x-secret-hop', 'keep-alive', 'te']) expect(seen[gone]).toBeUndefined();
    expect(seen.via).toBe('1.1 proxy.example');
    const forwarded = s.trace.ofType('proxy-forwarded').find((e) => e.kind === 'request')!;
    expect(forwarded.removedHeaders).toEqual(['Connection', 'X-Secret-Hop', 'Keep-Alive', 'TE']);
    // The client talks to the proxy in absolute-form (RFC 9112 §3.2.2); the proxy uses origin-form.
    expect(s.trace.ofType('request-sent')[0]!.startLine).toBe('GET http://api.example/echo-headers HTTP/1.1');
    const atServer = s.trace.ofType('message-parsed').find((e) => e.by === 'server')!;
    expect(atServer.startLine).toBe('GET /echo-headers HTTP/1.1');
    expect(opened(s, 'client')).toHaveLength(1);
    expect(opened(s, 'proxy')).toHaveLength(1);
  });

  it('HTTP/1.0 Keep-Alive through a dumb proxy hangs the next request until the origin times out', async () => {
    const s = sim({ httpVersion: '1.0', keepAlive: true, proxy: { kind: 'dumb' } });
    await s.fetch('/a/1');
    const t0 = s.clock.now();
    const second = await s.fetch('/a/2');
    expect(await second.text()).toBe('resource 2');
    const waited = s.clock.now() - t0;
    // The request sat on the relay until the origin's 5 s keep-alive timeout closed everything, then
    // the client retried it on a new connection.
    expect(waited).toBeGreaterThan(5000);
    const retried = s.trace.ofType('request-retried');
    expect(retried).toHaveLength(1);
    expect(retried[0]!.requestId).toBe('r2');
    // The dumb proxy forwarded Connection: keep-alive unchanged.
    const atServer = s.trace.ofType('message-parsed').find((e) => e.by === 'server')!;
    expect(atServer.headers).toContainEqual({ name: 'Connection', value: 'keep-alive' });
  });

  it('several kept-alive connections through a dumb proxy: every request still completes, late', async () => {
    const s = sim({ httpVersion: '1.0', keepAlive: true, proxy: { kind: 'dumb' } });
    await s.fetch('/a/0');
    const texts = await Promise.all([s.fetch('/a/1'), s.fetch('/a/2'), s.fetch('/a/3')].map((p) => p.then((r) => r.text())));
    expect(texts).toEqual(['resource 1', 'resource 2', 'resource 3']);
    expect(s.trace.ofType('request-retried').length).toBeGreaterThan(0);
    expect(s.trace.ofType('request-failed')).toHaveLength(0);
  });

  it('Proxy-Connection avoids the hang: the dumb proxy forwards it, the origin ignores it and closes', async () => {
    const s = sim({ httpVersion: '1.0', keepAlive: true, proxy: { kind: 'dumb', useProxyConnection: true } });
    await s.fetch('/a/1');
    const t0 = s.clock.now();
    await s.fetch('/a/2');
    expect(s.clock.now() - t0).toBeLessThan(1000);
    expect(s.trace.ofType('request-retried')).toHaveLength(0);
    expect(s.trace.ofType('request-sent')[0]!.headers).toContainEqual({ name: 'Proxy-Connection', value: 'keep-alive' });
    expect(opened(s, 'client')).toHaveLength(2);
  });

  it('a smart HTTP/1.1 proxy never keeps a persistent connection with an HTTP/1.0 client', async () => {
    const s = sim({ httpVersion: '1.0', keepAlive: true, proxy: { kind: 'smart' } });
    const [first] = await sequential(s, ['/a/1', '/a/2']);
    expect(first!.headers.get('connection')).toBe('close');
    expect(opened(s, 'client')).toHaveLength(2);
    expect(s.trace.ofType('request-retried')).toHaveLength(0);
  });

  it('pipelining fails through a proxy that lacks it: pipelined requests are dropped and retried', async () => {
    const s = sim({ maxConnectionsPerOrigin: 1, pipelining: true, proxy: { kind: 'smart', pipelining: false } });
    await s.fetch('/a/0');
    const all = await Promise.all([s.fetch('/a/1'), s.fetch('/a/2')]);
    expect(await Promise.all(all.map((r) => r.text()))).toEqual(['resource 1', 'resource 2']);
    expect(s.trace.ofType('transition').some((t) => t.machine === 'proxy-smart' && t.to === 'dropping')).toBe(true);
    expect(s.trace.ofType('request-retried').map((e) => e.requestId)).toEqual(['r3']);
    // After the failure the client stops pipelining to that proxy.
    const s2 = await Promise.all([s.fetch('/a/3'), s.fetch('/a/4')]);
    expect(s2).toHaveLength(2);
    const lastTwo = s.trace.ofType('request-dispatched').slice(-2);
    expect(lastTwo.map((e) => e.pipelineDepth)).toEqual([0, 0]);
  });

  it('pipelining works through a proxy that supports it', async () => {
    const s = sim({ maxConnectionsPerOrigin: 1, pipelining: true, proxy: { kind: 'smart', pipelining: true } });
    await s.fetch('/a/0');
    await Promise.all([s.fetch('/a/1'), s.fetch('/a/2')]);
    expect(s.trace.ofType('request-retried')).toHaveLength(0);
    expect(s.trace.ofType('request-dispatched').map((e) => e.pipelineDepth)).toEqual([0, 0, 1]);
  });

  it('https through a proxy uses a CONNECT tunnel, with TLS end to end', async () => {
    const s = sim({ tls: '1.3', proxy: { kind: 'smart' } });
    const res = await s.fetch('https://api.example/a/9');
    expect(await res.text()).toBe('resource 9');
    expect(s.trace.ofType('request-sent')[0]!.startLine).toBe('CONNECT api.example:443 HTTP/1.1');
    expect(s.trace.ofType('tunnel-established')).toHaveLength(1);
    expect(s.trace.ofType('request-sent')[1]!.startLine).toBe('GET /a/9 HTTP/1.1');
    const finished = s.trace.ofType('request-finished')[0]!;
    // TCP to proxy (100) + CONNECT via two hops (200) + TLS 1.3 via two hops (200) = 500 of setup.
    expect(finished.timings.connect).toBe(500);
    expect(finished.timings.ssl).toBe(200);
    expect(finished.serverIPAddress).toBe('198.51.100.1');
  });
});

describe('connection setup cost per request', () => {
  // RTT 100: TCP's handshake is one round trip; TLS 1.3 one more; TLS 1.2 one more with False Start (RFC 7918,
  // the default, as in browsers: the request leaves with the client's Finished), two without it.
  it.each([
    ['none', true, 100, -1, 200],
    ['1.2', true, 200, 100, 300],
    ['1.2', false, 300, 200, 400],
    ['1.3', true, 200, 100, 300],
  ] as const)('tls %s (False Start %s): connect %i ms (ssl %i), first response after %i ms', async (tls, tlsFalseStart, connect, ssl, total) => {
    const s = sim({ tls, tlsFalseStart });
    await s.fetch('/a/1');
    const f = s.trace.ofType('request-finished')[0]!;
    expect(f.timings.connect).toBe(connect);
    expect(f.timings.ssl).toBe(ssl);
    expect(s.clock.now()).toBe(total);
    await s.fetch('/a/2');
    expect(s.trace.ofType('request-finished')[1]!.timings).toMatchObject({ connect: -1, ssl: -1 });
  });
});

describe('HTTP/0.9', () => {
  it('one-line request, bare body response, connection per request', async () => {
    const s = sim({ httpVersion: '0.9' });
    const res = await s.fetch('/a/5');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('resource 5');
    expect(s.trace.ofType('bytes-sent')[0]!.data).toBe('GET /a/5\r\n');
    await s.fetch('/a/6');
    expect(opened(s)).toHaveLength(2);
  });

  it('only GET exists', async () => {
    const s = sim({ httpVersion: '0.9' });
    await expect(s.fetch('/a/5', { method: 'POST', body: 'x' })).rejects.toThrow(/has only GET/);
  });
});

describe('the HTTP/1 engine alongside each connection', () => {
  it('traces the rows of the http1 state table on both sides, without errors', async () => {
    const s = sim({ pipelining: true, maxConnectionsPerOrigin: 1 });
    await s.fetch('/a/0');
    await Promise.all([s.fetch('/a/1'), s.fetch('/a/2', { method: 'HEAD' })]);
    const rows = s.trace.ofType('transition').filter((t) => t.machine.startsWith('http1-'));
    expect(rows.some((t) => t.machine === 'http1-client' && t.from === 'client:IDLE')).toBe(true);
    expect(rows.some((t) => t.machine === 'http1-server' && t.to === 'server:SEND_BODY')).toBe(true);
    expect(rows.filter((t) => t.to.endsWith('ERROR'))).toEqual([]);
  });

  it('keeps quiet about versions and flows it handles: 1.0, 0.9, proxies', async () => {
    for (const options of [{ httpVersion: '1.0' as const }, { httpVersion: '0.9' as const }, { proxy: { kind: 'smart' as const } }]) {
      const s = sim(options);
      await s.fetch('/a/0');
      await s.fetch('/a/1');
      const errors = s.trace.ofType('transition').filter((t) => t.to.endsWith('ERROR'));
      expect(errors, JSON.stringify(options)).toEqual([]);
    }
  });
});

describe('determinism', () => {
  it('the same seed gives the same trace, event for event; another seed differs under loss', async () => {
    const run = async (seed: number) => {
      const s = sim({ loss: 0.2, seed, bandwidth: 1_000_000 });
      await Promise.all([s.fetch('/a/1'), s.fetch('/a/2'), s.fetch('/echo-headers')]);
      return JSON.stringify(s.trace.toJSON());
    };
    const a = await run(11);
    expect(await run(11)).toBe(a);
    expect(await run(12)).not.toBe(a);
  });
});
