import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INVALID_CASES, VALID_REQUESTS, VALID_RESPONSES, latin1Encode } from './corpus';
import { ReceiveBuffer } from './receive-buffer';
import { bytewise, splitAt, transcript } from './testing';

const cases = [
  ...VALID_REQUESTS.map((input, i) => ({ name: `request #${i}`, reads: 'request' as const, input, opts: {} })),
  { name: 'all requests pipelined', reads: 'request' as const, input: VALID_REQUESTS.slice(0, -1).join(''), opts: {} },
  { name: 'all responses pipelined', reads: 'response' as const, input: VALID_RESPONSES.join(''), opts: {} },
  ...INVALID_CASES.flatMap((c) => [
    { name: `strict: ${c.name}`, reads: c.role === 'client' ? ('response' as const) : ('request' as const), input: c.input, opts: { ...c.opts } },
    {
      name: `lenient: ${c.name}`,
      reads: c.role === 'client' ? ('response' as const) : ('request' as const),
      input: c.input,
      opts: { ...c.opts, strict: false },
    },
  ]),
];

describe('byte-at-a-time feeding equals whole-buffer feeding', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const bytes = latin1Encode(c.input);
    const whole = transcript(c.reads, bytes, c.opts);
    expect(transcript(c.reads, bytewise(bytes), c.opts)).toEqual(whole);
  });

  it('random splits give the same transcript (property, 200 runs)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.array(fc.nat(), { maxLength: 12 }), (c, cuts) => {
        const bytes = latin1Encode(c.input);
        const split = splitAt(
          bytes,
          cuts.map((x) => x % (bytes.length + 1)),
        );
        expect(transcript(c.reads, split, c.opts)).toEqual(transcript(c.reads, bytes, c.opts));
      }),
      { numRuns: 200, seed: 9112 },
    );
  });

  it('every valid corpus ends cleanly with connection-closed', () => {
    const t = transcript('request', VALID_REQUESTS.slice(0, -1).join(''));
    expect(t.error).toBeUndefined();
    expect(t.events.at(-1)).toEqual({ type: 'connection-closed' });
  });

  it('reports need-data, not an error, for a message cut anywhere before EOF', () => {
    const bytes = latin1Encode(VALID_REQUESTS[3]!);
    for (let cut = 1; cut < bytes.length; cut++) {
      const t = transcript('request', [bytes.subarray(0, cut)], {}, {});
      // EOF after the cut: incomplete, never a different code.
      expect(t.error?.code ?? 'none').toBe('incomplete-message');
    }
  });
});

describe('ReceiveBuffer', () => {
  it('finds a section end across appends and counts lines', () => {
    const b = new ReceiveBuffer();
    const bytes = latin1Encode('A\r\nB\r\n\r\nrest');
    for (const x of bytes.subarray(0, 7)) {
      b.append(Uint8Array.of(x));
      expect(b.findSectionEnd(0)).toBe(-1);
    }
    b.append(bytes.subarray(7));
    expect(b.findSectionEnd(0)).toBe(8);
    b.consume(8);
    expect(b.offset).toBe(8);
    expect(b.locate(9)).toEqual({ line: 4, column: 2 });
    expect(String.fromCharCode(...b.take(4))).toBe('rest');
    expect(b.length).toBe(0);
  });

  it('compacts instead of growing without bound when fed and drained', () => {
    const b = new ReceiveBuffer();
    for (let i = 0; i < 10_000; i++) {
      b.append(Uint8Array.of(i & 0xff, 1, 2));
      b.consume(3);
    }
    expect(b.offset).toBe(30_000);
    expect(b.raw.length).toBeLessThanOrEqual(256);
  });

  it('reuses its array once everything is consumed, and keeps line numbers across the reuse', () => {
    const b = new ReceiveBuffer();
    b.append(latin1Encode('GET / HTTP/1.1\r\n\r\n'));
    const first = b.raw;
    b.consume(b.length);
    b.append(latin1Encode('X\r\nY'));
    // Nothing was taken: the same array holds the next bytes from its start.
    expect(b.raw).toBe(first);
    expect(b.rawStart).toBe(0);
    // 'Y' is on line 4 of the stream: two lines ended in the consumed bytes, one in the reused array.
    expect(b.locate(b.offset + 3)).toEqual({ line: 4, column: 1 });
  });

  it('never writes over bytes it lent out with take()', () => {
    const b = new ReceiveBuffer();
    b.append(latin1Encode('body'));
    const lent = b.take(4);
    b.append(latin1Encode('next'));
    b.append(latin1Encode('more'));
    expect(String.fromCharCode(...lent)).toBe('body');
    expect(String.fromCharCode(...b.take(8))).toBe('nextmore');
    expect(String.fromCharCode(...lent)).toBe('body');
  });
});
