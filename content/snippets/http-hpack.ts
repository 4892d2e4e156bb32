import { HpackDecoder, HpackEncoder } from 'roundtrip/wire';
import { show } from 'roundtrip/playground';

// Two requests on one HTTP/2 connection share one compression context. The second block is tiny,
// because everything it repeats is already in the dynamic table (indexes 62 and up).
const encoder = new HpackEncoder();
const decoder = new HpackDecoder();

const request = (path: string) => [
  { name: ':method', value: 'GET' },
  { name: ':scheme', value: 'https' },
  { name: ':authority', value: 'api.example' },
  { name: ':path', value: path },
  { name: 'user-agent', value: 'roundtrip-playground/1.0' },
  { name: 'authorization', value: 'Bearer s3cr3t', sensitive: true }, // never indexed
];

for (const path of ['/todos', '/todos?page=2']) {
  const block = encoder.encodeAnnotated(request(path));
  show(block.bytes, { as: 'hpack' }); // step through it in the HPACK view
  console.log(`${path}: ${block.bytes.length} bytes`);
  for (const step of block.steps) {
    const where = step.representation === 'indexed' ? `index ${step.index} (${step.table})` : step.representation;
    if ('name' in step) console.log(`  ${step.name}: ${step.value}  <- ${where}`);
  }
  console.log('  decoded:', decoder.decode(block.bytes).length, 'fields');
}
