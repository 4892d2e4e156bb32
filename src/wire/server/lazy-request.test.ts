import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeaderField, WireRequest } from '../net/codec';
import { createServer, http } from './index';
import { LazyRequest, installLazyRequestSupport, realRequest } from './lazy-request';
import { respond } from './semantics';

const RealRequest = globalThis.Request;
const encode = (text: string) => new TextEncoder().encode(text);
const fields = (...pairs: [string, string][]): HeaderField[] => pairs.map(([name, value]) => ({ name, value }));

/** Every getter of Request.prototype, read off `r`, with the objects among them reduced to what they hold. */
function observe(r: Request): Record<string, unknown> {
  const seen: Record<string, unknown> = {};
  for (const name of Reflect.ownKeys(RealRequest.prototype)) {
    if (typeof name !== 'string') continue;
    const member = Object.getOwnPropertyDescriptor(RealRequest.prototype, name)!;
    if (!member.get) continue;
    const value = (r as unknown as Record<string, unknown>)[name];
    if (value instanceof Headers) seen[name] = [...value];
    else if (value instanceof AbortSignal) seen[name] = { aborted: value.aborted };
    else if (value instanceof ReadableStream) seen[name] = 'stream';
    else seen[name] = value;
  }
  seen.tag = Object.prototype.toString.call(r);
  seen.isRequest = r instanceof RealRequest;
  return seen;
}

type Parts = [url: string | URL, method: string, fields: HeaderField[], body: Uint8Array | null];

const CASES: Record<string, () => Parts> = {
  'a GET with fields': () => [
    'http://127.0.0.1:8080/todos/1?x=1',
    'GET',
    fields(['Host', '127.0.0.1:8080'], ['Accept', '*/*'], ['X-Two', 'a'], ['x-two', 'b']),
    null,
  ],
  'a POST with a JSON body': () => ['http://api.test/todos', 'POST', fields(['Content-Type', 'application/json']), encode('{"title":"Buy milk"}')],
  'a PUT with a form body': () => ['http://api.test/f', 'PUT', fields(['Content-Type', 'application/x-www-form-urlencoded']), encode('a=1&b=2')],
  'a DELETE without a body': () => ['http://api.test/todos/2', 'DELETE', [], null],
  'a lower-case standard method (normalised)': () => ['http://api.test/', 'post', [], encode('x')],
  'an extension method (kept as sent)': () => ['http://api.test/', 'PATCH', [], encode('{}')],
  'a lower-case extension method (kept as sent)': () => ['http://api.test/', 'purge', [], null],
  'a URL object that normalises dots': () => [new URL('/a/../b/%7e?q', 'http://api.test'), 'GET', [], null],
  'a URL string that normalises dots and case': () => ['HTTP://API.test/a/./b', 'HEAD', [], null],
};

describe('LazyRequest: what a handler sees is the Request it stands for', () => {
  for (const [name, parts] of Object.entries(CASES)) {
    it(`${name}: every member and the body, as the real one`, async () => {
      const real = realRequest(...parts());
      const lazy = LazyRequest.for(...parts());
      expect(Object.getPrototypeOf(lazy)).toBe(LazyRequest.prototype);
      expect(lazy.method).toBe(real.method);
      expect(lazy.url).toBe(real.url);
      expect(observe(lazy)).toEqual(observe(real));
      expect(await lazy.clone().text()).toBe(await real.clone().text());
      expect(new Uint8Array(await lazy.arrayBuffer())).toEqual(new Uint8Array(await real.arrayBuffer()));
      expect(observe(lazy)).toEqual(observe(real));
    });
  }

  it('parses a URL the caller vouches for only when asked, to what the real one holds', () => {
    for (const url of ['http://api.test/a/../b/%7e?q=1#f', 'http://api.test/x y', 'http://api.test/{}']) {
      const lazy = LazyRequest.for(url, 'GET', [], null, true);
      expect(lazy.url).toBe(realRequest(url, 'GET', [], null).url);
      expect(observe(lazy)).toEqual(observe(realRequest(url, 'GET', [], null)));
    }
  });

  it('parses a form body and a JSON body as the real one does', async () => {
    const form = CASES['a PUT with a form body']!();
    expect([...(await LazyRequest.for(...form).formData())]).toEqual([...(await realRequest(...form).formData())]);
    const json = CASES['a POST with a JSON body']!();
    expect(await LazyRequest.for(...json).json()).toEqual(await realRequest(...json).json());
  });

  it('throws at once what the real constructor throws for parts it refuses, word for word', () => {
    const refused: Parts[] = [
      ['http://[bad/x', 'GET', [], null],
      ['http://api.test/', 'CONNECT', [], null],
      ['http://api.test/', 'trace', [], null],
      ['http://api.test/', 'BAD METHOD', [], null],
      ['http://api.test/', 'GET', [], encode('body')],
      ['http://api.test/', 'GET', fields(['Bad Name', 'x']), null],
    ];
    for (const parts of refused) {
      let real = 'no error';
      try {
        realRequest(...parts);
      } catch (e) {
        real = `${(e as Error).constructor.name}: ${(e as Error).message}`;
      }
      let lazy = 'no error';
      try {
        // A bad field name is found only when the real Request is made: make it, as a handler reading headers would.
        void LazyRequest.for(...parts).headers;
      } catch (e) {
        lazy = `${(e as Error).constructor.name}: ${(e as Error).message}`;
      }
      expect(real).not.toBe('no error');
      expect(lazy).toBe(real);
    }
  });

  it('is one real Request once made: the same Headers, and a body read once', async () => {
    const lazy = LazyRequest.for(...CASES['a POST with a JSON body']!());
    expect(lazy.headers).toBe(lazy.headers);
    expect(LazyRequest.unwrap(lazy)).toBe(LazyRequest.unwrap(lazy));
    expect(lazy.bodyUsed).toBe(false);
    await lazy.text();
    expect(lazy.bodyUsed).toBe(true);
    await expect(lazy.text()).rejects.toThrow(TypeError);
  });

  it("owns its parts: the caller's buffer and field list can change afterwards", async () => {
    const body = encode('{"a":1}');
    const list = fields(['X-A', '1']);
    const lazy = LazyRequest.for('http://api.test/', 'POST', list, body);
    body[2] = 0x62;
    list.push({ name: 'X-B', value: '2' });
    expect(await lazy.text()).toBe('{"a":1}');
    expect([...lazy.headers]).toEqual([['x-a', '1']]);
  });

  it('prints as a Request in Node', () => {
    const printed = inspect(LazyRequest.for('http://api.test/todos/1', 'GET', [], null));
    expect(printed).toContain('Request');
    expect(printed).toContain('http://api.test/todos/1');
  });
});

