/**
 * The HTTP/2 engine as an h2c client against independent servers on loopback: Node's http2 server (prior
 * knowledge: http2.createServer without TLS) and nghttp2's nghttpd serving a temp directory. Concurrent
 * streams on one connection, bodies larger than every window (WINDOW_UPDATE both ways), trailers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Http2Server, type ServerHttp2Stream, constants, createServer as createH2Server } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, http } from '../server/index';
import { createDemoServer } from './demo-server';
import { Http2Client } from './h2c-client';
import { h2cProtocol } from './h2c-server';
import { serveTcp } from './tcp-server';
import { Closers, NGHTTPD, runTool, startDaemon } from './testing';

const closers = new Closers();
afterEach(() => closers.closeAll());

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const MIB = 1 << 20;

const connect = async (port: number, options: Partial<Parameters<typeof Http2Client.connect>[0]> = {}): Promise<Http2Client> =>
  closers.add(await Http2Client.connect({ host: '127.0.0.1', port, timeoutMs: 5000, ...options }), (c) => c.close());

/** A node:http2 server on an ephemeral loopback port; counts sessions (connections). */
async function nodeServer(
  onStream: (stream: ServerHttp2Stream, headers: Record<string, string | string[] | undefined>) => void,
): Promise<{ port: number; sessions: () => number }> {
  const server: Http2Server = createH2Server();
  let sessions = 0;
  server.on('session', () => sessions++);
  server.on('stream', (stream, headers) => {
    stream.on('error', () => undefined); // a stream the test resets errors on Node's side too
    onStream(stream, headers);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.add(server, (s) => new Promise<void>((resolve) => s.close(() => resolve())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { port: address.port, sessions: () => sessions };
}

/** Reads a request body on the Node side. */
const readAll = (stream: ServerHttp2Stream): Promise<Buffer> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  });

const header = (headers: readonly { name: string; value: string }[], name: string) => headers.find((h) => h.name === name)?.value;

describe('h2c client against node:http2 (prior knowledge)', () => {
  it('sends a request and reads the response, after the SETTINGS exchange', async () => {
    const server = await nodeServer((stream, headers) => {
      stream.respond({ ':status': 200, 'content-type': 'text/plain', 'x-path': String(headers[':path']) });
      stream.end(`hello ${String(headers[':method'])} ${String(headers[':authority'])}`);
    });
    const client = await connect(server.port);
    const res = await client.request({ path: '/hi?x=1' });
    expect(res.status).toBe(200);
    expect(res.streamId).toBe(1);
    expect(header(res.headers, 'x-path')).toBe('/hi?x=1');
    expect(text(res.body)).toBe(`hello GET 127.0.0.1:${server.port}`);
    expect(client.frameCounts.received.SETTINGS).toBeGreaterThanOrEqual(2); // Node's SETTINGS and its ACK of ours
  });

  it('runs ten requests concurrently on one connection', async () => {
    // The server holds every stream until all ten are open, then answers them last first: only
    // concurrent streams can get there (one at a time, the first would wait forever for the tenth).
    const held: { stream: ServerHttp2Stream; n: number }[] = [];
    const server = await nodeServer((stream, headers) => {
      held.push({ stream, n: Number(String(headers[':path']).slice(1)) });
      if (held.length < 10) return;
      for (const { stream: s, n } of [...held].reverse()) {
        s.respond({ ':status': 200 });
        s.end(`n=${n}`);
      }
    });
    const client = await connect(server.port);
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => client.request({ path: `/${i}` })));
    expect(all.map((r) => text(r.body))).toEqual(Array.from({ length: 10 }, (_, i) => `n=${i}`));
    expect(all.map((r) => r.streamId)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
    expect(server.sessions()).toBe(1);
  });

  it('reads a 1 MiB response, refilling its windows with WINDOW_UPDATE', async () => {
    const big = Buffer.alloc(MIB, 'a');
    const server = await nodeServer((stream) => {
      stream.respond({ ':status': 200 });
      stream.end(big);
    });
    const client = await connect(server.port);
    const res = await client.request({ path: '/big' });
    expect(res.body.length).toBe(MIB);
    expect(res.body.every((b) => b === 0x61)).toBe(true);
    expect(client.frameCounts.sent.WINDOW_UPDATE).toBeGreaterThan(0);
  });

  it("uploads 1 MiB within the server's windows, waiting for its WINDOW_UPDATEs", async () => {
    const server = await nodeServer((stream) => {
      void readAll(stream).then((body) => {
        stream.respond({ ':status': 200 });
        stream.end(`${body.length} ${body.every((b) => b === 0x62)}`);
      });
    });
    const client = await connect(server.port);
    const res = await client.request({ method: 'POST', path: '/upload', body: new Uint8Array(MIB).fill(0x62) });
    expect(text(res.body)).toBe(`${MIB} true`);
    expect(client.frameCounts.received.WINDOW_UPDATE).toBeGreaterThan(0);
    expect(client.frameCounts.sent.DATA).toBeGreaterThanOrEqual(MIB / 16_384); // at most MAX_FRAME_SIZE each
  });

  it('receives trailers after the body (Node waitForTrailers), and sends its own', async () => {
    let requestTrailers: Record<string, unknown> = {};
    const server = await nodeServer((stream) => {
      stream.on('trailers', (t) => (requestTrailers = t));
      void readAll(stream).then((body) => {
        stream.respond({ ':status': 200, 'content-type': 'text/plain' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'x-checksum': `len-${body.length}` }));
        stream.end('body');
      });
    });
    const client = await connect(server.port);
    const res = await client.request({ method: 'POST', path: '/t', body: 'abc', trailers: [{ name: 'x-client-sum', value: '3' }] });
    expect(text(res.body)).toBe('body');
    expect(res.trailers).toEqual([{ name: 'x-checksum', value: 'len-3' }]);
    expect(requestTrailers['x-client-sum']).toBe('3');
  });

  it('reports a stream the server resets, and the connection carries on', async () => {
    const server = await nodeServer((stream, headers) => {
      if (headers[':path'] === '/reset') stream.close(constants.NGHTTP2_REFUSED_STREAM);
      else {
        stream.respond({ ':status': 204 });
        stream.end();
      }
    });
    const client = await connect(server.port);
    await expect(client.request({ path: '/reset' })).rejects.toMatchObject({ code: 'REFUSED_STREAM', side: 'remote' });
    const ok = await client.request({ path: '/ok' });
    expect(ok.status).toBe(204);
    expect(ok.body.length).toBe(0);
    expect(server.sessions()).toBe(1);
  });
});

