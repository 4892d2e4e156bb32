import { createServer, createSimulation, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1, title: 'Learn HTTP' }]))] });

// Both requests travel on one connection: the second skips the TCP handshake.
const sim = createSimulation({ server, httpVersion: '1.1', rtt: 80, seed: 1 }); // persistent by default (RFC 9112 §9.3)
await sim.fetch('/todos');
await sim.fetch('/todos');

for (const done of sim.trace.ofType('request-finished')) {
  const setup = done.timings.connect < 0 ? 'reused the connection' : `${Math.round(done.timings.connect)} ms to connect`;
  console.log(`${done.request.method} ${done.request.url}: ${setup}`);
}
