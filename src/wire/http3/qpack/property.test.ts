/**
 * QPACK encoder and decoder as a connected pair over a hostile network: random header lists, random table
 * capacities and blocked-stream limits, the encoder stream delivered in random chunks (down to one byte at
 * a time) and late, field sections delivered in random order across streams, decoder-stream bytes
 * delivered at random moments, streams cancelled. Checked after every step and at the end:
 * - every section that was not cancelled decodes to exactly the fields given (N bit included);
 * - the encoder never has more streams that could block than the decoder allows (§2.1.2), and the decoder,
 *   which enforces the same limit, never fails;
 * - the encoder never evicts an entry a section still needs: such a section would fail to decode when it
 *   arrives late (§2.2.3), and the encoder's own check throws;
 * - both tables end identical.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type QpackDecodedField, QpackDecoder } from './decoder';
import { type QpackEncodableField, QpackEncoder } from './encoder';
import type { QpackHuffmanMode } from './primitives';

/** mulberry32: a small seeded PRNG, so each fast-check case replays exactly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  ':method',
  ':path',
  ':authority',
  ':scheme',
  ':status',
  'accept',
  'user-agent',
  'cookie',
  'authorization',
  'x-request-id',
  'x-trace',
  'etag',
  'cache-control',
  'content-type',
  'x-ünïcode-free-name'.replace(/[^\x20-\x7e]/g, 'u'),
];
const VALUES = [
  'GET',
  '/',
  '/index.html',
  'example.com',
  'https',
  '200',
  '404',
  '*/*',
  'Mozilla/5.0 (X11; Linux x86_64)',
  'a=1',
  'session=0123456789abcdef0123456789',
  'Bearer abc',
  'no-cache',
  'text/html; charset=utf-8',
  'héllo wörld ✓',
  '',
];

function randomFields(rand: () => number, repeatPool: QpackEncodableField[]): QpackEncodableField[] {
  const count = Math.floor(rand() * 9);
  const out: QpackEncodableField[] = [];
  for (let i = 0; i < count; i++) {
    const r = rand();
    if (r < 0.45 && repeatPool.length > 0) {
      out.push(repeatPool[Math.floor(rand() * repeatPool.length)]!);
      continue;
    }
    const name = NAMES[Math.floor(rand() * NAMES.length)]!;
    const value =
      r < 0.8 ? VALUES[Math.floor(rand() * VALUES.length)]! : `v${Math.floor(rand() * 1e6)}${'x'.repeat(Math.floor(rand() * (rand() < 0.1 ? 300 : 20)))}`;
    const field: QpackEncodableField = rand() < 0.05 ? { name, value, neverIndexed: true } : { name, value };
    out.push(field);
    if (repeatPool.length < 24) repeatPool.push(field);
    else repeatPool[Math.floor(rand() * repeatPool.length)] = field;
  }
  return out;
}

/** What the decoder should give for a field: the N bit is set for explicit and automatic never-indexed fields. */
function expected(f: QpackEncodableField): QpackDecodedField {
  const auto = f.name === 'authorization' || f.name === 'proxy-authorization' || ((f.name === 'cookie' || f.name === 'set-cookie') && f.value.length < 20);
  return f.neverIndexed || auto ? { name: f.name, value: f.value, neverIndexed: true } : { name: f.name, value: f.value };
}

interface Scenario {
  readonly seed: number;
  readonly maxTableCapacity: number;
  readonly tableCapacity: number;
  readonly maxBlockedStreams: number;
  readonly huffman: QpackHuffmanMode;
  readonly requests: number;
  /** 'bytes': one byte at a time; 'chunks': random sizes. */
  readonly split: 'bytes' | 'chunks';
  /** Probability that a step delivers encoder-stream bytes (low = late, so sections block). */
  readonly encoderRate: number;
  readonly cancelRate: number;
}

