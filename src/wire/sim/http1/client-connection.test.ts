/**
 * The simulated HTTP/1 client reads responses through the engine (Http1Connection, observer.ts driving): the
 * engine's state rows are traced, what it rejects fails the fetch with its WireError, transfer-coded bodies
 * arrive decoded, and persistence is isHttp1Persistent's answer.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WireError } from '../../errors';
import { isHttp1Persistent } from '../../http1/index';
import type { TcpSocket } from '../../net/tcp';
import { http } from '../../server/router';
import { createServer } from '../../server/server';
import type { TraceEventOf } from '../../trace/events';
import { createSimulation, type Simulation } from '../simulation';

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** A server of our own on the simulated network: each request (one arrival of bytes) gets `answer`'s bytes. */
function rawServer(sim: Simulation, host: string, answer: (n: number) => Uint8Array): { accepted: () => number } {
  let accepted = 0;
  sim.network.listen(`${host}:80`, 'server', (socket: TcpSocket) => {
    accepted++;
    let n = 0;
    socket.onData(() => socket.write(answer(n++)));
  });
  return { accepted: () => accepted };
}

const events = <T extends TraceEventOf<'protocol-error'>['type'] | 'transition' | 'request-failed'>(sim: Simulation, type: T) =>
  sim.trace.events.filter((e): e is TraceEventOf<T> => e.type === type);

/** Why the fetch failed: the rejection, which must be fetch's TypeError with a cause. */
async function failure(promise: Promise<Response>): Promise<{ error: TypeError; cause: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TypeError);
  return { error: error as TypeError, cause: (error as TypeError).cause };
}

