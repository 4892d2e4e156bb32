import { describe, expect, it } from 'vitest';
import { har as validateHar } from 'har-validator';
import { createSimulation, type Simulation } from '../simulation';
import type { SimulationOptions } from '../options';
import { http } from '../../server/router';
import { createServer } from '../../server/server';
import { bytesOf } from '../../trace/events';
import { decodeFrames } from '../../http2/frame-codec';
import { http2Client } from './client';

const body = (n: number, fill = 'x') => fill.repeat(n);

function server() {
  return createServer({
    routes: [
      http.get('/items/:id', (_r, { params }) => Response.json({ id: params.id })),
      http.get('/big/:id', (_r, { params }) => new Response(body(40_000, params.id))),
      http.get('/blob/:id', (_r, { params }) => new Response(body(4_000, params.id))),
      http.get('/', () => new Response('<link rel=stylesheet href=/style.css>', { headers: { 'Content-Type': 'text/html' } }), { push: ['/style.css'] }),
      http.get('/style.css', () => new Response('body{}', { headers: { 'Content-Type': 'text/css' } })),
      http.get('/slow', () => new Response('late'), { latency: 1000 }),
      http.post('/echo', async (r) => new Response(await r.text())),
    ],
    resources: true,
  });
}

const sim = (options: SimulationOptions = {}) => createSimulation({ httpVersion: '2', server: server(), rtt: 100, ...options });
const frames = (s: Simulation, side: 'client' | 'server', direction: 'sent' | 'received') =>
  s.trace.ofType('h2-frame').filter((e) => e.side === side && e.direction === direction);