function run(s: Scenario): { decodedSections: number; blockedSeen: number; inserts: number } {
  const rand = prng(s.seed);
  const encoder = new QpackEncoder({
    maxTableCapacity: s.maxTableCapacity,
    maxBlockedStreams: s.maxBlockedStreams,
    tableCapacity: s.tableCapacity,
    huffman: s.huffman,
  });
  const decoder = new QpackDecoder({ maxTableCapacity: s.maxTableCapacity, maxBlockedStreams: s.maxBlockedStreams });
  const pool: QpackEncodableField[] = [];
  let encoderBytes: number[] = [];
  let decoderBytes: number[] = [];
  /** Per stream: sections encoded and not yet delivered, in order. */
  const inFlight = new Map<number, Uint8Array[]>();
  /** Per stream: the field lists expected, in order; and what came out. */
  const want = new Map<number, QpackDecodedField[][]>();
  const got = new Map<number, QpackDecodedField[][]>();
  const cancelled = new Set<number>();
  let next = 0;
  let blockedSeen = 0;
  let decodedSections = 0;

  const record = (streamId: number, fields: readonly QpackDecodedField[]): void => {
    decodedSections++;
    const list = got.get(streamId) ?? [];
    list.push([...fields]);
    got.set(streamId, list);
  };
  const deliverEncoder = (all: boolean): void => {
    if (encoderBytes.length === 0) return;
    const n = all ? encoderBytes.length : s.split === 'bytes' ? 1 : 1 + Math.floor(rand() * Math.min(encoderBytes.length, 40));
    const chunk = Uint8Array.from(encoderBytes.slice(0, n));
    encoderBytes = encoderBytes.slice(n);
    if (all && s.split === 'bytes') {
      for (const b of chunk) for (const u of decoder.receiveEncoderStream(Uint8Array.of(b))) record(u.streamId, u.fields);
    } else {
      for (const u of decoder.receiveEncoderStream(chunk)) record(u.streamId, u.fields);
    }
  };
  const deliverSection = (streamId: number): void => {
    const queue = inFlight.get(streamId)!;
    const bytes = queue.shift()!;
    if (queue.length === 0) inFlight.delete(streamId);
    const result = decoder.decodeFieldSection(streamId, bytes);
    if ('blocked' in result) blockedSeen++;
    else record(streamId, result.fields);
  };
  const deliverDecoder = (all: boolean): void => {
    decoderBytes.push(...decoder.takeDecoderStream());
    if (decoderBytes.length === 0) return;
    const n = all ? decoderBytes.length : 1 + Math.floor(rand() * decoderBytes.length);
    encoder.receiveDecoderStream(Uint8Array.from(decoderBytes.slice(0, n)));
    decoderBytes = decoderBytes.slice(n);
  };

  while (next < s.requests || inFlight.size > 0 || encoderBytes.length > 0) {
    const r = rand();
    if (r < 0.3 && next < s.requests) {
      const streamId = next++ * 4;
      const sections = rand() < 0.2 ? 2 : 1; // headers, and sometimes trailers on the same stream
      for (let i = 0; i < sections; i++) {
        const fields = randomFields(rand, pool);
        const out = encoder.encodeFieldSection(streamId, fields);
        encoderBytes.push(...out.encoderStream);
        const q = inFlight.get(streamId) ?? [];
        q.push(out.fieldSection);
        inFlight.set(streamId, q);
        const w = want.get(streamId) ?? [];
        w.push(fields.map(expected));
        want.set(streamId, w);
        expect(encoder.blockingStreams.length).toBeLessThanOrEqual(s.maxBlockedStreams);
      }
    } else if (r < 0.3 + s.encoderRate) {
      deliverEncoder(false);
    } else if (r < 0.85 && inFlight.size > 0) {
      const ids = [...inFlight.keys()];
      const id = ids[Math.floor(rand() * ids.length)]!;
      if (rand() < s.cancelRate) {
        // The stream is reset: its undelivered sections never arrive, and the decoder gives up on it.
        inFlight.delete(id);
        decoder.cancelStream(id);
        cancelled.add(id);
      } else {
        deliverSection(id);
      }
    } else {
      deliverDecoder(false);
    }
    if (next >= s.requests && rand() < 0.05) deliverEncoder(true);
  }
  deliverEncoder(true);
  deliverDecoder(true);

  for (const [streamId, lists] of want) {
    if (cancelled.has(streamId)) {
      // What was decoded before the cancellation is still a prefix of what was sent.
      const seen = got.get(streamId) ?? [];
      expect(seen).toEqual(lists.slice(0, seen.length));
    } else {
      expect(got.get(streamId) ?? []).toEqual(lists);
    }
  }
  expect(decoder.blockedStreams).toEqual([]);
  const strip = (rows: readonly { absoluteIndex: number; name: string; value: string; size: number }[]) => rows.map((e) => [e.absoluteIndex, e.name, e.size]);
  expect(strip(decoder.tableState().entries)).toEqual(strip(encoder.tableState().entries));
  expect(encoder.knownReceivedCount).toBe(encoder.insertCount);
  return { decodedSections, blockedSeen, inserts: encoder.insertCount };
}

