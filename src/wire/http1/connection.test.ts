import { describe, expect, it } from 'vitest';
import { Http1Connection } from './connection';
import { type Http1Event, dataEvent, endOfMessageEvent, informationalEvent, requestEvent, responseEvent } from './events';
import type { ReadStep } from './reader';
import type { Http1Role } from './state';

/** A client and a server joined by a fake link; bytes can be delivered whole or one at a time. */
class Pair {
  readonly client = new Http1Connection({ role: 'client' });
  readonly server = new Http1Connection({ role: 'server' });
  constructor(private readonly bytewise = false) {}

  conn(role: Http1Role) {
    return role === 'client' ? this.client : this.server;
  }

  /** `from` sends the events; the peer receives the bytes and returns what it read. */
  send(from: Http1Role, ...events: Http1Event[]): unknown[] {
    const sender = this.conn(from);
    const receiver = this.conn(from === 'client' ? 'server' : 'client');
    const out: ReadStep[] = [];
    for (const ev of events) {
      const bytes = sender.send(ev);
      const pieces = this.bytewise ? Array.from(bytes, (b) => Uint8Array.of(b)) : [bytes];
      for (const p of pieces) {
        receiver.receiveData(p);
        out.push(...drain(receiver));
      }
      if (ev.type === 'connection-closed') {
        receiver.receiveEof();
        out.push(...drain(receiver));
      }
    }
    return merge(out);
  }
}

const drain = (c: Http1Connection): ReadStep[] => {
  const out: ReadStep[] = [];
  for (;;) {
    const ev = c.nextEvent();
    if (ev.type === 'need-data' || ev.type === 'paused') return out;
    out.push(ev);
    if (ev.type === 'connection-closed' || ev.type === 'error') return out;
  }
};

/** Data events joined, so whole and byte-at-a-time delivery compare equal. */
const merge = (steps: ReadStep[]): unknown[] => {
  const out: unknown[] = [];
  for (const s of steps) {
    const last = out[out.length - 1] as { type: string; data?: string } | undefined;
    if (s.type === 'data') {
      const text = String.fromCharCode(...s.data);
      if (last?.type === 'data') last.data += text;
      else out.push({ type: 'data', data: text });
    } else out.push(s);
  }
  return out as ReadStep[];
};

const get = (target = '/', headers: { name: string; value: string }[] = []) =>
  requestEvent({ method: 'GET', target, headers: [{ name: 'Host', value: 'a' }, ...headers] });
const ok = (body = 'ok', headers: { name: string; value: string }[] = []) =>
  responseEvent({ status: 200, reason: 'OK', headers: [{ name: 'Content-Length', value: String(body.length) }, ...headers] });
const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const eom = endOfMessageEvent();

