import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WireError } from '../errors';
import { Http1Connection } from './connection';
import { INVALID_CASES, VALID_REQUESTS, VALID_RESPONSES, latin1Encode } from './corpus';
import { parseHttp1 } from './parse';

const seeds = [...VALID_REQUESTS, ...VALID_RESPONSES, VALID_REQUESTS.join(''), VALID_RESPONSES.join(''), ...INVALID_CASES.map((c) => c.input)].map(
  latin1Encode,
);
const interesting = [0x0d, 0x0a, 0x20, 0x09, 0x3a, 0x3b, 0x30, 0x31, 0x66, 0x00, 0x7f, 0xff, 0x2c, 0x22];

type Mutation = { at: number; kind: 'flip' | 'insert' | 'delete' | 'dup' | 'truncate'; byte: number; len: number };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('flip', 'insert', 'delete', 'dup', 'truncate'),
  byte: fc.oneof(fc.constantFrom(...interesting), fc.integer({ min: 0, max: 255 })),
  len: fc.integer({ min: 1, max: 8 }),
});

const mutate = (input: Uint8Array, ms: Mutation[]): Uint8Array => {
  let b = Array.from(input);
  for (const m of ms) {
    const at = b.length === 0 ? 0 : m.at % b.length;
    if (m.kind === 'flip') b[at] = m.byte;
    else if (m.kind === 'insert') b.splice(at, 0, ...Array(m.len).fill(m.byte));
    else if (m.kind === 'delete') b.splice(at, m.len);
    else if (m.kind === 'dup') b.splice(at, 0, ...b.slice(at, at + m.len * 4));
    else b = b.slice(0, at);
  }
  return Uint8Array.from(b);
};

const input = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([s, ms]) => mutate(s, ms)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
);

/** Only WireErrors, never anything else, and every run ends. */
const survives = (bytes: Uint8Array) => {
  for (const role of ['server', 'client'] as const) {
    for (const strict of [true, false]) {
      const r = parseHttp1(bytes, { role, strict, maxHeaderBytes: 512 });
      if (r.error !== undefined) expect(r.error).toBeInstanceOf(WireError);
      expect(r.messages.length).toBeLessThanOrEqual(bytes.length + 1);
    }
  }
  // The connection, fed in three pieces, must also settle.
  const conn = new Http1Connection({ role: 'server', strict: false });
  const third = Math.ceil(bytes.length / 3);
  for (let i = 0; i < 3; i++) {
    conn.receiveData(bytes.subarray(i * third, (i + 1) * third));
    if (i === 2) conn.receiveEof();
    for (let n = 0; ; n++) {
      expect(n).toBeLessThan(bytes.length * 4 + 16);
      const ev = conn.nextEvent();
      if (ev.type === 'need-data' || ev.type === 'paused' || ev.type === 'connection-closed') break;
      if (ev.type === 'error') {
        expect(ev.error).toBeInstanceOf(WireError);
        return;
      }
      // Answer each request so the connection keeps reading.
      if (ev.type === 'end-of-message' && conn.ourState === 'SEND_RESPONSE') {
        // 400 declines any CONNECT or Upgrade, so the connection stays HTTP/1.
        conn.send({ type: 'response', version: '1.1', status: 400, reason: 'Bad Request', headers: [{ name: 'Content-Length', value: '0' }] });
        conn.send({ type: 'end-of-message', trailers: [] });
      }
    }
  }
};

describe('fuzz: random and mutated bytes', () => {
  // A generous timeout: this is a bounded amount of work, not a timing assertion, and CI machines are shared.
  it('never throws anything but WireError, and terminates (2500 cases)', () => {
    fc.assert(fc.property(input, survives), { numRuns: 2500, seed: 20260 });
  }, 60_000);
});
