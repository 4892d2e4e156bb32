import { describe, expect, it } from 'vitest';
import { createSimulation, type SimulationOptions } from '../index';
import { createServer, http } from '../../server/index';

/** Real (host) time passes, virtual time must not: the handler's work is not on the simulation's clock. */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const CHUNKS = ['alpha ', 'beta ', 'gamma ', 'delta'];

const server = () =>
  createServer({
    routes: [
      // Awaits host work before answering, then streams its body in chunks produced over host time.
      http.get('/stream', async () => {
        await pause(5);
        let i = 0;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            await pause(2);
            if (i < CHUNKS.length) controller.enqueue(new TextEncoder().encode(CHUNKS[i++]));
            else controller.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      }),
      http.post('/slow-echo', async (req) => {
        const text = await req.text();
        await pause(10);
        return new Response(text.toUpperCase(), { status: 201 });
      }),
    ],
  });

const sim = (httpVersion: '2' | '3', extra: SimulationOptions = {}) =>
  createSimulation({ httpVersion, tls: '1.3', rtt: 100, bandwidth: Infinity, server: server(), ...extra });

describe('HTTP/3 waits for the host work of route handlers (track)', () => {
  it('an async, streaming handler completes over HTTP/3 without a stall', async () => {
    const h3 = sim('3');
    const res = await h3.fetch('https://api.example/stream');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(CHUNKS.join(''));
    expect(h3.trace.ofType('request-failed')).toEqual([]);
    // Host time is not virtual time: one round trip for QUIC's handshake, one for the request.
    expect(h3.clock.now()).toBe(200);
  });

  it('gives the same wait, receive and server-side order as HTTP/2 for the same routes', async () => {
    const h2 = sim('2');
    const h3 = sim('3');
    for (const s of [h2, h3]) {
      const [a, b] = await Promise.all([s.fetch('https://api.example/stream'), s.fetch('https://api.example/slow-echo', { method: 'POST', body: 'shout' })]);
      expect(await a.text()).toBe(CHUNKS.join(''));
      expect(await b.text()).toBe('SHOUT');
      expect(b.status).toBe(201);
    }
    const finished = (s: typeof h2) =>
      s.trace
        .ofType('request-finished')
        .map((e) => ({ url: e.request.url, status: e.response.status, bodySize: e.response.bodySize, wait: e.timings.wait, receive: e.timings.receive }));
    const byUrl = <T extends { url: string }>(xs: T[]) => [...xs].sort((x, y) => x.url.localeCompare(y.url));
    expect(byUrl(finished(h3))).toEqual(byUrl(finished(h2)));
    expect(finished(h3).every((e) => e.wait === 100 && e.receive === 0)).toBe(true);
    const handled = (s: typeof h2) =>
      s.trace
        .ofType('server-handled')
        .map((e) => `${e.method} ${e.target} -> ${e.status}`)
        .sort();
    expect(handled(h3)).toEqual(handled(h2));
    // Each version pays its own setup: HTTP/2 two round trips (TCP, TLS 1.3), HTTP/3 one (QUIC).
    expect(h2.clock.now() - h3.clock.now()).toBe(100);
  });

  it('manual driving: a step does not run past an unfinished handler', async () => {
    const h3 = sim('3', { drive: 'manual' });
    const pending = h3.fetch('https://api.example/stream');
    await h3.run();
    const res = await pending;
    expect(await res.text()).toBe(CHUNKS.join(''));
    const handled = h3.trace.ofType('server-handled')[0]!;
    // The request reached the server after the handshake (100 ms) and half a round trip (50 ms); the
    // handler's host time added nothing.
    expect(handled.at).toBe(150);
  });
});
