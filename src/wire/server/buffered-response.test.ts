import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createDemoServer } from '../node/demo-server';
import type { WireRequest } from '../net/codec';
import { BufferedResponse, withBufferedResponses } from './buffered-response';
import { createServer, http } from './index';
import { respond } from './semantics';

const RealResponse = globalThis.Response;

/** What a reader of a Response can observe without its body. */
const head = (r: Response) => ({
  status: r.status,
  statusText: r.statusText,
  ok: r.ok,
  type: r.type,
  url: r.url,
  redirected: r.redirected,
  headers: [...r.headers],
  bodyUsed: r.bodyUsed,
  tag: Object.prototype.toString.call(r),
});

/** Builds the same Response twice, with the real class and inside the buffered window. */
function both(make: () => Response): { real: Response; buffered: Response } {
  return { real: make(), buffered: withBufferedResponses(make) };
}

/** The error (class and message) `make` throws, or 'no error'. */
function thrown(make: () => unknown): string {
  try {
    make();
    return 'no error';
  } catch (e) {
    return `${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
}

const CASES: Record<string, () => Response> = {
  'Response.json': () => Response.json({ id: '1', title: 'Read RFC 9110 §9', done: true }),
  'Response.json with status and Location': () => Response.json({ id: '7' }, { status: 201, headers: { Location: '/todos/7' } }),
  'Response.json with its own type': () => Response.json([1, 2], { headers: { 'Content-Type': 'application/vnd.api+json' } }),
  'a string': () => new Response('hello, wörld'),
  'a string with a type': () =>
    new Response('<p>hi</p>', {
      headers: [
        ['content-type', 'text/html'],
        ['x-a', '1'],
      ],
    }),
  bytes: () => new Response(new Uint8Array([1, 2, 3])),
  'an ArrayBuffer': () => new Response(new Uint8Array([4, 5]).buffer),
  'a DataView on part of a buffer': () => new Response(new DataView(new Uint8Array([9, 8, 7, 6]).buffer, 1, 2)),
  'no body, 204': () => new Response(null, { status: 204 }),
  'no arguments': () => new Response(),
  'a status text': () => new Response('gone', { status: 410, statusText: 'Gone Fishing' }),
  'a Headers object': () => new Response('x', { headers: new Headers({ 'Cache-Control': 'no-store' }) }),
  'URLSearchParams (falls back)': () => new Response(new URLSearchParams('a=1&b=2')),
  'a Blob (falls back)': () => new Response(new Blob(['blob'], { type: 'text/x-blob' })),
  'Response.error': () => Response.error(),
  'Response.redirect': () => Response.redirect('http://example.test/next', 307),
};

describe('BufferedResponse: what a handler sees is a Response', () => {
  for (const [name, make] of Object.entries(CASES)) {
    it(`${name}: the same status, fields and body as the real class`, async () => {
      const { real, buffered } = both(make);
      expect(buffered instanceof RealResponse).toBe(true);
      expect(head(buffered)).toEqual(head(real));
      expect(new Uint8Array(await buffered.arrayBuffer())).toEqual(new Uint8Array(await real.arrayBuffer()));
      expect(head(buffered)).toEqual(head(real));
    });
  }

  it('throws what the real class throws, word for word', () => {
    const bad: Array<() => unknown> = [
      () => Response.json(undefined),
      () => Response.json(1n),
      () => Response.json({}, { status: 304 }),
      () => new Response('x', { status: 204 }),
      () => new Response('x', { status: 205 }),
      () => new Response(null, { status: 99 }),
      () => new Response('x', { status: 600 }),
      () => new Response('x', { statusText: 'a\nb' }),
      () => new Response('x', { headers: { 'bad name': '1' } }),
      () => Response.json({}, { status: 42, headers: { 'bad name': '1' } }),
    ];
    for (const make of bad) {
      const real = thrown(make);
      expect(real).not.toBe('no error');
      expect(thrown(() => withBufferedResponses(make))).toBe(real);
    }
  });

  it('copies a byte body when made, as Fetch does', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const r = withBufferedResponses(() => new Response(bytes));
    bytes[0] = 99;
    expect(BufferedResponse.held(r)?.body).toEqual(new Uint8Array([1, 2, 3]));
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('reads once, like a real body: bodyUsed, then the same rejection', async () => {
    const { real, buffered } = both(() => new Response('once'));
    expect(await buffered.text()).toBe(await real.text());
    expect(buffered.bodyUsed).toBe(true);
    const again = async (r: Response) =>
      r.text().then(
        () => 'read',
        (e: Error) => `${e.constructor.name}: ${e.message}`,
      );
    expect(await again(buffered)).toBe(await again(real));
  });

  it('clones, streams and parses through a real Response', async () => {
    const r = withBufferedResponses(() => Response.json({ n: 1 }));
    const copy = r.clone();
    expect(await copy.json()).toEqual({ n: 1 });
    expect(r.body).toBeInstanceOf(ReadableStream);
    expect(await r.json()).toEqual({ n: 1 });
    expect(await withBufferedResponses(() => new Response('b')).blob()).toBeInstanceOf(Blob);
    expect(await withBufferedResponses(() => new Response('b')).bytes()).toEqual(new Uint8Array([98]));
  });

  it('is instanceof Response inside the window too, as real Responses are', () => {
    withBufferedResponses(() => {
      expect(Response).toBe(BufferedResponse);
      expect(Response.json(1) instanceof Response).toBe(true);
      expect(new RealResponse('x') instanceof Response).toBe(true);
      expect({} instanceof Response).toBe(false);
    });
    expect(Response).toBe(RealResponse);
  });

  it('prints as a Response in Node', () => {
    const printed = inspect(withBufferedResponses(() => Response.json({ a: 1 }, { status: 202 })));
    expect(printed).toContain('Response');
    expect(printed).toContain('202');
  });

  it('hands the server the bytes until something touches the body, then leaves it to the real one', () => {
    const r = withBufferedResponses(() => Response.json({ a: 'é' }));
    expect(new TextDecoder().decode(BufferedResponse.held(r)?.body)).toBe('{"a":"é"}');
    void r.body;
    expect(BufferedResponse.held(r)?.body).toBeUndefined();
    expect(BufferedResponse.held(new RealResponse('x'))?.body).toBeUndefined();
  });

  it('keeps every body it handed out as it was while later bodies are encoded, long and short', () => {
    const texts = Array.from({ length: 3000 }, (_, i) => (i % 50 === 0 ? 'ü'.repeat(5000) : `{"n":${i},"s":"${'é'.repeat(i % 40)}"}`));
    const bodies = texts.map((t) => BufferedResponse.held(withBufferedResponses(() => new Response(t)))!.body);
    const decoder = new TextDecoder();
    expect(bodies.every((b, i) => decoder.decode(b) === texts[i])).toBe(true);
  });

  it('puts the real Response back when the call throws, and leaves a nested window alone', () => {
    expect(() =>
      withBufferedResponses(() => {
        withBufferedResponses(() => undefined);
        expect(Response).toBe(BufferedResponse);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(Response).toBe(RealResponse);
  });
});

const request = (method: string, target: string, body = '', headers: [string, string][] = []): WireRequest => ({
  method,
  target,
  version: '1.1',
  headers: [{ name: 'Host', value: 'api.test' }, ...headers.map(([name, value]) => ({ name, value }))],
  body: new TextEncoder().encode(body),
});

describe('a server with buffered responses answers exactly as one without', () => {
  /** Runs the same requests against two fresh servers, one with each kind of Response. */
  async function replies(make: () => ReturnType<typeof createDemoServer>, requests: WireRequest[]) {
    const out: Record<'real' | 'buffered', unknown[]> = { real: [], buffered: [] };
    for (const kind of ['real', 'buffered'] as const) {
      const server = make();
      for (const r of requests) {
        const reply = await respond(r, { routes: server.routes, store: server.store, origin: 'http://api.test', bufferResponses: kind === 'buffered' });
        out[kind].push({ ...reply, body: new TextDecoder().decode(reply.body), options: undefined });
      }
    }
    return out;
  }

  it("on the demo server's routes and built-ins", async () => {
    const json: [string, string][] = [['Content-Type', 'application/json']];
    const { real, buffered } = await replies(createDemoServer, [
      request('GET', '/todos'),
      request('GET', '/todos/1'),
      request('GET', '/todos/99'),
      request('HEAD', '/todos/1'),
      request('POST', '/todos', '{"title":"Buy milk"}', json),
      request('POST', '/todos', 'not json', json),
      request('PUT', '/todos/9', '{"title":"Try PUT"}', json),
      request('PUT', '/todos/9', '{"title":""}', json),
      request('DELETE', '/todos/9'),
      request('DELETE', '/todos/9'),
      request('GET', '/'),
      request('GET', '/hello'),
      request('OPTIONS', '/todos/1'),
    ]);
    expect(buffered).toEqual(real);
    expect(real).toHaveLength(13);
  });

  it('when a handler reads, mutates or spends its own Response', async () => {
    const server = () =>
      createServer({
        routes: [
          http.get('/read', async () => {
            const r = Response.json({ a: 1 });
            await r.clone().text();
            return r;
          }),
          http.get('/mutate', () => {
            const r = new Response('x', { status: 202 });
            r.headers.set('X-Later', 'yes');
            return r;
          }),
          http.get('/mutate-plain', () => {
            const r = Response.json({ plain: true });
            r.headers.append('Vary', 'Accept');
            return r;
          }),
          http.get('/spent', async () => {
            const r = new Response('once');
            await r.text();
            return r;
          }),
          http.get('/not-a-response', () => ({ status: 200 }) as unknown as Response),
        ],
      });
    const { real, buffered } = await replies(server as unknown as typeof createDemoServer, [
      request('GET', '/read'),
      request('GET', '/mutate'),
      request('GET', '/mutate-plain'),
      request('GET', '/not-a-response'),
    ]);
    expect(buffered).toEqual(real);
    // A spent body fails the same way with either kind (the server then answers 500 above this layer).
    const spent = async (bufferResponses: boolean) => {
      const s = server();
      return respond(request('GET', '/spent'), { routes: s.routes, store: s.store, origin: 'http://api.test', bufferResponses }).then(
        () => 'answered',
        (e: Error) => `${e.constructor.name}: ${e.message}`,
      );
    };
    expect(await spent(true)).toBe(await spent(false));
  });
});
