import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../net/clock';
import { createSimulation } from '../simulation';
import { http } from '../../server/router';
import { createServer } from '../../server/server';
import { bytesOf } from '../../trace/events';
import type { NetContext } from '../../net/tcp';
import type { TraceEvent } from '../../trace/events';
import { Trace } from '../../trace/trace';
import { Http2Connection } from '../../http2/connection';
import { decodeFrames } from '../../http2/frame-codec';
import { Http2Tracer } from './trace';

function context(): NetContext {
  const clock = new VirtualClock();
  let n = 0;
  return { clock, trace: new Trace(() => clock.now()), nextId: (prefix) => `${prefix}${++n}` };
}

/** What a client puts on the wire for a few requests (preface, SETTINGS, HEADERS with a growing HPACK table). */
function clientBytes(): Uint8Array[] {
  const conn = new Http2Connection({ role: 'client' });
  const out = [conn.initiate().bytes];
  for (const path of ['/a', '/b', '/a']) {
    out.push(
      conn.request(
        [
          { name: ':method', value: 'GET' },
          { name: ':scheme', value: 'http' },
          { name: ':authority', value: 'x.test' },
          { name: ':path', value: path },
          { name: 'accept', value: 'text/plain' },
        ],
        { endStream: true },
      ).bytes,
    );
  }
  return out;
}

/** An event without what differs between the two ends (who, which way, when). */
const content = (e: TraceEvent) => {
  const { seq: _seq, at: _at, side: _side, direction: _direction, ...rest } = e as TraceEvent & { side: string; direction: string };
  return rest;
};

const deeplyFrozen = (v: unknown): boolean => v === null || typeof v !== 'object' || (Object.isFrozen(v) && Object.values(v).every(deeplyFrozen));

describe('Http2Tracer', () => {
  it('gives both ends of a connection the same frames, whatever the chunking, frozen and cloneable', () => {
    const ctx = context();
    const client = new Http2Tracer(ctx, 'c1', 'client');
    const server = new Http2Tracer(ctx, 'c1', 'server');
    const chunks = clientBytes();
    for (const bytes of chunks) client.sent(bytes);
    // The receiving end gets the same stream one byte at a time (TCP may cut it anywhere).
    for (const bytes of chunks) for (const b of bytes) server.received(Uint8Array.of(b));
    const sent = ctx.trace.events.filter((e) => 'side' in e && e.side === 'client');
    const received = ctx.trace.events.filter((e) => 'side' in e && e.side === 'server' && e.type !== 'h2-stream-transition');
    expect(sent.filter((e) => e.type !== 'h2-stream-transition').map(content)).toEqual(received.map(content));
    const headers = ctx.trace.ofType('h2-frame').filter((e) => e.frameType === 'HEADERS');
    expect(headers).toHaveLength(6);
    // The third request finds its fields in the dynamic table the first one filled.
    expect(headers[2]!.hpack!.filter((s) => s.representation === 'indexed' && s.table === 'dynamic').length).toBeGreaterThan(0);
    expect(headers[2]!.headers).toContainEqual({ name: ':path', value: '/a' });
    expect(server.lastBlockReceived).toBe(headers[5]!.length);
    for (const e of ctx.trace.events) expect(deeplyFrozen(e)).toBe(true);
    expect(structuredClone(ctx.trace.events)).toEqual(ctx.trace.events);
    // Stream transitions are each end's own: send on the client, recv on the server.
    const transitions = ctx.trace.ofType('h2-stream-transition');
    expect(transitions.filter((e) => e.side === 'client').every((e) => e.direction === 'send')).toBe(true);
    expect(transitions.filter((e) => e.side === 'server').map((e) => `${e.streamId} ${e.from}->${e.to}`)).toEqual([
      '1 idle->open',
      '1 open->half_closed_remote',
      '3 idle->open',
      '3 open->half_closed_remote',
      '5 idle->open',
      '5 open->half_closed_remote',
    ]);
  });

  it('reads a flow on its own when the other end is not traced', () => {
    const shared = context();
    const alone = context();
    const chunks = clientBytes();
    const client = new Http2Tracer(shared, 'c1', 'client');
    for (const bytes of chunks) client.sent(bytes);
    const server = new Http2Tracer(alone, 'c1', 'server');
    for (const bytes of chunks) server.received(bytes);
    const frames = (ctx: NetContext) => ctx.trace.events.filter((e) => e.type === 'h2-frame' || e.type === 'h2-preface').map(content);
    expect(frames(alone)).toEqual(frames(shared));
  });

  it("in a whole simulation, every event is deeply frozen and every frame's fields match its bytes", async () => {
    // DATA of several sizes and WINDOW_UPDATEs (a big body), RST_STREAM (an abort), GOAWAY (idle close):
    // the frame kinds whose field records and layouts the tracer shares between events.
    const server = createServer({
      routes: [
        http.get('/items/:id', (_r, { params }) => Response.json({ id: params.id })),
        http.get('/big', () => new Response('x'.repeat(100_000))),
        http.get('/slow', () => new Response('late'), { latency: 500 }),
      ],
    });
    const sim = createSimulation({ httpVersion: '2', server, rtt: 20, idleTimeout: 1000 });
    const controller = new AbortController();
    sim.clock.setTimeout(() => controller.abort(), 100);
    const slow = sim.fetch('/slow', { signal: controller.signal }).catch((e: unknown) => e);
    const done = await Promise.all([...Array.from({ length: 20 }, (_, i) => sim.fetch(`/items/${i % 7}`)), sim.fetch('/big')]);
    expect(done.map((r) => r.status)).toEqual(Array(21).fill(200));
    expect(await slow).toBeInstanceOf(Error);
    while (await sim.step());
    for (const e of sim.trace.events) expect(deeplyFrozen(e)).toBe(true);
    const h2 = sim.trace.ofType('h2-frame');
    const kinds = new Set(h2.map((e) => e.frameType));
    for (const kind of ['SETTINGS', 'HEADERS', 'DATA', 'WINDOW_UPDATE', 'RST_STREAM', 'GOAWAY']) expect(kinds).toContain(kind);
    for (const e of h2) {
      const { frames } = decodeFrames(bytesOf(e.data));
      expect(frames).toHaveLength(1);
      const frame = frames[0]!;
      expect([e.frameType, e.streamId, e.length]).toEqual([frame.type, frame.streamId, e.data.length - 9]);
      if (frame.type === 'DATA') expect(e.fields).toEqual({ dataLength: frame.data.length });
      if (frame.type === 'HEADERS') expect(e.fields).toEqual({ fragmentLength: frame.headerBlockFragment.length });
      if (frame.type === 'WINDOW_UPDATE') expect(e.fields).toEqual({ windowSizeIncrement: frame.windowSizeIncrement });
      expect(e.ranges.at(-1)!.end).toBe(e.data.length);
    }
    // Each stream's transitions on each side follow one another: from is the previous to.
    const last = new Map<string, string>();
    for (const t of sim.trace.ofType('h2-stream-transition')) {
      const key = `${t.side} ${t.streamId}`;
      expect(t.from).toBe(last.get(key) ?? 'idle');
      last.set(key, t.to);
    }
    expect(last.size).toBeGreaterThan(40);
  });
});

