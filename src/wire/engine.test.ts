// One behaviour per engine, driven only through the common verbs of engine.ts (receive, dataToSend,
// nextTimeout, timeout) plus each engine's own way of starting a request.
import { describe, expect, it } from 'vitest';
import type { WireEngine } from './engine';
import { Http1Connection } from './http1/connection';
import { endOfMessageEvent, requestEvent, responseEvent } from './http1/events';
import { Http2Connection } from './http2/connection';
import { Http3Connection } from './http3/http3-connection';
import type { Http3Event } from './http3/http3-events';
import type { QuicDatagram } from './http3/packets';

const text = new TextEncoder();

/** Moves what each side has in dataToSend to the other until both are quiet; returns each side's events. */
function exchange<E>(a: WireEngine<E>, b: WireEngine<E>, now: number): { a: E[]; b: E[] } {
  const seen = { a: [] as E[], b: [] as E[] };
  for (let round = 0; round < 20; round++) {
    const toB = a.dataToSend();
    const toA = b.dataToSend();
    if (toA.length === 0 && toB.length === 0) return seen;
    for (const bytes of toB) seen.b.push(...b.receive(bytes, now));
    for (const bytes of toA) seen.a.push(...a.receive(bytes, now));
  }
  throw new Error('exchange: the engines kept talking for 20 rounds');
}

describe('every engine offers the common verbs (engine.ts)', () => {
  it('HTTP/1: bytes in give events; nothing is sent on its own; time closes an idle connection and fails a slow head', () => {
    const client = new Http1Connection({ role: 'client' });
    const server = new Http1Connection({ role: 'server', idleTimeoutMs: 5_000, headerTimeoutMs: 10_000 });
    const head = client.send(requestEvent({ method: 'GET', target: '/', headers: [{ name: 'Host', value: 'a.example' }] }));
    const events = server.receive(head, 0);
    expect(events.map((e) => e.type)).toEqual(['request', 'end-of-message']);
    expect(server.dataToSend()).toEqual([]);
    // While the request is being answered, nothing is timed.
    expect(server.nextTimeout(0)).toBeUndefined();
    const answer = server.send(responseEvent({ status: 204 }));
    server.send(endOfMessageEvent());
    expect(client.receive(answer, 10).map((e) => e.type)).toEqual(['response', 'end-of-message']);
    // Idle between requests from 20 on: the idle deadline is 5 s later, and reaching it says so.
    expect(server.nextTimeout(20)).toBe(5_020);
    expect(server.timeout(5_019)).toEqual([]);
    expect(server.timeout(5_020)).toEqual([{ type: 'idle-timeout' }]);

    // A head that starts at 100 and never ends is a request-timeout (408) at 100 + 10 s.
    const slow = new Http1Connection({ role: 'server', headerTimeoutMs: 10_000 });
    expect(slow.receive(text.encode('GET / HTTP/1.1\r\nHo'), 100)).toEqual([]);
    expect(slow.nextTimeout(200)).toBe(10_100);
    const [failed] = slow.timeout(10_100);
    expect(failed?.type === 'error' && failed.error.code).toBe('request-timeout');
    // An empty chunk is the peer's EOF (h11's convention).
    const eof = new Http1Connection({ role: 'server' });
    expect(eof.receive(new Uint8Array(0), 0).map((e) => e.type)).toEqual(['connection-closed']);
  });

  it('HTTP/2: the replies receive produces (SETTINGS acknowledgements) wait in dataToSend; nothing is timed', () => {
    const client = new Http2Connection({ role: 'client' });
    const server = new Http2Connection({ role: 'server' });
    server.receive(client.initiate().bytes, 0);
    client.receive(server.initiate().bytes, 0);
    const settled = exchange(client, server, 0);
    expect(settled.a.map((e) => e.type)).toContain('settings-acknowledged');
    expect(settled.b.map((e) => e.type)).toContain('settings-acknowledged');
    const sent = client.request(
      [
        { name: ':method', value: 'GET' },
        { name: ':scheme', value: 'https' },
        { name: ':authority', value: 'a.example' },
        { name: ':path', value: '/' },
      ],
      { endStream: true },
    );
    const [headers] = server.receive(sent.bytes, 1).filter((e) => e.type === 'headers');
    expect(headers?.type === 'headers' && headers.headers.find((h) => h.name === ':path')?.value).toBe('/');
    expect(server.nextTimeout(1)).toBeUndefined();
    expect(server.timeout(1_000_000)).toEqual([]);
  });

  it('HTTP/3: datagrams in and out, and the QUIC timer through nextTimeout/timeout', () => {
    const client = new Http3Connection({ role: 'client' });
    const server = new Http3Connection({ role: 'server' });
    client.start(0);
    let now = 0;
    const events: { client: Http3Event[]; server: Http3Event[] } = { client: [], server: [] };
    let streamId = -1;
    // Half a round trip of 10 ms per hop; each side's datagrams arrive together.
    for (let hop = 0; hop < 40; hop++) {
      const toServer: readonly QuicDatagram[] = client.dataToSend();
      const toClient: readonly QuicDatagram[] = server.dataToSend();
      if (toServer.length === 0 && toClient.length === 0) break;
      now += 10;
      for (const d of toServer) events.server.push(...server.receive(d, now));
      for (const d of toClient) events.client.push(...client.receive(d, now));
      if (streamId < 0 && events.client.some((e) => e.type === 'ready')) {
        streamId = client.request(
          [
            { name: ':method', value: 'GET' },
            { name: ':scheme', value: 'https' },
            { name: ':authority', value: 'a.example' },
            { name: ':path', value: '/' },
          ],
          new Uint8Array(0),
          now,
        ).streamId;
      }
      for (const e of events.server.splice(0))
        if (e.type === 'message') server.respond(e.streamId, [{ name: ':status', value: '200' }], text.encode('hi'), now);
    }
    const response = events.client.find((e) => e.type === 'message');
    expect(response?.type === 'message' && response.fields).toEqual([{ name: ':status', value: '200' }]);
    // The last packets sent are acknowledged: loss detection has nothing left to time, and a stale timeout is harmless.
    expect(client.nextTimeout(now)).toBeUndefined();
    expect(client.timeout(now).filter((e) => e.type === 'packet-sent')).toEqual([]);
  });
});
