import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HpackDecoder } from './decoder';
import { HpackEncoder } from './encoder';
import { HpackError } from './errors';
import { HUFFMAN_CODES, HUFFMAN_CODE_LENGTHS, huffmanDecode, huffmanEncode } from './huffman';
import { STATIC_TABLE } from './static-table';

const hex = (s: string): Uint8Array => Uint8Array.from(s.replace(/\s+/g, '').match(/../g) ?? [], (b) => parseInt(b, 16));
const bytes = (s: string) => new TextEncoder().encode(s);

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'no error';
}

describe('static table', () => {
  it('has the 61 entries of RFC 7541 Appendix A', () => {
    expect(STATIC_TABLE).toHaveLength(61);
    expect(STATIC_TABLE[0]).toEqual({ index: 1, name: ':authority', value: '', size: 42 });
    expect(STATIC_TABLE[7]).toEqual({ index: 8, name: ':status', value: '200', size: 42 });
    expect(STATIC_TABLE[60]).toEqual({ index: 61, name: 'www-authenticate', value: '', size: 48 });
  });
});

describe('Huffman code', () => {
  it('derives the Appendix B codes from the lengths', () => {
    expect(HUFFMAN_CODE_LENGTHS).toHaveLength(257);
    expect([HUFFMAN_CODES[48], HUFFMAN_CODE_LENGTHS[48]]).toEqual([0x0, 5]); // '0'
    expect([HUFFMAN_CODES[32], HUFFMAN_CODE_LENGTHS[32]]).toEqual([0x14, 6]); // ' '
    expect([HUFFMAN_CODES[0], HUFFMAN_CODE_LENGTHS[0]]).toEqual([0x1ff8, 13]);
    expect([HUFFMAN_CODES[256], HUFFMAN_CODE_LENGTHS[256]]).toEqual([0x3fffffff, 30]); // EOS
  });

  it('round-trips any octets', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (data) => {
        expect(huffmanDecode(huffmanEncode(data))).toEqual(data);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it.each([
    ['padding of 8 bits or more', '1f ff'], // 'a' then 11 one-bits
    ['padding that is not a prefix of EOS', '18'], // 'a' then 000
    ['the EOS symbol', 'ff ff ff ff'], // 30 one-bits = EOS
  ])('rejects %s with COMPRESSION_ERROR', (_what, data) => {
    expect(codeOf(() => huffmanDecode(hex(data)))).toBe('COMPRESSION_ERROR');
  });

  it('accepts up to 7 bits of EOS padding', () => {
    expect(huffmanDecode(hex('1f'))).toEqual(bytes('a'));
  });
});

describe('decoder errors', () => {
  it.each([
    ['index 0', '80'],
    ['an index past the tables', 'be'],
    ['a size update after a field', '82 20'],
    ['a size update above the SETTINGS limit', '3f e2 1f'], // 4097
    ['a truncated integer', 'ff'],
    ['an integer over 2^32-1', 'ff ff ff ff ff ff 7f'],
    ['a string past the end of the block', '00 05 61'],
    ['a literal with no value', '40 01 61'],
    ['a Huffman name containing EOS', '00 84 ff ff ff ff 00'],
  ])('rejects %s with COMPRESSION_ERROR', (_what, block) => {
    const err = (() => {
      try {
        new HpackDecoder().decode(hex(block));
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(HpackError);
    expect(err).toMatchObject({ code: 'COMPRESSION_ERROR', scope: 'connection', errorCode: 9, side: 'remote' });
  });

  it('reports the offset of the bad representation', () => {
    expect(() => new HpackDecoder().decode(hex('82 86 80'))).toThrow(expect.objectContaining({ offset: 2 }));
  });

  it('stays failed after a COMPRESSION_ERROR', () => {
    const d = new HpackDecoder();
    expect(codeOf(() => d.decode(hex('80')))).toBe('COMPRESSION_ERROR');
    expect(codeOf(() => d.decode(hex('82')))).toBe('COMPRESSION_ERROR');
  });

  it('requires a size update after SETTINGS_HEADER_TABLE_SIZE is lowered', () => {
    const d = new HpackDecoder();
    d.decode(hex('418c f1e3 c2e5 f23a 6ba0 ab90 f4ff')); // :authority: www.example.com, indexed
    d.setMaxTableSize(100);
    expect(codeOf(() => d.decode(hex('82')))).toBe('COMPRESSION_ERROR');
    const ok = new HpackDecoder();
    ok.setMaxTableSize(100);
    expect(ok.decode(hex('3f45 82'))).toEqual([{ name: ':method', value: 'GET' }]); // update to 100
    expect(ok.tableState.maxSize).toBe(100);
    expect(codeOf(() => ok.decode(hex('3f46')))).toBe('COMPRESSION_ERROR'); // 101 > limit
  });

  it('allows several size updates at the start of a block', () => {
    const d = new HpackDecoder();
    expect(d.decode(hex('20 3fe1 1f 82'))).toEqual([{ name: ':method', value: 'GET' }]);
    expect(d.tableState.maxSize).toBe(4096);
  });

  it('refuses an oversized header list but keeps the table in step', () => {
    const e = new HpackEncoder();
    const d = new HpackDecoder({ maxHeaderListSize: 100 });
    const big = [{ name: 'x-big', value: 'v'.repeat(80) }];
    const err = (() => {
      try {
        d.decode(e.encode(big));
      } catch (x) {
        return x as HpackError;
      }
      return null;
    })();
    expect(err).toMatchObject({ code: 'HEADER_LIST_TOO_LARGE', scope: 'stream', statusHint: 431 });
    // The field was still inserted: the next block can reference it.
    const small = new HpackDecoder();
    small.decode(new HpackEncoder().encode(big));
    expect(d.tableState).toEqual(small.tableState);
  });
});

describe('encoder', () => {
  it('sends sensitive fields as never-indexed literals with plain values', () => {
    const e = new HpackEncoder();
    const { steps } = e.encodeAnnotated([{ name: 'authorization', value: 'Bearer secret', sensitive: true }]);
    expect(steps[0]).toMatchObject({ representation: 'literal-never-indexed', nameIndex: 23, huffmanValue: false });
    expect(e.tableState.entries).toEqual([]);
  });

  it('signals SETTINGS_HEADER_TABLE_SIZE changes at the start of the next block (minimum, then final)', () => {
    const e = new HpackEncoder();
    const d = new HpackDecoder();
    d.decode(e.encode([{ name: 'x-a', value: '1' }]));
    e.setMaxTableSize(0);
    e.setMaxTableSize(2048);
    d.setMaxTableSize(2048);
    const { bytes: block, steps } = e.encodeAnnotated([{ name: 'x-a', value: '1' }]);
    expect(steps.slice(0, 2)).toMatchObject([
      { representation: 'size-update', maxSize: 0 },
      { representation: 'size-update', maxSize: 2048 },
    ]);
    expect(d.decodeAnnotated(block).steps).toEqual(steps);
    expect(d.tableState).toEqual(e.tableState);
  });

  it('round-trips UTF-8 values and keeps octet sizes in the table', () => {
    const e = new HpackEncoder();
    const d = new HpackDecoder();
    const fields = [{ name: 'x-name', value: 'Grüße, 世界' }];
    expect(d.decode(e.encode(fields))).toEqual(fields);
    expect(d.tableState.entries[0]!.size).toBe(6 + bytes('Grüße, 世界').length + 32);
  });

  it('round-trips random header lists through a pair with changing table sizes', () => {
    const field = fc.record({
      name: fc.constantFrom(':path', 'cookie', 'x-id', 'accept', 'date', 'set-cookie', 'x-' + 'long'.repeat(20)),
      value: fc.string({ maxLength: 40 }),
      sensitive: fc.boolean(),
    });
    const step = fc.record({ fields: fc.array(field, { maxLength: 12 }), resize: fc.option(fc.integer({ min: 0, max: 4096 })) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), fc.constantFrom('auto', 'always', 'never' as const), (steps, huffman) => {
        const e = new HpackEncoder({ huffman });
        const d = new HpackDecoder();
        for (const s of steps) {
          if (s.resize !== null) {
            e.setMaxTableSize(s.resize);
            d.setMaxTableSize(s.resize);
          }
          const enc = e.encodeAnnotated(s.fields);
          const dec = d.decodeAnnotated(enc.bytes);
          expect(dec.fields).toEqual(s.fields.map(({ name, value }) => ({ name, value })));
          expect(dec.steps).toEqual(enc.steps);
          expect(d.tableState).toEqual(e.tableState);
        }
      }),
      { numRuns: 150, seed: 42 },
    );
  });
});

describe('decoder.follow (a block whose steps are known)', () => {
  it('keeps its table where decoding the same blocks would, through insertions, evictions and size updates', () => {
    const field = fc.record({
      name: fc.constantFrom(':path', 'cookie', 'x-id', 'date', 'x-' + 'long'.repeat(20)),
      value: fc.string({ maxLength: 60, unit: 'grapheme' }),
      sensitive: fc.boolean(),
    });
    const step = fc.record({ fields: fc.array(field, { maxLength: 10 }), resize: fc.option(fc.integer({ min: 0, max: 4096 })) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const e = new HpackEncoder();
        const decoding = new HpackDecoder();
        const following = new HpackDecoder();
        for (const s of steps) {
          if (s.resize !== null) {
            e.setMaxTableSize(s.resize);
            decoding.setMaxTableSize(s.resize);
            following.setMaxTableSize(s.resize);
          }
          const enc = e.encodeAnnotated(s.fields);
          decoding.decode(enc.bytes);
          following.follow(enc.steps);
          expect(following.tableState).toEqual(decoding.tableState);
        }
        // The follower can then decode what comes next, indexed against the table it kept.
        const next = e.encode(steps.flatMap((s) => s.fields));
        expect(following.decode(next)).toEqual(decoding.decode(next));
      }),
      { numRuns: 100, seed: 7 },
    );
  });

  it('refuses a size update above its limit like decode does, and every block after it', () => {
    const e = new HpackEncoder();
    e.setMaxTableSize(8192); // the encoder was told more than this decoder allows (4096)
    const enc = e.encodeAnnotated([{ name: 'x-a', value: '1' }]);
    const d = new HpackDecoder();
    expect(codeOf(() => d.follow(enc.steps))).toBe('COMPRESSION_ERROR');
    expect(codeOf(() => d.decode(Uint8Array.of(0x82)))).toBe('COMPRESSION_ERROR');
    expect(codeOf(() => new HpackDecoder().decode(enc.bytes))).toBe('COMPRESSION_ERROR');
  });

  it('requires the size update after SETTINGS_HEADER_TABLE_SIZE was lowered, like decode', () => {
    const d = new HpackDecoder();
    d.setMaxTableSize(100);
    const withoutUpdate = new HpackEncoder().encodeAnnotated([{ name: 'x-a', value: '1' }]);
    expect(codeOf(() => d.follow(withoutUpdate.steps))).toBe('COMPRESSION_ERROR');
  });
});