describe("Http2Tracer with the encoder's HPACK steps handed over", () => {
  const request = (path: string, extra: { name: string; value: string }[] = []) => [
    { name: ':method', value: 'GET' },
    { name: ':scheme', value: 'http' },
    { name: ':authority', value: 'x.test' },
    { name: ':path', value: path },
    ...extra,
  ];
  const paths = ['/a', '/b', '/a', '/c'];
  const frameContents = (ctx: NetContext) => ctx.trace.events.map(content);

  /** The same requests traced twice: the tracer decoding every block, and the tracer handed the encoder's steps. */
  function traceBoth(handOver: (tracer: Http2Tracer, block: import('../../hpack/index').EncodedBlock, i: number) => void) {
    const decoding = context();
    const handed = context();
    const plainConn = new Http2Connection({ role: 'client' });
    const annotatedConn = new Http2Connection({ role: 'client', annotateFieldBlocks: true });
    const plain = new Http2Tracer(decoding, 'c1', 'client');
    const tracer = new Http2Tracer(handed, 'c1', 'client');
    const peer = new Http2Tracer(handed, 'c1', 'server');
    plain.sent(plainConn.initiate().bytes);
    const preface = annotatedConn.initiate().bytes;
    tracer.sent(preface);
    peer.received(preface);
    const blocks: import('../../hpack/index').EncodedBlock[] = [];
    paths.forEach((path, i) => {
      const fields = request(path, [{ name: 'accept-language', value: i % 2 ? 'fr' : 'de' }]);
      plain.sent(plainConn.request(fields, { endStream: true }).bytes);
      const sent = annotatedConn.request(fields, { endStream: true });
      expect(sent.block).toBeDefined();
      blocks.push(sent.block!);
      handOver(tracer, sent.block!, i);
      tracer.sent(sent.bytes);
      peer.received(sent.bytes);
    });
    const clientSide = handed.trace.events.filter((e) => 'side' in e && e.side === 'client');
    return { decoding, handed, blocks, clientSide };
  }

  it('shows the handed-over steps, which are what decoding the bytes gives, on both ends', () => {
    const { decoding, blocks, clientSide, handed } = traceBoth((tracer, block) => tracer.encoded(block));
    expect(clientSide.map(content)).toEqual(frameContents(decoding));
    const headers = handed.trace.ofType('h2-frame').filter((e) => e.frameType === 'HEADERS');
    expect(headers).toHaveLength(2 * paths.length);
    // The events carry the encoder's own step lists (no second decode), frozen, shared by both ends.
    for (const [i, block] of blocks.entries()) {
      expect(headers[2 * i]!.hpack).toBe(block.steps);
      expect(headers[2 * i + 1]!.hpack).toBe(block.steps);
      expect(Object.isFrozen(block.steps) && block.steps.every((s) => Object.isFrozen(s))).toBe(true);
    }
    for (const e of handed.trace.events) expect(deeplyFrozen(e)).toBe(true);
    // Later blocks index entries that earlier handed-over blocks inserted: the table was kept in step.
    expect(headers[4]!.hpack!.some((s) => s.representation === 'indexed' && s.table === 'dynamic')).toBe(true);
  });

  it('decodes the bytes itself when what was handed over is not what went out, and keeps doing so', () => {
    const other = new Http2Connection({ role: 'client', annotateFieldBlocks: true });
    other.initiate();
    // The second block handed over is some other encoder's: the bytes on the wire differ.
    const { decoding, blocks, clientSide } = traceBoth((tracer, block, i) =>
      tracer.encoded(i === 1 ? other.request(request('/elsewhere', [{ name: 'x-other', value: 'yes' }]), { endStream: true }).block : block),
    );
    expect(clientSide.map(content)).toEqual(frameContents(decoding));
    const headers = clientSide.filter((e) => e.type === 'h2-frame' && e.frameType === 'HEADERS') as Extract<TraceEvent, { type: 'h2-frame' }>[];
    expect(headers[0]!.hpack).toBe(blocks[0]!.steps);
    for (const e of headers.slice(1)) expect(blocks.some((b) => b.steps === e.hpack)).toBe(false);
  });

  it("in a simulation, the per-request events share the frame events' frozen field entries", async () => {
    const server = createServer({ routes: [http.get('/items/:id', (_r, { params }) => Response.json({ id: params.id }))] });
    const sim = createSimulation({ httpVersion: '2', server, rtt: 20 });
    await Promise.all([1, 2, 3].map((i) => sim.fetch(`/items/${i}`, { headers: { 'X-Trace': `t${i}` } })));
    const headersOf = (side: string, direction: string) =>
      sim.trace.ofType('h2-frame').filter((e) => e.frameType === 'HEADERS' && e.side === side && e.direction === direction);
    const sent = sim.trace.ofType('request-sent');
    const parsed = sim.trace.ofType('message-parsed');
    const finished = sim.trace.ofType('request-finished');
    expect(sent).toHaveLength(3);
    for (const [i, frame] of headersOf('client', 'sent').entries()) {
      // One list: what the client sent, what its frame shows, what the server's frame and parse show.
      expect(frame.headers).toBe(sent[i]!.headers);
      expect(headersOf('server', 'received')[i]!.headers).toBe(frame.headers);
      expect(parsed[i]!.headers).toBe(frame.headers);
      expect(finished[i]!.request.headers).toBe(frame.headers);
      expect(frame.headers).toContainEqual({ name: 'x-trace', value: `t${i + 1}` });
    }
    for (const f of finished) {
      const frame = headersOf('client', 'received').find(
        (e) => e.streamId === Number(/stream (\d+)/.exec(sent.find((r) => r.requestId === f.requestId)!.startLine)![1]),
      )!;
      // The response's regular fields are the frame's own entries, pseudo-headers left out.
      expect(f.response.headers.every((h) => frame.headers!.includes(h))).toBe(true);
      expect(f.response.headers.map((h) => h.name)).toEqual(frame.headers!.filter((h) => !h.name.startsWith(':')).map((h) => h.name));
    }
    for (const e of sim.trace.events) expect(deeplyFrozen(e)).toBe(true);
  });

  it('does not take steps whose text would not survive decoding (a lone surrogate becomes U+FFFD)', () => {
    const conn = new Http2Connection({ role: 'client', annotateFieldBlocks: true });
    const ctx = context();
    const tracer = new Http2Tracer(ctx, 'c1', 'client');
    tracer.sent(conn.initiate().bytes);
    const sent = conn.request(request('/a', [{ name: 'x-odd', value: 'a\ud800b' }]), { endStream: true });
    tracer.encoded(sent.block);
    tracer.sent(sent.bytes);
    const frame = ctx.trace.ofType('h2-frame').find((e) => e.frameType === 'HEADERS')!;
    expect(frame.hpack).not.toBe(sent.block!.steps);
    expect(frame.headers).toContainEqual({ name: 'x-odd', value: 'a\ufffdb' });
  });
});