describe('HTTP/2 over the simulated network', () => {
  it('answers fetch with the same handlers and method semantics as HTTP/1', async () => {
    const s = sim();
    const res = await s.fetch('/items/7');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: '7' });
    expect(res.headers.get('content-type')).toBe('application/json');
    const head = await s.fetch('/items/7', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await s.fetch('/nowhere')).status).toBe(404);
    expect(await (await s.fetch('/echo', { method: 'POST', body: 'ping' })).text()).toBe('ping');
    const put = await s.fetch('/notes/1', { method: 'PUT', body: 'stored', headers: { 'Content-Type': 'text/plain' } });
    expect(put.status).toBe(201);
    expect(await (await s.fetch('/notes/1')).text()).toBe('stored');
    expect((await s.fetch('/items/1', { method: 'DELETE' })).status).toBe(405);
    // Everything went over one connection.
    expect(s.trace.ofType('connection-opening')).toHaveLength(1);
  });

  it('N requests share one connection and one TLS handshake, as concurrent streams (h2 with ALPN)', async () => {
    const s = sim({ tls: '1.3' });
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => s.fetch(`/items/${i}`)));
    expect(await Promise.all(responses.map((r) => r.json()))).toEqual(Array.from({ length: 10 }, (_, i) => ({ id: String(i) })));
    expect(s.trace.ofType('connection-opening')).toHaveLength(1);
    expect(s.trace.ofType('handshake').filter((e) => e.step === 'ClientHello')).toHaveLength(1);
    expect(s.trace.ofType('h2-session')).toEqual([
      expect.objectContaining({ side: 'client', protocol: 'h2', alpn: 'h2' }),
      expect.objectContaining({ side: 'server', protocol: 'h2', alpn: 'h2' }),
    ]);
    const finished = s.trace.ofType('request-finished');
    expect(new Set(finished.map((e) => e.connectionId))).toEqual(new Set(['c1']));
    const requests = frames(s, 'client', 'sent').filter((f) => f.frameType === 'HEADERS');
    expect(requests.map((f) => f.streamId)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
    // All ten were on the wire before the first response came back: one round trip for all of them.
    const firstResponse = frames(s, 'client', 'received').find((f) => f.frameType === 'HEADERS')!;
    expect(requests.every((f) => f.at < firstResponse.at)).toBe(true);
    expect(s.trace.ofType('h2-preface')).toHaveLength(2);
  });

  it('uses cleartext h2c with prior knowledge for http: URLs', async () => {
    const s = sim();
    await s.fetch('/items/1');
    expect(s.trace.ofType('h2-session')[0]).toMatchObject({ protocol: 'h2c', alpn: null });
    const preface = s.trace.ofType('h2-preface')[0]!;
    expect(preface.data).toBe('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    expect(s.trace.ofType('handshake').some((e) => e.protocol !== 'tcp')).toBe(false);
  });

  it('interleaves the DATA of concurrent responses frame by frame', async () => {
    const s = sim({ bandwidth: Infinity });
    const texts = await Promise.all([1, 2, 3].map(async (i) => (await s.fetch(`/big/${i}`)).text()));
    expect(texts).toEqual([body(40_000, '1'), body(40_000, '2'), body(40_000, '3')]);
    const data = frames(s, 'client', 'received')
      .filter((f) => f.frameType === 'DATA')
      .map((f) => f.streamId);
    expect(data.slice(0, 3)).toEqual([1, 3, 5]);
    // Frames split across TCP segments are reassembled: each side saw exactly what the other sent.
    await s.advance(1000); // let frames still in flight (acknowledgements) land
    expect(frames(s, 'client', 'received').map((f) => f.data)).toEqual(frames(s, 'server', 'sent').map((f) => f.data));
    expect(frames(s, 'server', 'received').map((f) => f.data)).toEqual(frames(s, 'client', 'sent').map((f) => f.data));
    // Flow control shows too: the client refilled the windows with WINDOW_UPDATE.
    expect(frames(s, 'client', 'sent').some((f) => f.frameType === 'WINDOW_UPDATE')).toBe(true);
  });

  it('records frames with exact bytes, byte ranges, HPACK steps and stream transitions', async () => {
    const s = sim();
    await s.fetch('/items/1');
    await s.fetch('/items/2');
    const [first, second] = frames(s, 'client', 'sent').filter((f) => f.frameType === 'HEADERS');
    for (const f of [first!, second!]) {
      const {
        frames: [decoded],
        rest,
      } = decodeFrames(bytesOf(f.data));
      expect(rest).toHaveLength(0);
      expect(decoded).toMatchObject({ type: 'HEADERS', streamId: f.streamId });
      expect(f.length).toBe(f.data.length - 9);
      expect(f.ranges.map((r) => r.field)).toContain('length');
      expect(f.ranges.every((r) => r.start >= 0 && r.start < r.end && r.end <= f.data.length)).toBe(true);
      expect(f.headers).toEqual(
        expect.arrayContaining([
          { name: ':method', value: 'GET' },
          { name: ':path', value: `/items/${f.streamId === 1 ? 1 : 2}` },
        ]),
      );
      expect(f.flags).toEqual(['END_STREAM', 'END_HEADERS']);
    }
    // The second request reuses the dynamic table the first one filled (RFC 7541 §2.3.2).
    expect(second!.hpack!.some((step) => step.representation === 'indexed' && step.table === 'dynamic')).toBe(true);
    expect(second!.length).toBeLessThan(first!.length);
    const client = s.trace.ofType('h2-stream-transition').filter((e) => e.side === 'client' && e.streamId === 1);
    expect(client.map((e) => `${e.from} ${e.input}/${e.direction} ${e.to}`)).toEqual([
      'idle HEADERS/send open',
      'open END_STREAM/send half_closed_local',
      'half_closed_local END_STREAM/recv closed',
    ]);
    const settings = frames(s, 'server', 'sent')[0]!;
    expect(settings).toMatchObject({ frameType: 'SETTINGS', fields: { MAX_CONCURRENT_STREAMS: 100 } });
  });

  it('queues requests beyond SETTINGS_MAX_CONCURRENT_STREAMS', async () => {
    const s = sim();
    await s.fetch('/items/0'); // learn the server's settings first
    await Promise.all(Array.from({ length: 120 }, (_, i) => s.fetch(`/items/${i}`)));
    expect(s.trace.ofType('request-queued')).toHaveLength(20);
    expect(s.trace.ofType('connection-opening')).toHaveLength(1);
  });

  it('server push: PUSH_PROMISE before the response, and a later fetch is served from the pushed stream', async () => {
    const s = sim();
    expect(await (await s.fetch('/')).text()).toContain('style.css');
    const promise = frames(s, 'client', 'received').find((f) => f.frameType === 'PUSH_PROMISE')!;
    expect(promise).toMatchObject({ streamId: 1, fields: { promisedStreamId: 2 } });
    expect(promise.headers).toEqual(expect.arrayContaining([{ name: ':path', value: '/style.css' }]));
    const firstHeaders = frames(s, 'client', 'received').find((f) => f.frameType === 'HEADERS')!;
    expect(promise.seq).toBeLessThan(firstHeaders.seq);
    expect(s.trace.ofType('h2-stream-transition').find((e) => e.side === 'client' && e.streamId === 2)).toMatchObject({
      from: 'idle',
      input: 'PUSH_PROMISE',
      to: 'reserved_remote',
    });
    const css = await s.fetch('/style.css');
    expect(await css.text()).toBe('body{}');
    expect(css.headers.get('content-type')).toBe('text/css');
    // No second request went out: the pushed response answered it.
    expect(frames(s, 'client', 'sent').filter((f) => f.frameType === 'HEADERS')).toHaveLength(1);
  });

  it('honours SETTINGS_ENABLE_PUSH = 0', async () => {
    const s = sim({ protocols: { '2': http2Client({ enablePush: false }) } });
    await s.fetch('/');
    expect(frames(s, 'client', 'sent')[0]).toMatchObject({ frameType: 'SETTINGS', fields: { ENABLE_PUSH: 0 } });
    expect(s.trace.ofType('h2-frame').some((f) => f.frameType === 'PUSH_PROMISE')).toBe(false);
    expect(await (await s.fetch('/style.css')).text()).toBe('body{}');
    expect(
      frames(s, 'client', 'sent')
        .filter((f) => f.frameType === 'HEADERS')
        .map((f) => f.streamId),
    ).toEqual([1, 3]);
  });

  it('an aborted fetch resets its stream with RST_STREAM(CANCEL); the connection carries on', async () => {
    const s = sim();
    const controller = new AbortController();
    const slow = s.fetch('/slow', { signal: controller.signal });
    const fast = s.fetch('/items/1');
    s.clock.setTimeout(() => controller.abort(), 250);
    await expect(slow).rejects.toMatchObject({ name: 'AbortError' });
    expect(await (await fast).json()).toEqual({ id: '1' });
    const rst = frames(s, 'client', 'sent').find((f) => f.frameType === 'RST_STREAM')!;
    expect(rst).toMatchObject({ streamId: 1, fields: { error: 'CANCEL' } });
    await s.advance(2000); // the slow handler's latency passes: nothing is sent on the cancelled stream
    expect(frames(s, 'server', 'received').some((f) => f.frameType === 'RST_STREAM' && f.streamId === 1)).toBe(true);
    expect(frames(s, 'server', 'sent').some((f) => f.streamId === 1 && f.frameType === 'HEADERS')).toBe(false);
    expect(await (await s.fetch('/items/2')).json()).toEqual({ id: '2' });
    expect(s.trace.ofType('connection-opening')).toHaveLength(1);
    expect(s.trace.ofType('request-failed')[0]).toMatchObject({ reason: 'aborted' });
  });

  it('server shutdown sends GOAWAY, finishes the streams in progress, closes; the next fetch opens a new connection', async () => {
    const s = sim();
    await s.fetch('/items/1');
    const slow = s.fetch('/slow');
    s.clock.setTimeout(() => s.server.shutdown(), 300);
    expect(await (await slow).text()).toBe('late');
    await s.advance(500);
    const goaway = frames(s, 'client', 'received').find((f) => f.frameType === 'GOAWAY')!;
    expect(goaway).toMatchObject({ fields: { lastStreamId: 3, error: 'NO_ERROR' } });
    expect(s.trace.ofType('connection-closed')[0]).toMatchObject({ connectionId: 'c1', by: 'server', how: 'fin' });
    await s.fetch('/items/2');
    expect(s.trace.ofType('request-finished').at(-1)!.connectionId).toBe('c2');
  });

  it('sends a request body larger than the flow-control window as WINDOW_UPDATEs allow (RFC 9113 §6.9)', async () => {
    const s = sim();
    const big = body(100_000, 'p');
    expect(await (await s.fetch('/echo', { method: 'POST', body: big })).text()).toBe(big);
    const sentData = frames(s, 'client', 'sent').filter((f) => f.frameType === 'DATA');
    expect(sentData.reduce((n, f) => n + f.length, 0)).toBe(100_000);
    expect(frames(s, 'client', 'received').some((f) => f.frameType === 'WINDOW_UPDATE')).toBe(true);
  });

  it('fails the fetch with a TypeError when nobody listens', async () => {
    const s = sim();
    await expect(s.fetch('http://nowhere.example/')).rejects.toThrow(TypeError);
    expect(s.trace.ofType('request-failed')[0]).toMatchObject({ reason: 'network-error' });
  });

  it('the same seed gives the same trace', async () => {
    const run = async () => {
      const s = sim({ loss: 0.1, seed: 7, tls: '1.3' });
      await Promise.all(Array.from({ length: 6 }, (_, i) => s.fetch(`/blob/${i}`)));
      return JSON.stringify(s.trace.toJSON());
    };
    expect(await run()).toBe(await run());
  });
});

