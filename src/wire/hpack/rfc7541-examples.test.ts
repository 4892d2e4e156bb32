/**
 * RFC 7541 Appendix C, byte for byte: integers (C.1), single representations (C.2), and the request
 * and response sequences with and without Huffman coding (C.3-C.6), checking the dynamic table after
 * every block on both the decoding and the encoding side.
 */
import { describe, expect, it } from 'vitest';
import { HpackDecoder } from './decoder';
import { HpackEncoder, type HuffmanMode } from './encoder';
import { ByteReader, ByteWriter } from './primitives';

const hex = (s: string): Uint8Array => Uint8Array.from(s.replace(/\s+/g, '').match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const fields = (list: string[][]) => list.map(([name, value]) => ({ name: name!, value: value! }));

describe('C.1 integer representation', () => {
  it.each([
    [10, 5, '0a'],
    [1337, 5, '1f9a0a'],
    [42, 8, '2a'],
  ])('encodes and decodes %i with a %i-bit prefix', (value, prefix, bytes) => {
    const w = new ByteWriter(4);
    w.integer(value, prefix, 0);
    expect(toHex(w.finish())).toBe(bytes);
    expect(new ByteReader(hex(bytes)).integer(prefix)).toBe(value);
  });
});

describe('C.2 header field representations', () => {
  it('C.2.1 literal with indexing', () => {
    const d = new HpackDecoder();
    const block = hex('400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572');
    expect(d.decode(block)).toEqual(fields([['custom-key', 'custom-header']]));
    expect(d.tableState.entries).toEqual([{ index: 62, name: 'custom-key', value: 'custom-header', size: 55 }]);
    expect(d.tableState.size).toBe(55);
    const e = new HpackEncoder({ huffman: 'never' });
    expect(toHex(e.encode(fields([['custom-key', 'custom-header']])))).toBe(toHex(block));
  });

  it('C.2.2 literal without indexing', () => {
    const d = new HpackDecoder();
    const { fields: out, steps } = d.decodeAnnotated(hex('040c 2f73 616d 706c 652f 7061 7468'));
    expect(out).toEqual(fields([[':path', '/sample/path']]));
    expect(steps[0]).toMatchObject({ representation: 'literal-without-indexing', nameIndex: 4, nameTable: 'static' });
    expect(d.tableState.entries).toEqual([]);
  });

  it('C.2.3 literal never indexed (sensitive)', () => {
    const block = hex('1008 7061 7373 776f 7264 0673 6563 7265 74');
    const d = new HpackDecoder();
    const { fields: out, steps } = d.decodeAnnotated(block);
    expect(out).toEqual(fields([['password', 'secret']]));
    expect(steps[0]).toMatchObject({ representation: 'literal-never-indexed', nameIndex: null, addedIndex: null });
    expect(d.tableState.entries).toEqual([]);
    const e = new HpackEncoder({ huffman: 'never' });
    expect(toHex(e.encode([{ name: 'password', value: 'secret', sensitive: true }]))).toBe(toHex(block));
    expect(e.tableState.entries).toEqual([]);
  });

  it('C.2.4 indexed', () => {
    expect(new HpackDecoder().decode(hex('82'))).toEqual(fields([[':method', 'GET']]));
    expect(toHex(new HpackEncoder().encode(fields([[':method', 'GET']])))).toBe('82');
  });
});

interface Case {
  headers: string[][];
  wire: string;
  table: [string, string, number][];
}

const requests = (wires: string[]): Case[] => [
  {
    headers: [
      [':method', 'GET'],
      [':scheme', 'http'],
      [':path', '/'],
      [':authority', 'www.example.com'],
    ],
    wire: wires[0]!,
    table: [[':authority', 'www.example.com', 57]],
  },
  {
    headers: [
      [':method', 'GET'],
      [':scheme', 'http'],
      [':path', '/'],
      [':authority', 'www.example.com'],
      ['cache-control', 'no-cache'],
    ],
    wire: wires[1]!,
    table: [
      ['cache-control', 'no-cache', 53],
      [':authority', 'www.example.com', 57],
    ],
  },
  {
    headers: [
      [':method', 'GET'],
      [':scheme', 'https'],
      [':path', '/index.html'],
      [':authority', 'www.example.com'],
      ['custom-key', 'custom-value'],
    ],
    wire: wires[2]!,
    table: [
      ['custom-key', 'custom-value', 54],
      ['cache-control', 'no-cache', 53],
      [':authority', 'www.example.com', 57],
    ],
  },
];

const DATE1 = 'Mon, 21 Oct 2013 20:13:21 GMT';
const DATE2 = 'Mon, 21 Oct 2013 20:13:22 GMT';
const COOKIE = 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1';
const LOCATION = 'https://www.example.com';

const responses = (wires: string[]): Case[] => [
  {
    headers: [
      [':status', '302'],
      ['cache-control', 'private'],
      ['date', DATE1],
      ['location', LOCATION],
    ],
    wire: wires[0]!,
    table: [
      ['location', LOCATION, 63],
      ['date', DATE1, 65],
      ['cache-control', 'private', 52],
      [':status', '302', 42],
    ],
  },
  {
    headers: [
      [':status', '307'],
      ['cache-control', 'private'],
      ['date', DATE1],
      ['location', LOCATION],
    ],
    wire: wires[1]!,
    table: [
      [':status', '307', 42],
      ['location', LOCATION, 63],
      ['date', DATE1, 65],
      ['cache-control', 'private', 52],
    ],
  },
  {
    headers: [
      [':status', '200'],
      ['cache-control', 'private'],
      ['date', DATE2],
      ['location', LOCATION],
      ['content-encoding', 'gzip'],
      ['set-cookie', COOKIE],
    ],
    wire: wires[2]!,
    table: [
      ['set-cookie', COOKIE, 98],
      ['content-encoding', 'gzip', 52],
      ['date', DATE2, 65],
    ],
  },
];

const sequences: { name: string; tableSize: number; huffman: HuffmanMode; cases: Case[] }[] = [
  {
    name: 'C.3 requests without Huffman',
    tableSize: 4096,
    huffman: 'never',
    cases: requests([
      '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d',
      '8286 84be 5808 6e6f 2d63 6163 6865',
      '8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65',
    ]),
  },
  {
    name: 'C.4 requests with Huffman',
    tableSize: 4096,
    huffman: 'always',
    cases: requests([
      '8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff',
      '8286 84be 5886 a8eb 1064 9cbf',
      '8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf',
    ]),
  },
  {
    name: 'C.5 responses without Huffman (256-byte table)',
    tableSize: 256,
    huffman: 'never',
    cases: responses([
      '4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d',
      '4803 3330 37c1 c0bf',
      '88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31',
    ]),
  },
  {
    name: 'C.6 responses with Huffman (256-byte table)',
    tableSize: 256,
    // 'always': "307" is 3 bytes either way and 'auto' keeps ties plain; the RFC codes every literal.
    huffman: 'always',
    cases: responses([
      '4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3',
      '4883 640e ffc1 c0bf',
      '88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07',
    ]),
  },
];

describe.each(sequences)('$name', ({ tableSize, huffman, cases }) => {
  const expectTable = (state: { size: number; entries: readonly { name: string; value: string; size: number }[] }, table: Case['table']) => {
    expect(state.entries.map((e) => [e.name, e.value, e.size])).toEqual(table);
    expect(state.size).toBe(table.reduce((n, [, , s]) => n + s, 0));
  };

  it('decodes each block and ends with the RFC table', () => {
    const d = new HpackDecoder({ maxTableSize: tableSize });
    for (const c of cases) {
      expect(d.decode(hex(c.wire))).toEqual(fields(c.headers));
      expectTable(d.tableState, c.table);
    }
  });

  it('encodes each list to the RFC bytes', () => {
    const e = new HpackEncoder({ maxTableSize: tableSize, huffman });
    for (const c of cases) {
      expect(toHex(e.encode(fields(c.headers)))).toBe(toHex(hex(c.wire)));
      expectTable(e.tableState, c.table);
    }
  });

  it('reports the same steps from both sides', () => {
    const e = new HpackEncoder({ maxTableSize: tableSize, huffman });
    const d = new HpackDecoder({ maxTableSize: tableSize });
    for (const c of cases) {
      const enc = e.encodeAnnotated(fields(c.headers));
      const dec = d.decodeAnnotated(enc.bytes);
      expect(dec.steps).toEqual(enc.steps);
      const last = dec.steps.at(-1)!;
      expect(last.end).toBe(enc.bytes.length);
    }
  });
});