describe('installLazyRequestSupport: new Request() and fetch() take a lazy Request', () => {
  let origin = '';
  const echo = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          accept: req.headers.accept ?? null,
          custom: req.headers['x-custom'] ?? null,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
  beforeAll(async () => {
    installLazyRequestSupport();
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => echo.close(() => resolve())));

  const parts = (): Parts => [
    `${origin}/echo?q=1`,
    'POST',
    fields(['Accept', 'text/plain'], ['X-Custom', 'yes'], ['Content-Type', 'text/plain']),
    encode('hello'),
  ];

  it('fetch(request) sends what fetch(the real request) sends', async () => {
    const viaLazy = await (await fetch(LazyRequest.for(...parts()))).json();
    const viaReal = await (await fetch(realRequest(...parts()))).json();
    expect(viaLazy).toEqual(viaReal);
    expect(viaLazy).toEqual({ method: 'POST', url: '/echo?q=1', accept: 'text/plain', custom: 'yes', body: 'hello' });
  });

  it('new Request(request, init) copies what the real one would, after an await too', async () => {
    const lazy = LazyRequest.for(...parts());
    await Promise.resolve();
    const copy = new Request(lazy, { method: 'PUT' });
    const fromReal = new Request(realRequest(...parts()), { method: 'PUT' });
    expect(observe(copy)).toEqual(observe(fromReal));
    expect(await copy.text()).toBe('hello');
  });

  it('keeps every Request instanceof Request, and the class named Request', () => {
    expect(new RealRequest('http://a.test/') instanceof Request).toBe(true);
    expect(new Request('http://a.test/') instanceof RealRequest).toBe(true);
    expect(LazyRequest.for('http://a.test/', 'GET', [], null) instanceof Request).toBe(true);
    expect({} instanceof Request).toBe(false);
    expect(Request.name).toBe('Request');
  });
});

const wire = (method: string, target: string, body = '', headers: [string, string][] = []): WireRequest => ({
  method,
  target,
  version: '1.1',
  headers: fields(['Host', 'api.test'], ...headers),
  body: encode(body),
});

describe('a server with lazy Requests answers exactly as one without', () => {
  it('to handlers that read every part of their request, or none', async () => {
    const server = createServer({
      routes: [
        http.all('/echo/:id', async (request, { params }) =>
          Response.json({
            id: params.id,
            method: request.method,
            url: request.url,
            fields: [...request.headers],
            body: await request.clone().text(),
            again: await request.text(),
            isRequest: request instanceof Request,
            signal: request.signal.aborted,
          }),
        ),
        http.get('/quiet', () => new Response('no reading')),
      ],
    });
    const requests = [
      wire('GET', '/echo/1?x=%20y', '', [['Accept', 'application/json']]),
      wire('POST', '/echo/2', '{"a":1}', [['Content-Type', 'application/json']]),
      wire('PATCH', '/echo/3', 'patch body'),
      wire('DELETE', '/echo/4'),
      wire('GET', '/quiet'),
    ];
    const answers = async (lazyRequests: boolean) => {
      const out = [];
      for (const r of requests) {
        const reply = await respond(r, { routes: server.routes, store: server.store, origin: 'http://api.test', lazyRequests, bufferResponses: lazyRequests });
        out.push({ status: reply.status, headers: reply.headers, body: new TextDecoder().decode(reply.body) });
      }
      return out;
    };
    const real = await answers(false);
    expect(await answers(true)).toEqual(real);
    expect(JSON.parse(real[1]!.body)).toMatchObject({ method: 'POST', url: 'http://api.test/echo/2', body: '{"a":1}', again: '{"a":1}', isRequest: true });
  });
});
