import { createServer, createSimulation, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1 }]))] });

// A first visit: no connection yet, 100 ms round trips, TLS 1.3 as on the web.
// HTTP/3 sets up QUIC and TLS 1.3 together, so the request leaves after one round trip.
const sim = createSimulation({ server, rtt: 100, tls: '1.3', httpVersion: '3' }); // QUIC: transport and TLS in one round trip
await sim.fetch('/todos');
console.log(`done at ${Math.round(sim.clock.now())} ms`);
