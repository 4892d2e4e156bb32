/**
 * Engine findings from running the adapters against real peers, pinned at the engine level (no sockets),
 * so they are exact. A test marked `it.fails` documents a bug in src/wire/http2 that this folder works
 * around: it passes while the bug exists and starts failing, as a reminder to drop the workaround and
 * the mark, once the engine is fixed.
 */
import { describe, expect, it } from 'vitest';
import type { HeaderField } from '../hpack/index';
import { encodeFrame, FLAGS, Http2Connection, type Http2Settings } from '../http2/index';

/** A client and a server engine, prefaces and SETTINGS exchanged and acknowledged. */
const pair = (clientSettings: Partial<Http2Settings> = {}) => {
  const client = new Http2Connection({ role: 'client', settings: clientSettings });
  const server = new Http2Connection({ role: 'server' });
  const toServer = server.receiveData(client.initiate().bytes);
  const toClient = client.receiveData(server.initiate().bytes);
  client.receiveData(toServer.bytes);
  server.receiveData(toClient.bytes);
  return { client, server };
};

const request = (path: string): HeaderField[] => [
  { name: ':method', value: 'GET' },
  { name: ':scheme', value: 'http' },
  { name: ':path', value: path },
  { name: ':authority', value: '127.0.0.1' },
];
const OK: HeaderField[] = [{ name: ':status', value: '200' }];

describe('pushed streams and SETTINGS_MAX_CONCURRENT_STREAMS (RFC 9113 §5.1.2)', () => {
  // Reserved streams do not count toward the limit, but a pushed stream's HEADERS move it to
  // half-closed, and half-closed streams do count. So with the client's limit at 1, the server may
  // promise two pushes but must not start the second response while the first is still open.

  // RFC 9113 §5.1.2: HEADERS on a reserved (pushed) stream count against the peer's limit.
  it("the server engine refuses to open a pushed stream beyond the client's limit", () => {
    const { client, server } = pair({ MAX_CONCURRENT_STREAMS: 1 });
    server.receiveData(client.request(request('/'), { endStream: true }).bytes);
    expect(server.remoteSettings.MAX_CONCURRENT_STREAMS).toBe(1);
    server.pushPromise(1, request('/a.css'));
    server.pushPromise(1, request('/b.css'));
    server.sendHeaders(2, OK); // stream 2 is now half-closed (remote): 1 of 1
    expect(() => server.sendHeaders(4, OK)).toThrow(/concurrent streams/);
  });

  // RFC 9113 §5.1.2: a pushed response beyond the limit the client announced is a stream error.
  it('the client engine resets a pushed response beyond its own limit', () => {
    const { client, server } = pair({ MAX_CONCURRENT_STREAMS: 1 });
    server.receiveData(client.request(request('/'), { endStream: true }).bytes);
    const promises = [server.pushPromise(1, request('/a.css')), server.pushPromise(1, request('/b.css'))];
    const bytes = [...promises, server.sendHeaders(2, OK)].map((r) => r.bytes);
    client.receiveData(new Uint8Array(bytes.flatMap((b) => [...b])));
    // The server engine now refuses to send these HEADERS, so build them by hand: `:status: 200` is static
    // table entry 8, the one-byte block 0x88 whatever the dynamic table holds (RFC 7541 §6.1).
    const overLimit = encodeFrame({ type: 'HEADERS', streamId: 4, flags: FLAGS.END_HEADERS, headerBlockFragment: new Uint8Array([0x88]) });
    const result = client.receiveData(overLimit);
    expect(result.events).toContainEqual(expect.objectContaining({ type: 'stream-error', streamId: 4 }));
    expect(result.frames).toContainEqual(expect.objectContaining({ type: 'RST_STREAM', streamId: 4 }));
  });

  it('counts nothing for reserved streams: two promises within a limit of 1 are fine', () => {
    const { client, server } = pair({ MAX_CONCURRENT_STREAMS: 1 });
    server.receiveData(client.request(request('/'), { endStream: true }).bytes);
    const promises = [server.pushPromise(1, request('/a.css')), server.pushPromise(1, request('/b.css'))];
    const result = client.receiveData(new Uint8Array(promises.flatMap((p) => [...p.bytes])));
    expect(result.events.map((e) => e.type)).toEqual(['push-promise', 'push-promise']);
    expect(client.streamState(2)).toBe('reserved_remote');
    expect(client.streamState(4)).toBe('reserved_remote');
  });
});

describe('event order when a stream is reset', () => {
  // Not a bug, but a trap for adapters: the engine reports `stream-closed` before the `stream-reset`
  // (or `stream-error`) that closed the stream, so an adapter that settles a stream on `stream-closed`
  // must look at the whole batch first (h2c-client.ts does).
  it('reports stream-closed, then stream-reset, in one batch', () => {
    const { client, server } = pair();
    const opened = client.request(request('/'), { endStream: true });
    server.receiveData(opened.bytes);
    const result = client.receiveData(server.resetStream(1, 'REFUSED_STREAM').bytes);
    expect(result.events.map((e) => e.type)).toEqual(['stream-closed', 'stream-reset']);
  });
});
