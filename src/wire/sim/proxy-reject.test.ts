/**
 * Issue #29 item 4: what the HTTP/1 engine rejects, the forward proxy rejects, with the engine's code and
 * status, as the simulated server does; it forwards nothing to the origin.
 */
import { describe, expect, it } from 'vitest';
import { parseHttp1 } from '../http1/index';
import { ConnectTunnel } from './proxy-tunnel';
import { http1Codec } from './http1/codec';
import { http } from '../server/router';
import { createServer } from '../server/server';
import { connectRawHttp1 } from './http1/raw-client';
import { createSimulation } from './simulation';
import type { TraceEventOf } from '../trace/events';

const PROXY = 'proxy.example:3128';

function setup(kind: 'smart' | 'dumb' = 'smart') {
  let handled = 0;
  const server = createServer({ routes: [http.get('/hello', () => (handled++, new Response('hi')))] });
  const sim = createSimulation({ server, proxy: { kind } });
  return { sim, handled: () => handled };
}

const errors = (sim: ReturnType<typeof setup>['sim']) => sim.trace.events.filter((e): e is TraceEventOf<'protocol-error'> => e.type === 'protocol-error');

describe('the forward proxy reads requests with the HTTP/1 engine', () => {
  it.each([
    ['whitespace before a colon (RFC 9112 §5.1)', 'GET http://api.example/hello HTTP/1.1\r\nHost: api.example\r\nX-Bad : 1\r\n\r\n'],
    [
      'two Content-Length values (RFC 9112 §6.3)',
      'POST http://api.example/hello HTTP/1.1\r\nHost: api.example\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    ],
    ['an HTTP/5.6 request line (RFC 9112 §2.3)', 'GET http://api.example/hello HTTP/5.6\r\nHost: api.example\r\n\r\n'],
    [
      'a request whose Transfer-Encoding does not end in chunked (RFC 9112 §6.3 rule 4)',
      'POST http://api.example/hello HTTP/1.1\r\nHost: api.example\r\nTransfer-Encoding: chunked, deflate\r\n\r\nabc',
    ],
  ])('%s: the engine\u2019s code and status, answered and traced by the proxy, nothing forwarded', async (_, bytes) => {
    const engine = parseHttp1(bytes, { role: 'server' }).error!;
    expect(engine).toBeDefined();
    for (const kind of ['smart', 'dumb'] as const) {
      const { sim, handled } = setup(kind);
      const client = connectRawHttp1(sim, PROXY);
      client.send(bytes);
      await sim.advance(1000);
      const [error, ...more] = errors(sim);
      expect(more).toEqual([]);
      expect(error).toMatchObject({ by: 'proxy', code: engine.code, offset: engine.offset, status: engine.statusHint ?? 400 });
      expect(client.received).toMatch(new RegExp(`^HTTP/1\\.1 ${engine.statusHint ?? 400} `));
      expect(client.received).toContain('Connection: close');
      expect(client.closed).toBeDefined();
      expect(handled()).toBe(0);
    }
  });

  it('a request the engine accepts goes through', async () => {
    const { sim, handled } = setup();
    const client = connectRawHttp1(sim, PROXY);
    client.send('GET http://api.example/hello HTTP/1.1\r\nHost: api.example\r\nConnection: close\r\n\r\n');
    await sim.advance(1000);
    expect(client.received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(errors(sim)).toEqual([]);
    expect(handled()).toBe(1);
  });

  it('the CONNECT tunnel reads the proxy’s answer with the engine too: a response it rejects is traced with its code', async () => {
    const server = createServer({});
    const sim = createSimulation({ server, tls: '1.3' });
    // A "proxy" whose answer to CONNECT has whitespace before a header line's colon.
    sim.network.listen(PROXY, 'server', (socket) => {
      socket.onData(() => socket.write(new TextEncoder().encode('HTTP/1.1 200 OK\r\nX-Bad : 1\r\n\r\n')));
    });
    const engine = parseHttp1('HTTP/1.1 200 OK\r\nX-Bad : 1\r\n\r\n', { role: 'client', requestMethod: 'CONNECT' }).error!;
    const ctx = { clock: sim.clock, trace: sim.trace, nextId: (prefix: string) => `${prefix}-test` };
    const tunnel = new ConnectTunnel(sim.connect(PROXY), 'api.example:443', http1Codec, ctx);
    let closed = false;
    tunnel.onClose(() => (closed = true));
    await sim.advance(1000);
    expect(errors(sim)).toEqual([expect.objectContaining({ by: 'client', code: engine.code, offset: engine.offset, status: null })]);
    expect(closed).toBe(true);
  });

  it('an origin response the engine rejects: the proxy answers 502 with the engine’s code and closes', async () => {
    const { sim } = setup();
    const bad = 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab';
    sim.network.listen('bad.example:80', 'server', (socket) => {
      socket.onData(() => socket.write(new TextEncoder().encode(bad)));
    });
    const engine = parseHttp1(bad, { role: 'client' }).error!;
    expect(engine.statusHint).toBe(502);
    const client = connectRawHttp1(sim, PROXY);
    client.send('GET http://bad.example/ HTTP/1.1\r\nHost: bad.example\r\n\r\n');
    await sim.advance(1000);
    expect(errors(sim)).toEqual([expect.objectContaining({ by: 'proxy', code: engine.code, status: 502 })]);
    expect(client.received).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(client.closed).toBeDefined();
  });
});
