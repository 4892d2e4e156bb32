import { describe, expect, it } from 'vitest';
import { createServer } from '../server/index';
import { mockDispatch } from './dispatch';
import { Http1ServerSession } from './http1-server';
import type { Transport } from './transport';

const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** A Transport in memory: reads hand out `requests` one per call, then EOF; writes are collected. */
function memoryTransport(requests: readonly string[]): Transport & { readonly written: Uint8Array[] } {
  const queue: Uint8Array[] = requests.map((r) => new TextEncoder().encode(r));
  const written: Uint8Array[] = [];
  const next = () => Promise.resolve(queue.shift() ?? null);
  return {
    written,
    read: next,
    readInterruptible: next,
    interrupt() {},
    unread(bytes) {
      queue.unshift(bytes);
    },
    write(bytes) {
      written.push(bytes.slice());
      return Promise.resolve();
    },
    end() {},
    reset() {},
    closed: false,
    peer: 'memory',
  };
}

const env = { timers: { setTimeout: () => 0, clearTimeout() {} }, now: () => Date.UTC(2026, 0, 1) };

describe('Http1ServerSession', () => {
  it('answers a long keep-alive connection without keeping a record per request', async () => {
    const n = 300;
    const transport = memoryTransport(Array.from({ length: n }, (_, i) => `GET /r${i % 3} HTTP/1.1\r\nHost: a\r\n\r\n`));
    const mock = createServer({ resources: { '/r0': 'zero', '/r1': 'one', '/r2': 'two' } });
    const session = new Http1ServerSession(transport, mockDispatch(mock, 'http://a'), env, { keepAlive: { timeout: 5000, max: Infinity } });
    await session.run();
    const answers = transport.written.map(text);
    expect(answers).toHaveLength(n);
    expect(answers.filter((a) => a.startsWith('HTTP/1.1 200 OK\r\n'))).toHaveLength(n);
    expect(answers[n - 1]).toMatch(/\r\n\r\ntwo$/);
    // The engine would keep eight fired transitions a request (2,400 here) for a caller that never takes them.
    expect(session.connection.takeTransitions()).toEqual([]);
    expect(session.connection.states).toEqual({ client: 'CLOSED', server: 'MUST_CLOSE' });
  });

  it('stops reading pipelined requests while the peer is not taking the answers, and goes on when it does', async () => {
    // A peer that pipelines 400 requests for a 1 KiB resource and reads nothing: the socket never takes
    // what is queued, so the backlog only grows, until the session waits for a write to be taken.
    const requests = Array.from({ length: 400 }, () => 'GET /kib HTTP/1.1\r\nHost: a\r\n\r\n');
    let reads = 0;
    let backlog = 0;
    let release: () => void = () => {};
    const taken = new Promise<void>((resolve) => (release = resolve));
    const base = memoryTransport(requests);
    const transport: Transport = {
      ...base,
      readInterruptible: () => {
        reads++;
        return base.readInterruptible!();
      },
      get backlog() {
        return backlog;
      },
      send(bytes) {
        backlog += bytes.length;
      },
      write(bytes) {
        backlog += bytes.length;
        return taken.then(() => {
          backlog = 0;
        });
      },
    };
    const mock = createServer({ resources: { '/kib': 'k'.repeat(1024) } });
    const session = new Http1ServerSession(transport, mockDispatch(mock, 'http://a'), env, { keepAlive: { timeout: 5000, max: Infinity } });
    const done = session.run();
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    // About 64 KiB of answers (some 1.2 KiB each) were queued, then the session waited.
    expect(reads).toBeGreaterThan(40);
    expect(reads).toBeLessThan(70);
    expect(backlog).toBeLessThan(72 * 1024);
    release();
    await done;
    expect(reads).toBe(401);
  });
});