describe('h2c client against nghttpd', () => {
  const docroot = () => {
    const dir = mkdtempSync(join(tmpdir(), 'roundtrip-nghttpd-'));
    closers.add(dir, (d) => rmSync(d, { recursive: true, force: true }));
    writeFileSync(join(dir, 'a.txt'), 'file a\n');
    writeFileSync(join(dir, 'b.txt'), 'file b\n');
    writeFileSync(join(dir, 'big.bin'), Buffer.alloc(MIB, 'z'));
    return dir;
  };

  const nghttpd = async (dir: string, ...extra: string[]) =>
    closers.add(await startDaemon(NGHTTPD, (port) => ['--no-tls', '-a', '127.0.0.1', '-d', dir, ...extra, String(port)]), (d) => d.stop());

  it('finds nghttpd (CI installs nghttp2-server; without it these tests fail rather than skip)', async () => {
    const { code, stdout } = await runTool(NGHTTPD, ['--version'], { tool: 'nghttpd' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^nghttpd nghttp2\//);
  });

  it('fails with an install hint when nghttpd is missing', async () => {
    await expect(startDaemon('nghttpd-not-installed-here', (p) => [String(p)], 'nghttpd')).rejects.toThrow(
      /not installed[\s\S]*apt-get install nghttp2-server/,
    );
  });

  it('fetches several files as concurrent streams on one connection, and a 404', async () => {
    const daemon = await nghttpd(docroot());
    const client = await connect(daemon.port);
    const [a, b, missing] = await Promise.all(['/a.txt', '/b.txt', '/nope.txt'].map((path) => client.request({ path })));
    expect([a!.status, text(a!.body)]).toEqual([200, 'file a\n']);
    expect([b!.status, text(b!.body)]).toEqual([200, 'file b\n']);
    expect(missing!.status).toBe(404);
    expect([a!.streamId, b!.streamId, missing!.streamId]).toEqual([1, 3, 5]);
    expect(header(a!.headers, 'content-length')).toBe('7');
    expect(header(a!.headers, 'server')).toMatch(/^nghttpd/);
  });

  it('downloads 1 MiB, sending WINDOW_UPDATE as it reads', async () => {
    const daemon = await nghttpd(docroot());
    const client = await connect(daemon.port);
    const res = await client.request({ path: '/big.bin' });
    expect(res.body.length).toBe(MIB);
    expect(client.frameCounts.sent.WINDOW_UPDATE).toBeGreaterThan(0);
  });

  it('uploads 1 MiB into a 2^14-1 stream window (nghttpd -w 14 --echo-upload), paced by WINDOW_UPDATE', async () => {
    const daemon = await nghttpd(docroot(), '-w', '14', '--echo-upload');
    const client = await connect(daemon.port);
    expect(client.connection.remoteSettings.INITIAL_WINDOW_SIZE).toBe(16_383);
    const body = new Uint8Array(MIB).map((_, i) => i % 251);
    const res = await client.request({ method: 'POST', path: '/a.txt', body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(body);
    expect(client.frameCounts.received.WINDOW_UPDATE).toBeGreaterThan(MIB / 16_383 - 1);
  });

  it("queues requests beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS (nghttpd -m 2)", async () => {
    const daemon = await nghttpd(docroot(), '-m', '2');
    const client = await connect(daemon.port);
    expect(client.connection.remoteSettings.MAX_CONCURRENT_STREAMS).toBe(2);
    const all = await Promise.all(Array.from({ length: 7 }, (_, i) => client.request({ path: i % 2 ? '/a.txt' : '/b.txt' })));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(all.map((r) => r.streamId)).toEqual([1, 3, 5, 7, 9, 11, 13]);
    expect(client.frameCounts.received.RST_STREAM).toBeUndefined(); // nothing refused
  });

  it('reads padded DATA, counting the padding against its windows (nghttpd -b 255)', async () => {
    const daemon = await nghttpd(docroot(), '-b', '255');
    const client = await connect(daemon.port);
    const res = await client.request({ path: '/big.bin' });
    expect(res.body.length).toBe(MIB);
    expect(res.body.every((b) => b === 0x7a)).toBe(true);
  });

  it('keeps its HPACK encoder within the table size the server allows (nghttpd -c 0)', async () => {
    const daemon = await nghttpd(docroot(), '-c', '0');
    const client = await connect(daemon.port);
    const headers = [{ name: 'x-repeated', value: 'the same value on every request' }];
    for (const path of ['/a.txt', '/b.txt', '/a.txt']) expect((await client.request({ path, headers })).status).toBe(200);
    expect(client.frameCounts.received.GOAWAY).toBeUndefined();
  });

  it('keeps a response that comes before the upload ends, then RST_STREAM(NO_ERROR) (nghttpd --early-response)', async () => {
    const daemon = await nghttpd(docroot(), '--early-response', '-w', '14');
    const client = await connect(daemon.port);
    const res = await client.request({ method: 'POST', path: '/a.txt', body: new Uint8Array(MIB) });
    expect(res.status).toBe(200);
    expect(text(res.body)).toBe('file a\n');
    expect(client.frameCounts.received.RST_STREAM).toBe(1);
    expect((await client.request({ path: '/b.txt' })).status).toBe(200);
  });

  it('takes pushed responses when it enables push (nghttpd -p)', async () => {
    const daemon = await nghttpd(docroot(), '-p', '/a.txt=/b.txt');
    const client = await connect(daemon.port, { settings: { ENABLE_PUSH: 1 } });
    const res = await client.request({ path: '/a.txt' });
    expect(text(res.body)).toBe('file a\n');
    expect(res.pushes.map((p) => [p.promisedStreamId, header(p.request, ':path')])).toEqual([[2, '/b.txt']]);
    const pushed = await res.pushes[0]!.response;
    expect([pushed.streamId, pushed.status, text(pushed.body)]).toEqual([2, 200, 'file b\n']);
  });

  it('reads the trailers nghttpd adds (--trailer)', async () => {
    const daemon = await nghttpd(docroot(), '--trailer', 'x-served-by: nghttpd');
    const client = await connect(daemon.port);
    const res = await client.request({ path: '/a.txt' });
    expect(text(res.body)).toBe('file a\n');
    expect(res.trailers).toEqual([{ name: 'x-served-by', value: 'nghttpd' }]);
  });
});

describe('h2c client against the h2c server (both engines, over a real socket)', () => {
  it('speaks to the mock server, with the answers the simulator gives', async () => {
    const mock = createServer({ routes: [http.get('/todos/:id', (_r, { params }) => Response.json({ id: params.id }))], resources: true });
    const server = closers.add(await serveTcp(mock, { protocols: [h2cProtocol()] }), (s) => s.close());
    const client = await connect(server.port);
    const [todo, put] = await Promise.all([
      client.request({ path: '/todos/3' }),
      client.request({ method: 'PUT', path: '/notes/1', body: 'note', headers: [{ name: 'content-type', value: 'text/plain' }] }),
    ]);
    expect(JSON.parse(text(todo.body))).toEqual({ id: '3' });
    expect(put.status).toBe(201);
    expect(text((await client.request({ path: '/notes/1' })).body)).toBe('note');
    expect((await client.request({ method: 'HEAD', path: '/notes/1' })).body.length).toBe(0);
  });
});

describe('h2c client against the demo server, with push enabled', () => {
  it('gets the page and the stylesheet the page route pushes', async () => {
    const server = closers.add(await serveTcp(createDemoServer(), { protocols: [h2cProtocol()] }), (s) => s.close());
    const client = await connect(server.port, { settings: { ENABLE_PUSH: 1 } });
    const page = await client.request({ path: '/' });
    expect(text(page.body)).toContain('<link rel="stylesheet" href="/style.css">');
    expect(page.pushes).toHaveLength(1);
    expect(page.pushes[0]!.request).toEqual([
      { name: ':method', value: 'GET' },
      { name: ':scheme', value: 'http' },
      { name: ':authority', value: `127.0.0.1:${server.port}` },
      { name: ':path', value: '/style.css' },
    ]);
    const css = await page.pushes[0]!.response;
    expect(header(css.headers, 'content-type')).toBe('text/css');
    expect(text(css.body)).toBe('body { font-family: system-ui; }\n');
    // Push off (the default): the same page, nothing promised.
    const plain = await connect(server.port);
    expect((await plain.request({ path: '/' })).pushes).toEqual([]);
  });
});
