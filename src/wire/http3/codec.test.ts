import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeVarint, readVarint } from './varint';

function decodeVarint(bytes: Uint8Array): number {
  const read = readVarint(bytes, 0);
  if (read.kind !== 'ok') throw new Error('incomplete varint');
  return read.value;
}
import { decodeHttp3Frames, encodeHttp3Frame, encodeHttp3Frames, type Http3Frame } from './frames';
import { decodeQpack, encodeQpack } from './qpack';
import { QPACK_STATIC_TABLE } from './qpack-static-table';
import { isWireError } from '../errors';

const RUNS = { numRuns: 200, seed: 9000 };

describe('QUIC varints (RFC 9000 §16)', () => {
  it('encode the RFC 9000 Appendix A.1 examples', () => {
    expect([...encodeVarint(37)]).toEqual([0x25]);
    expect([...encodeVarint(15293)]).toEqual([0x7b, 0xbd]);
    expect([...encodeVarint(494878333)]).toEqual([0x9d, 0x7f, 0x3e, 0x7d]);
    expect(decodeVarint(Uint8Array.of(0x40, 0x25))).toBe(37); // a two-byte form of 37 is allowed
    // The RFC's 8-byte example (151288809941952652) is above 2^53 - 1: refused, not rounded (see varint.ts).
    expect(() => decodeVarint(Uint8Array.of(0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c))).toThrow(/larger than this simulator handles/);
    expect(decodeVarint(Uint8Array.of(0xc0, 0, 0, 0, 0, 0, 0x01, 0x00))).toBe(256);
  });

  it('round-trip every length class, and report truncation as need-more', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: 63 }),
          fc.integer({ min: 64, max: 16383 }),
          fc.integer({ min: 16384, max: 2 ** 30 - 1 }),
          fc.integer({ min: 2 ** 30, max: Number.MAX_SAFE_INTEGER }),
        ),
        (value) => {
          const bytes = encodeVarint(value);
          expect(decodeVarint(bytes)).toBe(value);
          expect(readVarint(bytes.subarray(0, bytes.length - 1), 0).kind).toBe('need-more');
        },
      ),
      RUNS,
    );
  });

  it('refuses values it cannot represent exactly', () => {
    expect(() => encodeVarint(-1)).toThrow(/0 to 2\^53 - 1/);
    expect(() => encodeVarint(1.5)).toThrow();
  });
});

const bytes = fc.uint8Array({ maxLength: 64 });
const frame: fc.Arbitrary<Http3Frame> = fc.oneof(
  bytes.map((payload) => ({ type: 'DATA' as const, payload })),
  bytes.map((fieldSection) => ({ type: 'HEADERS' as const, fieldSection })),
  fc
    .uniqueArray(fc.record({ id: fc.integer({ min: 0, max: 2 ** 20 }).filter((id) => id < 2 || id > 5), value: fc.integer({ min: 0, max: 2 ** 40 }) }), {
      selector: (s) => s.id,
      maxLength: 5,
    })
    .map((settings) => ({ type: 'SETTINGS' as const, settings })),
  fc.integer({ min: 0, max: 2 ** 40 }).map((id) => ({ type: 'GOAWAY' as const, id })),
  fc.tuple(fc.integer({ min: 0x21, max: 2 ** 20 }), bytes).map(([code, payload]) => ({ type: 'UNKNOWN' as const, code, payload })),
);

