import { createSimulation, createServer, http } from 'roundtrip/wire';

const server = () => createServer({ routes: [http.get('/item/:id', (_req, { params }) => Response.json({ id: params.id }))] });

// Ten requests for ten small resources, under three connection policies. Change rtt or the policies
// and compare the virtual time each one needs.
async function load(label: string, options: Parameters<typeof createSimulation>[0]) {
  const sim = createSimulation({ server: server(), rtt: 100, ...options });
  await Promise.all(Array.from({ length: 10 }, (_, i) => sim.fetch(`/item/${i}`)));
  const opened = sim.trace.ofType('connection-opening').filter((e) => e.from === 'client').length;
  console.log(`${label}: ${Math.round(sim.clock.now())} ms, ${opened} connection(s)`);
}

await load('HTTP/1.0, short-lived, one at a time', { httpVersion: '1.0', maxConnectionsPerOrigin: 1 });
await load('HTTP/1.1 persistent, one connection', { maxConnectionsPerOrigin: 1 });
await load('HTTP/1.1 persistent, six in parallel', { maxConnectionsPerOrigin: 6 });
await load('HTTP/1.1 pipelined, one connection', { maxConnectionsPerOrigin: 1, pipelining: true });
