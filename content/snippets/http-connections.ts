import { createSimulation, createServer, http } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

const server = () => createServer({ routes: [http.get('/item/:id', (_req, { params }) => Response.json({ id: params.id }))] });

// Ten requests for ten small resources, under four connection policies. Raise the RTT and watch the
// policies that wait a round trip per request fall behind; raise the count and watch six connections
// stop being enough.
const { rtt, requests, parallel } = defineOptions({
  rtt: { type: 'number', default: 100, min: 1, max: 1000, step: 10, label: 'Round-trip time', doc: 'Round-trip time, virtual ms' },
  requests: { type: 'number', default: 10, min: 1, max: 50, integer: true, label: 'Resources to load', doc: 'How many resources the page loads' },
  parallel: {
    type: 'number',
    default: 6,
    min: 1,
    max: 16,
    integer: true,
    label: 'Parallel connections',
    doc: 'Connections per origin for the parallel policy (browsers use 6)',
  },
});

async function load(label: string, options: Parameters<typeof createSimulation>[0]) {
  const sim = createSimulation({ server: server(), rtt, ...options });
  await Promise.all(Array.from({ length: requests }, (_, i) => sim.fetch(`/item/${i}`)));
  const opened = sim.trace.ofType('connection-opening').filter((e) => e.from === 'client').length;
  console.log(`${label}: ${Math.round(sim.clock.now())} ms, ${opened} connection(s)`);
}

await load('HTTP/1.0, short-lived, one at a time', { httpVersion: '1.0', maxConnectionsPerOrigin: 1 });
await load('HTTP/1.1 persistent, one connection', { maxConnectionsPerOrigin: 1 });
await load(`HTTP/1.1 persistent, ${parallel} in parallel`, { maxConnectionsPerOrigin: parallel });
await load('HTTP/1.1 pipelined, one connection', { maxConnectionsPerOrigin: 1, pipelining: true });
