import { describe, expect, it } from 'vitest';
import { Trace, emitPrebuilt } from './trace';
import { Subscribable } from './subscribable';
import { binaryString, bytesOf } from './events';

describe('Trace', () => {
  it('stamps seq and virtual time, and freezes every event deeply', () => {
    let now = 0;
    const trace = new Trace(() => now);
    const first = trace.emit({ type: 'request-started', requestId: 'r1', method: 'GET', url: 'http://a/', httpVersion: 'HTTP/1.1' });
    now = 42;
    const second = trace.emit({
      type: 'request-sent',
      requestId: 'r1',
      connectionId: 'c1',
      startLine: 'GET / HTTP/1.1',
      headers: [{ name: 'Host', value: 'a' }],
    });
    expect([first.seq, first.at, second.seq, second.at]).toEqual([1, 0, 2, 42]);
    expect(Object.isFrozen(second)).toBe(true);
    expect(() => {
      (second as { at: number }).at = 1;
    }).toThrow(TypeError);
    if (second.type !== 'request-sent') throw new Error('narrowing');
    expect(Object.isFrozen(second.headers[0])).toBe(true);
  });

  it('emitPrebuilt stamps, freezes and announces in line with emit', () => {
    let now = 5;
    const trace = new Trace(() => now);
    const got: string[] = [];
    trace.subscribe((e) => got.push(`${e.seq}@${e.at} ${e.type}`));
    trace.emit({ type: 'request-started', requestId: 'r1', method: 'GET', url: 'http://a/', httpVersion: 'HTTP/2' });
    now = 7;
    const flags = Object.freeze(['END_STREAM']);
    const event = emitPrebuilt(trace, {
      type: 'h2-frame',
      connectionId: 'c1',
      side: 'client',
      direction: 'sent',
      frameType: 'DATA',
      streamId: 1,
      flags,
      length: 0,
      fields: Object.freeze({ dataLength: 0 }),
      data: '\0\0\0\0\x01\0\0\0\x01',
      ranges: Object.freeze([]),
      seq: 0,
      at: 0,
    });
    expect([event.seq, event.at]).toEqual([2, 7]);
    expect(Object.isFrozen(event)).toBe(true);
    expect(trace.events).toEqual([expect.objectContaining({ seq: 1 }), event]);
    expect(got).toEqual(['1@5 request-started', '2@7 h2-frame']);
  });

  it('notifies subscribers live, in order, until they unsubscribe', () => {
    const trace = new Trace(() => 0);
    const got: number[] = [];
    const stop = trace.subscribe((e) => got.push(e.seq));
    trace.emit({ type: 'hol-blocked', connectionId: 'c1', by: 'client', waitingFor: 0, heldBytes: 10 });
    stop();
    trace.emit({ type: 'hol-blocked', connectionId: 'c1', by: 'client', waitingFor: 0, heldBytes: 20 });
    expect(got).toEqual([1]);
    expect(trace.hasListeners()).toBe(false);
  });

  it('filters by type with narrowing and exports as JSON', () => {
    const trace = new Trace(() => 5);
    trace.emit({ type: 'packet-lost', connectionId: 'c1', from: 'server', offset: 0, length: 1460 });
    trace.emit({ type: 'retransmit', connectionId: 'c1', from: 'server', offset: 0, length: 1460, reason: 'timeout', rto: 300, attempt: 1 });
    const lost = trace.ofType('packet-lost');
    expect(lost[0]!.length).toBe(1460);
    const json = JSON.parse(JSON.stringify(trace)) as ReturnType<Trace['toJSON']>;
    expect(json.format).toBe('roundtrip-trace');
    expect(json.events.map((e) => e.type)).toEqual(['packet-lost', 'retransmit']);
  });

  it('refuses an event without a type', () => {
    const trace = new Trace(() => 0);
    expect(() => trace.emit({} as never)).toThrow(/type/);
  });
});

describe('Subscribable', () => {
  it('calls listeners added during a notification only from the next one', () => {
    class Bell extends Subscribable<(n: number) => void> {
      ring(n: number) {
        this.notify(n);
      }
    }
    const bell = new Bell();
    const heard: string[] = [];
    bell.subscribe((n) => {
      heard.push(`a${n}`);
      if (n === 1) bell.subscribe((m) => heard.push(`b${m}`));
    });
    bell.ring(1);
    bell.ring(2);
    expect(heard).toEqual(['a1', 'a2', 'b2']);
  });
});

describe('binary strings', () => {
  it('round-trip every byte value', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(bytesOf(binaryString(all))).toEqual(all);
    const big = new Uint8Array(100_000).fill(65);
    expect(binaryString(big).length).toBe(100_000);
  });

  it('give one character per byte at every size, on each side of the short and chunked paths', () => {
    for (const n of [0, 1, 23, 24, 25, 200, 0x2000, 0x2001, 3 * 0x2000 + 7]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff);
      const text = binaryString(bytes);
      expect(text.length).toBe(n);
      expect(Array.from(text, (c) => c.charCodeAt(0))).toEqual(Array.from(bytes));
    }
  });
});
