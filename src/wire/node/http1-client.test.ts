/**
 * The HTTP/1 engine as a client against Node's own HTTP server (llhttp on the other end): every byte the
 * engine reads here was framed by an independent implementation.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo, type Socket, createServer as createNetServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { Http1Header } from '../http1/index';
import { Http1Client } from './http1-client';
import { Closers } from './testing';

const closers = new Closers();
afterEach(() => closers.closeAll());

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const field = (headers: readonly Http1Header[], name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value;

/** A node:http server on an ephemeral loopback port that counts the TCP connections it accepted. */
async function nodeServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ port: number; sockets: Socket[] }> {
  const server: Server = createServer(handler);
  const sockets: Socket[] = [];
  server.on('connection', (s: Socket) => sockets.push(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.add(
    server,
    (s) =>
      new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      }),
  );
  return { port: (server.address() as AddressInfo).port, sockets };
}

const client = async (port: number) => closers.add(await Http1Client.connect({ host: '127.0.0.1', port, timeoutMs: 5000 }), (c) => c.close());

const routes = (req: IncomingMessage, res: ServerResponse) => {
  switch (req.url) {
    case '/plain':
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '11' }).end(req.method === 'HEAD' ? undefined : 'hello world');
      return;
    case '/chunked':
      // No Content-Length on an HTTP/1.1 response: Node uses the chunked coding, trailers included.
      res.writeHead(200, { 'Content-Type': 'text/plain', Trailer: 'X-Checksum' });
      res.write('first ');
      res.write('second');
      res.addTrailers({ 'X-Checksum': 'abc123' });
      res.end();
      return;
    case '/stream':
      // Node keeps an explicit Transfer-Encoding on a HEAD response and writes no body after it.
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' }).end(req.method === 'HEAD' ? undefined : 'abc');
      return;
    case '/hints':
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '4' }).end('done');
      return;
    case '/cached':
      res.writeHead(304, { ETag: '"v1"' }).end();
      return;
    case '/empty':
      res.writeHead(204).end();
      return;
    case '/echo': {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`${req.method} ${Buffer.concat(chunks).toString()}`));
      return;
    }
    default:
      res.writeHead(404).end('nope');
  }
};

