/**
 * The HTTP/2 engine as an h2c server (serveTcp + the protocol seam + a MockServer) against independent
 * HTTP/2 implementations on loopback: Node's http2 client, curl --http2-prior-knowledge and nghttp (both
 * nghttp2 underneath, but different front ends), including server push seen by nghttp and Node.
 */
import { type ClientHttp2Session, type IncomingHttpHeaders, connect as h2connect, constants } from 'node:http2';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HpackEncoder } from '../hpack/index';
import { ERROR_CODES, FLAGS, decodeFrames, encodeFrames } from '../http2/index';
import { createServer, http, type MockServer } from '../server/index';
import { createDemoServer, demoH2Commands } from './demo-server';
import { h2cProtocol, type H2cServerOptions } from './h2c-server';
import { serveTcp, type TcpServer } from './tcp-server';
import { Closers, RawPeer, curl, curlH2, nghttp, parseCurlOutput, rawExchange, runTool } from './testing';

const closers = new Closers();
afterEach(() => closers.closeAll());

const FIXED_NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const BIG = 200_000; // more than the 65,535-octet default windows: the server must wait for WINDOW_UPDATE

/** `gate`: the /gated route answers only once it resolves (a slow handler, without timing). */
const api = (gate: Promise<void> = Promise.resolve()) =>
  createServer({
    routes: [
      http.get('/todos/:id', (_r, { params }) => Response.json({ id: params.id })),
      http.post('/echo', async (r) => new Response(`${r.headers.get('content-type')}: ${await r.text()}`)),
      http.get('/big', () => new Response('x'.repeat(BIG))),
      http.get('/gated', async () => (await gate, new Response('late'))),
      http.get('/cookies', (r) => new Response(r.headers.get('cookie') ?? '')),
      http.post('/bytes', async (r) => new Response(await r.arrayBuffer(), { headers: { 'Content-Type': 'application/octet-stream' } })),
      http.get('/header-sizes', (r) => new Response([...r.headers].map(([k, v]) => `${k}=${v.length}`).join('\n'))),
      http.get('/big-header', () => new Response('ok', { headers: { 'x-big': 'v'.repeat(40_000) } })),
      http.get('/page', () => new Response('<link rel="stylesheet" href="/style.css">', { headers: { 'Content-Type': 'text/html' } }), {
        push: ['/style.css'],
      }),
      http.get('/style.css', () => new Response('body{}', { headers: { 'Content-Type': 'text/css' } })),
      http.get('/script.js', () => new Response('void 0', { headers: { 'Content-Type': 'text/javascript' } })),
    ],
    resources: true,
  });

const serve = async (mock: MockServer, options: H2cServerOptions = {}): Promise<TcpServer> =>
  closers.add(await serveTcp(mock, { now: () => FIXED_NOW, protocols: [h2cProtocol(options)] }), (s) => s.close());

const session = (server: TcpServer, settings: Parameters<typeof h2connect>[1] = {}): ClientHttp2Session => {
  const s = h2connect(server.url, settings);
  s.on('error', () => undefined); // a test that expects an error reads it from the stream
  // close() waits for open streams; a test that failed midway may leave one open, so destroy after a bound.
  return closers.add(
    s,
    (c) =>
      new Promise<void>((resolve) => {
        if (c.closed || c.destroyed) return resolve();
        c.close(() => resolve());
        setTimeout(() => c.destroy(), 1000).unref();
      }),
  );
};