/**
 * Loses exactly one segment: the first one the server sends at or after `fromOffset` on a connection
 * that carries response data. The link draws `dropCause()` right after tracing 'segment-sent'.
 */
function loseOneServerSegment(s: Simulation, fromOffset: number, connectionId?: string): void {
  let done = false;
  s.link.dropCause = () => {
    const last = s.trace.events.at(-1);
    if (done || last?.type !== 'segment-sent' || last.from !== 'server' || last.offset < fromOffset || last.retransmission) return undefined;
    if (connectionId !== undefined && last.connectionId !== connectionId) return undefined;
    done = true;
    return 'random';
  };
}

async function finishTimes(s: Simulation, n: number): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      s.fetch(`/blob/${i}`).then(async (r) => {
        await r.text();
        times.push(s.clock.now());
      }),
    ),
  );
  return times.sort((a, b) => a - b);
}

describe('TCP head-of-line blocking', () => {
  it('one lost segment delays every response on the HTTP/2 connection, but only one of six HTTP/1.1 connections', async () => {
    const baseline = await finishTimes(sim({ bandwidth: Infinity }), 6);
    const h2 = sim({ bandwidth: Infinity });
    loseOneServerSegment(h2, 200); // past the server's SETTINGS: the first segment of response frames
    const h2Times = await finishTimes(h2, 6);
    const lost = h2.trace.ofType('packet-lost');
    expect(lost).toHaveLength(1);
    const retransmit = h2.trace.ofType('retransmit')[0]!;
    // Fast retransmit: the segment left at 150 ms with nine more behind it; three of those reached the
    // client at 200 ms and their duplicate ACKs are back at 250 ms, one RTT after the loss, not an RTO later.
    // The lost segment is the second (1,448-byte segments with the timestamp option): offset 1,448.
    expect(retransmit).toMatchObject({ reason: 'packet-threshold', offset: 1448, at: 250 });
    // Every stream waited for the retransmission, although five of them had nothing in the lost segment.
    expect(h2Times.every((t) => t > retransmit.at)).toBe(true);
    expect(Math.min(...h2Times)).toBeGreaterThanOrEqual(Math.max(...baseline));
    const blocked = h2.trace.ofType('hol-blocked');
    expect(blocked.length).toBeGreaterThan(0);
    const delivered = frames(h2, 'client', 'received').filter((f) => f.frameType === 'DATA');
    expect(new Set(delivered.filter((f) => f.at > retransmit.at).map((f) => f.streamId)).size).toBe(6);

    const h1 = createSimulation({ httpVersion: '1.1', server: server(), rtt: 100, bandwidth: Infinity });
    loseOneServerSegment(h1, 0, 'c1');
    const h1Times = await finishTimes(h1, 6);
    expect(h1.trace.ofType('connection-opening')).toHaveLength(6);
    const h1Retransmit = h1.trace.ofType('retransmit')[0]!;
    expect(h1Times.filter((t) => t > h1Retransmit.at)).toHaveLength(1);
    expect(h1Times.filter((t) => t < h1Retransmit.at)).toHaveLength(5);
  });
});

