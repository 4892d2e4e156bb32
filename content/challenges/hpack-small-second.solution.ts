import { createSimulation, createServer, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/todos', () => Response.json([]))] });
const sim = createSimulation({ server, httpVersion: '2' });

// Every field the second request repeats exactly is one byte: an index into the static or dynamic table
// (RFC 7541 §6.1). A value that changes on every request (an id, a timestamp) is a literal every time, and
// costs its length again (Huffman-coded when that is shorter).
await sim.fetch('/todos', { headers: { accept: 'application/json' } });
await sim.fetch('/todos', { headers: { accept: 'application/json' } });

for (const f of sim.trace.ofType('h2-frame').filter((f) => f.frameType === 'HEADERS' && f.side === 'client' && f.direction === 'sent')) {
  console.log(`stream ${f.streamId}: HEADERS with a ${f.length}-byte block`);
}