interface NodeResult {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request on a Node http2 session; resolves once the stream ends. */
const fetchH2 = (s: ClientHttp2Session, path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<NodeResult> =>
  new Promise((resolve, reject) => {
    const stream = s.request({ ':method': init.method ?? 'GET', ':path': path, ...init.headers }, { endStream: init.body === undefined });
    stream.setTimeout(5000, () => stream.close(constants.NGHTTP2_CANCEL));
    let headers: IncomingHttpHeaders = {};
    let body = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => (headers = h));
    stream.on('data', (c: string) => (body += c));
    stream.on('end', () => resolve({ headers, body }));
    stream.on('error', reject);
    if (init.body !== undefined) stream.end(init.body);
  });

describe('h2c server against node:http2', () => {
  it('answers through the mock routes, with HTTP/2 framing fields and no connection-specific ones', async () => {
    const server = await serve(api());
    const s = session(server);
    const res = await fetchH2(s, '/todos/7');
    expect(res.headers[':status']).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ id: '7' });
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['content-length']).toBe('10');
    expect(res.headers.date).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
    expect(res.headers.server).toBe('roundtrip-sim');
    expect(res.headers.connection).toBeUndefined();
  });

  it('carries concurrent streams on one connection, and a slow answer holds back no other stream', async () => {
    let release!: () => void;
    const server = await serve(api(new Promise<void>((resolve) => (release = resolve))));
    const s = session(server);
    let slowDone = false;
    const slow = fetchH2(s, '/gated').then((r) => ((slowDone = true), r));
    const fast = await Promise.all([1, 2, 3, 4, 5].map((i) => fetchH2(s, `/todos/${i}`)));
    expect(fast.map((r) => JSON.parse(r.body).id)).toEqual(['1', '2', '3', '4', '5']);
    expect(slowDone).toBe(false); // stream 1 is still waiting for its handler; streams 3..11 were answered
    release();
    expect((await slow).body).toBe('late');
    expect(server.accepted).toBe(1);
  });

  it('reads a request body and answers POST, and PUT 201 then 204 from the resource store', async () => {
    const server = await serve(api());
    const s = session(server);
    const echo = await fetchH2(s, '/echo', { method: 'POST', body: 'hi there', headers: { 'content-type': 'text/plain' } });
    expect(echo.body).toBe('text/plain: hi there');
    const put = (body: string) => fetchH2(s, '/notes/1', { method: 'PUT', body });
    expect((await put('v1')).headers[':status']).toBe(201);
    expect((await put('v2')).headers[':status']).toBe(204);
    expect((await fetchH2(s, '/notes/1')).body).toBe('v2');
  });

  it('answers 413 to an upload over maxBodyBytes, before the handler sees it, and to a declared content-length over it at once', async () => {
    let handled = 0;
    const mock = api();
    mock.use(http.post('/count', async (r) => (handled++, new Response(String((await r.arrayBuffer()).byteLength)))));
    const server = await serve(mock, { maxBodyBytes: 1000 });
    const s = session(server);
    /** The status a POST gets, read even when the server resets the stream after answering. */
    const post = (headers: Record<string, string>, body: Uint8Array | undefined) =>
      new Promise<number | undefined>((resolve) => {
        // Without a body the stream stays open for sending, as when a client waits before uploading.
        const stream = s.request({ ':method': 'POST', ':path': '/count', ...headers }, { endStream: false });
        let status: number | undefined;
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.on('error', () => undefined);
        stream.on('close', () => resolve(status));
        stream.resume();
        if (body) stream.end(body);
      });
    expect(await post({}, new Uint8Array(1000))).toBe(200);
    expect(handled).toBe(1);
    expect(await post({}, new Uint8Array(5000))).toBe(413);
    // Declared too large: the 413 comes from the HEADERS alone; the client never sends its body.
    expect(await post({ 'content-length': '2000000' }, undefined)).toBe(413);
    expect(handled).toBe(1);
    // The connection carries on.
    expect((await fetchH2(s, '/todos/3')).body).toBe('{"id":"3"}');
  });

  it("sends a body larger than the flow-control windows, waiting for the client's WINDOW_UPDATEs", async () => {
    const server = await serve(api());
    // A small stream window makes the client's WINDOW_UPDATEs the only way the body can finish.
    const s = session(server, { settings: { initialWindowSize: 16_384 } });
    const res = await fetchH2(s, '/big');
    expect(res.body.length).toBe(BIG);
    expect(res.headers['content-length']).toBe(String(BIG));
  });

  it('takes a large upload within its own receive windows (the engine sends WINDOW_UPDATE)', async () => {
    const server = await serve(api());
    const s = session(server);
    const body = 'y'.repeat(300_000);
    const res = await fetchH2(s, '/echo', { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
    expect(res.body).toBe(`text/plain: ${body}`);
  });

  it("holds DATA while the client's window is 0, and sends it when a SETTINGS change opens it (RFC 9113 §6.9.2)", async () => {
    const server = await serve(api());
    const s = session(server, { settings: { initialWindowSize: 0 } });
    const stream = s.request({ ':path': '/big' });
    let received = 0;
    stream.on('data', (c: Buffer) => (received += c.length));
    await new Promise((resolve) => stream.once('response', resolve));
    // A PING round trip after the HEADERS: had any DATA been sent with a zero window, it would be here.
    await new Promise<void>((resolve, reject) =>
      s.ping(Buffer.from('roundtrp'), (err, _ms, payload) => (err ? reject(err) : (expect(payload.toString()).toBe('roundtrp'), resolve()))),
    );
    expect(received).toBe(0);
    s.settings({ initialWindowSize: 65_535 });
    await new Promise((resolve) => stream.on('end', resolve));
    expect(received).toBe(BIG);
  });

  it('drops the rest of a body when the client cancels its stream, and serves the next one', async () => {
    const server = await serve(api());
    const s = session(server, { settings: { initialWindowSize: 1000 } });
    const big = s.request({ ':path': '/big' });
    big.on('error', () => undefined);
    big.once('data', () => big.close(constants.NGHTTP2_CANCEL));
    await new Promise((resolve) => big.on('close', resolve));
    expect(big.rstCode).toBe(constants.NGHTTP2_CANCEL);
    expect((await fetchH2(s, '/todos/6')).body).toBe('{"id":"6"}');
  });

  it('answers HEAD with the GET content-length and no DATA', async () => {
    const server = await serve(api());
    const res = await fetchH2(session(server), '/todos/1', { method: 'HEAD' });
    expect(res.headers[':status']).toBe(200);
    expect(res.headers['content-length']).toBe('10');
    expect(res.body).toBe('');
  });

  it('takes an upload into a small window it announced itself (settings.INITIAL_WINDOW_SIZE)', async () => {
    const server = await serve(api(), { settings: { INITIAL_WINDOW_SIZE: 1024, MAX_CONCURRENT_STREAMS: 10 } });
    const s = session(server);
    const body = 'z'.repeat(50_000);
    const res = await fetchH2(s, '/echo', { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
    expect(res.body).toBe(`text/plain: ${body}`);
    expect(s.remoteSettings.initialWindowSize).toBe(1024);
    expect(s.remoteSettings.maxConcurrentStreams).toBe(10);
  });

  it('splits a 40 kB response header block into HEADERS + CONTINUATION at MAX_FRAME_SIZE', async () => {
    const server = await serve(api());
    const res = await fetchH2(session(server, { settings: { maxHeaderListSize: 1 << 20 } }), '/big-header');
    expect(res.headers['x-big']).toBe('v'.repeat(40_000));
    expect(res.body).toBe('ok');
  });

  it('joins split cookie fields with "; " before the handler sees them (RFC 9113 §8.2.3)', async () => {
    const server = await serve(api());
    const s = session(server);
    const stream = s.request({ ':path': '/cookies', cookie: ['a=1', 'b=2'] });
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => (body += c));
    await new Promise((resolve) => stream.on('end', resolve));
    expect(body).toBe('a=1; b=2');
  });

  it('pushes what a route asks for: PUSH_PROMISE, then the pushed response on stream 2', async () => {
    const server = await serve(api());
    const s = session(server);
    const pushed = new Promise<{ request: IncomingHttpHeaders; headers: IncomingHttpHeaders; body: string }>((resolve) => {
      s.once('stream', (stream, request) => {
        let body = '';
        let headers: IncomingHttpHeaders = {};
        stream.setEncoding('utf8');
        stream.on('push', (h) => (headers = h));
        stream.on('data', (c: string) => (body += c));
        stream.on('end', () => resolve({ request, headers, body }));
      });
    });
    const page = await fetchH2(s, '/page');
    expect(page.body).toContain('/style.css');
    const push = await pushed;
    expect(push.request[':path']).toBe('/style.css');
    expect(push.request[':method']).toBe('GET');
    expect(push.headers[':status']).toBe(200);
    expect(push.headers['content-type']).toBe('text/css');
    expect(push.body).toBe('body{}');
  });

  it('pushes nothing to a client that set SETTINGS_ENABLE_PUSH = 0', async () => {
    const server = await serve(api(), { push: { '/page': ['/script.js'] } });
    const s = session(server, { settings: { enablePush: false } });
    let pushes = 0;
    s.on('stream', () => pushes++);
    expect((await fetchH2(s, '/page')).headers[':status']).toBe(200);
    expect((await fetchH2(s, '/todos/1')).headers[':status']).toBe(200);
    expect(pushes).toBe(0);
  });

  it('resets just the one stream for a dropped-connection fault; the connection carries on', async () => {
    const mock = api();
    mock.faults.failNext(1, { drop: 'reset' });
    const server = await serve(mock);
    const s = session(server);
    await expect(fetchH2(s, '/todos/1')).rejects.toMatchObject({ code: 'ERR_HTTP2_STREAM_ERROR' });
    expect((await fetchH2(s, '/todos/2')).body).toBe('{"id":"2"}');
    expect(server.accepted).toBe(1);
  });
});

describe('h2c server against curl --http2-prior-knowledge', () => {
  it('answers curl in HTTP/2 on the same port that answers HTTP/1.1', async () => {
    const server = await serve(createDemoServer());
    const h2 = await curlH2(['-i', `${server.url}/todos/1`]);
    expect(h2.stderr).toBe('');
    expect(h2.stdout).toMatch(/^HTTP\/2 200 \r\n/);
    expect(h2.stdout).toMatch(/\r\ncontent-type: application\/json\r\n/);
    expect(JSON.parse(h2.stdout.split('\r\n\r\n')[1]!).id).toBe('1');
    const h1 = await curl(['-i', `${server.url}/todos/1`]);
    expect(parseCurlOutput(h1.stdout)[0]?.status).toBe(200);
    expect(server.accepted).toBe(2);
  });

  it('sends a PUT body and reads the 201 with Location', async () => {
    const server = await serve(createDemoServer());
    const res = await curlH2(['-i', '-X', 'PUT', '-H', 'Content-Type: application/json', '-d', '{"title":"h2"}', `${server.url}/todos/9`]);
    expect(res.stdout).toMatch(/^HTTP\/2 201 \r\n/);
    expect(res.stdout).toMatch(/\r\nlocation: \/todos\/9\r\n/);
  });

  it('downloads a body bigger than the windows', async () => {
    const server = await serve(api());
    const res = await curlH2(['-s', '-o', '/dev/null', '-w', '%{http_version} %{size_download}', `${server.url}/big`]);
    expect(res.stdout).toBe(`2 ${BIG}`);
  });

  it('fails with an install hint when the binary is missing', async () => {
    await expect(curlH2(['--version'], 'curl-not-installed-here')).rejects.toThrow(/not installed[\s\S]*apt-get install/);
    await expect(nghttp(['--version'], 'nghttp-not-installed-here')).rejects.toThrow(/not installed[\s\S]*apt-get install nghttp2-client/);
  });
});

describe('h2c server against nghttp', () => {
  it('finds nghttp (CI installs nghttp2-client; without it these tests fail rather than skip)', async () => {
    const { code, stdout } = await nghttp(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^nghttp nghttp2\//);
  });

  it('exchanges SETTINGS and answers a request, frame by frame (nghttp -nv)', async () => {
    const server = await serve(api());
    const { code, stdout } = await nghttp(['-nv', `${server.url}/todos/3`]);
    expect(code).toBe(0);
    // Our SETTINGS announce the limits we enforce: 100 concurrent streams, a 64 KiB header list.
    expect(stdout).toMatch(
      /recv SETTINGS frame <length=12, flags=0x00, stream_id=0>\s+\(niv=2\)\s+\[SETTINGS_MAX_CONCURRENT_STREAMS\(0x03\):100\]\s+\[SETTINGS_MAX_HEADER_LIST_SIZE\(0x06\):65536\]/,
    );
    expect(stdout).toMatch(/recv SETTINGS frame <length=0, flags=0x01, stream_id=0>\s+; ACK/); // ACK of nghttp's
    expect(stdout).toMatch(/recv \(stream_id=13\) :status: 200/);
    expect(stdout).toMatch(/recv DATA frame <length=10, flags=0x01, stream_id=13>\s+; END_STREAM/);
    expect(stdout).not.toMatch(/recv (GOAWAY|RST_STREAM)/);
  });

  it('sees the PUSH_PROMISE and the pushed stream (nghttp -nva)', async () => {
    const server = await serve(api(), { push: { '/page': ['/script.js'] } });
    const { code, stdout } = await nghttp(['-nva', `${server.url}/page`]);
    expect(code).toBe(0);
    // The adapter's push list and the route's own push option both apply, promised in that order.
    expect(stdout).toMatch(
      /recv \(stream_id=13\) :path: \/script\.js\s+\[[^\]]*\] recv PUSH_PROMISE frame <length=\d+, flags=0x04, stream_id=13>\s+; END_HEADERS\s+\(padlen=0, promised_stream_id=2\)/,
    );
    expect(stdout).toMatch(
      /recv \(stream_id=13\) :path: \/style\.css\s+\[[^\]]*\] recv PUSH_PROMISE frame <length=\d+, flags=0x04, stream_id=13>\s+; END_HEADERS\s+\(padlen=0, promised_stream_id=4\)/,
    );
    expect(stdout.indexOf('promised_stream_id=4')).toBeLessThan(stdout.indexOf('recv (stream_id=13) :status: 200'));
    expect(stdout).toMatch(/recv HEADERS frame <length=\d+, flags=0x04, stream_id=2>\s+; END_HEADERS\s+\(padlen=0\)\s+; First push response header/);
    expect(stdout).toMatch(/recv \(stream_id=4\) content-type: text\/css/);
    expect(stdout).toMatch(/recv DATA frame <length=6, flags=0x01, stream_id=4>\s+; END_STREAM/);
    expect(stdout).not.toMatch(/RST_STREAM/);
  });

  it("promises no more pushes than the client's SETTINGS_MAX_CONCURRENT_STREAMS (nghttp --max-concurrent-streams=1)", async () => {
    const server = await serve(api(), { push: { '/page': ['/script.js'] } });
    const { code, stdout } = await nghttp(['-nva', '--max-concurrent-streams=1', `${server.url}/page`]);
    expect(code).toBe(0);
    expect(stdout.match(/recv PUSH_PROMISE frame/g)).toHaveLength(1);
    expect(stdout).toMatch(/recv \(stream_id=13\) :path: \/script\.js/);
    // The stylesheet was not pushed, so nghttp -a asks for it on a stream of its own.
    expect(stdout).toMatch(/send HEADERS frame <[^>]*stream_id=15>[\s\S]*?:path: \/style\.css/);
    expect(stdout).not.toMatch(/RST_STREAM/);
  });

  it('sends WINDOW_UPDATE-paced DATA for a large body (nghttp -nv with a 2^14-1 stream window)', async () => {
    const server = await serve(api());
    const { code, stdout } = await nghttp(['-nv', '-w', '14', `${server.url}/big`]);
    expect(code).toBe(0);
    const data = [...stdout.matchAll(/recv DATA frame <length=(\d+), flags=0x0(\d), stream_id=13>/g)];
    expect(data.reduce((n, m) => n + Number(m[1]), 0)).toBe(BIG);
    expect(data.at(-1)![2]).toBe('1'); // END_STREAM on the last one only
    expect(stdout).toMatch(/send WINDOW_UPDATE frame <length=4, flags=0x00, stream_id=13>/);
  });

  // Not with curl: Debian's curl 7.88.1 fails the second URL on a reused prior-knowledge connection
  // ("Error in the HTTP2 framing layer", against nghttpd and node:http2 too): curl/curl#10634, fixed in 8.0.
  it('fetches several URLs as concurrent streams on one connection', async () => {
    const server = await serve(createDemoServer());
    const { code, stdout } = await nghttp(['-nv', `${server.url}/todos/1`, `${server.url}/todos/2`, `${server.url}/hello`]);
    expect(code).toBe(0);
    const opened = [...stdout.matchAll(/send HEADERS frame <length=\d+, flags=0x25, stream_id=(\d+)>/g)].map((m) => m[1]);
    expect(opened).toEqual(['13', '15', '17']);
    for (const id of opened) expect(stdout).toMatch(new RegExp(`recv DATA frame <length=\\d+, flags=0x01, stream_id=${id}>`));
    expect(stdout).toMatch(/recv \(stream_id=17\) content-type: text\/plain;charset=UTF-8/);
    expect(server.accepted).toBe(1);
  });

  it('assembles a request header block sent as HEADERS + CONTINUATION (nghttp --continuation)', async () => {
    const server = await serve(api());
    const { code, stdout } = await nghttp(['-v', '--continuation', `${server.url}/header-sizes`]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/send HEADERS frame <length=\d{5}, flags=0x25, stream_id=13>/); // nghttp reports the whole block
    expect(stdout).toMatch(/continuation-test-\d+=4096/);
    expect(stdout).not.toMatch(/recv (GOAWAY|RST_STREAM)/);
  });

  it('reads a padded HEADERS frame (nghttp -b 255)', async () => {
    const server = await serve(api());
    const { code, stdout } = await nghttp(['-nv', '-b', '255', `${server.url}/todos/8`]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/send HEADERS frame <length=\d+, flags=0x2d, stream_id=13>\s+; END_STREAM \| END_HEADERS \| PADDED \| PRIORITY/);
    expect(stdout).toMatch(/recv DATA frame <length=10, flags=0x01, stream_id=13>/);
  });

  it("takes a 150 kB upload from a file, refilling the client's windows (nghttp -d)", async () => {
    const server = await serve(api());
    const dir = closers.add(mkdtempSync(join(tmpdir(), 'roundtrip-h2c-')), (d) => rmSync(d, { recursive: true, force: true }));
    writeFileSync(
      join(dir, 'upload.bin'),
      Buffer.alloc(150_000).map((_, i) => (i * 7) % 256),
    );
    const { code, stdout } = await nghttp(['-nv', '-d', join(dir, 'upload.bin'), `${server.url}/bytes`]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/recv WINDOW_UPDATE frame <length=4, flags=0x00, stream_id=0>/);
    expect(stdout).toMatch(/recv WINDOW_UPDATE frame <length=4, flags=0x00, stream_id=13>/);
    expect(stdout).toMatch(/recv \(stream_id=13\) content-length: 150000/);
    expect(stdout).not.toMatch(/recv (GOAWAY|RST_STREAM)/);
  });

  it('answers expect: 100-continue with a 100 HEADERS, then reads the body and its trailers (nghttp)', async () => {
    const server = await serve(api());
    const dir = closers.add(mkdtempSync(join(tmpdir(), 'roundtrip-h2c-')), (d) => rmSync(d, { recursive: true, force: true }));
    writeFileSync(join(dir, 'note.txt'), 'hello\n');
    const { code, stdout } = await nghttp(['-v', '--expect-continue', '--trailer', 'x-sum: 6', '-d', join(dir, 'note.txt'), `${server.url}/bytes`]);
    expect(code).toBe(0);
    const at = (pattern: RegExp) => stdout.search(pattern);
    expect(at(/recv \(stream_id=13\) :status: 100/)).toBeGreaterThan(0);
    expect(at(/send DATA frame <length=6, flags=0x00, stream_id=13>/)).toBeGreaterThan(at(/:status: 100/)); // the body waited for the 100
    expect(stdout).toMatch(/send HEADERS frame <length=\d+, flags=0x05, stream_id=13>\s+; END_STREAM \| END_HEADERS/); // the trailers
    expect(stdout).toMatch(/recv \(stream_id=13\) :status: 200[\s\S]*\nhello\n/);
  });

  it('answers with no dynamic table when the client allows none (nghttp -c 0)', async () => {
    const server = await serve(api());
    const { code, stdout } = await nghttp(['-nv', '-c', '0', `${server.url}/todos/1`, `${server.url}/todos/2`]);
    expect(code).toBe(0);
    expect(stdout.match(/recv \(stream_id=1[35]\) :status: 200/g)).toHaveLength(2);
    expect(stdout).not.toMatch(/recv (GOAWAY|RST_STREAM)/);
  });

  it('keeps HTTP/1.1 on the same port for a client without prior knowledge', async () => {
    const server = await serve(api());
    const { text } = await rawExchange(server.port, ['GET /todos/4 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n']);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\{"id":"4"\}$/);
  });
});

