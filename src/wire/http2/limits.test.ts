// The engine's flood and size defences (RFC 9113 §10.5): attack bytes in, RST_STREAM or GOAWAY out.
import { describe, expect, it } from 'vitest';
import { HpackEncoder } from '../hpack/index';
import { CLIENT_PREFACE, ERROR_CODES, FLAGS } from './constants';
import { Http2Connection, type Http2ConnectionOptions } from './connection';
import { DEFAULT_HTTP2_LIMITS } from './limits';
import { decodeFrames, encodeFrames } from './frame-codec';
import type { Frame } from './frames';

const REQUEST = [
  { name: ':method', value: 'GET' },
  { name: ':scheme', value: 'http' },
  { name: ':authority', value: 'example.test' },
  { name: ':path', value: '/' },
];

/** A server past its preface, fed frames by hand; `ackSettings` also acknowledges the server's SETTINGS. */
function server(options: Partial<Http2ConnectionOptions> = {}, ackSettings = true) {
  const conn = new Http2Connection({ role: 'server', ...options });
  const preface = conn.initiate();
  const frames: Frame[] = [{ type: 'SETTINGS', streamId: 0, flags: 0, settings: [] }];
  if (ackSettings) frames.push({ type: 'SETTINGS', streamId: 0, flags: FLAGS.ACK, settings: [] });
  conn.receiveData(new Uint8Array([...CLIENT_PREFACE, ...encodeFrames(frames)]));
  conn.outputFlushed();
  const hpack = new HpackEncoder();
  const feed = (...f: Frame[]) => conn.receiveData(encodeFrames(f));
  const headers = (streamId: number, flags = FLAGS.END_HEADERS | FLAGS.END_STREAM, fields = REQUEST): Frame => ({
    type: 'HEADERS',
    streamId,
    flags,
    headerBlockFragment: hpack.encode(fields),
  });
  return { conn, preface, feed, headers, hpack };
}

const goaway = (frames: readonly Frame[]) => frames.find((f) => f.type === 'GOAWAY') as Extract<Frame, { type: 'GOAWAY' }> | undefined;

describe('SETTINGS the server announces', () => {
  it('announces 100 concurrent streams and a 64 KiB header list by default', () => {
    const { preface } = server();
    expect(decodeFrames(preface.bytes).frames[0]).toMatchObject({
      type: 'SETTINGS',
      settings: [
        { id: 0x3, value: 100 },
        { id: 0x6, value: 65_536 },
      ],
    });
  });

  it('an explicit setting wins over the limit', () => {
    const { preface } = server({ settings: { MAX_CONCURRENT_STREAMS: 7 } });
    expect(decodeFrames(preface.bytes).frames[0]).toMatchObject({
      settings: [
        { id: 0x3, value: 7 },
        { id: 0x6, value: 65_536 },
      ],
    });
  });
});

describe('concurrent streams (half-open stream flood)', () => {
  it('refuses streams over the limit with REFUSED_STREAM, even before the client acknowledges it', () => {
    const { feed, headers } = server({ limits: { maxConcurrentStreams: 3 } }, false);
    // Requests without END_STREAM: each stays open (half-open), holding a slot.
    const r = feed(...[1, 3, 5, 7, 9].map((id) => headers(id, FLAGS.END_HEADERS)));
    expect(r.events.filter((e) => e.type === 'headers').map((e) => (e as { streamId: number }).streamId)).toEqual([1, 3, 5]);
    expect(r.frames.filter((f) => f.type === 'RST_STREAM')).toEqual([
      { type: 'RST_STREAM', streamId: 7, flags: 0, errorCode: ERROR_CODES.REFUSED_STREAM },
      { type: 'RST_STREAM', streamId: 9, flags: 0, errorCode: ERROR_CODES.REFUSED_STREAM },
    ]);
  });
});

describe('header list size (HPACK bomb)', () => {
  it('resets a stream whose small block decodes past the limit, keeping nothing of it, and carries on', () => {
    const { conn, feed, hpack } = server({ limits: { maxHeaderListSize: 16_384 } });
    // One 4000-octet field goes into the dynamic table, then is named again by a one-octet index.
    const big = { name: 'x-bomb', value: 'b'.repeat(4000) };
    const first = hpack.encode([...REQUEST, big]);
    // 0x80 | 62: an indexed field, the newest dynamic entry (the big one).
    const block = new Uint8Array([...hpack.encode(REQUEST), ...new Array(5000).fill(0x80 | 62)]);
    const r1 = feed({ type: 'HEADERS', streamId: 1, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: first });
    expect(r1.events.some((e) => e.type === 'headers')).toBe(true);
    // 5000 references to it: 5 KB on the wire, about 20 MB of header list.
    const r3 = feed({ type: 'HEADERS', streamId: 3, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: block });
    expect(r3.events.some((e) => e.type === 'headers')).toBe(false);
    expect(r3.frames).toEqual([{ type: 'RST_STREAM', streamId: 3, flags: 0, errorCode: ERROR_CODES.ENHANCE_YOUR_CALM }]);
    // HPACK stayed in step: the next request decodes.
    const r5 = feed({ type: 'HEADERS', streamId: 5, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: hpack.encode(REQUEST) });
    expect(r5.events.find((e) => e.type === 'headers')).toMatchObject({ streamId: 5 });
    expect(conn.error).toBeNull();
  });
});