describe('the simulated HTTP/1 client reads through Http1Connection', () => {
  it('a keep-alive exchange: the engine reads both responses on one connection, its rows traced', async () => {
    const server = createServer({ routes: [http.get('/hello', () => new Response('hi'))] });
    const sim = createSimulation({ server });
    expect(await (await sim.fetch('/hello')).text()).toBe('hi');
    expect(await (await sim.fetch('/hello')).text()).toBe('hi');
    const dispatched = sim.trace.events.filter((e): e is TraceEventOf<'request-dispatched'> => e.type === 'request-dispatched');
    expect(dispatched.map((e) => e.reused)).toEqual([false, true]);
    const rows = events(sim, 'transition').filter((e) => e.machine === 'http1-client');
    // The server side of the client's engine read a response head, its body and its end, twice.
    const reads = rows.filter((e) => e.from === 'server:SEND_BODY' && e.to === 'server:DONE');
    expect(reads).toHaveLength(2);
    expect(rows.some((e) => e.to === 'server:ERROR' || e.to === 'client:ERROR')).toBe(false);
    expect(events(sim, 'protocol-error')).toEqual([]);
  });

  it.each([
    ['a bad status line', 'HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\nhi'],
    ['Content-Length and chunked together', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n'],
  ])('%s: the fetch fails with the engine error, traced as protocol-error by the client', async (_, bytes) => {
    const sim = createSimulation({ server: createServer({}) });
    rawServer(sim, 'bad.example', () => latin1(bytes));
    const { cause } = await failure(sim.fetch('http://bad.example/'));
    expect(cause).toBeInstanceOf(WireError);
    const errors = events(sim, 'protocol-error');
    expect(errors).toHaveLength(1);
    const [traced] = errors;
    expect(traced!.by).toBe('client');
    expect(traced!.status).toBeNull();
    expect(traced!.code).toBe((cause as WireError).code);
    expect(traced!.message).toBe((cause as WireError).message);
    // The engine's table moved the server side to ERROR, and the fetch is reported failed.
    expect(events(sim, 'transition').some((e) => e.machine === 'http1-client' && e.to === 'server:ERROR')).toBe(true);
    expect(events(sim, 'request-failed').map((e) => e.reason)).toEqual(['network-error']);
  });

  it('a malformed response on a reused connection is not retried: the engine error is the answer', async () => {
    const sim = createSimulation({ server: createServer({}) });
    rawServer(sim, 'bad.example', (n) => latin1(n === 0 ? 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok' : 'HTTP/1.1 200 OK\r\nX-Bad : 1\r\n\r\n'));
    expect(await (await sim.fetch('http://bad.example/')).text()).toBe('ok');
    const { cause } = await failure(sim.fetch('http://bad.example/'));
    expect(cause).toBeInstanceOf(WireError);
    expect(sim.trace.events.some((e) => e.type === 'request-retried')).toBe(false);
  });

  it('Transfer-Encoding: gzip, chunked: the body arrives decoded, never as the coded bytes', async () => {
    const content = 'hello, gzip! '.repeat(20);
    const coded = new Uint8Array(gzipSync(Buffer.from(content)));
    const half = Math.floor(coded.length / 2);
    const response = concat(
      latin1('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: gzip, chunked\r\n\r\n'),
      latin1(`${half.toString(16)}\r\n`),
      coded.subarray(0, half),
      latin1(`\r\n${(coded.length - half).toString(16)}\r\n`),
      coded.subarray(half),
      latin1('\r\n0\r\n\r\n'),
    );
    const sim = createSimulation({ server: createServer({}) });
    rawServer(sim, 'gzip.example', () => response);
    const res = await sim.fetch('http://gzip.example/');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(content);
    const finished = sim.trace.events.find((e): e is TraceEventOf<'request-finished'> => e.type === 'request-finished');
    expect(finished!.response.bodySize).toBe(content.length);
    expect(events(sim, 'protocol-error')).toEqual([]);
  });

  it('Transfer-Encoding: gzip, chunked with bytes that are not gzip: the fetch fails with the engine-worded error, traced', async () => {
    const garbage = 'this is not gzip';
    const response = `HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${garbage.length.toString(16)}\r\n${garbage}\r\n0\r\n\r\n`;
    const sim = createSimulation({ server: createServer({}) });
    rawServer(sim, 'gzip.example', () => latin1(response));
    const { cause } = await failure(sim.fetch('http://gzip.example/'));
    expect(cause).toBeInstanceOf(WireError);
    expect((cause as WireError).code).toBe('transfer-coding-failed');
    const errors = events(sim, 'protocol-error');
    expect(errors.map((e) => [e.by, e.code])).toEqual([['client', 'transfer-coding-failed']]);
    expect(errors[0]!.message).toBe((cause as WireError).message);
    expect(events(sim, 'request-failed')).toHaveLength(1);
  });

  it.each(['chunked, deflate', 'chunked, identity', 'chunkedchunked'])(
    'Transfer-Encoding: %s: read until close (RFC 9112 §6.3 rule 4), the fetch gets the bytes as sent, the trace notes they were not decoded',
    async (te) => {
      const sim = createSimulation({ server: createServer({}) });
      let accepted = 0;
      sim.network.listen('coded.example:80', 'server', (socket: TcpSocket) => {
        accepted++;
        socket.onData(() => {
          socket.write(latin1(`HTTP/1.1 200 OK\r\nTransfer-Encoding: ${te}\r\n\r\nraw bytes`));
          socket.close('response sent');
        });
      });
      const res = await sim.fetch('http://coded.example/');
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('raw bytes');
      expect(events(sim, 'protocol-error')).toEqual([]);
      const parsed = sim.trace.events.filter((e): e is TraceEventOf<'message-parsed'> => e.type === 'message-parsed' && e.by === 'client');
      expect(parsed).toHaveLength(1);
      expect(parsed[0]!.note).toMatch(new RegExp(`^Transfer-Encoding: ${te} was not decoded`));
      // Framed by the close, so the connection is not reused: a second fetch opens a second connection.
      await sim.fetch('http://coded.example/');
      expect(accepted).toBe(2);
    },
  );

  it.each([
    ['HTTP/1.0 without keep-alive', 'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi', []],
    ['HTTP/1.1 with Connection: close', 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nhi', [{ name: 'Connection', value: 'close' }]],
    [
      'HTTP/1.0 with Connection: keep-alive',
      'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nhi',
      [{ name: 'Connection', value: 'keep-alive' }],
    ],
    ['HTTP/1.1 with no Connection field', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi', []],
  ] as const)('%s: the connection persists exactly when isHttp1Persistent says so', async (_, bytes, headers) => {
    const version = bytes.startsWith('HTTP/1.0') ? '1.0' : '1.1';
    const persists = isHttp1Persistent(version, headers);
    const sim = createSimulation({ server: createServer({}) });
    const { accepted } = rawServer(sim, 'old.example', () => latin1(bytes));
    expect(await (await sim.fetch('http://old.example/')).text()).toBe('hi');
    const moves = events(sim, 'transition').filter((e) => e.machine === 'client-connection');
    expect(moves.some((e) => e.input === 'response-close')).toBe(!persists);
    expect(moves.some((e) => e.input === 'response-keep')).toBe(persists);
    expect(await (await sim.fetch('http://old.example/')).text()).toBe('hi');
    expect(accepted()).toBe(persists ? 1 : 2);
  });
});