const scenario = fc.record({
  seed: fc.integer(),
  maxTableCapacity: fc.oneof(fc.constant(0), fc.integer({ min: 32, max: 300 }), fc.integer({ min: 300, max: 4096 })),
  capacityShare: fc.double({ min: 0, max: 1, noNaN: true }),
  maxBlockedStreams: fc.integer({ min: 0, max: 4 }),
  huffman: fc.constantFrom<QpackHuffmanMode>('auto', 'never', 'always'),
  requests: fc.integer({ min: 1, max: 40 }),
  split: fc.constantFrom<'bytes' | 'chunks'>('bytes', 'chunks'),
  encoderRate: fc.double({ min: 0.02, max: 0.4, noNaN: true }),
  cancelRate: fc.constantFrom(0, 0, 0.1),
});

describe('QPACK encoder and decoder as a pair', () => {
  it('round-trip every section through late, split, reordered delivery within the blocked-stream limit', () => {
    let blocked = 0;
    let inserts = 0;
    fc.assert(
      fc.property(scenario, (p) => {
        const tableCapacity = Math.floor(p.maxTableCapacity * (p.capacityShare < 0.2 ? 1 : p.capacityShare));
        const result = run({ ...p, tableCapacity });
        blocked += result.blockedSeen;
        inserts += result.inserts;
      }),
      { numRuns: 300 },
    );
    // The runs did exercise the dynamic table and blocking, not just literals.
    expect(inserts).toBeGreaterThan(1000);
    expect(blocked).toBeGreaterThan(50);
  });

  it('with maxBlockedStreams 0 no section ever blocks, however late the encoder stream', () => {
    fc.assert(
      fc.property(scenario, (p) => {
        const result = run({
          ...p,
          maxTableCapacity: Math.max(p.maxTableCapacity, 200),
          tableCapacity: Math.max(p.maxTableCapacity, 200),
          maxBlockedStreams: 0,
          encoderRate: 0.02,
        });
        expect(result.blockedSeen).toBe(0);
      }),
      { numRuns: 100 },
    );
  });
});

