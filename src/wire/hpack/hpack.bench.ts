/**
 * HPACK throughput and compression ratio, ours vs hpack.js, on the hpack-test-case raw-data stories
 * (one compression context per story, 4096-byte tables). One iteration encodes and decodes every
 * story. Run: npx vitest bench --run src/wire/hpack
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'vitest';
import { importBundled } from '../../testing/bench-build';
import { sharedDataPath } from '../../testing/shared-data';

// Bundled, as it ships and as the peers load from their dist files (see src/testing/bench-build.ts).
const { HpackDecoder, HpackEncoder } = await importBundled<typeof import('../index')>('src/wire/index.ts');

interface HpackJsHeader {
  name: string;
  value: string;
}
interface HpackJs {
  compressor: { create(o: { table: { size: number } }): { write(h: HpackJsHeader[]): void; read(): Buffer | null } };
  decompressor: {
    create(o: { table: { size: number } }): { write(b: Buffer): void; execute(): void; read(): HpackJsHeader | null };
  };
}
const hpackjs = createRequire(import.meta.url)('hpack.js') as HpackJs;

const DIR = sharedDataPath('hpack-test-case', 'raw-data');
const stories: { name: string; value: string }[][][] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) =>
    (JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { cases: { headers: Record<string, string>[] }[] }).cases.map((c) =>
      c.headers.map((h) => {
        const [name, value] = Object.entries(h)[0]!;
        return { name, value };
      }),
    ),
  );

const rawBytes = stories.flat(2).reduce((n, f) => n + Buffer.byteLength(f.name) + Buffer.byteLength(f.value), 0);

function runOurs(): number {
  let encoded = 0;
  for (const story of stories) {
    const enc = new HpackEncoder();
    const dec = new HpackDecoder();
    for (const headers of story) {
      const block = enc.encode(headers);
      encoded += block.length;
      if (dec.decode(block).length !== headers.length) throw new Error('ours: round trip failed');
    }
  }
  return encoded;
}

function runHpackJs(): number {
  let encoded = 0;
  for (const story of stories) {
    const comp = hpackjs.compressor.create({ table: { size: 4096 } });
    const decomp = hpackjs.decompressor.create({ table: { size: 4096 } });
    for (const headers of story) {
      comp.write(headers);
      const block = comp.read() ?? Buffer.alloc(0);
      encoded += block.length;
      decomp.write(block);
      decomp.execute();
      let n = 0;
      while (decomp.read() !== null) n++;
      if (n !== headers.length) throw new Error('hpack.js: round trip failed');
    }
  }
  return encoded;
}

const ours = runOurs();
const theirs = runHpackJs();
console.log(
  `HPACK compression ratio on ${stories.length} raw-data stories (encoded / raw name+value octets):\n` +
    `  roundtrip ${(ours / rawBytes).toFixed(4)}  (${ours} / ${rawBytes})\n` +
    `  hpack.js  ${(theirs / rawBytes).toFixed(4)}  (${theirs} / ${rawBytes})`,
);

// Vitest 5: `bench` is a test-context fixture; `bench.compare` runs both and reports a table.
test('HPACK encode + decode, all raw-data stories: ours vs hpack.js', { timeout: 300_000 }, async ({ bench }) => {
  const results = await bench.compare(
    bench('roundtrip (ours)', () => {
      runOurs();
    }),
    bench('hpack.js', () => {
      runHpackJs();
    }),
    { time: 1000 },
  );
  const mine = results.get('roundtrip (ours)').throughput.mean;
  const other = results.get('hpack.js').throughput.mean;
  console.log(`HPACK throughput: ours ${mine.toFixed(1)} it/s, hpack.js ${other.toFixed(1)} it/s -> ${(mine / other).toFixed(2)}x`);
});
