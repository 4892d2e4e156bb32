import { describe, expect, it } from 'vitest';
import { createSimulation, type SimulationOptions } from '../index';
import { createServer, http } from '../../server/index';
import { HTTP3_ERROR_CODES } from '../../http3/frames';

const BODY = 'x'.repeat(3000);

const routes = () =>
  createServer({
    routes: [
      http.get('/slow', () => new Response(BODY), { bytesPerTick: 100, tickMs: 10 }),
      http.get('/late', () => new Response('late'), { latency: 500 }),
      http.get('/hello', () => new Response('hello')),
    ],
  });

const h3 = (extra: SimulationOptions = {}) =>
  createSimulation({ httpVersion: '3', rtt: 100, bandwidth: Infinity, server: routes(), drive: 'manual', ...extra });

/** Starts a fetch that an AbortController can cancel, and keeps its rejection handled. */
function cancellable(sim: ReturnType<typeof h3>, url: string) {
  const controller = new AbortController();
  const result = sim.fetch(url, { signal: controller.signal }).then(
    (r) => ({ ok: true as const, r }),
    (e: unknown) => ({ ok: false as const, e }),
  );
  return { controller, result };
}

describe('cancelling an HTTP/3 request (RFC 9114 §4.1.1, RFC 9000 §19.4-19.5)', () => {
  it('an abort mid-body sends STOP_SENDING and RESET_STREAM; the server resets and stops sending', async () => {
    const sim = h3();
    const { controller, result } = cancellable(sim, 'https://api.example/slow');
    // Handshake 0-100, request at the server at 150, HEADERS then a DATA frame every 10 ms from 160.
    await sim.advance(255);
    expect(sim.trace.ofType('response-started')).toHaveLength(1);
    controller.abort();
    const outcome = await result;
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && (outcome.e as Error).name).toBe('AbortError');
    await sim.advance(1000);

    const cancelled = HTTP3_ERROR_CODES.H3_REQUEST_CANCELLED;
    const stops = sim.trace.ofType('quic-stop-sending');
    expect(stops.map((e) => [e.from, e.streamId, e.errorCode, e.errorName, e.at])).toEqual([['client', 0, cancelled, 'H3_REQUEST_CANCELLED', 255]]);
    const resets = sim.trace.ofType('quic-reset-stream');
    // The request (and its FIN) was acknowledged at 200: the client's sending half is "Data Recvd" and has
    // nothing left to reset (RFC 9000 §3.1). RFC 9000 §3.5: the server answers STOP_SENDING with a
    // RESET_STREAM carrying the same code, when the STOP_SENDING arrives half a round trip later.
    expect(resets.map((e) => [e.from, e.streamId, e.errorName, e.at])).toEqual([['server', 0, 'H3_REQUEST_CANCELLED', 305]]);
    const serverReset = resets[0]!;
    const sentByServer = sim.trace.ofType('quic-packet-sent').filter((e) => e.from === 'server');
    const dataFrames = sentByServer.flatMap((e) => e.frames.filter((f) => f.startsWith('STREAM 0 ')).map((f) => ({ at: e.at, f })));
    const streamEnd = Math.max(
      ...dataFrames.map(({ f }) => {
        const m = /@(\d+)\+(\d+)/.exec(f)!;
        return Number(m[1]) + Number(m[2]);
      }),
    );
    expect(serverReset!.finalSize).toBe(streamEnd);
    expect(dataFrames.every(({ at }) => at < serverReset!.at)).toBe(true);
    expect(sentByServer.some((e) => e.frames.some((f) => f.startsWith('RESET_STREAM 0 0x10c final=')))).toBe(true);
    // The body was cut short: fewer DATA frames than the 30 a complete answer takes.
    const data = sim.trace.ofType('http3-frame').filter((e) => e.from === 'server' && e.streamId === 0 && e.frame === 'DATA');
    expect(data.length).toBeGreaterThan(0);
    expect(data.length).toBeLessThan(30);
    expect(sim.trace.ofType('request-failed').map((e) => e.reason)).toEqual(['aborted']);

    // The connection itself is fine: the next request reuses it.
    const next = sim.fetch('https://api.example/hello');
    await sim.run();
    const res = await next;
    expect(await res.text()).toBe('hello');
    expect(sim.trace.ofType('request-finished')[0]!.reused).toBe(true);
    expect(sim.trace.ofType('quic-connection-opening')).toHaveLength(1);
  });

  it('an abort before the request is acknowledged resets both halves; the server had sent nothing: final size 0', async () => {
    const sim = h3();
    const { controller, result } = cancellable(sim, 'https://api.example/late');
    await sim.advance(150); // the request left at 100; the server's ACK of it arrives at 200
    controller.abort();
    await result;
    await sim.advance(2000);
    const [stop, ...more] = sim.trace.ofType('quic-stop-sending');
    expect(more).toEqual([]);
    expect(stop).toMatchObject({ from: 'client', streamId: 0, at: 150 });
    const client = sim.trace.ofType('quic-reset-stream').find((e) => e.from === 'client');
    const request = sim.trace
      .ofType('quic-packet-sent')
      .filter((e) => e.from === 'client')
      .flatMap((e) => e.frames)
      .filter((f) => f.startsWith('STREAM 0 '));
    expect(request).toHaveLength(1);
    expect(client).toMatchObject({ streamId: 0, errorName: 'H3_REQUEST_CANCELLED', at: 150, finalSize: Number(/\+(\d+)/.exec(request[0]!)![1]) });
    // Both frames went out in one packet.
    const cancelPacket = sim.trace.ofType('quic-packet-sent').find((e) => e.from === 'client' && e.at === 150)!;
    expect(cancelPacket.frames.filter((f) => !f.startsWith('ACK'))).toEqual([
      'STOP_SENDING 0 0x10c',
      expect.stringMatching(/^RESET_STREAM 0 0x10c final=\d+$/),
    ]);
    const server = sim.trace.ofType('quic-reset-stream').find((e) => e.from === 'server');
    expect(server).toMatchObject({ streamId: 0, finalSize: 0, errorName: 'H3_REQUEST_CANCELLED', at: 200 });
    // The latency timer fired later, but the cancelled stream got no HEADERS.
    expect(sim.trace.ofType('http3-frame').filter((e) => e.from === 'server' && e.streamId === 0)).toEqual([]);
    expect(sim.trace.ofType('quic-packet-sent').filter((e) => e.from === 'server' && e.frames.some((f) => f.startsWith('STREAM 0 ')))).toEqual([]);
  });

  it('on a resumed connection a request sent in 0-RTT is cancelled in 0-RTT too (RFC 9000 §12.4)', async () => {
    const sim = h3({ idleTimeout: 1000 });
    const first = sim.fetch('https://api.example/hello');
    await sim.run();
    await first;
    await sim.advance(2000); // idle close; the session ticket stays
    const { controller, result } = cancellable(sim, 'https://api.example/late');
    await sim.advance(10); // the 0-RTT request left at once; the handshake completes after a round trip
    controller.abort();
    await result;
    await sim.advance(2000);
    const second = sim.trace.ofType('quic-connection-opening')[1]!;
    expect(second.resumed).toBe(true);
    const cancel = sim.trace
      .ofType('quic-packet-sent')
      .find((e) => e.connectionId === second.connectionId && e.frames.some((f) => f.startsWith('STOP_SENDING')))!;
    expect(cancel.space).toBe('0rtt');
    expect(cancel.frames).toEqual(['STOP_SENDING 0 0x10c', expect.stringMatching(/^RESET_STREAM 0 0x10c final=\d+$/)]);
    expect(sim.trace.ofType('http3-frame').filter((e) => e.connectionId === second.connectionId && e.from === 'server' && e.streamId === 0)).toEqual([]);
  });

  it('an abort before the handshake completes sends nothing: the request never left', async () => {
    const sim = h3();
    const { controller, result } = cancellable(sim, 'https://api.example/hello');
    await sim.advance(50);
    controller.abort();
    await result;
    await sim.advance(1000);
    expect(sim.trace.ofType('quic-stop-sending')).toEqual([]);
    expect(sim.trace.ofType('quic-reset-stream')).toEqual([]);
    expect(sim.trace.ofType('quic-packet-sent').filter((e) => e.frames.some((f) => f.startsWith('STREAM 0 ')))).toEqual([]);
  });

  it('an abort after the response is complete sends nothing', async () => {
    const sim = h3();
    const controller = new AbortController();
    const res = sim.fetch('https://api.example/hello', { signal: controller.signal });
    await sim.run();
    expect(await (await res).text()).toBe('hello');
    controller.abort();
    await sim.advance(1000);
    expect(sim.trace.ofType('quic-stop-sending')).toEqual([]);
    expect(sim.trace.ofType('quic-reset-stream')).toEqual([]);
  });
});
