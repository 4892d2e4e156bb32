/**
 * The HTTP/1 engine as a server (serveTcp + a MockServer) against Node's HTTP client and raw sockets.
 */
import { Agent, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, http, type MockServer } from '../server/index';
import { prefaceDetector, type ServerProtocol } from './protocol';
import { serveTcp, type TcpServer } from './tcp-server';
import { Closers, RawPeer, rawExchange } from './testing';

const closers = new Closers();
afterEach(() => closers.closeAll());

const FIXED_NOW = Date.UTC(2026, 0, 2, 3, 4, 5);

const serve = async (mock: MockServer, options: Parameters<typeof serveTcp>[1] = {}): Promise<TcpServer> =>
  closers.add(await serveTcp(mock, { now: () => FIXED_NOW, ...options }), (s) => s.close());

const api = () =>
  createServer({
    routes: [
      http.get('/todos/:id', (_r, { params }) => Response.json({ id: params.id })),
      http.post('/echo', async (r) => new Response(`${r.headers.get('content-type')}: ${await r.text()}`)),
    ],
    resources: true,
  });

interface NodeResult {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly reusedSocket: boolean;
}

/** One request with Node's client; resolves once the whole body is read. */
function nodeRequest(
  port: number,
  agent: Agent,
  options: { method?: string; path: string; body?: string; headers?: Record<string, string> },
): Promise<NodeResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, agent, method: options.method ?? 'GET', path: options.path, headers: options.headers, timeout: 5000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, reusedSocket: req.reusedSocket }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('node client: no answer in 5 s')));
    req.on('error', reject);
    req.end(options.body);
  });
}

const keepAliveAgent = () => closers.add(new Agent({ keepAlive: true, maxSockets: 1 }), (a) => a.destroy());

