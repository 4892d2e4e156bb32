/**
 * Interoperability on the hpack-test-case corpus (github.com/http2jp/hpack-test-case): decode what
 * nghttp2 and go-hpack encoded, one decoder per story since a story shares one compression context,
 * and round-trip every raw-data story through our encoder. The compression ratio is a deterministic
 * size property of the encoder, so it is asserted here (goal 0.300; nghttp2 reaches 0.310).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { HpackDecoder } from './decoder';
import { HpackEncoder, type HuffmanMode } from './encoder';
import { sharedDataPath } from '../../testing/shared-data';

const ROOT = sharedDataPath('hpack-test-case');

interface Story {
  cases: { header_table_size?: number; wire?: string; headers: Record<string, string>[] }[];
}

const loadStories = (dir: string): [string, Story][] =>
  readdirSync(join(ROOT, dir))
    .filter((f) => /^story_\d+\.json$/.test(f))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(join(ROOT, dir, f), 'utf8')) as Story]);

const toFields = (headers: Record<string, string>[]) =>
  headers.map((h) => {
    const [name, value] = Object.entries(h)[0]!;
    return { name, value };
  });

const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));

describe.each(['nghttp2', 'go-hpack'])('decodes %s stories', (dir) => {
  const stories = loadStories(dir);
  it('has the corpus', () => expect(stories.length).toBeGreaterThan(0));
  it.each(stories)('%s', (_file, story) => {
    const decoder = new HpackDecoder();
    let limit = 4096;
    for (const c of story.cases) {
      if (c.header_table_size !== undefined && c.header_table_size !== limit) {
        limit = c.header_table_size;
        decoder.setMaxTableSize(limit);
      }
      expect(decoder.decode(hex(c.wire!))).toEqual(toFields(c.headers));
    }
  });
});

const rawStories = loadStories('raw-data');

/** Encoded bytes / raw name+value bytes over all raw-data stories, one context per story. */
function measure(huffman: HuffmanMode, tableSize = 4096): { ratio: number; mismatches: number } {
  let encoded = 0;
  let raw = 0;
  let mismatches = 0;
  for (const [, story] of rawStories) {
    const encoder = new HpackEncoder({ huffman, maxTableSize: tableSize });
    const decoder = new HpackDecoder({ maxTableSize: tableSize });
    for (const c of story.cases) {
      const fields = toFields(c.headers);
      const block = encoder.encode(fields);
      encoded += block.length;
      for (const f of fields) raw += Buffer.byteLength(f.name) + Buffer.byteLength(f.value);
      const back = decoder.decode(block);
      if (back.length !== fields.length || back.some((f, i) => f.name !== fields[i]!.name || f.value !== fields[i]!.value)) {
        mismatches++;
      }
    }
  }
  return { ratio: encoded / raw, mismatches };
}

describe('our encoder on the raw-data stories', () => {
  it('round-trips every story and compresses to at most 0.300', () => {
    const { ratio, mismatches } = measure('auto');
    expect(mismatches).toBe(0);
    expect(ratio).toBeLessThanOrEqual(0.3);
  });

  it.each([
    ['never', 4096],
    ['always', 4096],
    ['auto', 256],
    ['auto', 0],
  ] as const)('round-trips with huffman=%s and a %i-byte table', (huffman, size) => {
    expect(measure(huffman, size).mismatches).toBe(0);
  });

  it('round-trips every story through one encoded block per case, with annotations matching', () => {
    for (const [, story] of rawStories.slice(0, 4)) {
      const encoder = new HpackEncoder();
      const decoder = new HpackDecoder();
      for (const c of story.cases) {
        const enc = encoder.encodeAnnotated(toFields(c.headers));
        const dec = decoder.decodeAnnotated(enc.bytes);
        expect(dec.steps).toEqual(enc.steps);
      }
    }
  });
});

interface HpackJsDecompressor {
  write(b: Buffer): void;
  execute(): void;
  read(): { name: string; value: string } | null;
}
const hpackjs = createRequire(import.meta.url)('hpack.js') as {
  decompressor: { create(o: { table: { size: number } }): HpackJsDecompressor };
};

describe('another implementation reads our output', () => {
  it('hpack.js decodes every raw-data story as we encoded it', () => {
    let mismatches = 0;
    for (const [, story] of rawStories) {
      const encoder = new HpackEncoder();
      const other = hpackjs.decompressor.create({ table: { size: 4096 } });
      for (const c of story.cases) {
        const fields = toFields(c.headers);
        other.write(Buffer.from(encoder.encode(fields)));
        other.execute();
        const got: { name: string; value: string }[] = [];
        for (let h = other.read(); h !== null; h = other.read()) got.push({ name: h.name, value: h.value });
        if (JSON.stringify(got) !== JSON.stringify(fields)) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });
});