describe('the HTTP/2 examples npm run serve prints', () => {
  it('run as printed against the demo server, each one answered in HTTP/2', async () => {
    const server = await serve(createDemoServer());
    const [curlCommand, nghttpTodos, nghttpPage] = demoH2Commands(server.url);
    const h2 = await runTool('sh', ['-c', `${curlCommand!} -sS --max-time 5`]);
    expect(h2.stdout).toMatch(/^HTTP\/2 200 \r\n[\s\S]*"id":"1"/);
    const todos = await runTool('sh', ['-c', `${nghttpTodos!} --timeout=5`]);
    expect(todos.code).toBe(0);
    expect(todos.stdout).toMatch(/recv \(stream_id=13\) :status: 200/);
    // The demo's page route asks for /style.css to be pushed: nghttp -a takes it from the push.
    const page = await runTool('sh', ['-c', `${nghttpPage!} --timeout=5`]);
    expect(page.code).toBe(0);
    expect(page.stdout).toMatch(/recv \(stream_id=13\) :path: \/style\.css/);
    expect(page.stdout).toMatch(/recv HEADERS frame <[^>]*stream_id=2>\s+; END_HEADERS\s+\(padlen=0\)\s+; First push response header/);
    // ...so it never opens a stream of its own for it: stream 13 (the page) is the only request.
    expect([...page.stdout.matchAll(/send HEADERS frame <[^>]*stream_id=(\d+)>/g)].map((m) => m[1])).toEqual(['13']);
  });
});

