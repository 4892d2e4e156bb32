/**
 * QPACK throughput on the hpack-test-case raw-data stories (one connection per story, 4096-byte tables,
 * each section decoded and acknowledged before the next): the full codec (QpackEncoder + QpackDecoder, with
 * the dynamic table) against the static-table-only encodeQpack/decodeQpack the simulator uses today, and
 * our HPACK encoder/decoder as the reference point. One iteration encodes and decodes every story. Prints
 * the bytes each sends; asserts nothing about time. Run: npx vitest bench --run src/wire/http3/qpack
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { importBundled } from '../../../testing/bench-build';
import { sharedDataPath } from '../../../testing/shared-data';

// Bundled, as it ships (see src/testing/bench-build.ts).
const wire = await importBundled<typeof import('../../index')>('src/wire/index.ts');
const { QpackEncoder, QpackDecoder, encodeQpack, decodeQpack, HpackEncoder, HpackDecoder } = wire;

const DIR = sharedDataPath('hpack-test-case', 'raw-data');
const stories: { name: string; value: string }[][][] = readdirSync(DIR)
  .filter((f) => /^story_\d+\.json$/.test(f))
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

function runQpack(): number {
  let sent = 0;
  for (const story of stories) {
    const enc = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 100 });
    const dec = new QpackDecoder({ maxTableCapacity: 4096, maxBlockedStreams: 100 });
    story.forEach((fields, i) => {
      const out = enc.encodeFieldSection(i * 4, fields);
      sent += out.fieldSection.length + out.encoderStream.length;
      dec.receiveEncoderStream(out.encoderStream);
      const got = dec.decodeFieldSection(i * 4, out.fieldSection);
      if (!('fields' in got) || got.fields.length !== fields.length) throw new Error('QPACK: round trip failed');
      enc.receiveDecoderStream(dec.takeDecoderStream());
    });
  }
  return sent;
}

function runStatic(): number {
  let sent = 0;
  for (const story of stories) {
    for (const fields of story) {
      const { bytes } = encodeQpack(fields);
      sent += bytes.length;
      if (decodeQpack(bytes).fields.length !== fields.length) throw new Error('static QPACK: round trip failed');
    }
  }
  return sent;
}

function runHpack(): number {
  let sent = 0;
  for (const story of stories) {
    const enc = new HpackEncoder();
    const dec = new HpackDecoder();
    for (const fields of story) {
      const block = enc.encode(fields);
      sent += block.length;
      if (dec.decode(block).length !== fields.length) throw new Error('HPACK: round trip failed');
    }
  }
  return sent;
}

const ratio = (n: number): string => `${(n / rawBytes).toFixed(3)} (${n} / ${rawBytes})`;
console.log(
  `Bytes sent / raw name+value bytes on ${stories.length} raw-data stories:\n` +
    `  QPACK, dynamic table   ${ratio(runQpack())}\n` +
    `  QPACK, static only     ${ratio(runStatic())}\n` +
    `  HPACK                  ${ratio(runHpack())}`,
);

test('QPACK encode + decode, all raw-data stories: dynamic table vs static only vs HPACK', { timeout: 300_000 }, async ({ bench }) => {
  const results = await bench.compare(
    bench('QpackEncoder/QpackDecoder', () => {
      runQpack();
    }),
    bench('encodeQpack/decodeQpack', () => {
      runStatic();
    }),
    bench('HpackEncoder/HpackDecoder', () => {
      runHpack();
    }),
    { time: 1000 },
  );
  const q = results.get('QpackEncoder/QpackDecoder').throughput.mean;
  const s = results.get('encodeQpack/decodeQpack').throughput.mean;
  const h = results.get('HpackEncoder/HpackDecoder').throughput.mean;
  console.log(`QPACK throughput: full ${q.toFixed(1)} it/s, static only ${s.toFixed(1)} it/s, HPACK ${h.toFixed(1)} it/s`);
});
