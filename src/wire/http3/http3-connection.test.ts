import { describe, expect, it } from 'vitest';
import { isWireError } from '../errors';
import { encodeHttp3Frame, HTTP3_ERROR_CODES, HTTP3_SETTINGS } from './frames';
import { Http3Connection } from './http3-connection';
import type { Http3Event } from './http3-events';
import { HTTP3_CONTROL_STREAM } from './http3-streams';
import type { QpackField } from './qpack';
import { Http3Pair } from './testing';

const text = new TextEncoder();
const GET: QpackField[] = [
  { name: ':method', value: 'GET' },
  { name: ':scheme', value: 'https' },
  { name: ':authority', value: 'h3.example' },
  { name: ':path', value: '/hello' },
];
const OK: QpackField[] = [
  { name: ':status', value: '200' },
  { name: 'content-type', value: 'text/plain' },
];

/** A server that answers every request with 200 and the request's path as the body. */
const answer = (pair: Http3Pair, side: 'client' | 'server', event: Http3Event): readonly Http3Event[] | undefined => {
  if (side !== 'server' || event.type !== 'message') return undefined;
  const path = event.fields.find((f) => f.name === ':path')?.value ?? '';
  return pair.server.respond(event.streamId, OK, text.encode(`you asked for ${path}`), pair.now);
};

/** Runs the handshake; `onReady` runs on the client once it may send. */
function connected(react = answer, onReady?: (pair: Http3Pair) => void): Http3Pair {
  const pair = new Http3Pair({
    react: (p, side, event) => {
      if (side === 'client' && event.type === 'ready') onReady?.(p);
      return react(p, side, event);
    },
  });
  pair.record('client', pair.client.start(0));
  return pair;
}

const request = (pair: Http3Pair, path = '/hello'): number => {
  const sent = pair.client.request(
    GET.map((f) => (f.name === ':path' ? { ...f, value: path } : f)),
    new Uint8Array(0),
    pair.now,
  );
  pair.record('client', sent.events);
  return sent.streamId;
};

