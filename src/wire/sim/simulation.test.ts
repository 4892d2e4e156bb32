import { describe, expect, expectTypeOf, it } from 'vitest';
import type { TraceEvent, TraceEventOf } from '../trace/events';
import type { Handler } from '../server/router';
import type { Simulation } from './simulation';
import { createSimulation } from './simulation';
import type { ClientProtocolFactory } from './protocol';
import { SIMULATION_OPTIONS } from '../net/options';
import { http } from '../server/router';
import { createServer } from '../server/server';
import { isWireError } from '../errors';

const server = () =>
  createServer({
    routes: [
      http.get('/todos/:id', (_req, { params }) => Response.json({ id: Number(params.id) })),
      http.get('/slow', () => new Response('slow'), { latency: 500 }),
      http.post('/echo', async (req) => new Response(await req.arrayBuffer(), { headers: { 'Content-Type': req.headers.get('content-type') ?? 'none' } })),
    ],
  });

describe('sim.fetch', () => {
  it('waits for handlers that take many microtask turns before moving the clock, however many are in flight', async () => {
    // A handler that yields far more often than the driver's own 16 turns: the driver must wait for it
    // (host work), not step the clock past it or call the run stalled.
    const busy = createServer({
      routes: [
        http.get('/busy/:id', async (_req, { params }) => {
          for (let i = 0; i < 200; i++) await null;
          return new Response(`done ${params.id}`);
        }),
        http.get('/fast/:id', (_req, { params }) => new Response(`done ${params.id}`)),
      ],
    });
    const finishedAt = async (path: string) => {
      const sim = createSimulation({ httpVersion: '1.1', server: busy, rtt: 40 });
      const bodies = await Promise.all(Array.from({ length: 8 }, (_, i) => sim.fetch(`${path}/${i}`).then((r) => r.text())));
      expect(bodies).toEqual(Array.from({ length: 8 }, (_, i) => `done ${i}`));
      return sim.trace.ofType('request-finished').map((e) => e.at);
    };
    expect(await finishedAt('/busy')).toEqual(await finishedAt('/fast'));
  });

  it('has the fetch signature and returns a real Response on virtual time', async () => {
    const sim = createSimulation({ server: server(), rtt: 100, bandwidth: Infinity });
    const res = await sim.fetch('/todos/3');
    expect(res).toBeInstanceOf(Response);
    expect(res.ok).toBe(true);
    expect(await res.json()).toEqual({ id: 3 });
    expect(res.url).toBe('http://api.example/todos/3');
    expect(sim.clock.now()).toBe(200); // 1 RTT handshake + 1 RTT exchange
    expect(sim.pending).toBe(0);
  });

  it('accepts URL and Request inputs and the usual body types', async () => {
    const sim = createSimulation({ server: server(), bandwidth: Infinity });
    expect((await sim.fetch(new URL('http://api.example/todos/1'))).status).toBe(200);
    const viaRequest = await sim.fetch(new Request('http://api.example/echo', { method: 'POST', body: 'from a Request' }));
    expect(await viaRequest.text()).toBe('from a Request');
    const json = await sim.fetch('/echo', { method: 'POST', body: JSON.stringify({ a: 1 }), headers: { 'Content-Type': 'application/json' } });
    expect(await json.json()).toEqual({ a: 1 });
    const form = await sim.fetch('/echo', { method: 'post', body: new URLSearchParams({ q: 'x y' }) });
    expect(await form.text()).toBe('q=x+y');
    expect(form.headers.get('content-type')).toMatch(/application\/x-www-form-urlencoded/);
    const bytes = await sim.fetch('/echo', { method: 'POST', body: new Uint8Array([1, 2, 3]) });
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(sim.trace.ofType('request-started').map((e) => e.method)).toContain('POST');
  });

  it('rejects a GET with a body like fetch does', async () => {
    const sim = createSimulation({ server: server() });
    await expect(sim.fetch('/todos/1', { body: 'x' })).rejects.toThrow(TypeError);
  });

  it('fails with a network TypeError when the host does not exist (connection refused)', async () => {
    const sim = createSimulation({ server: server() });
    const failure = sim.fetch('http://elsewhere.example/');
    await expect(failure).rejects.toThrow('Failed to fetch');
    // The cause names where nothing listens, as curl does.
    await expect(failure.catch((error: Error) => String(error.cause))).resolves.toContain('connection refused: nothing listens on elsewhere.example:80');
  });

  it('serves extra host names (domain sharding) with their own connection pools', async () => {
    const sim = createSimulation({ server: server(), hosts: ['static1.example', 'static2.example'], maxConnectionsPerOrigin: 1 });
    await Promise.all(['api.example', 'static1.example', 'static2.example'].map((h) => sim.fetch(`http://${h}/todos/1`)));
    expect(sim.trace.ofType('connection-opening')).toHaveLength(3);
    expect(sim.trace.ofType('request-queued')).toHaveLength(0);
  });
});

