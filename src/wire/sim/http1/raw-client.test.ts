/**
 * HTTP/1 rejection end to end: bytes the engine (Http1Connection) rejects are rejected by the simulated server
 * (the engine's error in the trace, its status on the wire, then close), and by the real port alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Closers, rawExchange } from '../../node/testing';
import { serveTcp } from '../../node/tcp-server';
import { http } from '../../server/router';
import { createServer } from '../../server/server';
import type { TraceEventOf } from '../../trace/events';
import { createSimulation } from '../simulation';
import { connectRawHttp1 } from './raw-client';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** A space between a field name and its colon: RFC 9112 §5.1 says a server must reject it with 400. */
const MALFORMED = 'GET /hello HTTP/1.1\r\nHost: api.example\r\nX-Bad : 1\r\n\r\n';
const WELL_FORMED = 'GET /hello HTTP/1.1\r\nHost: api.example\r\nConnection: close\r\n\r\n';

function setup() {
  let handled = 0;
  const server = createServer({ routes: [http.get('/hello', () => (handled++, new Response('hi')))] });
  const sim = createSimulation({ server });
  return { sim, server, handled: () => handled };
}

describe('HTTP/1 bytes the engine rejects', () => {
  it('in the simulation: the engine error is traced, 400 goes out, the server closes, the handler never runs', async () => {
    const { sim, handled } = setup();
    const client = connectRawHttp1(sim);
    client.send(MALFORMED);
    await sim.advance(1000);
    const errors = sim.trace.events.filter((e): e is TraceEventOf<'protocol-error'> => e.type === 'protocol-error');
    expect(errors).toHaveLength(1);
    const [error] = errors;
    expect(error!.by).toBe('server');
    expect(error!.status).toBe(400);
    expect(error!.code).not.toBe('');
    // The offset is where the engine stopped: inside the bad field line, after the lines before it.
    expect(error!.offset).toBeGreaterThanOrEqual(MALFORMED.indexOf('X-Bad'));
    expect(error!.offset).toBeLessThan(MALFORMED.length);
    expect(client.received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(client.received).toContain('Connection: close');
    // The body is the engine's text (its first characters are ASCII; `received` reads bytes as latin1).
    expect(client.received).toContain(`\r\n\r\n${error!.message.slice(0, 40)}`);
    expect(client.closed?.by).toBe('server');
    expect(handled()).toBe(0);
    // The engine's state table moved the client side to ERROR, and the trace says so.
    expect(sim.trace.events.some((e) => e.type === 'transition' && e.machine === 'http1-server' && e.to === 'client:ERROR')).toBe(true);
  });

  it('in the simulation: the same request well formed is answered, with no protocol error', async () => {
    const { sim, handled } = setup();
    const client = connectRawHttp1(sim);
    client.send(WELL_FORMED);
    await sim.advance(1000);
    expect(client.received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(client.received.endsWith('hi')).toBe(true);
    expect(sim.trace.events.some((e) => e.type === 'protocol-error')).toBe(false);
    expect(handled()).toBe(1);
  });

  it('on a real port (npm run serve: serveTcp over the Node adapter): the same bytes get 400 too', async () => {
    const { server, handled } = setup();
    const listening = closers.add(await serveTcp(server), (s) => s.close());
    const { text, serverClosed } = await rawExchange(listening.port, [MALFORMED]);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(serverClosed).toBe(true);
    expect(handled()).toBe(0);
  });
});

describe('HTTP/1 responses the client rejects', () => {
  it('a malformed response fails the fetch, with the reader error traced on the client side', async () => {
    const sim = createSimulation({ server: createServer({}) });
    // A server of our own on the simulated network that answers with a field the parser must reject.
    sim.network.listen('bad.example:80', 'server', (socket) => {
      socket.onData(() => socket.write(new TextEncoder().encode('HTTP/1.1 200 OK\r\nX-Bad : 1\r\nContent-Length: 2\r\n\r\nhi')));
    });
    await expect(sim.fetch('http://bad.example/')).rejects.toThrow(TypeError);
    const errors = sim.trace.events.filter((e): e is TraceEventOf<'protocol-error'> => e.type === 'protocol-error');
    expect(errors.map((e) => [e.by, e.status])).toEqual([['client', null]]);
    expect(errors[0]!.offset).toBeGreaterThan(0);
    expect(sim.trace.events.some((e) => e.type === 'request-failed')).toBe(true);
  });
});