describe('Http3Connection: two engines back to back (RFC 9114)', () => {
  it('exchanges SETTINGS on control streams, then carries a request and its response', () => {
    const pair = connected(answer, (p) => request(p));
    pair.run();
    // §6.2.1: each side's control stream starts with SETTINGS; ours announce QPACK's limits (RFC 9204 §5).
    for (const side of ['client', 'server'] as const) {
      const [settings] = pair.events(side, 'settings-received');
      expect(settings?.settings).toEqual([
        { id: HTTP3_SETTINGS.QPACK_MAX_TABLE_CAPACITY, value: 4096 },
        { id: HTTP3_SETTINGS.QPACK_BLOCKED_STREAMS, value: 100 },
      ]);
      const control = pair.events(side, 'frame-sent').filter((e) => e.streamId === HTTP3_CONTROL_STREAM[side]);
      expect(control.map((e) => e.frame.type)).toEqual(['SETTINGS']);
    }
    const [req] = pair.events('server', 'message');
    expect(req?.streamId).toBe(0);
    expect(req?.fields).toEqual(GET);
    const [res] = pair.events('client', 'message');
    expect(res?.streamId).toBe(0);
    expect(res?.fields).toEqual(OK);
    expect(new TextDecoder().decode(res?.body)).toBe('you asked for /hello');
    // The client saw the response's bytes arrive before the whole message.
    expect(pair.events('client', 'message-data').reduce((n, e) => n + e.length, 0)).toBeGreaterThan(res!.body.length);
    expect(
      pair
        .events('client', 'frame-sent')
        .filter((e) => e.streamId === 0)
        .map((e) => e.frame.type),
    ).toEqual(['HEADERS']);
    expect(
      pair
        .events('server', 'frame-sent')
        .filter((e) => e.streamId === 0)
        .map((e) => e.frame.type),
    ).toEqual(['HEADERS', 'DATA']);
  });

  it('puts each request on the next client bidirectional stream (0, 4, 8; RFC 9000 §2.1)', () => {
    const ids: number[] = [];
    const pair = connected(answer, (p) => ids.push(request(p, '/a'), request(p, '/b'), request(p, '/c')));
    pair.run();
    expect(ids).toEqual([0, 4, 8]);
    const bodies = pair.events('client', 'message').map((e) => [e.streamId, new TextDecoder().decode(e.body)]);
    expect(bodies.sort()).toEqual([
      [0, 'you asked for /a'],
      [4, 'you asked for /b'],
      [8, 'you asked for /c'],
    ]);
  });

  it('a cancelled request is reset both ways with H3_REQUEST_CANCELLED and never answered (§4.1.1)', () => {
    let stream = -1;
    const pair = connected(
      // The server holds its answer: the request is cancelled before it would have gone out.
      (_p, side, event) => (side === 'server' && event.type === 'message' ? [] : undefined),
      (p) => {
        stream = request(p);
      },
    );
    pair.run(200);
    expect(pair.events('server', 'message').map((e) => e.streamId)).toEqual([stream]);
    pair.record('client', pair.client.cancel(stream, pair.now));
    pair.run();
    const cancelled = HTTP3_ERROR_CODES.H3_REQUEST_CANCELLED;
    expect(pair.events('server', 'stop-sending').map((e) => [e.by, e.streamId, e.errorCode])).toEqual([['client', stream, cancelled]]);
    // The server's engine forgot the stream: an answer written now sends nothing.
    expect(pair.server.isWritable(stream)).toBe(false);
    expect(pair.server.respond(stream, OK, text.encode('late'), pair.now)).toEqual([]);
    expect(pair.server.dataToSend()).toEqual([]);
    expect(pair.events('client', 'message')).toEqual([]);
  });

  it('a server reset reaches the client as stream-reset with its code, and no message', () => {
    const pair = connected(
      (p, side, event) =>
        side === 'server' && event.type === 'message' ? p.server.cancel(event.streamId, p.now, HTTP3_ERROR_CODES.H3_REQUEST_REJECTED) : undefined,
      (p) => request(p),
    );
    pair.run();
    const resets = pair.events('client', 'stream-reset').filter((e) => e.by === 'server');
    expect(resets.map((e) => [e.streamId, e.errorCode])).toEqual([[0, HTTP3_ERROR_CODES.H3_REQUEST_REJECTED]]);
    expect(pair.events('client', 'message')).toEqual([]);
  });

  it('GOAWAY: the client learns the first stream the server will not process and opens none from it (§5.2)', () => {
    const pair = connected(answer, (p) => {
      request(p, '/a');
      request(p, '/b');
    });
    pair.run();
    pair.record('server', pair.server.goAway(4, pair.now));
    pair.run();
    expect(pair.events('client', 'goaway').map((e) => e.id)).toEqual([4]);
    expect(pair.client.goawayId).toBe(4);
    // Stream 8 is at or above the GOAWAY's id: a local error, nothing sent.
    let error: unknown;
    try {
      pair.client.request(GET, new Uint8Array(0), pair.now);
    } catch (e) {
      error = e;
    }
    expect(isWireError(error) && error.code).toBe('http3-goaway');
    expect(pair.client.dataToSend()).toEqual([]);
    expect(
      pair
        .events('server', 'frame-sent')
        .filter((e) => e.frame.type === 'GOAWAY')
        .map((e) => e.streamId),
    ).toEqual([HTTP3_CONTROL_STREAM.server]);
  });

  it('a malformed request is a stream error carrying its H3 code; the connection carries on (§4.1.2)', () => {
    const pair = connected(answer, (p) => {
      request(p, '/fine');
      // A request stream must open with HEADERS; stream 4 opens with DATA.
      p.record('client', p.client.writeRaw(4, encodeHttp3Frame({ type: 'DATA', payload: text.encode('x') }), true, p.now));
    });
    pair.run();
    const errors = pair.events('server', 'stream-error');
    expect(errors.map((e) => [e.streamId, e.error.code])).toEqual([[4, 'H3_FRAME_UNEXPECTED']]);
    expect(pair.events('client', 'message').map((e) => e.streamId)).toEqual([0]);
    expect(pair.client.state).not.toBe('closed');
  });

  it.each([
    ['DATA on the control stream', encodeHttp3Frame({ type: 'DATA', payload: text.encode('x') }), 'H3_FRAME_UNEXPECTED'],
    ['a second SETTINGS', encodeHttp3Frame({ type: 'SETTINGS', settings: [] }), 'H3_FRAME_UNEXPECTED'],
    ['an HTTP/2 PING frame (type 0x06, reserved)', Uint8Array.of(0x06, 0x00), 'H3_FRAME_UNEXPECTED'],
    ['a GOAWAY whose payload is not one varint', Uint8Array.of(0x07, 0x02, 0x04, 0x04), 'H3_FRAME_ERROR'],
  ] as const)('%s on the control stream closes the connection with %s', (_what, bytes, code) => {
    const pair = connected(answer, (p) => p.record('client', p.client.writeRaw(HTTP3_CONTROL_STREAM.client, bytes, false, p.now)));
    pair.run();
    const [error] = pair.events('server', 'connection-error');
    expect(error?.error.code).toBe(code);
    expect(pair.events('client', 'closed').map((e) => [e.by, e.errorCode])).toEqual([['server', HTTP3_ERROR_CODES[code]]]);
    expect(pair.server.state).toBe('closed');
  });

  it('a control stream that does not start with SETTINGS is H3_MISSING_SETTINGS (§6.2.1)', () => {
    // A client whose control stream (stream 2) opens with GOAWAY: written by hand before start().
    const pair = new Http3Pair();
    const rogue = pair.client;
    pair.record('client', rogue.writeRaw(HTTP3_CONTROL_STREAM.client, Uint8Array.of(0x00, ...encodeHttp3Frame({ type: 'GOAWAY', id: 0 })), false, 0));
    // start() writes the engine's own SETTINGS after those bytes, too late to be first.
    pair.record('client', rogue.start(0));
    pair.run();
    expect(pair.events('server', 'connection-error').map((e) => e.error.code)).toEqual(['H3_MISSING_SETTINGS']);
    expect(pair.events('client', 'closed').map((e) => e.errorCode)).toEqual([HTTP3_ERROR_CODES.H3_MISSING_SETTINGS]);
  });

  it('only a client sends requests and starts; a closed connection refuses them', () => {
    const server = new Http3Connection({ role: 'server' });
    expect(() => server.start(0)).toThrow(/client/);
    expect(() => server.request(GET, new Uint8Array(0), 0)).toThrow(/client/);
    const client = new Http3Connection({ role: 'client' });
    client.start(0);
    client.close(HTTP3_ERROR_CODES.H3_NO_ERROR, 'done', 1);
    expect(() => client.request(GET, new Uint8Array(0), 2)).toThrow(/closed/);
  });
});
