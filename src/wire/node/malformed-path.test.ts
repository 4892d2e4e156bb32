/**
 * A malformed percent-encoding in the path (`/todos/%ZZ`, which curl sends as typed) gets an answer, 400 per
 * RFC 3986 §2.1, from the mock server in the simulator and on a real socket alike. It once threw URIError from
 * the router, which left simulated fetches hanging and the TCP adapter answering 500.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulation } from '../sim/index';
import { createServer, http, serverRespond } from '../server/index';
import { serveTcp } from './tcp-server';
import { Closers, rawExchange } from './testing';

const closers = new Closers();
afterEach(() => closers.closeAll());

const todos = () => createServer({ routes: [http.get('/todos/:id', (_r, { params }) => Response.json({ id: params.id }))] });

describe('a malformed percent-encoding in the path', () => {
  it('respond() answers with a 4xx instead of rejecting with URIError', async () => {
    const server = todos();
    const request = { method: 'GET', target: '/todos/%ZZ', version: '1.1' as const, headers: [{ name: 'Host', value: 'x' }], body: new Uint8Array(0) };
    const reply = await serverRespond(request, { routes: server.routes, store: server.store, origin: 'http://x' });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
  });

  it('sim.fetch gets a 4xx response instead of "Failed to fetch"', async () => {
    const sim = createSimulation({ server: todos() });
    const res = await sim.fetch('/todos/%ZZ');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('the TCP adapter meanwhile', () => {
  it('still answers (500 from the adapter, or the fixed 4xx) and keeps the connection, rather than resetting it', async () => {
    const server = closers.add(await serveTcp(todos()), (s) => s.close());
    const { text } = await rawExchange(server.port, [
      'GET /todos/%ZZ HTTP/1.1\r\nHost: x\r\n\r\nGET /todos/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    ]);
    expect(text).toMatch(/^HTTP\/1\.1 [45]\d\d /);
    expect(text).toMatch(/\{"id":"1"\}$/);
  });
});