describe('HAR for HTTP/2', () => {
  it('says h2, groups entries by the one connection, and passes har-validator', async () => {
    const s = sim({ tls: '1.3' });
    await Promise.all([s.fetch('/items/1?x=1'), s.fetch('/blob/2'), s.fetch('/items/3')]);
    await s.fetch('/items/4');
    const har = s.har();
    await expect(validateHar(JSON.parse(JSON.stringify(har)))).resolves.toBeTruthy();
    const { entries } = har.log;
    expect(entries).toHaveLength(4);
    for (const e of entries) {
      expect(e.request.httpVersion).toBe('h2');
      expect(e.response.httpVersion).toBe('h2');
      expect(e.connection).toBe('c1');
      const t = e.timings;
      const sum = [t.blocked, t.connect, t.send, t.wait, t.receive].filter((x) => x > 0).reduce((a, b) => a + b, 0);
      expect(e.time).toBeCloseTo(sum, 2);
    }
    // The first opened the connection and paid for TCP + TLS; the two started with it waited for those
    // handshakes as blocked time (Chrome DevTools: stalled, no connection phases); the last found it ready.
    expect(entries[0]!.timings.connect).toBeGreaterThan(0);
    expect(entries[0]!.timings.ssl).toBeGreaterThan(0);
    for (const e of entries.slice(1, 3)) {
      expect([e.timings.connect, e.timings.ssl]).toEqual([-1, -1]);
      expect(e.timings.blocked).toBeCloseTo(entries[0]!.timings.connect, 3);
    }
    expect(entries[3]!.timings.connect).toBe(-1);
    expect(entries[0]!.request.headers).toEqual(expect.arrayContaining([{ name: ':authority', value: 'api.example' }]));
  });

  it('a failed request appears with httpVersion h2', async () => {
    const s = sim();
    s.server.faults.failNext(1, { drop: 'reset' });
    await s.fetch('/items/1').catch(() => undefined);
    const har = s.har();
    await expect(validateHar(JSON.parse(JSON.stringify(har)))).resolves.toBeTruthy();
    expect(har.log.entries[0]!.request.httpVersion).toBe('h2');
    expect(har.log.entries[0]!.response._error).toMatch(/network-error/);
  });
});
