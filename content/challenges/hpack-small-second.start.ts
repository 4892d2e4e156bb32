import { createSimulation, createServer, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/todos', () => Response.json([]))] });
const sim = createSimulation({ server, httpVersion: '2' });

// The list, then the same list again: two requests on one HTTP/2 connection share one HPACK context (RFC 7541 §2.2).
// Goal: the second request's header block is at most 10 bytes.
let sent = 0;
const tracing = () => ({ 'x-request-id': `req-${String(++sent).padStart(6, '0')}-${Date.now()}` });
await sim.fetch('/todos', { headers: { accept: 'application/json', ...tracing() } });
await sim.fetch('/todos', { headers: { accept: 'application/json', ...tracing() } });

for (const f of sim.trace.ofType('h2-frame').filter((f) => f.frameType === 'HEADERS' && f.side === 'client' && f.direction === 'sent')) {
  console.log(`stream ${f.streamId}: HEADERS with a ${f.length}-byte block`);
}