describe.each([false, true])('Http1Connection pair (bytewise=%s)', (bytewise) => {
  it('does one exchange and goes back to IDLE on both sides (HTTP/1.1 persists)', () => {
    const p = new Pair(bytewise);
    const got = p.send('client', get('/x'), eom);
    expect(got).toEqual([get('/x'), eom]);
    expect(p.server.states).toEqual({ client: 'IDLE', server: 'SEND_RESPONSE' });
    expect(p.send('server', ok('hi'), dataEvent(bytes('hi')), eom)).toEqual([ok('hi'), { type: 'data', data: 'hi' }, eom]);
    expect(p.client.states).toEqual({ client: 'IDLE', server: 'IDLE' });
    expect(p.server.states).toEqual({ client: 'IDLE', server: 'IDLE' });
    p.send('client', get('/again'), eom);
    expect(p.server.states.server).toBe('SEND_RESPONSE');
  });

  it('closes after an HTTP/1.0 exchange unless keep-alive is echoed', () => {
    const p = new Pair(bytewise);
    p.send('client', requestEvent({ method: 'GET', target: '/', version: '1.0' }), eom);
    expect(p.client.states.client).toBe('MUST_CLOSE');
    p.send('server', responseEvent({ status: 200, version: '1.0', headers: [{ name: 'Content-Length', value: '0' }] }), eom);
    expect(p.server.states).toEqual({ client: 'MUST_CLOSE', server: 'MUST_CLOSE' });
    p.send('client', { type: 'connection-closed' });
    expect(p.server.states.client).toBe('CLOSED');

    const k = new Pair(bytewise);
    const ka = [{ name: 'Connection', value: 'keep-alive' }];
    k.send('client', requestEvent({ method: 'GET', target: '/', version: '1.0', headers: ka }), eom);
    expect(k.client.states.client).toBe('DONE'); // 1.0: persistence not confirmed yet, so no pipelining
    k.send('server', responseEvent({ status: 200, version: '1.0', headers: [...ka, { name: 'Content-Length', value: '0' }] }), eom);
    expect(k.client.states).toEqual({ client: 'IDLE', server: 'IDLE' });
  });

  it('honours Connection: close from either side', () => {
    const p = new Pair(bytewise);
    p.send('client', get('/', [{ name: 'Connection', value: 'close' }]), eom);
    expect(p.client.states.client).toBe('MUST_CLOSE');
    p.send('server', ok(), dataEvent(bytes('ok')), eom);
    expect(p.client.states).toEqual({ client: 'MUST_CLOSE', server: 'MUST_CLOSE' });

    const q = new Pair(bytewise);
    q.send('client', get(), eom);
    q.send('server', ok('', [{ name: 'Connection', value: 'close' }]), eom);
    expect(q.client.states).toEqual({ client: 'MUST_CLOSE', server: 'MUST_CLOSE' });
  });

  it('pipelines idempotent requests and answers them in order', () => {
    const p = new Pair(bytewise);
    const got = p.send('client', get('/1'), eom, get('/2'), eom, get('/3'), eom);
    expect(got.filter((e) => (e as Http1Event).type === 'request').map((e) => (e as { target: string }).target)).toEqual(['/1', '/2', '/3']);
    expect(p.client.pendingRequests).toBe(3);
    expect(p.server.pendingRequests).toBe(3);
    for (const body of ['a', 'b', 'c']) p.send('server', ok(body), dataEvent(bytes(body)), eom);
    expect(p.client.pendingRequests).toBe(0);
    expect(p.client.states).toEqual({ client: 'IDLE', server: 'IDLE' });
  });

  it('does not pipeline after a non-idempotent request: the client waits, the server pauses', () => {
    const p = new Pair(bytewise);
    p.send(
      'client',
      requestEvent({
        method: 'POST',
        target: '/',
        headers: [
          { name: 'Host', value: 'a' },
          { name: 'Content-Length', value: '0' },
        ],
      }),
      eom,
    );
    expect(p.client.states.client).toBe('DONE');
    expect(() => p.client.send(get())).toThrow(expect.objectContaining({ code: 'illegal-event', side: 'local' }));
    expect(p.client.states.client).toBe('ERROR');
  });

  it('knows a HEAD response has no body even with Content-Length', () => {
    const p = new Pair(bytewise);
    p.send('client', requestEvent({ method: 'HEAD', target: '/', headers: [{ name: 'Host', value: 'a' }] }), eom);
    const got = p.send('server', responseEvent({ status: 200, headers: [{ name: 'Content-Length', value: '1000' }] }), eom);
    expect(got.map((e) => (e as Http1Event).type)).toEqual(['response', 'end-of-message']);
    expect(p.client.states).toEqual({ client: 'IDLE', server: 'IDLE' });
  });

  it('switches protocols after 101 to an Upgrade, and hands over the trailing bytes', () => {
    const p = new Pair(bytewise);
    p.send(
      'client',
      get('/ws', [
        { name: 'Connection', value: 'Upgrade' },
        { name: 'Upgrade', value: 'websocket' },
      ]),
      eom,
    );
    expect(p.client.states.client).toBe('MIGHT_SWITCH_PROTOCOL');
    const got = p.send('server', informationalEvent({ status: 101, reason: 'Switching Protocols', headers: [{ name: 'Upgrade', value: 'websocket' }] }));
    expect(got.map((e) => (e as Http1Event).type)).toEqual(['informational']);
    expect(p.client.states).toEqual({ client: 'SWITCHED_PROTOCOL', server: 'SWITCHED_PROTOCOL' });
    p.client.receiveData(Uint8Array.of(0x81, 0));
    expect(p.client.nextEvent()).toEqual({ type: 'paused' });
    expect(Array.from(p.client.takeTrailingData())).toEqual([0x81, 0]);
  });

  it('goes on with HTTP/1.1 when the server declines the upgrade', () => {
    const p = new Pair(bytewise);
    p.send('client', get('/ws', [{ name: 'Upgrade', value: 'websocket' }]), eom);
    p.send('server', ok(), dataEvent(bytes('ok')), eom);
    expect(p.client.states).toEqual({ client: 'IDLE', server: 'IDLE' });
  });

  it('opens a tunnel on a 2xx to CONNECT', () => {
    const p = new Pair(bytewise);
    p.send('client', requestEvent({ method: 'CONNECT', target: 'example.com:443', headers: [{ name: 'Host', value: 'example.com:443' }] }), eom);
    p.send('server', responseEvent({ status: 200, reason: 'Connection Established' }));
    expect(p.client.states).toEqual({ client: 'SWITCHED_PROTOCOL', server: 'SWITCHED_PROTOCOL' });
  });

  it('answers 100-continue before the request body', () => {
    const p = new Pair(bytewise);
    p.send(
      'client',
      requestEvent({
        method: 'PUT',
        target: '/f',
        headers: [
          { name: 'Host', value: 'a' },
          { name: 'Expect', value: '100-continue' },
          { name: 'Content-Length', value: '3' },
        ],
      }),
    );
    expect(p.send('server', informationalEvent({ status: 100, reason: 'Continue' }))).toEqual([informationalEvent({ status: 100, reason: 'Continue' })]);
    p.send('client', dataEvent(bytes('abc')), eom);
    p.send('server', ok(), dataEvent(bytes('ok')), eom);
    expect(p.server.states).toEqual({ client: 'IDLE', server: 'IDLE' });
  });

  it('speaks HTTP/0.9: one-line request, bare body, close', () => {
    const p = new Pair(bytewise);
    p.send('client', requestEvent({ method: 'GET', target: '/old', version: '0.9' }));
    p.send('client', eom);
    const got = p.send('server', responseEvent({ status: 200, version: '0.9', reason: 'OK' }), dataEvent(bytes('<html>')), eom, { type: 'connection-closed' });
    expect(got).toEqual([responseEvent({ status: 200, version: '0.9', reason: 'OK' }), { type: 'data', data: '<html>' }, eom, { type: 'connection-closed' }]);
    expect(p.client.states.server).toBe('CLOSED');
  });
});