describe('CONTINUATION flood', () => {
  it('answers the ninth CONTINUATION of one block with GOAWAY ENHANCE_YOUR_CALM', () => {
    const { conn, feed, headers } = server();
    const frames: Frame[] = [headers(1, FLAGS.END_STREAM)];
    for (let i = 0; i < 20; i++) frames.push({ type: 'CONTINUATION', streamId: 1, flags: 0, headerBlockFragment: new Uint8Array(0) });
    const r = feed(...frames);
    expect(r.received.filter((f) => f.type === 'CONTINUATION')).toHaveLength(DEFAULT_HTTP2_LIMITS.maxContinuations + 1);
    expect(goaway(r.frames)).toMatchObject({ errorCode: ERROR_CODES.ENHANCE_YOUR_CALM });
    expect(conn.error?.code).toBe('ENHANCE_YOUR_CALM');
  });

  it('takes a block in up to eight CONTINUATIONs', () => {
    const { feed, hpack } = server();
    const block = hpack.encode(REQUEST);
    const frames: Frame[] = [{ type: 'HEADERS', streamId: 1, flags: FLAGS.END_STREAM, headerBlockFragment: block.subarray(0, 1) }];
    for (let i = 1; i < 8; i++) frames.push({ type: 'CONTINUATION', streamId: 1, flags: 0, headerBlockFragment: block.subarray(i, i + 1) });
    frames.push({ type: 'CONTINUATION', streamId: 1, flags: FLAGS.END_HEADERS, headerBlockFragment: block.subarray(8) });
    const r = feed(...frames);
    expect(r.events.find((e) => e.type === 'headers')).toMatchObject({ streamId: 1, headers: REQUEST });
  });
});

describe('empty frames', () => {
  it('answers empty DATA past the budget with GOAWAY ENHANCE_YOUR_CALM', () => {
    const { conn, feed, headers } = server({ limits: { maxEmptyFrames: 10 } });
    feed(headers(1, FLAGS.END_HEADERS));
    const empties: Frame[] = Array.from({ length: 11 }, () => ({ type: 'DATA', streamId: 1, flags: 0, data: new Uint8Array(0) }));
    const under = feed(...empties.slice(0, 10));
    expect(goaway(under.frames)).toBeUndefined();
    const over = feed(empties[10]!);
    expect(goaway(over.frames)).toMatchObject({ errorCode: ERROR_CODES.ENHANCE_YOUR_CALM });
    expect(conn.error?.code).toBe('ENHANCE_YOUR_CALM');
  });

  it('does not count a zero-length DATA that ends the stream', () => {
    const { conn, feed, headers } = server({ limits: { maxEmptyFrames: 1 } });
    for (let id = 1; id <= 9; id += 2) feed(headers(id, FLAGS.END_HEADERS), { type: 'DATA', streamId: id, flags: FLAGS.END_STREAM, data: new Uint8Array(0) });
    expect(conn.error).toBeNull();
  });
});

describe('rapid reset (RST_STREAM budget)', () => {
  it('takes a burst, refills on the caller clock, then answers GOAWAY INTERNAL_ERROR', () => {
    let now = 0;
    const { conn, feed, headers } = server({ limits: { resetBurst: 5, resetRatePerSecond: 2 }, now: () => now });
    const openAndReset = (id: number) => feed(headers(id, FLAGS.END_HEADERS), { type: 'RST_STREAM', streamId: id, flags: 0, errorCode: ERROR_CODES.CANCEL });
    let id = 1;
    for (let i = 0; i < 5; i++, id += 2) expect(goaway(openAndReset(id).frames)).toBeUndefined();
    now += 1000; // two tokens back
    for (let i = 0; i < 2; i++, id += 2) expect(goaway(openAndReset(id).frames)).toBeUndefined();
    const r = openAndReset(id);
    expect(goaway(r.frames)).toMatchObject({ errorCode: ERROR_CODES.INTERNAL_ERROR });
    expect(conn.error?.code).toBe('INTERNAL_ERROR');
  });
});

describe('queued acknowledgements (PING and SETTINGS floods)', () => {
  const ping = (i: number): Frame => ({ type: 'PING', streamId: 0, flags: 0, opaqueData: new Uint8Array(8).fill(i & 0xff) });

  it('answers PINGs while the output is being flushed', () => {
    const { conn, feed } = server({ limits: { maxQueuedAcks: 5 } });
    for (let i = 0; i < 50; i++) {
      expect(feed(ping(i)).frames).toEqual([{ ...ping(i), flags: FLAGS.ACK }]);
      conn.outputFlushed();
    }
  });

  it('answers PINGs from a peer that reads nothing with GOAWAY ENHANCE_YOUR_CALM once the acks queue up', () => {
    const { conn, feed } = server({ limits: { maxQueuedAcks: 5 } });
    const r = feed(...Array.from({ length: 8 }, (_, i) => ping(i)));
    expect(r.frames.filter((f) => f.type === 'PING')).toHaveLength(5);
    expect(goaway(r.frames)).toMatchObject({ errorCode: ERROR_CODES.ENHANCE_YOUR_CALM });
    expect(conn.error?.code).toBe('ENHANCE_YOUR_CALM');
  });

  it('counts SETTINGS acknowledgements the same way', () => {
    const { feed } = server({ limits: { maxQueuedAcks: 3 } });
    const r = feed(...Array.from({ length: 5 }, (): Frame => ({ type: 'SETTINGS', streamId: 0, flags: 0, settings: [] })));
    expect(goaway(r.frames)).toMatchObject({ errorCode: ERROR_CODES.ENHANCE_YOUR_CALM });
  });
});
