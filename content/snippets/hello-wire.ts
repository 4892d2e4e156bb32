import { createServer, createSimulation, http } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// The knobs of this playground (the Options button): change them and it runs again.
const { httpVersion, rtt } = defineOptions({
  httpVersion: {
    type: 'select',
    choices: ['1.0', '1.1', '2'],
    default: '1.1',
    label: 'HTTP version',
    doc: 'Version the client speaks; 1.0 closes the connection after each response',
  },
  rtt: { type: 'number', default: 80, min: 1, max: 1000, step: 10, label: 'Round-trip time', doc: 'Round-trip time, virtual ms' },
});

// A mock server with one route, and a simulated network between it and us.
const server = createServer({
  routes: [http.get('/todos', () => Response.json([{ id: 1, title: 'Learn HTTP' }]))],
});
const sim = createSimulation({ server, httpVersion, rtt, seed: 1 });

// sim.fetch has the signature of fetch and returns a real Response.
const first = await sim.fetch('/todos');
console.log(first.status, first.headers.get('content-type'), await first.json());

// HTTP/1.1 and 2 keep the connection open, so the second request skips the TCP handshake; 1.0 does not.
await sim.fetch('/todos');
for (const done of sim.trace.ofType('request-finished')) {
  const setup = done.timings.connect < 0 ? 'reused the connection' : `${Math.round(done.timings.connect)} ms to connect`;
  console.log(`${done.request.method} ${done.request.url}: ${setup}, done at ${done.at.toFixed(1)} ms`);
}