describe('QPACK encoder policy', () => {
  const request = (path: string): QpackEncodableField[] => [
    { name: ':method', value: 'GET' },
    { name: ':scheme', value: 'https' },
    { name: ':authority', value: 'docs.example.org' },
    { name: ':path', value: path },
    { name: 'user-agent', value: 'Roundtrip/1.0 (like curl)' },
    { name: 'x-client', value: 'roundtrip-docs' },
  ];

  it('static exact matches first, then inserts referenced post-base while blocking is allowed', () => {
    const e = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 10, annotate: true });
    const first = e.encodeFieldSection(0, request('/a'));
    expect(first.lines!.map((l) => l.kind)).toEqual(['indexed', 'indexed', 'indexed-post-base', 'indexed-post-base', 'indexed-post-base', 'indexed-post-base']);
    expect(first.lines![0]).toMatchObject({ table: 'static', index: 17 }); // :method GET
    expect(first.instructions!.map((i) => i.kind)).toEqual(['set-capacity', 'insert-name-ref', 'insert-name-ref', 'insert-name-ref', 'insert-literal-name']);
    // The second request references the same entries below the Base, and inserts the new path.
    const second = e.encodeFieldSection(4, request('/b'));
    expect(second.lines!.map((l) => [l.kind, l.absoluteIndex])).toEqual([
      ['indexed', null],
      ['indexed', null],
      ['indexed', 0],
      ['indexed-post-base', 4],
      ['indexed', 2],
      ['indexed', 3],
    ]);
    expect(second.fieldSection.length).toBeLessThan(10);
  });

  it('with maxBlockedStreams 0: inserts what repeats, but references only acknowledged entries', () => {
    const e = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 0, annotate: true });
    const d = new QpackDecoder({ maxTableCapacity: 4096, maxBlockedStreams: 0 });
    // First sight: an insert could not be referenced yet, so it would cost twice; literals only.
    const first = e.encodeFieldSection(0, request('/a'));
    expect(first.instructions!.map((i) => i.kind)).toEqual(['set-capacity']);
    expect(first.lines!.every((l) => l.table !== 'dynamic')).toBe(true);
    expect(first.prefix!.requiredInsertCount).toBe(0);
    // Seen again: inserted, still sent as literals since not yet acknowledged.
    const second = e.encodeFieldSection(4, request('/a'));
    expect(second.instructions!.map((i) => i.kind)).toEqual(['insert-name-ref', 'insert-name-ref', 'insert-name-ref', 'insert-literal-name']);
    expect(second.lines!.every((l) => l.table !== 'dynamic')).toBe(true);
    // Once the decoder has them and says so (Insert Count Increment), they are used.
    d.receiveEncoderStream(first.encoderStream);
    d.receiveEncoderStream(second.encoderStream);
    e.receiveDecoderStream(d.takeDecoderStream());
    expect(e.knownReceivedCount).toBe(4);
    const third = e.encodeFieldSection(8, request('/a'));
    expect(third.lines!.filter((l) => l.table === 'dynamic').map((l) => l.absoluteIndex)).toEqual([0, 1, 2, 3]);
    expect(third.fieldSection.length).toBe(2 + 2 + 4);
    expect(d.decodeFieldSection(8, third.fieldSection)).toEqual({ fields: request('/a') });
  });

  it('never-indexed fields: N bit, no insert, no Huffman; authorization and short cookies automatically', () => {
    const e = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 10, annotate: true });
    const out = e.encodeFieldSection(0, [
      { name: 'authorization', value: 'Bearer secret-token-value' },
      { name: 'cookie', value: 'sid=42' },
      { name: 'x-api-key', value: 'k-123456', neverIndexed: true },
      { name: 'cookie', value: 'long-enough-cookie-value-to-index=1' },
    ]);
    expect(out.lines!.map((l) => [l.kind, l.neverIndexed, l.huffmanValue])).toEqual([
      ['literal-name-ref', true, false],
      ['literal-name-ref', true, false],
      ['literal-name', true, false],
      ['indexed-post-base', false, null],
    ]);
    expect(e.tableState().entries.map((r) => r.name)).toEqual(['cookie']);
    const d = new QpackDecoder({ maxTableCapacity: 4096, maxBlockedStreams: 10 });
    d.receiveEncoderStream(out.encoderStream);
    expect(d.decodeFieldSection(0, out.fieldSection)).toMatchObject({
      fields: [
        { name: 'authorization', neverIndexed: true },
        { name: 'cookie', value: 'sid=42', neverIndexed: true },
        { name: 'x-api-key', neverIndexed: true },
        { name: 'cookie', value: 'long-enough-cookie-value-to-index=1' },
      ],
    });
  });

  it('does not evict an entry referenced by an unacknowledged section; falls back to literals', () => {
    // Room for two 40-byte entries only.
    const e = new QpackEncoder({ maxTableCapacity: 90, maxBlockedStreams: 10, annotate: true });
    const a = e.encodeFieldSection(0, [{ name: 'x-a', value: '11111' }]);
    const b = e.encodeFieldSection(4, [{ name: 'x-b', value: '22222' }]);
    expect([a.lines![0]!.kind, b.lines![0]!.kind]).toEqual(['indexed-post-base', 'indexed-post-base']);
    // Both entries are referenced and unacknowledged: a third field cannot be inserted.
    const c = e.encodeFieldSection(8, [{ name: 'x-c', value: '33333' }]);
    expect(c.lines![0]!.kind).toBe('literal-name');
    expect(c.encoderStream.length).toBe(0);
    // Acknowledge stream 0: entry 0 becomes evictable and the next insert evicts it.
    e.receiveDecoderStream(Uint8Array.of(0x80));
    const d = e.encodeFieldSection(12, [{ name: 'x-d', value: '44444' }]);
    expect(d.instructions![0]).toMatchObject({ kind: 'insert-literal-name', evicted: [0] });
  });

  it('duplicates a draining entry instead of referencing it (§2.1.1.1)', () => {
    const e = new QpackEncoder({ maxTableCapacity: 200, maxBlockedStreams: 10, annotate: true });
    const dec = new QpackDecoder({ maxTableCapacity: 200, maxBlockedStreams: 10 });
    const sync = (out: { encoderStream: Uint8Array; fieldSection: Uint8Array }, id: number) => {
      dec.receiveEncoderStream(out.encoderStream);
      dec.decodeFieldSection(id, out.fieldSection);
      e.receiveDecoderStream(dec.takeDecoderStream());
    };
    sync(e.encodeFieldSection(0, [{ name: 'x-keep', value: 'aaaaaaaaaa' }]), 0); // entry 0, 48 bytes
    sync(e.encodeFieldSection(4, [{ name: 'x-one', value: 'bbbbbbbbbb' }]), 4); // 47
    sync(e.encodeFieldSection(8, [{ name: 'x-two', value: 'cccccccccc' }]), 8); // 47: 142 of 200, > 150? no
    sync(e.encodeFieldSection(12, [{ name: 'x-three', value: 'dd' }]), 12); // 41: 183 > 150, entry 0 drains
    const out = e.encodeFieldSection(16, [{ name: 'x-keep', value: 'aaaaaaaaaa' }]);
    expect(out.instructions!.map((i) => [i.kind, i.referencedIndex])).toEqual([['duplicate', 0]]);
    expect(out.lines![0]).toMatchObject({ kind: 'indexed-post-base', absoluteIndex: 4 });
    dec.receiveEncoderStream(out.encoderStream);
    expect(dec.decodeFieldSection(16, out.fieldSection)).toEqual({ fields: [{ name: 'x-keep', value: 'aaaaaaaaaa' }] });
  });
});

