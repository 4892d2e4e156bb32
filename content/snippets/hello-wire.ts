import { createServer, createSimulation, http } from 'roundtrip/wire';

// A mock server with one route, and a simulated network between it and us: 80 ms round trips.
const server = createServer({
  routes: [http.get('/todos', () => Response.json([{ id: 1, title: 'Learn HTTP' }]))],
});
const sim = createSimulation({ server, httpVersion: '1.1', rtt: 80, seed: 1 });

// sim.fetch has the signature of fetch and returns a real Response.
const first = await sim.fetch('/todos');
console.log(first.status, first.headers.get('content-type'), await first.json());

// HTTP/1.1 keeps the connection open, so the second request skips the TCP handshake.
await sim.fetch('/todos');
for (const done of sim.trace.ofType('request-finished')) {
  const setup = done.timings.connect < 0 ? 'reused the connection' : `${done.timings.connect} ms to connect`;
  console.log(`${done.request.method} ${done.request.url}: ${setup}, done at ${done.at.toFixed(1)} ms`);
}