describe('HTTP/3 frames (RFC 9114 §7)', () => {
  it('round-trip any sequence of frames, whole and cut at every byte', () => {
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 6 }), (frames) => {
        const wire = encodeHttp3Frames(frames);
        const whole = decodeHttp3Frames(wire);
        expect(whole.consumed).toBe(wire.length);
        expect(whole.frames).toEqual(frames);
        for (let cut = 0; cut < wire.length; cut += 7) {
          const part = decodeHttp3Frames(wire.subarray(0, cut));
          expect(part.consumed).toBeLessThanOrEqual(cut);
          expect(frames.slice(0, part.frames.length)).toEqual(part.frames);
        }
      }),
      RUNS,
    );
  });

  it('lays out a SETTINGS frame as type, length, then id/value varints', () => {
    const wire = encodeHttp3Frame({
      type: 'SETTINGS',
      settings: [
        { id: 0x01, value: 0 },
        { id: 0x06, value: 16384 },
      ],
    });
    expect([...wire]).toEqual([0x04, 0x07, 0x01, 0x00, 0x06, 0x80, 0x00, 0x40, 0x00]);
  });

  it('rejects HTTP/2-only frame types and settings, and duplicate settings', () => {
    const errorOf = (wire: Uint8Array): unknown => {
      try {
        decodeHttp3Frames(wire);
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const ping = errorOf(Uint8Array.of(0x06, 0x00));
    expect(isWireError(ping) && ping.code).toBe('H3_FRAME_UNEXPECTED');
    const windowSetting = errorOf(Uint8Array.of(0x04, 0x02, 0x04, 0x00));
    expect(isWireError(windowSetting) && windowSetting.code).toBe('H3_SETTINGS_ERROR');
    const twice = errorOf(Uint8Array.of(0x04, 0x04, 0x06, 0x01, 0x06, 0x02));
    expect(isWireError(twice) && twice.code).toBe('H3_SETTINGS_ERROR');
  });
});

const token = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
const value = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'x'));
const staticField = fc
  .integer({ min: 0, max: QPACK_STATIC_TABLE.length - 1 })
  .map((i) => ({ name: QPACK_STATIC_TABLE[i]!.name, value: QPACK_STATIC_TABLE[i]!.value }));
const staticName = fc
  .tuple(fc.integer({ min: 0, max: QPACK_STATIC_TABLE.length - 1 }), value)
  .map(([i, v]) => ({ name: QPACK_STATIC_TABLE[i]!.name, value: v }));
const field = fc.oneof(staticField, staticName, fc.record({ name: token, value }));

describe('QPACK with the static table (RFC 9204)', () => {
  it('round-trips any field list', () => {
    fc.assert(
      fc.property(fc.array(field, { maxLength: 12 }), (fields) => {
        const encoded = encodeQpack(fields);
        expect(decodeQpack(encoded.bytes).fields).toEqual(fields);
      }),
      RUNS,
    );
  });

  it('uses one byte for a whole static entry and a name reference for a known name', () => {
    const { bytes, lines } = encodeQpack([
      { name: ':method', value: 'GET' },
      { name: ':status', value: '200' },
      { name: ':path', value: '/todos/1' },
      { name: 'x-trace', value: 'a' },
    ]);
    expect(lines.map((l) => l.kind)).toEqual(['indexed', 'indexed', 'literal-name-ref', 'literal']);
    // Prefix 00 00; GET is static 17 -> 0xc0 | 17; :status 200 is static 25 -> 0xc0 | 25; :path is name 1 -> 0x51.
    expect([...bytes.subarray(0, 5)]).toEqual([0x00, 0x00, 0xd1, 0xd9, 0x51]);
  });

  it('decodes the RFC 9204 Appendix B.1 example (a name reference to :path)', () => {
    const wire = Uint8Array.of(0x00, 0x00, 0x51, 0x0b, ...new TextEncoder().encode('/index.html'));
    const decoded = decodeQpack(wire);
    expect(decoded.fields).toEqual([{ name: ':path', value: '/index.html' }]);
    expect(decoded.lines[0]).toMatchObject({ kind: 'literal-name-ref', index: 1, huffman: false });
  });

  it('refuses dynamic-table references, since it advertised a table capacity of 0', () => {
    for (const wire of [Uint8Array.of(0x02, 0x00), Uint8Array.of(0x00, 0x00, 0x80), Uint8Array.of(0x00, 0x00, 0x10)]) {
      expect(() => decodeQpack(wire)).toThrow(/dynamic table/);
    }
  });
});