describe('cancellation with AbortSignal', () => {
  it('an already-aborted signal rejects at once with the AbortError', async () => {
    const sim = createSimulation({ server: server() });
    const controller = new AbortController();
    controller.abort();
    const error = await sim.fetch('/todos/1', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(sim.trace.events).toHaveLength(0);
  });

  it('aborting in flight rejects with AbortError and resets the connection (HTTP/1 cannot cancel one request)', async () => {
    const sim = createSimulation({ server: server(), rtt: 100 });
    const controller = new AbortController();
    sim.clock.setTimeout(() => controller.abort(), 150);
    const error = await sim.fetch('/slow', { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as DOMException).name).toBe('AbortError');
    expect(sim.clock.now()).toBe(150);
    expect(sim.trace.ofType('request-failed')[0]).toMatchObject({ requestId: 'r1', reason: 'aborted', at: 150 });
    expect(sim.trace.ofType('connection-closed')[0]).toMatchObject({ how: 'reset', by: 'client', reason: 'request aborted' });
  });

  it('aborting with a reason rejects with that reason', async () => {
    const sim = createSimulation({ server: server() });
    const controller = new AbortController();
    sim.clock.setTimeout(() => controller.abort(new Error('navigated away')), 10);
    await expect(sim.fetch('/slow', { signal: controller.signal })).rejects.toThrow('navigated away');
  });

  it('aborting a queued request removes it from the queue without touching connections', async () => {
    const sim = createSimulation({ server: server(), maxConnectionsPerOrigin: 1 });
    const controller = new AbortController();
    const first = sim.fetch('/todos/1');
    const second = sim.fetch('/todos/2', { signal: controller.signal });
    expect(sim.trace.ofType('request-queued')).toHaveLength(1);
    controller.abort();
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    expect((await first).status).toBe(200);
    expect(sim.trace.ofType('connection-opening')).toHaveLength(1);
    expect(sim.trace.ofType('connection-closed')).toHaveLength(0);
  });

  it('AbortSignal.timeout-style cancellation works on the virtual clock via AbortSignal.any', async () => {
    const sim = createSimulation({ server: server() });
    const timeout = new AbortController();
    sim.clock.setTimeout(() => timeout.abort(new DOMException('timed out', 'TimeoutError')), 300);
    const error = await sim.fetch('/slow', { signal: AbortSignal.any([timeout.signal]) }).catch((e: unknown) => e);
    expect((error as DOMException).name).toBe('TimeoutError');
  });
});

describe('driving time', () => {
  it('manual mode: nothing happens until the caller steps or advances', async () => {
    const sim = createSimulation({ server: server(), drive: 'manual', rtt: 100, bandwidth: Infinity });
    let done = false;
    const pending = sim.fetch('/todos/1').then((r) => {
      done = true;
      return r;
    });
    await Promise.resolve();
    expect(sim.clock.now()).toBe(0);
    expect(await sim.step()).toBe(true); // SYN arrives
    expect(sim.clock.now()).toBe(50);
    await sim.advance(100);
    expect(sim.clock.now()).toBe(150);
    expect(done).toBe(false);
    await sim.run();
    expect(done).toBe(true);
    expect((await pending).status).toBe(200);
    expect(sim.clock.now()).toBe(200);
  });

  it('the trace is live: subscribers see each event as it happens', async () => {
    const sim = createSimulation({ server: server() });
    const seen: string[] = [];
    const stop = sim.subscribe((e) => seen.push(e.type));
    await sim.fetch('/todos/1');
    stop();
    await sim.fetch('/todos/2');
    expect(seen[0]).toBe('request-started');
    expect(seen).toContain('request-finished');
    expect(seen.length).toBeLessThan(sim.trace.events.length);
  });

  it('time does not run ahead when nothing is pending', async () => {
    const sim = createSimulation({ server: server() });
    await sim.fetch('/todos/1');
    const t = sim.clock.now();
    await Promise.resolve();
    expect(sim.clock.now()).toBe(t);
    expect(sim.clock.pending).toBeGreaterThan(0); // idle timers wait for the next fetch
  });
});

describe('options', () => {
  it('every option is documented with a default', () => {
    for (const [name, spec] of Object.entries(SIMULATION_OPTIONS)) {
      expect(spec.doc.length, name).toBeGreaterThan(5);
      expect('default' in spec, name).toBe(true);
    }
  });

  it('bad values are refused with what was expected', () => {
    const attempt = (o: Record<string, unknown>) => {
      try {
        createSimulation(o);
        return undefined;
      } catch (e) {
        return e;
      }
    };
    const e = attempt({ rtt: -5 });
    expect(isWireError(e)).toBe(true);
    expect((e as Error).message).toMatch(/option "rtt" must be a number from 0 to 60000; got -5/);
    expect((attempt({ httpVersion: '4' }) as Error).message).toMatch(/one of "0.9", "1.0", "1.1", "2", "3"/);
    expect((attempt({ pipelining: true, httpVersion: '1.0' }) as Error).message).toMatch(/pipelining needs httpVersion "1.1"/);
  });

  it('later versions plug in through the protocols option', async () => {
    const h3: ClientProtocolFactory = (env) => ({
      keyFor: (url) => url.origin,
      submit: (exchange) => {
        env.ctx.clock.setTimeout(() => exchange.resolve(new Response('from a plugged-in protocol')), env.link.rtt);
      },
      abort: () => {},
    });
    const sim = createSimulation({ httpVersion: '3', server: server(), rtt: 40, protocols: { '3': h3 } });
    expect(await (await sim.fetch('/anything')).text()).toBe('from a plugged-in protocol');
    expect(sim.clock.now()).toBe(40);
  });
});

describe('slow start seen from fetch', () => {
  it('a body larger than the initial window needs extra round trips', async () => {
    const body = 'x'.repeat(1460 * 25); // 10 segments, then 15 more: 2 windows
    const s = createSimulation({
      rtt: 100,
      bandwidth: Infinity,
      server: createServer({ routes: [http.get('/small', () => new Response('x')), http.get('/big', () => new Response(body))] }),
    });
    await s.fetch('/small');
    const t0 = s.clock.now();
    await s.fetch('/small');
    const small = s.clock.now() - t0;
    const t1 = s.clock.now();
    const res = await s.fetch('/big');
    expect((await res.text()).length).toBe(body.length);
    // The server's window has grown a little from the first responses, but 25+ segments still need a
    // second flight: one extra RTT compared with a one-segment response.
    expect(small).toBe(100);
    expect(s.clock.now() - t1).toBe(200);
    const sizes = s.trace.ofType('segment-sent').filter((e) => e.from === 'server' && e.at >= t1);
    expect(sizes.length).toBeGreaterThan(25);
  });
});

// Type-level checks of the public API; `npm run typecheck` verifies them (they are no-ops at run time).
// They live here rather than in a *.test-d.ts file so this area's test run does not type-check the
// whole project.
describe('public types', () => {
  it('sim.fetch has the global fetch signature', () => {
    expectTypeOf<Parameters<Simulation['fetch']>>().toEqualTypeOf<Parameters<typeof fetch>>();
    expectTypeOf<ReturnType<Simulation['fetch']>>().toEqualTypeOf<Promise<Response>>();
  });

  it('trace events narrow on type', () => {
    const offsetOf = (event: TraceEvent): number | undefined => (event.type === 'packet-lost' ? event.offset : undefined);
    expect(offsetOf({ type: 'packet-lost', seq: 1, at: 0, connectionId: 'c1', from: 'client', offset: 7, length: 1 })).toBe(7);
    expectTypeOf<TraceEventOf<'bytes-sent'>['data']>().toEqualTypeOf<string>();
    expectTypeOf<TraceEventOf<'connection-closed'>['how']>().toEqualTypeOf<'fin' | 'reset'>();
    expectTypeOf<TraceEventOf<'request-finished'>['timings']['dns']>().toEqualTypeOf<-1>();
  });

  it('handlers have the Fetch API shape', () => {
    expectTypeOf<Parameters<Handler>[0]>().toEqualTypeOf<Request>();
    expectTypeOf<ReturnType<Handler>>().toEqualTypeOf<Response | Promise<Response>>();
  });
});

describe('redirects', () => {
  const redirecting = () =>
    createServer({
      routes: [
        http.get('/old', () => new Response(null, { status: 301, headers: { Location: '/new' } })),
        http.get('/new', () => new Response('moved here')),
        http.post('/form', () => new Response(null, { status: 303, headers: { Location: '/done' } })),
        http.get('/done', (req) => new Response(`done via ${req.method}`)),
        http.post('/keep', () => new Response(null, { status: 307, headers: { Location: '/echo' } })),
        http.get('/loop', () => new Response(null, { status: 302, headers: { Location: '/loop' } })),
        http.post('/echo', async (req) => new Response(`${req.method} ${await req.text()}`)),
      ],
    });

  it('follows them like fetch: each hop is a request in the trace', async () => {
    const sim = createSimulation({ server: redirecting() });
    const res = await sim.fetch('/old');
    expect(await res.text()).toBe('moved here');
    expect(res.redirected).toBe(true);
    expect(res.url).toBe('http://api.example/new');
    expect(sim.trace.ofType('request-finished').map((e) => e.response.status)).toEqual([301, 200]);
  });

  it('303 turns a POST into a GET; 307 keeps method and body', async () => {
    const sim = createSimulation({ server: redirecting() });
    expect(await (await sim.fetch('/form', { method: 'POST', body: 'a=1' })).text()).toBe('done via GET');
    expect(await (await sim.fetch('/keep', { method: 'POST', body: 'payload' })).text()).toBe('POST payload');
  });

  it("redirect: 'manual' returns the 3xx, 'error' rejects, and loops stop after 20", async () => {
    const sim = createSimulation({ server: redirecting() });
    expect((await sim.fetch('/old', { redirect: 'manual' })).status).toBe(301);
    await expect(sim.fetch('/old', { redirect: 'error' })).rejects.toThrow(TypeError);
    await expect(sim.fetch('/loop')).rejects.toThrow('Failed to fetch');
    expect(sim.trace.ofType('request-started').filter((e) => e.url.endsWith('/loop'))).toHaveLength(21);
  });
});