describe('Http1Client against node:http', () => {
  it('reads a response framed by Content-Length', async () => {
    const { port } = await nodeServer(routes);
    const c = await client(port);
    const res = await c.request({ target: '/plain' });
    expect(res.status).toBe(200);
    expect(res.reason).toBe('OK');
    expect(field(res.headers, 'content-length')).toBe('11');
    expect(text(res.body)).toBe('hello world');
  });

  it('reads a chunked response and its trailer fields', async () => {
    const { port } = await nodeServer(routes);
    const c = await client(port);
    const res = await c.request({ target: '/chunked' });
    expect(field(res.headers, 'transfer-encoding')).toBe('chunked');
    expect(text(res.body)).toBe('first second');
    expect(res.trailers).toEqual([{ name: 'X-Checksum', value: 'abc123' }]);
  });

  it('undoes a gzip transfer coding, so the body is the content and never the coded bytes (RFC 9112 §6.1)', async () => {
    const { port } = await nodeServer((_req, res) => {
      // Node's server frames with chunked; the gzip coding under it is the application's, as a transfer coding.
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'gzip, chunked' });
      res.end(gzipSync(Buffer.from('unzipped on arrival')));
    });
    const c = await client(port);
    const res = await c.request({ target: '/' });
    expect(field(res.headers, 'transfer-encoding')).toBe('gzip, chunked');
    expect(text(res.body)).toBe('unzipped on arrival');
  });

  it('reads a HEAD response as Content-Length without a body, then reuses the connection', async () => {
    const { port, sockets } = await nodeServer(routes);
    const c = await client(port);
    const head = await c.request({ method: 'HEAD', target: '/plain' });
    expect(head.status).toBe(200);
    expect(field(head.headers, 'content-length')).toBe('11');
    expect(head.body.length).toBe(0);
    // Had the engine waited for 11 body bytes, this second response would be misread.
    const get = await c.request({ target: '/plain' });
    expect(text(get.body)).toBe('hello world');
    expect(sockets).toHaveLength(1);
  });

  it('reads a HEAD response that announces chunked framing as bodiless (RFC 9112 §6.3 rule 1)', async () => {
    const { port } = await nodeServer(routes);
    const c = await client(port);
    const head = await c.request({ method: 'HEAD', target: '/stream' });
    expect(field(head.headers, 'transfer-encoding')).toBe('chunked');
    expect(head.body.length).toBe(0);
    expect(text((await c.request({ target: '/plain' })).body)).toBe('hello world');
  });

  it('collects a 103 Early Hints before the final response', async () => {
    const { port } = await nodeServer(routes);
    const c = await client(port);
    const res = await c.request({ target: '/hints' });
    expect(res.informational.map((r) => [r.status, field(r.headers, 'link')])).toEqual([[103, '</style.css>; rel=preload; as=style']]);
    expect([res.status, text(res.body)]).toEqual([200, 'done']);
  });

  it('reads a 304 as having no body, and goes on', async () => {
    const { port } = await nodeServer(routes);
    const c = await client(port);
    const res = await c.request({ target: '/cached', headers: [{ name: 'If-None-Match', value: '"v1"' }] });
    expect([res.status, res.body.length, field(res.headers, 'etag')]).toEqual([304, 0, '"v1"']);
    expect((await c.request({ target: '/empty' })).status).toBe(204);
  });

  it('reads a 204 as having no body', async () => {
    const { port } = await nodeServer(routes);
    const c = await client(port);
    const res = await c.request({ target: '/empty' });
    expect(res.status).toBe(204);
    expect(res.body.length).toBe(0);
    expect(c.reusable).toBe(true);
  });

  it('sends a body with Content-Length and reuses one socket for two requests (keep-alive)', async () => {
    const { port, sockets } = await nodeServer(routes);
    const c = await client(port);
    const first = await c.request({ method: 'POST', target: '/echo', body: 'one' });
    const second = await c.request({ method: 'PUT', target: '/echo', body: 'two' });
    expect(text(first.body)).toBe('POST one');
    expect(text(second.body)).toBe('PUT two');
    expect(sockets).toHaveLength(1);
    expect(c.connection.states).toEqual({ client: 'IDLE', server: 'IDLE' });
  });

  it('closes after a request that says Connection: close, and refuses another', async () => {
    const { port } = await nodeServer(routes);
    const c = await client(port);
    const res = await c.request({ target: '/plain', headers: [{ name: 'Connection', value: 'close' }] });
    expect(text(res.body)).toBe('hello world');
    expect(field(res.headers, 'connection')).toBe('close');
    expect(c.connection.states).toEqual({ client: 'MUST_CLOSE', server: 'MUST_CLOSE' });
    expect(c.reusable).toBe(false);
    await c.closed;
    await expect(c.request({ target: '/plain' })).rejects.toMatchObject({ code: 'connection-not-reusable', side: 'local' });
  });

  it('closes when the server says Connection: close on its own', async () => {
    const { port } = await nodeServer((req, res) => {
      res.shouldKeepAlive = false;
      routes(req, res);
    });
    const c = await client(port);
    const res = await c.request({ target: '/plain' });
    expect(field(res.headers, 'connection')).toBe('close');
    expect(c.reusable).toBe(false);
    await c.closed;
  });
});

/** A raw TCP server that answers every connection with fixed bytes, written one byte per write. */
async function rawServer(reply: string, then: 'end' | 'stay'): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('data', () => {
      for (const byte of Buffer.from(reply, 'latin1')) socket.write(Uint8Array.of(byte));
      if (then === 'end') socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.add(
    server,
    (s) =>
      new Promise<void>((resolve) => {
        s.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  );
  return (server.address() as AddressInfo).port;
}

describe('Http1Client against exact bytes', () => {
  it('reads a body delimited by the connection closing (RFC 9112 §6.3 rule 8)', async () => {
    const port = await rawServer('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end', 'end');
    const c = await client(port);
    const res = await c.request({ target: '/' });
    expect(text(res.body)).toBe('until the end');
    expect(c.reusable).toBe(false);
  });

  it('reads an HTTP/1.0 response that arrives one byte per write', async () => {
    const port = await rawServer('HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nabc', 'end');
    const c = await client(port);
    const res = await c.request({ target: '/' });
    expect([res.version, res.status, text(res.body)]).toEqual(['1.0', 200, 'abc']);
    expect(c.reusable).toBe(false);
  });

  it("rejects a malformed response with the engine's remote error", async () => {
    const port = await rawServer('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd', 'stay');
    const c = await client(port);
    await expect(c.request({ target: '/' })).rejects.toMatchObject({ side: 'remote', code: 'conflicting-content-length' });
  });

  it('rejects a response cut short by the server closing', async () => {
    const port = await rawServer('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc', 'end');
    const c = await client(port);
    await expect(c.request({ target: '/' })).rejects.toMatchObject({ side: 'remote', code: 'incomplete-message' });
  });
});