describe('h2c on a raw socket', () => {
  const PREFACE = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n';
  const EMPTY_SETTINGS = '\x00\x00\x00\x04\x00\x00\x00\x00\x00';
  const frames = (text: string) => decodeFrames(new Uint8Array(Buffer.from(text, 'latin1'))).frames;

  it('is claimed by the preface even when it arrives a few bytes at a time', async () => {
    const server = await serve(api());
    const peer = closers.add(await RawPeer.open(server.port), (p) => p.destroy());
    for (const part of (PREFACE + EMPTY_SETTINGS).match(/[\s\S]{1,5}/g)!) peer.send(part);
    // Our SETTINGS, then the ACK of the client's.
    expect(await peer.waitFor((t) => frames(t).length >= 2)).toBe(true);
    expect(
      frames(peer.text)
        .slice(0, 2)
        .map((f) => [f.type, f.flags]),
    ).toEqual([
      ['SETTINGS', 0],
      ['SETTINGS', 1],
    ]);
  });

  it('says GOAWAY (NO_ERROR) and closes a connection idle for idleTimeoutMs', async () => {
    const server = await serve(api(), { idleTimeoutMs: 50 });
    const { text, serverClosed } = await rawExchange(server.port, [PREFACE + EMPTY_SETTINGS]);
    expect(serverClosed).toBe(true);
    expect(frames(text).map((f) => f.type)).toEqual(['SETTINGS', 'SETTINGS', 'GOAWAY']);
    expect(frames(text).at(-1)).toMatchObject({ type: 'GOAWAY', lastStreamId: 0, errorCode: 0 });
  });

  it('refuses the upload that would take a connection over maxBufferedBodyBytes; the client may retry it', async () => {
    const server = await serve(api(), { maxBodyBytes: 2000, maxBufferedBodyBytes: 3000 });
    const peer = closers.add(await RawPeer.open(server.port), (p) => p.destroy());
    const hpack = new HpackEncoder();
    const post = (streamId: number, flags = 0) => ({
      type: 'HEADERS' as const,
      streamId,
      flags: FLAGS.END_HEADERS | flags,
      headerBlockFragment: hpack.encode([
        { name: ':method', value: 'POST' },
        { name: ':scheme', value: 'http' },
        { name: ':authority', value: 'test' },
        { name: ':path', value: '/bytes' },
      ]),
    });
    const data = (streamId: number, n: number, flags = 0) => ({ type: 'DATA' as const, streamId, flags, data: new Uint8Array(n) });
    const send = (f: Parameters<typeof encodeFrames>[0]) => peer.send(Buffer.from(encodeFrames(f)).toString('latin1'));
    peer.send(PREFACE + EMPTY_SETTINGS);
    // Stream 1 holds 2000 bytes, unfinished; stream 3's 2000 would make 4000; then stream 1 ends.
    send([post(1), data(1, 2000), post(3), data(3, 2000, FLAGS.END_STREAM), data(1, 0, FLAGS.END_STREAM)]);
    const answered = (id: number) => (t: string) => frames(t).some((f) => f.type === 'DATA' && f.streamId === id && (f.flags & FLAGS.END_STREAM) !== 0);
    expect(await peer.waitFor(answered(1))).toBe(true);
    const first = frames(peer.text);
    expect(first.find((f) => f.type === 'RST_STREAM' && f.streamId === 3)).toMatchObject({ errorCode: ERROR_CODES.REFUSED_STREAM });
    expect(first.some((f) => f.type === 'HEADERS' && f.streamId === 3)).toBe(false);
    // With stream 1 answered its bytes are let go: the same upload again is taken.
    send([post(5), data(5, 2000, FLAGS.END_STREAM)]);
    expect(await peer.waitFor(answered(5))).toBe(true);
  });

  it('leaves a connection whose preface goes wrong partway to HTTP/1', async () => {
    const server = await serve(api());
    const { text } = await rawExchange(server.port, ['PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n']);
    expect(text).toMatch(/^HTTP\/1\.1 [45]\d\d /);
  });
});
