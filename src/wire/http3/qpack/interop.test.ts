/**
 * Interop with nghttp3's QPACK (through Debian's ngtcp2 example client and server, which print every piece
 * of stream data they deliver; see fixtures/from-ngtcp2-log.mjs). Each fixture replays, in delivery order,
 * what one side received: the peer's encoder stream, its HEADERS payloads (field sections) and its decoder
 * stream. Our decoder must produce the fields that side printed, block exactly where its Required Insert
 * Count is ahead of the encoder stream, and acknowledge the same sections nghttp3's decoder acknowledged.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type QpackDecodedField, QpackDecoder } from './decoder';
import { describeQpackDecoderStream } from './decoder-stream';

interface Fixture {
  readonly description: string;
  readonly receiver: 'client' | 'server';
  readonly settings: { readonly maxTableCapacity: number; readonly maxBlockedStreams: number };
  readonly events: readonly ({ kind: 'encoder' | 'decoder'; hex: string } | { kind: 'section'; streamId: number; hex: string })[];
  readonly fields: Readonly<Record<string, readonly QpackDecodedField[]>>;
  readonly sentDecoderStream: string;
}

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const load = (name: string): Fixture => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Fixture;

function replay(f: Fixture) {
  const decoder = new QpackDecoder({ ...f.settings, annotate: true });
  const decoded = new Map<number, readonly QpackDecodedField[]>();
  const blocked: number[] = [];
  let dynamicLines = 0;
  for (const e of f.events) {
    if (e.kind === 'encoder') {
      for (const u of decoder.receiveEncoderStream(bytes(e.hex))) decoded.set(u.streamId, u.fields);
    } else if (e.kind === 'section') {
      const result = decoder.decodeFieldSection(e.streamId, bytes(e.hex));
      if ('blocked' in result) blocked.push(e.streamId);
      else {
        decoded.set(e.streamId, result.fields);
        dynamicLines += result.lines!.filter((l) => l.table === 'dynamic').length;
      }
    } else {
      // The peer's decoder stream (acknowledging the receiver's own encoder): it must read cleanly.
      expect(describeQpackDecoderStream(bytes(e.hex)).incomplete).toBe(0);
    }
  }
  return { decoder, decoded, blocked, dynamicLines };
}

/** Section Acknowledgment stream IDs and total Insert Count Increment in decoder-stream bytes. */
function acks(stream: Uint8Array): { sections: number[]; increments: number } {
  const { instructions } = describeQpackDecoderStream(stream);
  return {
    sections: instructions.filter((i) => i.kind === 'section-ack').map((i) => i.streamId!),
    increments: instructions.reduce((n, i) => n + (i.increment ?? 0), 0),
  };
}

describe('QPACK interop: nghttp3 (ngtcp2 examples) encodings decoded by ours', () => {
  for (const name of ['ngtcp2-plain-to-client', 'ngtcp2-plain-to-server', 'ngtcp2-loss-to-client', 'ngtcp2-loss-to-server']) {
    const f = load(name);
    it(`${name}: ${f.description}`, () => {
      const { decoder, decoded, blocked } = replay(f);
      const sections = f.events.filter((e) => e.kind === 'section');
      expect(sections.length).toBe(11);
      // Every section decoded, to exactly the fields nghttp3's side printed.
      expect(Object.fromEntries(decoded)).toEqual(f.fields);
      expect(decoder.blockedStreams).toEqual([]);
      expect(decoder.insertCount).toBeGreaterThan(0);
      const ours = acks(decoder.takeDecoderStream());
      if (f.sentDecoderStream) {
        // nghttp3's decoder acknowledged the same sections, in an order that may differ only for blocked ones.
        const theirs = acks(bytes(f.sentDecoderStream));
        expect([...ours.sections].sort((a, b) => a - b)).toEqual([...theirs.sections].sort((a, b) => a - b));
      }
      expect(blocked.length).toBe(name === 'ngtcp2-loss-to-client' ? 11 : name === 'ngtcp2-loss-to-server' ? 2 : 0);
    });
  }

  it('nghttp3 references its dynamic table (post-base and relative) and Huffman-codes its inserts', () => {
    const f = load('ngtcp2-plain-to-server');
    const { decoder, dynamicLines } = replay(f);
    expect(dynamicLines).toBeGreaterThan(10);
    const d = new QpackDecoder({ ...f.settings, annotate: true });
    for (const e of f.events) if (e.kind === 'encoder') d.receiveEncoderStream(bytes(e.hex));
    const instructions = d.takeEncoderInstructions();
    expect(instructions[0]).toMatchObject({ kind: 'set-capacity', capacity: 4096 });
    expect(instructions.some((i) => i.huffmanValue === true)).toBe(true);
    expect(d.tableState().entries).toEqual(decoder.tableState().entries);
  });
});

interface Recorded {
  readonly description: string;
  readonly settings: { readonly maxTableCapacity: number; readonly maxBlockedStreams: number };
  readonly events: readonly ({ kind: 'encoder'; hex: string } | { kind: 'decoder'; hex: string } | { kind: 'section'; streamId: number; hex: string })[];
  readonly fields: Readonly<Record<string, readonly QpackDecodedField[]>>;
}

describe('QPACK interop: nghttp3 encoder under stress (fixtures/nghttp3-record.ts)', () => {
  // What each recording exercised, as our decoder counts it: sections that blocked, entries evicted.
  for (const [name, expectation, counts] of [
    ['nghttp3-encoder-4096-100', 'blocks, with a table that never fills', { blocked: 3, evicted: 0 }],
    ['nghttp3-encoder-256-4', 'evicts, with a 256-byte table and at most 4 blocked streams', { blocked: 7, evicted: 6 }],
    ['nghttp3-encoder-4096-0', 'never blocks, with SETTINGS_QPACK_BLOCKED_STREAMS 0', { blocked: 0, evicted: 0 }],
  ] as const) {
    const f = JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Recorded;
    it(`${name}: ${expectation}`, () => {
      const decoder = new QpackDecoder({ ...f.settings, annotate: true });
      const decoded = new Map<number, readonly QpackDecodedField[]>();
      let blocked = 0;
      let dynamicLines = 0;
      let evicted = 0;
      let acknowledgments = 0;
      for (const e of f.events) {
        if (e.kind === 'encoder') {
          for (const u of decoder.receiveEncoderStream(bytes(e.hex))) {
            decoded.set(u.streamId, u.fields);
            dynamicLines += u.lines!.filter((l) => l.table === 'dynamic').length;
          }
        } else if (e.kind === 'decoder') {
          // Our decoder stream at that moment, byte for byte as recorded: nghttp3's encoder accepted it.
          expect(Buffer.from(decoder.takeDecoderStream()).toString('hex')).toBe(e.hex);
          acknowledgments += acks(bytes(e.hex)).sections.length;
        } else {
          const out = decoder.decodeFieldSection(e.streamId, bytes(e.hex));
          if ('blocked' in out) blocked++;
          else {
            decoded.set(e.streamId, out.fields);
            dynamicLines += out.lines!.filter((l) => l.table === 'dynamic').length;
          }
        }
        evicted += decoder.takeEncoderInstructions().reduce((n, i) => n + i.evicted.length, 0);
      }
      expect(Object.fromEntries(decoded)).toEqual(f.fields);
      expect(Object.keys(f.fields)).toHaveLength(40);
      expect(decoder.blockedStreams).toEqual([]);
      expect(dynamicLines).toBeGreaterThan(40);
      expect({ blocked, evicted }).toEqual(counts);
      expect(acknowledgments).toBeGreaterThan(20);
    });
  }
});