describe('QPACK encoder settings', () => {
  it('starts at capacity 0 before the peer SETTINGS, then uses what they allow', () => {
    const e = new QpackEncoder({ maxTableCapacity: 0, maxBlockedStreams: 0 });
    const before = e.encodeFieldSection(0, [{ name: 'x-id', value: 'abc' }]);
    expect(before.encoderStream.length).toBe(0); // §3.2.3: no encoder instructions at all
    e.applyPeerSettings({ maxTableCapacity: 4096, maxBlockedStreams: 16 }, 1024);
    expect([e.maxTableCapacity, e.maxBlockedStreams]).toEqual([4096, 16]);
    const d = new QpackDecoder({ maxTableCapacity: 4096, maxBlockedStreams: 16 });
    const after = e.encodeFieldSection(4, [{ name: 'x-id', value: 'abc' }]);
    expect([...after.encoderStream.subarray(0, 3)]).toEqual([0x3f, 0xe1, 0x07]); // Set Dynamic Table Capacity 1024
    d.receiveEncoderStream(after.encoderStream);
    expect(d.decodeFieldSection(4, after.fieldSection)).toEqual({ fields: [{ name: 'x-id', value: 'abc' }] });
    expect(d.tableState().capacity).toBe(1024);
  });

  it('a remembered (0-RTT) capacity must come back unchanged (§3.2.3)', () => {
    const same = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 0 });
    same.applyPeerSettings({ maxTableCapacity: 4096, maxBlockedStreams: 8 });
    expect(same.maxBlockedStreams).toBe(8);
    const other = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 0 });
    expect(() => other.applyPeerSettings({ maxTableCapacity: 2048, maxBlockedStreams: 8 })).toThrow(
      expect.objectContaining({ code: 'QPACK_DECODER_STREAM_ERROR', message: expect.stringMatching(/2048, but 4096 was remembered/) }),
    );
    expect(() => other.encodeFieldSection(0, [])).toThrow(/remembered/);
  });
});
