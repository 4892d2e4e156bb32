/**
 * `limitRunningHandlers`, Go's answer to rapid reset (CVE-2023-39325): handlers count against
 * SETTINGS_MAX_CONCURRENT_STREAMS until they finish, reset stream or not; requests over the limit wait, one
 * reset while it waits never starts, and a queue over four times the limit ends the connection.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FLAGS } from '../../http2/constants';
import { connectRawHttp2 } from './raw-client';
import { createSimulation } from '../simulation';
import { createServer, type ServerOptions } from '../../server/server';
import { http } from '../../server/router';

const SETTLE = 300; // TCP handshake, then the prefaces and SETTINGS cross (default 100 ms round trips)
const WORK = 500; // each handler's work: the route's latency

function setup(options: ServerOptions) {
  const starts: number[] = [];
  let sim: ReturnType<typeof createSimulation>;
  const server = createServer({
    routes: [http.get('/', () => (starts.push(sim.clock.now()), new Response('hi')), { latency: WORK })],
    http2Limits: { maxConcurrentStreams: 4, resetBurst: Number.POSITIVE_INFINITY },
    ...options,
  });
  sim = createSimulation({ server, httpVersion: '2' });
  const client = connectRawHttp2(sim);
  /** The most handlers running at one time: each runs from its start for WORK ms. */
  const peak = () => Math.max(0, ...starts.map((t) => starts.filter((u) => u <= t && t < u + WORK).length));
  return { sim, client, starts, peak };
}

/** HEADERS then RST_STREAM(CANCEL) for `count` streams from `first`, in one write. */
function openAndReset(client: ReturnType<typeof connectRawHttp2>, first: number, count: number) {
  for (let i = 0; i < count; i++) {
    const streamId = first + 2 * i;
    client.send(
      { type: 'HEADERS', streamId, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: client.fieldBlock(client.requestFields('/')) },
      { type: 'RST_STREAM', streamId, flags: 0, errorCode: ERROR_CODES.CANCEL },
    );
  }
}

describe('limitRunningHandlers', () => {
  it('without it, a client that resets every stream has a handler running for each, whatever the stream limit', async () => {
    const { sim, client, starts, peak } = setup({ handleResetStreams: true });
    await sim.advance(SETTLE);
    openAndReset(client, 1, 12);
    await sim.advance(2000);
    expect(starts).toHaveLength(12);
    expect(peak()).toBe(12);
    expect(client.goaway).toBeUndefined();
    // The trace says so: each handler's reply is recorded as dropped, and none reaches the wire.
    const handled = sim.trace.ofType('server-handled');
    expect(handled.map((e) => [e.status, e.discarded])).toEqual(Array.from({ length: 12 }, () => [200, true]));
    expect(sim.trace.ofType('h2-frame').filter((f) => f.side === 'server' && f.direction === 'sent' && f.frameType === 'HEADERS')).toEqual([]);
  });

  it('holds running handlers to the stream limit, reset streams included, and never starts one reset while it waited', async () => {
    const { sim, client, starts, peak } = setup({ handleResetStreams: true, limitRunningHandlers: true });
    await sim.advance(SETTLE);
    openAndReset(client, 1, 12);
    await sim.advance(2000);
    expect(starts).toHaveLength(4);
    expect(peak()).toBe(4);
    expect(client.goaway).toBeUndefined();
  });

  it('queues requests while reset streams hold every slot, and answers a live one when a slot frees', async () => {
    const { sim, client, starts } = setup({ handleResetStreams: true, limitRunningHandlers: true });
    await sim.advance(SETTLE);
    openAndReset(client, 1, 4); // four handlers run for streams nobody waits for
    client.request(9, '/'); // a real request: it waits for a slot
    await sim.advance(SETTLE + WORK / 2);
    expect(starts).toHaveLength(4);
    expect(client.received.some((f) => f.type === 'HEADERS' && f.streamId === 9)).toBe(false);
    await sim.advance(2 * WORK);
    expect(starts).toHaveLength(5);
    expect(Math.round(starts[4]! - starts[0]!)).toBe(WORK); // it starts when the first handler finishes
    expect(client.received.some((f) => f.type === 'HEADERS' && f.streamId === 9)).toBe(true);
  });

  it('ends the connection with GOAWAY ENHANCE_YOUR_CALM once more than 4 x the limit wait', async () => {
    const { sim, client, starts } = setup({ handleResetStreams: true, limitRunningHandlers: true });
    await sim.advance(SETTLE);
    openAndReset(client, 1, 4 + 16); // 4 running, 16 waiting: at the bound, not over it
    await sim.advance(100);
    expect(client.goaway).toBeUndefined();
    openAndReset(client, 41, 2); // the 17th waits, the 18th finds 17 (> 16) waiting
    await sim.advance(1000);
    expect(client.goawayError).toBe('ENHANCE_YOUR_CALM');
    expect(new TextDecoder().decode(client.goaway!.debugData)).toMatch(/More than 16 requests waiting for one of 4 handlers/);
    expect(client.goaway!.lastStreamId).toBe(43);
    expect(starts).toHaveLength(4);
    expect(sim.server.http2Connections()).toEqual([]);
  });
});
