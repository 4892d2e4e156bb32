// Server-side limits of the HTTP/1 engine: bytes in, the refusal (and its status) out. Time is passed in.
import { describe, expect, it } from 'vitest';
import { Http1Connection, type Http1ConnectionOptions } from './connection';
import { endOfMessageEvent as http1EndOfMessage, requestEvent as http1Request } from './events';
import type { ReadStep } from './reader';

const enc = new TextEncoder();

/** Feeds `text` to a server engine and returns every step up to the first need-data or error. */
function read(text: string, options: Omit<Http1ConnectionOptions, 'role'> = {}): { conn: Http1Connection; steps: ReadStep[] } {
  const conn = new Http1Connection({ role: 'server', ...options });
  conn.receiveData(enc.encode(text));
  const steps: ReadStep[] = [];
  for (let i = 0; i < 100; i++) {
    const step = conn.nextEvent();
    steps.push(step);
    if (step.type === 'need-data' || step.type === 'error' || step.type === 'end-of-message') break;
  }
  return { conn, steps };
}

const errorOf = (steps: readonly ReadStep[]) => {
  const last = steps[steps.length - 1]!;
  if (last.type !== 'error') throw new Error(`expected an error, got ${last.type}`);
  return last.error;
};

describe('request-target length (414)', () => {
  it('refuses a target over maxTargetBytes with 414, not 431', () => {
    const { steps } = read(`GET /${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const error = errorOf(steps);
    expect(error.code).toBe('request-target-too-long');
    expect(error.statusHint).toBe(414);
  });

  it('refuses a long request line before it ends, once it cannot fit any more', () => {
    const { steps } = read(`GET /${'a'.repeat(100)}`, { maxTargetBytes: 64 });
    expect(errorOf(steps).statusHint).toBe(414);
  });

  it('accepts a target at the limit', () => {
    const { steps } = read(`GET /${'a'.repeat(63)} HTTP/1.1\r\nHost: x\r\n\r\n`, { maxTargetBytes: 64 });
    expect(steps[0]).toMatchObject({ type: 'request', target: `/${'a'.repeat(63)}` });
  });

  it('a 100 KiB target gets 414 with the default limits', () => {
    const { steps } = read(`GET /${'a'.repeat(100 * 1024)} HTTP/1.1\r\n`);
    expect(errorOf(steps).statusHint).toBe(414);
  });
});

describe('request body size (413)', () => {
  it('refuses an announced Content-Length over the limit at once, before any body byte', () => {
    const { steps } = read('POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n', { maxBodyBytes: 1000 });
    const error = errorOf(steps);
    expect(error.code).toBe('content-too-large');
    expect(error.statusHint).toBe(413);
  });

  it('refuses chunks once they pass the limit', () => {
    const chunk = `${(600).toString(16)}\r\n${'x'.repeat(600)}\r\n`;
    const { steps } = read(`POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}${chunk}0\r\n\r\n`, { maxBodyBytes: 1000 });
    expect(steps.filter((s) => s.type === 'data').length).toBeGreaterThan(0);
    expect(errorOf(steps).statusHint).toBe(413);
  });

  it('takes a body at the limit', () => {
    const { steps } = read(`POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n${'x'.repeat(1000)}`, { maxBodyBytes: 1000 });
    expect(steps.at(-1)!.type).toBe('end-of-message');
  });

  it('does not limit responses a client reads', () => {
    const conn = new Http1Connection({ role: 'client', maxBodyBytes: 10 });
    conn.send(http1Request({ method: 'GET', target: '/', headers: [{ name: 'Host', value: 'x' }] }));
    conn.send(http1EndOfMessage());
    conn.receiveData(enc.encode(`HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n${'y'.repeat(100)}`));
    const types: string[] = [];
    for (let i = 0; i < 10; i++) {
      const step = conn.nextEvent();
      types.push(step.type);
      if (step.type === 'end-of-message' || step.type === 'error' || step.type === 'need-data') break;
    }
    expect(types).toEqual(['response', 'data', 'end-of-message']);
  });
});

describe('header-read deadline (408) and idle timeout', () => {
  it('a head trickled byte by byte gets 408 at the total deadline, however recent the last byte', () => {
    const conn = new Http1Connection({ role: 'server', headerTimeoutMs: 10_000 });
    expect(conn.deadline(0)).toEqual({ phase: 'idle', at: 5_000 });
    const head = 'GET / HTTP/1.1\r\nHost: x\r\n';
    let t = 1_000;
    for (const ch of head) {
      conn.receiveData(enc.encode(ch));
      expect(conn.nextEvent().type).toBe('need-data');
      expect(conn.deadline(t)).toEqual({ phase: 'head', at: 11_000 });
      expect(conn.expire(t)).toBeNull();
      t += 300; // one byte every 300 ms: each gap far below any per-read timer
      if (t >= 11_000) break;
    }
    const step = conn.expire(11_000);
    expect(step).toMatchObject({ type: 'error', error: { code: 'request-timeout', statusHint: 408 } });
    expect(conn.nextEvent().type).toBe('error');
  });

  it('a head that completes in time is read normally and stops the deadline', () => {
    const conn = new Http1Connection({ role: 'server', headerTimeoutMs: 1_000 });
    conn.receiveData(enc.encode('GET / HTTP/1.1\r\n'));
    expect(conn.nextEvent().type).toBe('need-data');
    expect(conn.deadline(0)?.phase).toBe('head');
    conn.receiveData(enc.encode('Host: x\r\n\r\n'));
    expect(conn.nextEvent().type).toBe('request');
    expect(conn.deadline(999)).toBeNull();
    expect(conn.expire(5_000)).toBeNull();
  });

  it('an idle keep-alive connection expires as idle, with no response owed', () => {
    const conn = new Http1Connection({ role: 'server', idleTimeoutMs: 2_000 });
    expect(conn.deadline(100)).toEqual({ phase: 'idle', at: 2_100 });
    expect(conn.expire(2_099)).toBeNull();
    expect(conn.expire(2_100)).toBe('idle');
  });

  it('Infinity turns a deadline off', () => {
    const conn = new Http1Connection({ role: 'server', idleTimeoutMs: Infinity });
    expect(conn.deadline(0)).toBeNull();
  });
});
