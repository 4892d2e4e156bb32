import { createServer, createSimulation, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1 }]))] });

// A first visit: no connection yet, 100 ms round trips, TLS 1.3 as on the web.
// Goal: the response is complete in under 250 ms. Only the client's options may change.
const sim = createSimulation({ server, rtt: 100, tls: '1.3', httpVersion: '1.1' });
await sim.fetch('/todos');
console.log(`done at ${Math.round(sim.clock.now())} ms`);
