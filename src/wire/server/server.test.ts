/**
 * The mock server's method semantics and fault injection, driven through the whole simulator so each
 * check also shows what went over the wire.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../sim/simulation';
import { http, matchPath } from './router';
import { createServer, type MockServer } from './server';

const make = (server: MockServer, options: Parameters<typeof createSimulation>[0] = {}) =>
  createSimulation({ rtt: 100, bandwidth: Infinity, server, ...options });

const todoServer = () =>
  createServer({
    routes: [
      http.get('/todos/:id', (_r, { params }) => Response.json({ id: params.id })),
      http.post('/todos', async (req) => new Response(await req.text(), { status: 201, headers: { Location: '/todos/9' } })),
      http.on('PURGE', '/cache', () => new Response(null, { status: 204 })),
      http.get('/files/*', (_r, { params }) => new Response(params['*'])),
      http.get('/boom', () => {
        throw new Error('kaput');
      }),
    ],
    resources: { '/notes/1': { body: 'first note', contentType: 'text/plain' } },
  });

describe('router', () => {
  it('matches literal, :param and * segments', () => {
    expect(matchPath('/todos/:id', '/todos/42')).toEqual({ id: '42' });
    expect(matchPath('/todos/:id', '/todos/')).toBeUndefined();
    expect(matchPath('/todos/:id', '/todos/1/x')).toBeUndefined();
    expect(matchPath('/a/*', '/a/b/c')).toEqual({ '*': 'b/c' });
    expect(matchPath('/a/:x', '/a/hello%20world')).toEqual({ x: 'hello world' });
  });

  it('refuses bad paths and methods with a clear message', () => {
    expect(() => http.get('todos', () => new Response())).toThrow(/starts with "\/"/);
    expect(() => http.on('BAD METHOD', '/x', () => new Response())).toThrow(/token/);
  });
});

describe('method semantics', () => {
  it('routes with params and gives handlers a real Request', async () => {
    const sim = make(todoServer());
    const res = await sim.fetch('/todos/7');
    expect(await res.json()).toEqual({ id: '7' });
    const created = await sim.fetch('/todos', { method: 'POST', body: 'new todo' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/todos/9');
    expect(await created.text()).toBe('new todo');
    expect(await (await sim.fetch('/files/a/b.txt')).text()).toBe('a/b.txt');
  });

  it('HEAD is GET without the body, Content-Length kept', async () => {
    const sim = make(todoServer());
    const get = await sim.fetch('/todos/7');
    const getLength = get.headers.get('content-length');
    const head = await sim.fetch('/todos/7', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(getLength);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(await head.text()).toBe('');
    const handled = sim.trace.ofType('server-handled').at(-1)!;
    expect(handled.route).toBe('builtin:HEAD via /todos/:id');
    // The HEAD response on the wire ends after its header section.
    expect(sim.trace.ofType('bytes-sent').at(-1)!.data.endsWith('\r\n\r\n')).toBe(true);
  });

  it('PUT creates with 201, then replaces with 204; GET and DELETE see the store', async () => {
    const sim = make(todoServer());
    const first = await sim.fetch('/notes/2', { method: 'PUT', body: 'hello', headers: { 'Content-Type': 'text/plain' } });
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toBe('/notes/2');
    const second = await sim.fetch('/notes/2', { method: 'PUT', body: 'hello again', headers: { 'Content-Type': 'text/plain' } });
    expect(second.status).toBe(204);
    expect(await (await sim.fetch('/notes/2')).text()).toBe('hello again');
    expect(await (await sim.fetch('/notes/1')).text()).toBe('first note');
    expect((await sim.fetch('/notes/2', { method: 'DELETE' })).status).toBe(204);
    expect((await sim.fetch('/notes/2')).status).toBe(404);
    expect((await sim.fetch('/notes/2', { method: 'DELETE' })).status).toBe(404);
  });

  it('OPTIONS answers Allow for a path, and for * the whole server', async () => {
    const sim = make(todoServer());
    const res = await sim.fetch('/todos/1', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS, TRACE');
    const list = await sim.fetch('/todos', { method: 'OPTIONS' });
    expect(list.headers.get('allow')).toBe('POST, OPTIONS, TRACE');
  });

  it('TRACE echoes the request as message/http, without credentials', async () => {
    const s = createSimulation({ rtt: 10, server: todoServer(), httpVersion: '1.1' });
    // Fetch refuses TRACE, so send it through the wire API the way a playground does: a raw request.
    const res = await rawRequest(s, 'TRACE /todos/1 HTTP/1.1\r\nHost: api.example\r\nX-Probe: 1\r\nAuthorization: secret\r\n\r\n');
    expect(res).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(res).toContain('Content-Type: message/http');
    expect(res).toContain('TRACE /todos/1 HTTP/1.1\r\nHost: api.example\r\nX-Probe: 1\r\n\r\n');
    expect(res).not.toContain('secret');
  });

  it("sim.fetch can send TRACE too (browsers forbid it); a URL cannot carry CONNECT's authority-form, so the server answers 400", async () => {
    const sim = make(todoServer());
    const res = await sim.fetch('/todos/1', { method: 'TRACE', headers: { 'X-Probe': 'yes' } });
    expect(res.headers.get('content-type')).toBe('message/http');
    expect(await res.text()).toBe('TRACE /todos/1 HTTP/1.1\r\nHost: api.example\r\nX-Probe: yes\r\n\r\n');
    // RFC 9112 §3.2.3: CONNECT takes "host:port", never a path; the HTTP/1 engine refuses "/todos/1".
    const connect = await sim.fetch('/todos/1', { method: 'CONNECT' });
    expect(connect.status).toBe(400);
  });

  it('404 for unknown paths, 405 with Allow for known paths, 501 for unknown methods', async () => {
    const sim = make(createServer({ routes: [http.get('/todos/:id', () => new Response('x'))] }));
    expect((await sim.fetch('/nope')).status).toBe(404);
    const wrong = await sim.fetch('/todos/1', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, OPTIONS, TRACE');
    const unknown = await sim.fetch('/todos/1', { method: 'BREW' });
    expect(unknown.status).toBe(501);
    expect(sim.trace.ofType('server-handled').map((e) => e.route)).toEqual(['builtin:404', 'builtin:405', 'builtin:501']);
  });

  it('extension methods reach their routes; a throwing handler becomes a 500', async () => {
    const sim = make(todoServer());
    expect((await sim.fetch('/cache', { method: 'PURGE' })).status).toBe(204);
    const boom = await sim.fetch('/boom');
    expect(boom.status).toBe(500);
    expect(await boom.text()).toMatch(/kaput/);
  });

  it('HTTP/0.9 errors come back as an HTML page, since there is no status line', async () => {
    const sim = make(todoServer(), { httpVersion: '0.9' });
    const res = await sim.fetch('/missing');
    expect(res.status).toBe(200); // all a 0.9 client can know
    const html = await res.text();
    expect(html).toMatch(/<title>404 Not Found<\/title>/);
    expect(sim.trace.ofType('bytes-sent').at(-1)!.data.startsWith('<html>')).toBe(true);
  });
});

describe('fault injection', () => {
  const server = () => createServer({ routes: [http.get('/x', () => new Response('ok'))] });

  it('failNext(n, { status }) answers the next n requests with that status', async () => {
    const srv = server();
    srv.faults.failNext(2, { status: 503 });
    const sim = make(srv);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await sim.fetch('/x')).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect(sim.trace.ofType('fault-injected').map((e) => e.fault)).toEqual(['status', 'status']);
  });

  it('failNext(n, { drop }) drops the connection: a fresh connection fails the fetch with a TypeError', async () => {
    const srv = server();
    srv.faults.failNext(1, { drop: 'reset' });
    const sim = make(srv);
    await expect(sim.fetch('/x')).rejects.toThrow(TypeError);
    expect(sim.trace.ofType('connection-closed')[0]).toMatchObject({ how: 'reset', by: 'server' });
    expect(sim.trace.ofType('request-failed')[0]).toMatchObject({ reason: 'network-error' });
    expect((await sim.fetch('/x')).status).toBe(200);
  });

  it('a drop on a reused connection is retried once, as browsers do for idempotent requests', async () => {
    const srv = server();
    const sim = make(srv);
    await sim.fetch('/x');
    srv.faults.failNext(1, { drop: 'close' });
    expect((await sim.fetch('/x')).status).toBe(200);
    expect(sim.trace.ofType('request-retried')).toHaveLength(1);
  });

  it('route latency and global latency delay the response start', async () => {
    const srv = createServer({ routes: [http.get('/slow', () => new Response('z'), { latency: 250 })] });
    srv.faults.latency(50);
    const sim = make(srv);
    await sim.fetch('/slow');
    expect(sim.clock.now()).toBe(200 + 250 + 50);
  });

  it('slow bodies trickle out bytesPerTick at a time', async () => {
    const body = 'x'.repeat(100);
    const srv = createServer({ routes: [http.get('/big', () => new Response(body), { bytesPerTick: 10, tickMs: 20 })] });
    const sim = make(srv);
    const res = await sim.fetch('/big');
    expect(await res.text()).toBe(body);
    const serverWrites = sim.trace.ofType('bytes-sent').filter((e) => e.from === 'server');
    expect(serverWrites.length).toBe(11); // head + 10 body pieces
    expect(serverWrites.slice(1).every((e) => e.data.length === 10)).toBe(true);
    expect(sim.clock.now()).toBe(200 + 10 * 20);
    const f = sim.trace.ofType('request-finished')[0]!;
    expect(f.timings.receive).toBe(200);
  });

  it('faults.slowBody applies to every route; clear() removes all faults', async () => {
    const srv = server();
    srv.faults.slowBody({ bytesPerTick: 1, tickMs: 5 }).failNext(1, { status: 500 });
    srv.faults.clear();
    const sim = make(srv);
    expect((await sim.fetch('/x')).status).toBe(200);
    expect(sim.clock.now()).toBe(200);
    expect(() => srv.faults.failNext(0, { status: 500 })).toThrow(RangeError);
  });
});

/** Writes raw bytes on a fresh client connection to the simulation's server and collects the reply. */
async function rawRequest(sim: ReturnType<typeof createSimulation>, text: string): Promise<string> {
  let reply = '';
  const socket = sim.connect('api.example:80');
  socket.onData((b) => (reply += String.fromCharCode(...b)));
  socket.write(new Uint8Array([...text].map((c) => c.charCodeAt(0))));
  await sim.advance(1000);
  return reply;
}

describe('malformed requests', () => {
  it("get the HTTP/1 engine's status hint and a closed connection", async () => {
    const sim = make(todoServer());
    let reply = '';
    let closed = false;
    const socket = sim.connect('api.example:80');
    socket.onData((b) => (reply += String.fromCharCode(...b)));
    socket.onClose(() => (closed = true));
    socket.write(new TextEncoder().encode('GET /x HTTP/1.1\r\nHost: api.example\r\nBad Header\r\n\r\n'));
    await sim.advance(1000);
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(reply).toContain('Connection: close');
    expect(closed).toBe(true);
  });
});