describe('serveTcp against node:http (Agent keepAlive)', () => {
  it('answers through the mock routes and keeps one connection for several requests', async () => {
    const server = await serve(api());
    const agent = keepAliveAgent();
    const a = await nodeRequest(server.port, agent, { path: '/todos/7' });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ id: '7' });
    expect(a.headers['content-type']).toBe('application/json');
    expect(a.headers.date).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
    expect(a.headers.server).toBe('roundtrip-sim');
    const b = await nodeRequest(server.port, agent, { method: 'POST', path: '/echo', body: 'hi', headers: { 'Content-Type': 'text/plain' } });
    expect(b.body).toBe('text/plain: hi');
    expect(b.reusedSocket).toBe(true);
    expect(server.accepted).toBe(1);
    expect(server.requests).toBe(2);
  });

  it('reads a chunked request body (Node sends one when it does not know the length)', async () => {
    const server = await serve(api());
    const agent = keepAliveAgent();
    const result = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: server.port, agent, method: 'POST', path: '/echo', headers: { 'Content-Type': 'text/x' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${String(req.getHeader('transfer-encoding') ?? '')} ${body}`));
      });
      req.on('error', reject);
      req.write('part one, ');
      req.end('part two');
    });
    expect(result).toBe('200  text/x: part one, part two');
  });

  it('gives PUT 201 then 204 from the resource store, and 404 after DELETE', async () => {
    const server = await serve(api());
    const agent = keepAliveAgent();
    const put = (body: string) => nodeRequest(server.port, agent, { method: 'PUT', path: '/notes/1', body, headers: { 'Content-Type': 'text/plain' } });
    expect((await put('v1')).status).toBe(201);
    expect((await put('v2')).status).toBe(204);
    expect((await nodeRequest(server.port, agent, { path: '/notes/1' })).body).toBe('v2');
    expect((await nodeRequest(server.port, agent, { method: 'DELETE', path: '/notes/1' })).status).toBe(204);
    expect((await nodeRequest(server.port, agent, { path: '/notes/1' })).status).toBe(404);
    expect(server.accepted).toBe(1);
  });

  it('injects a status fault and a dropped connection, in arrival order', async () => {
    const mock = api();
    mock.faults.failNext(1, { status: 503 }).failNext(1, { drop: 'reset' });
    const server = await serve(mock);
    const agent = keepAliveAgent();
    expect((await nodeRequest(server.port, agent, { path: '/todos/1' })).status).toBe(503);
    await expect(nodeRequest(server.port, agent, { path: '/todos/1' })).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect((await nodeRequest(server.port, agent, { path: '/todos/1' })).status).toBe(200);
  });
});

const GET = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: test\r\n${extra}\r\n`;

describe('serveTcp on raw sockets', () => {
  it('answers pipelined requests in order on one connection, then honours Connection: close', async () => {
    const server = await serve(api());
    const all = GET('/todos/1') + GET('/todos/2') + `HEAD /todos/3 HTTP/1.1\r\nHost: test\r\n\r\n` + GET('/todos/4', 'Connection: close\r\n');
    const { text, serverClosed } = await rawExchange(server.port, [all]);
    // A response follows the previous body directly, so status lines are not always at a line start.
    expect(text.match(/HTTP\/1\.1 \d{3} [^\r]*/g)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    const bodies = text.match(/\{"id":"\d"\}/g);
    expect(bodies).toEqual(['{"id":"1"}', '{"id":"2"}', '{"id":"4"}']); // the HEAD reply has no body
    expect(text.split('\r\n\r\n')[3]).toMatch(/Content-Length: 10\r\n/); // ...but the GET's length
    expect(text).toMatch(/Connection: close\r\n\r\n\{"id":"4"\}$/);
    expect(serverClosed).toBe(true);
    expect(server.accepted).toBe(1);
  });

  it('answers a request split across many writes', async () => {
    const server = await serve(api());
    const bytes = GET('/todos/9', 'Connection: close\r\n');
    const { text } = await rawExchange(server.port, bytes.match(/[\s\S]{1,3}/g)!);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\{"id":"9"\}$/);
  });

  it('answers a malformed request with 400 and closes, ignoring what follows', async () => {
    const server = await serve(api());
    const { text, serverClosed } = await rawExchange(server.port, [`GET /todos/1 HTTP/1.1\r\nHost: test\r\nNo colon here\r\n\r\n`, GET('/todos/2')]);
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toMatch(/Connection: close\r\n/);
    expect(text.match(/HTTP\/1\.1/g)).toHaveLength(1);
    expect(serverClosed).toBe(true);
  });

  it('answers a missing Host with 400 (RFC 9112 §3.2), and a huge header section with 431', async () => {
    const server = await serve(api());
    const noHost = await rawExchange(server.port, ['GET /todos/1 HTTP/1.1\r\n\r\n']);
    expect(noHost.text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const huge = await rawExchange(server.port, [GET('/todos/1', `X-Big: ${'a'.repeat(20_000)}\r\n`)]);
    expect(huge.text).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(huge.serverClosed).toBe(true);
  });

  it('answers a request smuggling attempt (Content-Length with chunked) with 400', async () => {
    const server = await serve(api());
    const { text } = await rawExchange(server.port, ['POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n']);
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('decodes a gzip transfer coding before the handler sees the body (RFC 9112 §6.1), refuses a broken one and answers compress with 501', async () => {
    const server = await serve(api());
    const coded = gzipSync(Buffer.from('plain words')).toString('latin1');
    const chunked = `${coded.length.toString(16)}\r\n${coded}\r\n0\r\n\r\n`;
    const post = (te: string, body: string) =>
      `POST /echo HTTP/1.1\r\nHost: test\r\nContent-Type: text/x\r\nTransfer-Encoding: ${te}\r\nConnection: close\r\n\r\n${body}`;
    const good = await rawExchange(server.port, [post('gzip, chunked', chunked)]);
    expect(good.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(good.text.endsWith('text/x: plain words')).toBe(true);
    const broken = await rawExchange(server.port, [post('gzip, chunked', '5\r\nnot z\r\n0\r\n\r\n')]);
    expect(broken.text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(broken.text).toMatch(/not valid gzip data/);
    const compress = await rawExchange(server.port, [post('compress, chunked', '1\r\nx\r\n0\r\n\r\n')]);
    expect(compress.text).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n/);
  });

  it('replies to HTTP/1.0 in 1.0 and closes unless the request asked for keep-alive', async () => {
    const server = await serve(api());
    const plain = await rawExchange(server.port, ['GET /todos/1 HTTP/1.0\r\n\r\n']);
    expect(plain.text).toMatch(/^HTTP\/1\.0 200 OK\r\n[\s\S]*Connection: close\r\n/);
    expect(plain.serverClosed).toBe(true);
    const kept = await rawExchange(server.port, ['GET /todos/1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n'], (t) => t.endsWith('}'));
    // No request limit by default (as node:http): Keep-Alive announces the timeout alone.
    expect(kept.text).toMatch(/Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n/);
    expect(kept.serverClosed).toBe(false);
    const limited = await serve(api(), { maxRequestsPerConnection: 100 });
    const counted = await rawExchange(limited.port, ['GET /todos/1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n'], (t) => t.endsWith('}'));
    expect(counted.text).toMatch(/Connection: keep-alive\r\nKeep-Alive: timeout=5, max=99\r\n/);
  });

  it('closes a keep-alive connection after maxRequestsPerConnection requests', async () => {
    const server = await serve(api(), { maxRequestsPerConnection: 2 });
    const get = (n: number) => `GET /todos/${n} HTTP/1.1\r\nHost: test\r\n\r\n`;
    // Three pipelined requests: the second reply says close, and the third is never answered.
    const { text, serverClosed } = await rawExchange(server.port, [get(1) + get(2) + get(3)]);
    const heads = text.split('HTTP/1.1 ').slice(1);
    expect(heads).toHaveLength(2);
    expect(heads[0]).not.toMatch(/Connection: close/);
    expect(heads[1]).toMatch(/Connection: close\r\n[\s\S]*\{"id":"2"\}$/);
    expect(serverClosed).toBe(true);
    await expect(serveTcp(api(), { maxRequestsPerConnection: 0 })).rejects.toThrow(/at least 1/);
  });

  it('answers Expect: 100-continue with 100 before the body is sent', async () => {
    const server = await serve(api());
    const peer = closers.add(await RawPeer.open(server.port), (p) => p.destroy());
    peer.send('POST /echo HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n');
    expect(await peer.waitFor((t) => t.endsWith('\r\n\r\n'))).toBe(true);
    expect(peer.text).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    peer.send('hello');
    expect(await peer.waitFor((t) => t.endsWith('text/plain: hello'))).toBe(true);
    expect(peer.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
  });

  it('reads a pipelined chunked POST with trailers, then the GET behind it', async () => {
    const server = await serve(api());
    const post =
      'POST /echo HTTP/1.1\r\nHost: test\r\nContent-Type: text/x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\nX-Sum: 5\r\n\r\n';
    const { text } = await rawExchange(server.port, [post + GET('/todos/1', 'Connection: close\r\n')]);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\ntext\/x: abcdeHTTP\/1\.1 200 OK\r\n[\s\S]*\{"id":"1"\}$/);
  });

  it('declines an Upgrade (e.g. h2c) by answering in HTTP/1.1, and the connection goes on', async () => {
    const server = await serve(api());
    const peer = closers.add(await RawPeer.open(server.port), (p) => p.destroy());
    peer.send(GET('/todos/1', 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n'));
    expect(await peer.waitFor((t) => t.endsWith('{"id":"1"}'))).toBe(true);
    expect(peer.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    peer.send(GET('/todos/2'));
    expect(await peer.waitFor((t) => t.endsWith('{"id":"2"}'))).toBe(true);
    expect(server.accepted).toBe(1);
  });

  it('answers an HTTP/0.9 request with the bare body, and an error as an HTML page', async () => {
    const server = await serve(api());
    expect((await rawExchange(server.port, ['GET /todos/3\r\n'])).text).toBe('{"id":"3"}');
    expect((await rawExchange(server.port, ['GET /nowhere\r\n'])).text).toMatch(/^<html><head><title>404 Not Found<\/title>/);
  });

  it('closes an idle keep-alive connection after the timeout', async () => {
    const server = await serve(createServer({ routes: [http.get('/', () => new Response('x'))], keepAlive: { timeout: 50 } }));
    const { text, serverClosed } = await rawExchange(server.port, [GET('/')]);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nx$/);
    expect(serverClosed).toBe(true);
  });

  it('closes a connection that stalls in the middle of a request', async () => {
    const server = await serve(createServer({ routes: [http.post('/', () => new Response('x'))], keepAlive: { timeout: 50 } }));
    const { text, serverClosed } = await rawExchange(server.port, ['POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nab']);
    expect(text).toBe('');
    expect(serverClosed).toBe(true);
  });
});

describe('the protocol seam (where h2c plugs in)', () => {
  // A stand-in protocol: claims connections that start with "PING\n" and answers "PONG\n".
  const ping: ServerProtocol = {
    id: 'ping',
    detect: prefaceDetector(new TextEncoder().encode('PING\n')),
    serve: async (transport) => {
      let seen = '';
      while (!seen.includes('PING\n')) {
        const bytes = await transport.read();
        if (bytes === null) return;
        seen += new TextDecoder().decode(bytes);
      }
      await transport.write(new TextEncoder().encode('PONG\n'));
      transport.end();
    },
  };

  it('hands a connection to the protocol whose preface it starts with, even one byte at a time', async () => {
    const server = await serve(api(), { protocols: [ping] });
    const { text } = await rawExchange(server.port, ['P', 'I', 'NG', '\n']);
    expect(text).toBe('PONG\n');
  });

  it('leaves every other connection to HTTP/1, with the peeked bytes intact', async () => {
    const server = await serve(api(), { protocols: [ping] });
    const { text } = await rawExchange(server.port, ['G', 'ET /todos/5 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n']);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\{"id":"5"\}$/);
  });
});
