/**
 * Http2Connection tested as a client/server pair over a fake link (CONTRIBUTING.md, 'Tests'): every exchange is
 * run with whole writes and byte by byte, and must produce the same events. Misbehaving peers are
 * simulated by writing raw frames into one side.
 */
import { describe, expect, it } from 'vitest';
import { HpackEncoder } from '../hpack/index';
import { CLIENT_PREFACE, ERROR_CODES, FLAGS } from './constants';
import { Http2Connection, type Http2ConnectionOptions } from './connection';
import type { Http2Event } from './events';
import { decodeFrames, encodeFrame, encodeFrames } from './frame-codec';
import type { Frame } from './frames';

type Mode = 'whole' | 'bytewise';

const REQUEST = [
  { name: ':method', value: 'GET' },
  { name: ':scheme', value: 'https' },
  { name: ':path', value: '/index.html' },
  { name: ':authority', value: 'example.com' },
];
const POST = [...REQUEST.slice(0, 1).map(() => ({ name: ':method', value: 'POST' })), ...REQUEST.slice(1)];
const OK = [
  { name: ':status', value: '200' },
  { name: 'content-type', value: 'text/plain' },
];

class Pair {
  readonly client: Http2Connection;
  readonly server: Http2Connection;
  readonly clientEvents: Http2Event[] = [];
  readonly serverEvents: Http2Event[] = [];
  private toServer: Uint8Array[] = [];
  private toClient: Uint8Array[] = [];

  constructor(
    readonly mode: Mode,
    client: Partial<Http2ConnectionOptions> = {},
    server: Partial<Http2ConnectionOptions> = {},
  ) {
    this.client = new Http2Connection({ role: 'client', ...client });
    this.server = new Http2Connection({ role: 'server', ...server });
  }

  handshake(): this {
    this.sendFromClient(this.client.initiate().bytes);
    this.sendFromServer(this.server.initiate().bytes);
    return this.flush();
  }

  sendFromClient(bytes: Uint8Array): this {
    this.toServer.push(bytes);
    return this;
  }
  sendFromServer(bytes: Uint8Array): this {
    this.toClient.push(bytes);
    return this;
  }

  /** Delivers everything in flight, and the replies, until both directions are quiet. */
  flush(): this {
    while (this.toServer.length || this.toClient.length) {
      const s = this.toServer.splice(0);
      const c = this.toClient.splice(0);
      for (const chunk of s) this.deliver(chunk, this.server, this.serverEvents, this.toClient);
      for (const chunk of c) this.deliver(chunk, this.client, this.clientEvents, this.toServer);
    }
    return this;
  }

  private deliver(chunk: Uint8Array, to: Http2Connection, log: Http2Event[], replies: Uint8Array[]): void {
    const pieces = this.mode === 'whole' ? [chunk] : Array.from(chunk, (b) => Uint8Array.of(b));
    for (const piece of pieces) {
      const r = to.receiveData(piece);
      log.push(...r.events);
      if (r.bytes.length) replies.push(r.bytes);
    }
  }
}

const types = (events: Http2Event[]) => events.map((e) => e.type);
const find = <T extends Http2Event['type']>(events: Http2Event[], type: T) => events.filter((e): e is Extract<Http2Event, { type: T }> => e.type === type);
const bytes = (s: string) => new TextEncoder().encode(s);

/** Server side fed by hand: preface + SETTINGS done, ready for raw frames. */
function serverWithRawClient(options: Partial<Http2ConnectionOptions> = {}) {
  const server = new Http2Connection({ role: 'server', ...options });
  server.initiate();
  const first = server.receiveData(new Uint8Array([...CLIENT_PREFACE, ...encodeFrame({ type: 'SETTINGS', streamId: 0, flags: 0, settings: [] })]));
  expect(types([...first.events])).toEqual(['settings-received']);
  const hpack = new HpackEncoder();
  const feed = (...frames: Frame[]) => server.receiveData(encodeFrames(frames));
  const headers = (streamId: number, fields = REQUEST, flags = FLAGS.END_HEADERS | FLAGS.END_STREAM): Frame => ({
    type: 'HEADERS',
    streamId,
    flags,
    headerBlockFragment: hpack.encode(fields),
  });
  return { server, feed, headers, hpack };
}

