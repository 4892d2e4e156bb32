/**
 * The raw HTTP/2 client against the mock server, and the server's defences as the simulation applies them:
 * each attack ends in the answer the engine gives on a real port (GOAWAY code, RST_STREAM code, 408), with
 * the GOAWAY written before the close and traced on both sides; each defence can be switched off.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FLAGS } from '../../http2/constants';
import { connectRawHttp2 } from './raw-client';
import { createSimulation } from '../simulation';
import { createServer, type ServerOptions } from '../../server/server';
import { http } from '../../server/router';
import type { TraceEvent } from '../../trace/events';

const SETTLE = 300; // TCP handshake, then the prefaces and SETTINGS cross (default 100 ms round trips)

function setup(options: ServerOptions = {}) {
  let handled = 0;
  const server = createServer({ routes: [http.get('/', () => (handled++, new Response('hi')))], ...options });
  const sim = createSimulation({ server, httpVersion: '2' });
  return { sim, handled: () => handled };
}

const frameEvents = (events: readonly TraceEvent[], side: 'client' | 'server', direction: 'sent' | 'received', frameType: string) =>
  events.filter((e) => e.type === 'h2-frame' && e.side === side && e.direction === direction && e.frameType === frameType);

describe('raw HTTP/2 client', () => {
  it('sends the preface, acknowledges SETTINGS, and gets an ordinary request answered', async () => {
    const { sim, handled } = setup();
    const client = connectRawHttp2(sim);
    client.request(1, '/');
    await sim.advance(SETTLE);
    expect(handled()).toBe(1);
    const headers = client.received.find((f) => f.type === 'HEADERS');
    expect(headers?.streamId).toBe(1);
    expect(client.received.some((f) => f.type === 'DATA' && f.streamId === 1 && f.flags & FLAGS.END_STREAM)).toBe(true);
    // Both ends are traced: the client's own SETTINGS ACK, and the server's view of it.
    expect(frameEvents(sim.trace.events, 'client', 'sent', 'SETTINGS')).toHaveLength(2);
    expect(frameEvents(sim.trace.events, 'server', 'received', 'HEADERS')).toHaveLength(1);
    expect(client.goaway).toBeUndefined();
    expect(client.sent.frames).toBe(3); // SETTINGS, HEADERS, SETTINGS ACK
  });

  it('without the SETTINGS ACK or the preface, writes only what it is given', async () => {
    const { sim } = setup();
    const client = connectRawHttp2(sim, { preface: false, ackSettings: false });
    await sim.advance(SETTLE);
    expect(client.sent).toEqual({ bytes: 0, frames: 0 });
    expect(frameEvents(sim.trace.events, 'client', 'sent', 'SETTINGS')).toHaveLength(0);
  });
});

describe('the mock server under attack', () => {
  it('rapid reset: over the RST_STREAM burst, GOAWAY INTERNAL_ERROR, written and traced before the close', async () => {
    const { sim, handled } = setup({ http2Limits: { resetBurst: 5 } });
    const client = connectRawHttp2(sim);
    await sim.advance(SETTLE);
    for (let id = 1; id <= 19; id += 2) {
      client.send(
        { type: 'HEADERS', streamId: id, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: client.fieldBlock(client.requestFields('/')) },
        { type: 'RST_STREAM', streamId: id, flags: 0, errorCode: ERROR_CODES.CANCEL },
      );
    }
    await sim.advance(SETTLE);
    expect(client.goawayError).toBe('INTERNAL_ERROR');
    expect(client.closed?.by).toBe('server');
    expect(handled()).toBe(0); // each stream was reset in the read that completed its request (rapid-reset defence)
    expect(frameEvents(sim.trace.events, 'server', 'sent', 'GOAWAY')).toHaveLength(1);
    expect(frameEvents(sim.trace.events, 'client', 'received', 'GOAWAY')).toHaveLength(1);
  });

  it('rapid reset: the budget refills on the virtual clock, and without the limit no stream reset in its own read reaches the handler', async () => {
    const slow = setup({ http2Limits: { resetBurst: 5, resetRatePerSecond: 10 } });
    const client = connectRawHttp2(slow.sim);
    await slow.sim.advance(SETTLE);
    for (let id = 1; id <= 19; id += 2) {
      client.send({
        type: 'HEADERS',
        streamId: id,
        flags: FLAGS.END_HEADERS | FLAGS.END_STREAM,
        headerBlockFragment: client.fieldBlock(client.requestFields('/')),
      });
      client.send({ type: 'RST_STREAM', streamId: id, flags: 0, errorCode: ERROR_CODES.CANCEL });
      await slow.sim.advance(200); // two tokens back per reset spent
    }
    expect(client.goaway).toBeUndefined();

    const off = setup({ http2Limits: { resetBurst: Number.POSITIVE_INFINITY } });
    const attacker = connectRawHttp2(off.sim);
    await off.sim.advance(SETTLE);
    for (let id = 1; id <= 399; id += 2) {
      attacker.send(
        { type: 'HEADERS', streamId: id, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: attacker.fieldBlock(attacker.requestFields('/')) },
        { type: 'RST_STREAM', streamId: id, flags: 0, errorCode: ERROR_CODES.CANCEL },
      );
    }
    await off.sim.advance(SETTLE);
    expect(attacker.goaway).toBeUndefined();
    // Twice SETTINGS_MAX_CONCURRENT_STREAMS, all "concurrent", and none reached the handler: each HEADERS and
    // its RST_STREAM were written together, so the server read them together.
    expect(off.handled()).toBe(0);
    expect(frameEvents(off.sim.trace.events, 'server', 'received', 'RST_STREAM')).toHaveLength(200);
  });

  it('CONTINUATION flood: the ninth CONTINUATION gets GOAWAY ENHANCE_YOUR_CALM; unlimited, the server holds the block', async () => {
    const filler = new Uint8Array(50);
    const flood = (sim: ReturnType<typeof setup>['sim']) => {
      const client = connectRawHttp2(sim);
      return async (n: number) => {
        await sim.advance(SETTLE);
        const head = client.fieldBlock(client.requestFields('/'));
        client.send(
          { type: 'HEADERS', streamId: 1, flags: FLAGS.END_STREAM, headerBlockFragment: head },
          ...Array.from({ length: n }, () => ({ type: 'CONTINUATION' as const, streamId: 1, flags: 0, headerBlockFragment: filler })),
        );
        await sim.advance(SETTLE);
        return { client, headLength: head.length };
      };
    };
    const on = setup();
    const { client: limited } = await flood(on.sim)(9);
    expect(limited.goawayError).toBe('ENHANCE_YOUR_CALM');
    expect(on.sim.server.http2Connections()).toEqual([]);

    const off = setup({ http2Limits: { maxContinuations: Number.POSITIVE_INFINITY } });
    const { client: unlimited, headLength } = await flood(off.sim)(300);
    expect(unlimited.goaway).toBeUndefined();
    const [info] = off.sim.server.http2Connections();
    expect(info?.heldFieldBlock).toEqual({ streamId: 1, frames: 301, bytes: headLength + 300 * 50 });
    expect(off.handled()).toBe(0);
  });

  it('HPACK bomb: a list over maxHeaderListSize is reset with ENHANCE_YOUR_CALM and never reaches the handler', async () => {
    const { sim, handled } = setup({ http2Limits: { maxHeaderListSize: 8192 } });
    const client = connectRawHttp2(sim);
    await sim.advance(SETTLE);
    const big = { name: 'x-big', value: 'b'.repeat(3000) };
    const block = client.fieldBlock([...client.requestFields('/'), big, big, big, big]);
    expect(block.length).toBeLessThan(3200); // the copies are one-byte references to the table
    client.send({ type: 'HEADERS', streamId: 1, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: block });
    client.request(3, '/');
    await sim.advance(SETTLE);
    const reset = client.received.find((f) => f.type === 'RST_STREAM');
    expect(reset?.type === 'RST_STREAM' && [reset.streamId, reset.errorCode]).toEqual([1, ERROR_CODES.ENHANCE_YOUR_CALM]);
    expect(client.goaway).toBeUndefined();
    expect(handled()).toBe(1); // stream 3 only: the connection stays usable
  });

  it('PING flood: more acknowledgements than maxQueuedAcks in one read get GOAWAY ENHANCE_YOUR_CALM', async () => {
    const run = async (maxQueuedAcks: number) => {
      const { sim } = setup({ http2Limits: { maxQueuedAcks } });
      const client = connectRawHttp2(sim);
      await sim.advance(SETTLE);
      client.send(...Array.from({ length: 300 }, () => ({ type: 'PING' as const, streamId: 0, flags: 0, opaqueData: new Uint8Array(8) })));
      await sim.advance(SETTLE);
      return client;
    };
    const on = await run(40);
    expect(on.goawayError).toBe('ENHANCE_YOUR_CALM');
    expect(on.received.filter((f) => f.type === 'PING').length).toBe(40);
    const off = await run(Number.POSITIVE_INFINITY);
    expect(off.goaway).toBeUndefined();
    expect(off.received.filter((f) => f.type === 'PING').length).toBe(300);
  });
});

describe('slow clients', () => {
  const slowHttp1 = async (options: ServerOptions) => {
    const sim = createSimulation({ server: createServer({ routes: [http.get('/', () => new Response('hi'))], ...options }) });
    const socket = sim.connect('api.example:80');
    let answer = '';
    let closedAt: number | undefined;
    socket.onData((b) => (answer += new TextDecoder().decode(b)));
    socket.onClose(() => (closedAt ??= sim.clock.now()));
    socket.write(new TextEncoder().encode('GET / HTTP/1.1\r\nHost: api.example\r\n'));
    for (let i = 0; i < 10 && closedAt === undefined; i++) {
      await sim.advance(3000);
      socket.write(new TextEncoder().encode(`X-${i}: z\r\n`));
    }
    return { answer, closedAt };
  };

  it('HTTP/1: a header section trickled a line every 3 s gets 408 at the 10 s deadline, however steady', async () => {
    const { answer, closedAt } = await slowHttp1({});
    expect(answer.startsWith('HTTP/1.1 408 Request Timeout\r\n')).toBe(true);
    expect(closedAt).toBeGreaterThanOrEqual(10_000);
    expect(closedAt).toBeLessThan(11_000);
  });

  it('HTTP/1: without the deadline, each line restarts the idle timer and the connection stays open', async () => {
    const { answer, closedAt } = await slowHttp1({ headerTimeout: false });
    expect(answer).toBe('');
    expect(closedAt).toBeUndefined();
  });

  it('HTTP/1: a request that arrives in time is answered as before', async () => {
    const sim = createSimulation({ server: createServer({ routes: [http.get('/', () => new Response('hi'))], headerTimeout: 500 }) });
    expect(await (await sim.fetch('/')).text()).toBe('hi');
  });

  it('HTTP/2: a request that never ends does not hold the connection past the idle timeout, unless half-open streams count', async () => {
    const run = async (halfOpenStreamsKeepAlive: boolean) => {
      const { sim } = setup({ halfOpenStreamsKeepAlive });
      const client = connectRawHttp2(sim);
      client.request(1, '/', { method: 'POST', endStream: false });
      for (let i = 0; i < 8 && client.closed === undefined; i++) {
        await sim.advance(2000);
        client.send({ type: 'DATA', streamId: 1, flags: 0, data: new Uint8Array(1) });
      }
      return client;
    };
    const on = await run(false);
    expect(on.goawayError).toBe('NO_ERROR');
    expect(new TextDecoder().decode(on.goaway!.debugData)).toBe('idle timeout');
    expect(on.closed?.by).toBe('server');
    const off = await run(true);
    expect(off.goaway).toBeUndefined();
    expect(off.closed).toBeUndefined();
  });

  it('HTTP/2 listener: half a preface is closed at the preface timeout', async () => {
    const { sim } = setup({ prefaceTimeout: 2000 });
    const client = connectRawHttp2(sim, { preface: false });
    client.sendBytes(new TextEncoder().encode('PRI * HTTP/2.0\r\n'));
    await sim.advance(1900);
    expect(client.closed).toBeUndefined();
    await sim.advance(500);
    expect(client.closed?.by).toBe('server');
  });
});