describe('Http1Connection: errors and transitions', () => {
  it('puts the peer in ERROR on a protocol error and keeps returning it', () => {
    const s = new Http1Connection({ role: 'server' });
    s.receiveData(bytes('GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n'));
    const e = s.nextEvent();
    expect(e).toMatchObject({ type: 'error', error: { code: 'conflicting-content-length', side: 'remote', statusHint: 400 } });
    expect(s.states.client).toBe('ERROR');
    expect(s.nextEvent()).toEqual(e);
    // The server may still answer with the status hint before closing.
    expect(() =>
      s.send(
        responseEvent({
          status: 400,
          headers: [
            { name: 'Content-Length', value: '0' },
            { name: 'Connection', value: 'close' },
          ],
        }),
      ),
    ).not.toThrow();
  });

  it('refuses a client that closes mid-body', () => {
    const s = new Http1Connection({ role: 'server' });
    s.receiveData(bytes('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab'));
    s.receiveEof();
    const steps = drain(s);
    expect(steps.at(-1)).toMatchObject({ type: 'error', error: { code: 'incomplete-message' } });
  });

  it('ignores line breaks after the last request, and flags anything else', () => {
    const s = new Http1Connection({ role: 'server' });
    s.receiveData(bytes('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n\r\n'));
    expect(drain(s).map((e) => e.type)).toEqual(['request', 'end-of-message']);
    s.receiveData(bytes('GET /smuggled HTTP/1.1\r\n'));
    expect(s.nextEvent()).toMatchObject({ type: 'error', error: { code: 'data-after-close' } });
    const lenient = new Http1Connection({ role: 'server', strict: false });
    lenient.receiveData(bytes('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /smuggled HTTP/1.1\r\n'));
    expect(drain(lenient).map((e) => e.type)).toEqual(['request', 'end-of-message']);
    expect(lenient.tolerated.map((t) => t.code)).toEqual(['data-after-close']);
  });

  it('reports each transition that fired, with its table row', () => {
    const c = new Http1Connection({ role: 'client' });
    c.send(get());
    c.send(eom);
    const fired = c.takeTransitions();
    expect(fired.map((f) => `${f.kind}:${f.role}:${f.from}->${f.to}`)).toEqual([
      'event:client:IDLE->SEND_BODY',
      'event:server:IDLE->SEND_RESPONSE',
      'event:client:SEND_BODY->DONE',
      'settle:client:DONE->IDLE',
    ]);
    expect(fired[0]).toMatchObject({ kind: 'event', row: { id: 'client:IDLE:request', rfc: 'RFC 9112 §3' } });
    expect(fired[3]).toMatchObject({ kind: 'settle', rule: { id: 'client-pipelines' } });
    expect(c.takeTransitions()).toEqual([]);
  });

  it('keeps no transitions when told not to record them, and moves through the same states', () => {
    const kept = new Http1Connection({ role: 'server' });
    const unkept = new Http1Connection({ role: 'server', recordTransitions: false });
    for (const s of [kept, unkept]) {
      for (let i = 0; i < 3; i++) {
        s.receiveData(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'));
        expect(drain(s).map((e) => e.type)).toEqual(['request', 'end-of-message']);
        s.send(responseEvent({ status: 204 }));
        s.send(eom);
      }
      expect(s.states).toEqual({ client: 'IDLE', server: 'IDLE' });
    }
    // Seven rows an exchange (the request moves both sides; its end, the response, the response's end and
    // three settle rules), so 21 kept after three.
    expect(kept.takeTransitions()).toHaveLength(21);
    expect(unkept.takeTransitions()).toEqual([]);
  });

  it('refuses a 101 that answers no Upgrade, on either side', () => {
    const s = new Http1Connection({ role: 'server' });
    s.receiveData(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'));
    drain(s);
    expect(() => s.send(informationalEvent({ status: 101 }))).toThrow(expect.objectContaining({ code: 'illegal-event' }));
    const c = new Http1Connection({ role: 'client' });
    c.send(get());
    c.send(eom);
    c.receiveData(bytes('HTTP/1.1 101 Switching Protocols\r\n\r\n'));
    expect(c.nextEvent()).toMatchObject({ type: 'error', error: { code: 'unexpected-response', side: 'remote' } });
  });

  it('checks body length against the announced framing when sending', () => {
    const c = new Http1Connection({ role: 'client' });
    c.send(
      requestEvent({
        method: 'POST',
        target: '/',
        headers: [
          { name: 'Host', value: 'a' },
          { name: 'Content-Length', value: '2' },
        ],
      }),
    );
    expect(() => c.send(dataEvent(bytes('abc')))).toThrow(expect.objectContaining({ code: 'content-length-mismatch' }));
    expect(c.ourState).toBe('ERROR');
  });
});