/** Client side fed by hand: its preface sent and the server's SETTINGS received. */
function clientWithRawServer(options: Partial<Http2ConnectionOptions> = {}) {
  const client = new Http2Connection({ role: 'client', ...options });
  client.initiate();
  client.receiveData(encodeFrame({ type: 'SETTINGS', streamId: 0, flags: 0, settings: [] }));
  client.receiveData(encodeFrame({ type: 'SETTINGS', streamId: 0, flags: FLAGS.ACK, settings: [] }));
  const hpack = new HpackEncoder();
  const feed = (...frames: Frame[]) => client.receiveData(encodeFrames(frames));
  return { client, feed, hpack };
}

const lastGoaway = (r: { bytes: Uint8Array }) => {
  const frames = decodeFrames(r.bytes).frames;
  return frames.find((f) => f.type === 'GOAWAY');
};

describe.each<Mode>(['whole', 'bytewise'])('client/server pair (%s)', (mode) => {
  it('exchanges prefaces and SETTINGS, each side acknowledging the other', () => {
    const p = new Pair(mode, { settings: { INITIAL_WINDOW_SIZE: 100_000, ENABLE_PUSH: 0 } }, { settings: { MAX_CONCURRENT_STREAMS: 10 } }).handshake();
    expect(types(p.serverEvents)).toEqual(['settings-received', 'settings-acknowledged']);
    expect(types(p.clientEvents)).toEqual(['settings-received', 'settings-acknowledged']);
    expect(p.server.remoteSettings.INITIAL_WINDOW_SIZE).toBe(100_000);
    expect(p.client.localSettings.ENABLE_PUSH).toBe(0);
    expect(p.client.remoteSettings.MAX_CONCURRENT_STREAMS).toBe(10);
  });

  it('carries a request and a response with a body, and closes the stream on both sides', () => {
    const p = new Pair(mode).handshake();
    const { streamId, bytes: req } = p.client.request(REQUEST, { endStream: true });
    expect(streamId).toBe(1);
    p.sendFromClient(req).flush();
    const [reqEvent] = find(p.serverEvents, 'headers');
    expect(reqEvent).toMatchObject({ streamId: 1, kind: 'request', endStream: true, headers: REQUEST });
    expect(p.server.streamState(1)).toBe('half_closed_remote');
    p.sendFromServer(p.server.sendHeaders(1, OK).bytes)
      .sendFromServer(p.server.sendData(1, bytes('hello'), { endStream: true }).bytes)
      .flush();
    expect(find(p.clientEvents, 'headers')[0]).toMatchObject({ kind: 'response', headers: OK, endStream: false });
    const data = find(p.clientEvents, 'data');
    expect(new TextDecoder().decode(new Uint8Array(data.flatMap((d) => [...d.data])))).toBe('hello');
    expect(data.at(-1)!.endStream).toBe(true);
    expect(p.client.streamState(1)).toBe('closed');
    expect(p.server.streamState(1)).toBe('closed');
    expect(find(p.clientEvents, 'stream-closed')).toEqual([{ type: 'stream-closed', streamId: 1 }]);
    expect(Object.isFrozen(reqEvent)).toBe(true);
  });

  it('lets a HEAD response announce a content-length without content', () => {
    const p = new Pair(mode).handshake();
    p.sendFromClient(p.client.request([{ name: ':method', value: 'HEAD' }, ...REQUEST.slice(1)], { endStream: true }).bytes).flush();
    p.sendFromServer(p.server.sendHeaders(1, [...OK, { name: 'content-length', value: '1234' }], { endStream: true }).bytes).flush();
    expect(find(p.clientEvents, 'stream-error')).toEqual([]);
    expect(find(p.clientEvents, 'headers')[0]).toMatchObject({ kind: 'response', endStream: true });
  });

  it.each([0, 256, 8192])('keeps HPACK in step when the client sets HEADER_TABLE_SIZE = %i', (size) => {
    const p = new Pair(mode, { settings: { HEADER_TABLE_SIZE: size } }, { settings: { HEADER_TABLE_SIZE: size } }).handshake();
    for (let i = 0; i < 3; i++) {
      const r = p.client.request([...REQUEST, { name: 'x-n', value: String(i) }], { endStream: true });
      p.sendFromClient(r.bytes).flush();
      p.sendFromServer(p.server.sendHeaders(r.streamId, [...OK, { name: 'x-n', value: String(i) }], { endStream: true }).bytes).flush();
    }
    expect(find(p.clientEvents, 'headers')).toHaveLength(3);
    expect(find(p.serverEvents, 'headers')).toHaveLength(3);
    expect([p.client.error, p.server.error]).toEqual([null, null]);
  });

  it('uses odd, increasing stream ids for client requests', () => {
    const p = new Pair(mode).handshake();
    const ids = [0, 1, 2].map(() => {
      const r = p.client.request(REQUEST, { endStream: true });
      p.sendFromClient(r.bytes);
      return r.streamId;
    });
    p.flush();
    expect(ids).toEqual([1, 3, 5]);
    expect(find(p.serverEvents, 'headers').map((e) => e.streamId)).toEqual([1, 3, 5]);
  });

  it('sends trailers and informational responses', () => {
    const p = new Pair(mode).handshake();
    const r = p.client.request(POST);
    p.sendFromClient(r.bytes).sendFromClient(p.client.sendData(1, bytes('body')).bytes);
    p.sendFromClient(p.client.sendHeaders(1, [{ name: 'x-checksum', value: 'abc' }], { endStream: true }).bytes).flush();
    expect(find(p.serverEvents, 'headers').map((e) => e.kind)).toEqual(['request', 'trailers']);
    p.sendFromServer(
      p.server.sendHeaders(1, [
        { name: ':status', value: '103' },
        { name: 'link', value: '</a.css>; rel=preload' },
      ]).bytes,
    );
    p.sendFromServer(p.server.sendHeaders(1, OK).bytes);
    p.sendFromServer(p.server.sendHeaders(1, [{ name: 'grpc-status', value: '0' }], { endStream: true }).bytes).flush();
    expect(find(p.clientEvents, 'headers').map((e) => e.kind)).toEqual(['informational', 'response', 'trailers']);
  });

  it('splits large field blocks into HEADERS + CONTINUATION and reassembles them', () => {
    const p = new Pair(mode).handshake();
    const big = Array.from({ length: 50_000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join('');
    const fields = [...REQUEST, { name: 'x-big', value: big }];
    const r = p.client.request(fields, { endStream: true });
    const kinds = r.frames.map((f) => f.type);
    expect(kinds[0]).toBe('HEADERS');
    expect(kinds.slice(1).every((k) => k === 'CONTINUATION')).toBe(true);
    expect(kinds.length).toBeGreaterThanOrEqual(3);
    expect(r.frames.map((f) => f.flags & FLAGS.END_HEADERS)).toEqual([...kinds.slice(1).map(() => 0), FLAGS.END_HEADERS]);
    p.sendFromClient(r.bytes).flush();
    expect(find(p.serverEvents, 'headers')[0]!.headers).toEqual(fields);
  });

  it('flow-controls DATA and refills windows with WINDOW_UPDATE', () => {
    const p = new Pair(mode).handshake();
    p.sendFromClient(p.client.request(POST).bytes).flush();
    const body = new Uint8Array(100_000).fill(7);
    expect(p.client.sendWindow(1)).toBe(65_535);
    expect(() => p.client.sendData(1, body)).toThrow(expect.objectContaining({ code: 'FLOW_CONTROL_ERROR', side: 'local' }));
    p.sendFromClient(p.client.sendData(1, body.subarray(0, 65_535)).bytes).flush();
    const updates = find(p.clientEvents, 'window-update');
    expect(new Set(updates.map((u) => u.streamId))).toEqual(new Set([0, 1]));
    // Send the rest as the windows allow, the way an application would.
    let sent = 65_535;
    while (sent < body.length) {
      const n = Math.min(p.client.sendWindow(1), body.length - sent);
      expect(n).toBeGreaterThan(0);
      p.sendFromClient(p.client.sendData(1, body.subarray(sent, sent + n), { endStream: sent + n === body.length }).bytes).flush();
      sent += n;
    }
    const received = find(p.serverEvents, 'data').reduce((n, d) => n + d.data.length, 0);
    expect(received).toBe(100_000);
  });

  it('answers PING with an ACK', () => {
    const p = new Pair(mode).handshake();
    p.sendFromClient(p.client.ping(bytes('12345678')).bytes).flush();
    expect(find(p.serverEvents, 'ping')[0]!.opaqueData).toEqual(bytes('12345678'));
    const direct = new Pair(mode).handshake();
    const r = direct.server.receiveData(direct.client.ping(bytes('abcdefgh')).bytes);
    expect(r.received).toEqual([{ type: 'PING', streamId: 0, flags: 0, opaqueData: bytes('abcdefgh') }]);
    expect(r.frames).toEqual([{ type: 'PING', streamId: 0, flags: FLAGS.ACK, opaqueData: bytes('abcdefgh') }]);
    expect(find(p.clientEvents, 'ping-ack')[0]!.opaqueData).toEqual(bytes('12345678'));
  });

  it('resets a stream and ignores late frames on it', () => {
    const p = new Pair(mode).handshake();
    p.sendFromClient(p.client.request(REQUEST, { endStream: true }).bytes).flush();
    const late = p.server.sendHeaders(1, OK).bytes;
    p.sendFromClient(p.client.resetStream(1, 'CANCEL').bytes).sendFromServer(late).flush();
    expect(find(p.serverEvents, 'stream-reset')[0]).toMatchObject({ streamId: 1, errorName: 'CANCEL' });
    expect(find(p.clientEvents, 'headers')).toEqual([]);
    expect(p.client.error).toBeNull();
  });

  it('shuts down with GOAWAY: the client learns which streams were not processed', () => {
    const p = new Pair(mode).handshake();
    p.sendFromClient(p.client.request(REQUEST, { endStream: true }).bytes).flush();
    const unseen = p.client.request(REQUEST, { endStream: true });
    p.sendFromServer(p.server.goAway('NO_ERROR', 'maintenance').bytes).flush();
    expect(find(p.clientEvents, 'goaway')[0]).toMatchObject({ lastStreamId: 1, errorName: 'NO_ERROR', unprocessedStreams: [3] });
    expect(unseen.streamId).toBe(3);
    expect(() => p.client.request(REQUEST)).toThrow(expect.objectContaining({ code: 'REFUSED_STREAM', side: 'local' }));
  });

  it('pushes a response the client did not ask for', () => {
    const p = new Pair(mode).handshake();
    p.sendFromClient(p.client.request(REQUEST, { endStream: true }).bytes).flush();
    const pushReq = [
      { name: ':method', value: 'GET' },
      { name: ':scheme', value: 'https' },
      { name: ':path', value: '/style.css' },
      { name: ':authority', value: 'example.com' },
    ];
    const promise = p.server.pushPromise(1, pushReq);
    expect(promise.promisedStreamId).toBe(2);
    p.sendFromServer(promise.bytes);
    p.sendFromServer(p.server.sendHeaders(1, OK, { endStream: true }).bytes);
    p.sendFromServer(p.server.sendHeaders(2, OK).bytes)
      .sendFromServer(p.server.sendData(2, bytes('a{}'), { endStream: true }).bytes)
      .flush();
    expect(find(p.clientEvents, 'push-promise')[0]).toMatchObject({ streamId: 1, promisedStreamId: 2, headers: pushReq });
    expect(find(p.clientEvents, 'headers').map((e) => [e.streamId, e.kind])).toEqual([
      [1, 'response'],
      [2, 'response'],
    ]);
    expect(p.client.streamState(2)).toBe('closed');
  });

  it('honours SETTINGS_ENABLE_PUSH = 0', () => {
    const p = new Pair(mode, { settings: { ENABLE_PUSH: 0 } }).handshake();
    p.sendFromClient(p.client.request(REQUEST, { endStream: true }).bytes).flush();
    expect(() => p.server.pushPromise(1, REQUEST)).toThrow(expect.objectContaining({ code: 'PROTOCOL_ERROR', side: 'local' }));
  });

  it('enforces MAX_CONCURRENT_STREAMS on the sender', () => {
    const p = new Pair(mode, {}, { settings: { MAX_CONCURRENT_STREAMS: 1 } }).handshake();
    p.sendFromClient(p.client.request(REQUEST).bytes).flush();
    expect(() => p.client.request(REQUEST)).toThrow(expect.objectContaining({ code: 'REFUSED_STREAM' }));
  });
});

describe('a misbehaving client', () => {
  it('refuses a stream over MAX_CONCURRENT_STREAMS with RST_STREAM (REFUSED_STREAM)', () => {
    const { server, feed, headers } = serverWithRawClient({ settings: { MAX_CONCURRENT_STREAMS: 1 } });
    feed({ type: 'SETTINGS', streamId: 0, flags: FLAGS.ACK, settings: [] });
    feed(headers(1, REQUEST, FLAGS.END_HEADERS));
    const r = feed(headers(3, REQUEST, FLAGS.END_HEADERS));
    expect(r.frames).toEqual([{ type: 'RST_STREAM', streamId: 3, flags: 0, errorCode: ERROR_CODES.REFUSED_STREAM }]);
    expect(server.error).toBeNull();
  });

  it.each([
    ['an even stream id', (h: ReturnType<typeof serverWithRawClient>) => h.feed(h.headers(2))],
    ['a decreasing stream id', (h: ReturnType<typeof serverWithRawClient>) => (h.feed(h.headers(5)), h.feed(h.headers(3)))],
    ['DATA on an idle stream', (h: ReturnType<typeof serverWithRawClient>) => h.feed({ type: 'DATA', streamId: 1, flags: 0, data: bytes('x') })],
    [
      'a frame between HEADERS and CONTINUATION',
      (h: ReturnType<typeof serverWithRawClient>) =>
        h.feed({ ...h.headers(1), flags: 0 } as Frame, { type: 'PING', streamId: 0, flags: 0, opaqueData: new Uint8Array(8) }),
    ],
    [
      'CONTINUATION out of the blue',
      (h: ReturnType<typeof serverWithRawClient>) =>
        h.feed({ type: 'CONTINUATION', streamId: 1, flags: FLAGS.END_HEADERS, headerBlockFragment: new Uint8Array(0) }),
    ],
    [
      'PUSH_PROMISE from a client',
      (h: ReturnType<typeof serverWithRawClient>) =>
        h.feed({ type: 'PUSH_PROMISE', streamId: 1, flags: FLAGS.END_HEADERS, promisedStreamId: 2, headerBlockFragment: new Uint8Array(0) }),
    ],
  ])('fails the connection with PROTOCOL_ERROR on %s', (_what, act) => {
    const h = serverWithRawClient();
    const r = act(h);
    expect(h.server.error).toMatchObject({ code: 'PROTOCOL_ERROR', scope: 'connection' });
    expect(lastGoaway(r)).toMatchObject({ type: 'GOAWAY', errorCode: ERROR_CODES.PROTOCOL_ERROR });
    expect(types([...r.events])).toContain('connection-error');
    // Terminal: nothing more happens, and sending is refused.
    expect(h.server.receiveData(encodeFrame({ type: 'PING', streamId: 0, flags: 0, opaqueData: new Uint8Array(8) })).events).toEqual([]);
    expect(() => h.server.ping()).toThrow(expect.objectContaining({ side: 'local' }));
  });

  it('rejects a wrong connection preface', () => {
    const server = new Http2Connection({ role: 'server' });
    const r = server.receiveData(bytes('GET / HTTP/1.1\r\n\r\n'));
    expect(server.error).toMatchObject({ code: 'PROTOCOL_ERROR' });
    expect(lastGoaway(r)).toBeDefined();
  });

  it('requires SETTINGS as the first frame', () => {
    const server = new Http2Connection({ role: 'server' });
    server.receiveData(new Uint8Array([...CLIENT_PREFACE, ...encodeFrame({ type: 'PING', streamId: 0, flags: 0, opaqueData: new Uint8Array(8) })]));
    expect(server.error).toMatchObject({ code: 'PROTOCOL_ERROR' });
  });

  it('fails with COMPRESSION_ERROR on a bad header block', () => {
    const { server, feed } = serverWithRawClient();
    feed({ type: 'HEADERS', streamId: 1, flags: FLAGS.END_HEADERS, headerBlockFragment: Uint8Array.of(0x80) });
    expect(server.error).toMatchObject({ code: 'COMPRESSION_ERROR', errorCode: 9 });
  });

  it('fails with FLOW_CONTROL_ERROR when DATA overruns the connection window', () => {
    const { server, feed, headers } = serverWithRawClient({ settings: { MAX_FRAME_SIZE: 100_000 } });
    feed({ type: 'SETTINGS', streamId: 0, flags: FLAGS.ACK, settings: [] });
    feed(headers(1, POST, FLAGS.END_HEADERS));
    // One 70,000-octet frame: more than the 65,535 the connection window ever granted.
    const results = [feed({ type: 'DATA', streamId: 1, flags: 0, data: new Uint8Array(70_000) })];
    expect(server.error).toMatchObject({ code: 'FLOW_CONTROL_ERROR', scope: 'connection' });
    expect(lastGoaway(results.at(-1)!)).toMatchObject({ errorCode: ERROR_CODES.FLOW_CONTROL_ERROR });
  });

  it.each([
    ['an uppercase field name', [...REQUEST, { name: 'X-Upper', value: '1' }]],
    ['a connection-specific field', [...REQUEST, { name: 'connection', value: 'keep-alive' }]],
    ['transfer-encoding', [...REQUEST, { name: 'transfer-encoding', value: 'chunked' }]],
    ['te other than trailers', [...REQUEST, { name: 'te', value: 'gzip' }]],
    ['a missing :path', REQUEST.filter((f) => f.name !== ':path')],
    ['a pseudo-header after a regular field', [...REQUEST.slice(0, 3), { name: 'accept', value: '*/*' }, REQUEST[3]!]],
    ['a response pseudo-header in a request', [...REQUEST, { name: ':status', value: '200' }]],
    ['a duplicated pseudo-header', [...REQUEST, { name: ':path', value: '/again' }]],
  ])('resets the stream (PROTOCOL_ERROR) for %s', (_what, fields) => {
    const { server, feed, headers } = serverWithRawClient();
    const r = feed(headers(1, fields));
    expect(r.frames).toEqual([{ type: 'RST_STREAM', streamId: 1, flags: 0, errorCode: ERROR_CODES.PROTOCOL_ERROR }]);
    expect(find([...r.events], 'stream-error')[0]!.error).toMatchObject({ code: 'PROTOCOL_ERROR', scope: 'stream' });
    expect(server.error).toBeNull();
    // The HPACK context survived: the next request decodes.
    const next = feed(headers(3));
    expect(find([...next.events], 'headers')).toHaveLength(1);
  });

  it.each([
    ['more DATA than content-length', '3', ['abcd'], true],
    ['less DATA than content-length at END_STREAM', '10', ['abc'], true],
    ['DATA adding up to content-length', '7', ['abc', 'defg'], false],
  ])('checks content-length: %s', (_what, length, chunks, malformed) => {
    const { feed, headers } = serverWithRawClient();
    feed(headers(1, [...POST, { name: 'content-length', value: length }], FLAGS.END_HEADERS));
    const results = chunks.map((c, i) => feed({ type: 'DATA', streamId: 1, flags: i === chunks.length - 1 ? FLAGS.END_STREAM : 0, data: bytes(c) }));
    const errors = results.flatMap((r) => find([...r.events], 'stream-error'));
    expect(errors.length).toBe(malformed ? 1 : 0);
    if (malformed) expect(errors[0]!.error.code).toBe('PROTOCOL_ERROR');
  });

  it('accepts te: trailers', () => {
    const { feed, headers } = serverWithRawClient();
    const r = feed(headers(1, [...REQUEST, { name: 'te', value: 'trailers' }]));
    expect(find([...r.events], 'headers')).toHaveLength(1);
  });

  it('ignores unknown frame types and unknown settings', () => {
    const { server } = serverWithRawClient();
    const unknown = Uint8Array.of(0, 0, 1, 0xbe, 0, 0, 0, 0, 0, 0xff);
    const r = server.receiveData(new Uint8Array([...unknown, ...encodeFrame({ type: 'SETTINGS', streamId: 0, flags: 0, settings: [{ id: 0x99, value: 1 }] })]));
    expect(server.error).toBeNull();
    expect(find([...r.events], 'settings-received')[0]!.unknown).toEqual([{ id: 0x99, value: 1 }]);
  });
});

describe('a misbehaving server', () => {
  it('fails the connection when a server pushes after ENABLE_PUSH = 0 was acknowledged', () => {
    const { client, feed, hpack } = clientWithRawServer({ settings: { ENABLE_PUSH: 0 } });
    client.request(REQUEST, { endStream: true });
    const r = feed({ type: 'PUSH_PROMISE', streamId: 1, flags: FLAGS.END_HEADERS, promisedStreamId: 2, headerBlockFragment: hpack.encode(REQUEST) });
    expect(client.error).toMatchObject({ code: 'PROTOCOL_ERROR' });
    expect(lastGoaway(r)).toBeDefined();
  });

  it('rejects SETTINGS_ENABLE_PUSH = 1 from a server', () => {
    const { client, feed } = clientWithRawServer();
    feed({ type: 'SETTINGS', streamId: 0, flags: 0, settings: [{ id: 2, value: 1 }] });
    expect(client.error).toMatchObject({ code: 'PROTOCOL_ERROR' });
  });

  it('rejects a response without :status as malformed', () => {
    const { client, feed, hpack } = clientWithRawServer();
    client.request(REQUEST, { endStream: true });
    const r = feed({ type: 'HEADERS', streamId: 1, flags: FLAGS.END_HEADERS, headerBlockFragment: hpack.encode([{ name: 'server', value: 'x' }]) });
    expect(r.frames).toEqual([{ type: 'RST_STREAM', streamId: 1, flags: 0, errorCode: ERROR_CODES.PROTOCOL_ERROR }]);
  });

  it('applies a lower SETTINGS_INITIAL_WINDOW_SIZE to open streams (windows may go negative)', () => {
    const { client, feed } = clientWithRawServer();
    client.request(POST);
    client.sendData(1, new Uint8Array(1000));
    feed({ type: 'SETTINGS', streamId: 0, flags: 0, settings: [{ id: 4, value: 500 }] });
    expect(client.sendWindow(1)).toBe(0);
    feed({ type: 'WINDOW_UPDATE', streamId: 1, flags: 0, windowSizeIncrement: 600 });
    expect(client.sendWindow(1)).toBe(100);
  });

  it('resets a stream whose window would overflow 2^31-1', () => {
    const { client, feed } = clientWithRawServer();
    client.request(POST);
    const r = feed({ type: 'WINDOW_UPDATE', streamId: 1, flags: 0, windowSizeIncrement: 2 ** 31 - 1 });
    expect(r.frames).toEqual([{ type: 'RST_STREAM', streamId: 1, flags: 0, errorCode: ERROR_CODES.FLOW_CONTROL_ERROR }]);
  });
});

describe('local misuse', () => {
  it.each([
    ['MAX_FRAME_SIZE below 16384', { role: 'client', settings: { MAX_FRAME_SIZE: 1000 } }],
    ['ENABLE_PUSH = 2', { role: 'client', settings: { ENABLE_PUSH: 2 } }],
    ['INITIAL_WINDOW_SIZE over 2^31-1', { role: 'client', settings: { INITIAL_WINDOW_SIZE: 2 ** 31 } }],
    ['ENABLE_PUSH = 1 from a server', { role: 'server', settings: { ENABLE_PUSH: 1 } }],
    ['a fractional setting', { role: 'client', settings: { HEADER_TABLE_SIZE: 1.5 } }],
    ['an unknown role', { role: 'proxy' }],
  ])('rejects options with %s, saying what was expected', (_what, options) => {
    expect(() => new Http2Connection(options as Http2ConnectionOptions)).toThrow(expect.objectContaining({ side: 'local' }));
  });

  it('requires initiate() before anything else', () => {
    expect(() => new Http2Connection({ role: 'client' }).request(REQUEST)).toThrow(expect.objectContaining({ code: 'PROTOCOL_ERROR', side: 'local' }));
  });

  it('refuses to send malformed or out-of-state frames, without touching the wire', () => {
    const p = new Pair('whole').handshake();
    expect(() => p.client.request([...REQUEST, { name: 'Upper', value: '1' }])).toThrow(expect.objectContaining({ code: 'PROTOCOL_ERROR', side: 'local' }));
    expect(() => p.client.sendData(1, bytes('x'))).toThrow(expect.objectContaining({ side: 'local' }));
    expect(() => p.server.request(REQUEST)).toThrow(expect.objectContaining({ side: 'local' }));
    p.sendFromClient(p.client.request(REQUEST, { endStream: true }).bytes).flush();
    expect(() => p.client.sendData(1, bytes('x'))).toThrow(expect.objectContaining({ code: 'STREAM_CLOSED', side: 'local' }));
    expect(() => p.server.sendHeaders(1, [{ name: ':status', value: '100' }], { endStream: true })).toThrow(expect.objectContaining({ side: 'local' }));
  });
});

describe('received payloads', () => {
  // The connection hands DATA payloads out as views of its receive buffer (receive-buffer.ts): what a
  // caller keeps must not change when more bytes arrive, in one piece or split across deliveries.
  it('stay as they were after later frames arrive, whole or split mid-frame', () => {
    const { client, feed, hpack } = clientWithRawServer();
    client.request(REQUEST, { endStream: true });
    client.request(REQUEST, { endStream: true });
    feed({ type: 'HEADERS', streamId: 1, flags: FLAGS.END_HEADERS, headerBlockFragment: hpack.encode(OK) });
    const first = feed({ type: 'DATA', streamId: 1, flags: 0, data: new Uint8Array([1, 2, 3]) });
    const kept: Uint8Array[] = [];
    for (const e of first.events) if (e.type === 'data') kept.push(e.data);
    // A second frame written whole, then a third split so its first half waits in the buffer.
    feed({ type: 'DATA', streamId: 1, flags: 0, data: new Uint8Array([7, 7, 7, 7]) });
    const third = encodeFrame({ type: 'DATA', streamId: 1, flags: FLAGS.END_STREAM, data: new Uint8Array(3000).fill(9) });
    client.receiveData(third.subarray(0, 10));
    const rest = client.receiveData(third.subarray(10));
    const last = rest.events.find((e) => e.type === 'data');
    expect(kept.map((d) => [...d])).toEqual([[1, 2, 3]]);
    expect(last?.type === 'data' && last.data.length === 3000 && last.data.every((b) => b === 9)).toBe(true);
  });
});
