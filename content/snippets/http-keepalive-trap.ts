import { createServer, createSimulation, http } from 'roundtrip/wire';

// An HTTP/1.0 client asks for Keep-Alive through a blind proxy that does not understand Connection.
// The proxy forwards the header unchanged, the origin agrees to keep its connection open, and the
// proxy waits for the origin to close. The client's second request hangs until the origin's timeout.
const server = () => createServer({ keepAlive: { timeout: 5000 }, routes: [http.get('/page/:n', (_req, { params }) => new Response(`page ${params.n}`))] });

for (const kind of ['smart', 'dumb'] as const) {
  const sim = createSimulation({ httpVersion: '1.0', keepAlive: true, proxy: { kind }, server: server(), maxConnectionsPerOrigin: 1 });
  await sim.fetch('/page/1');
  const first = sim.clock.now();
  await sim.fetch('/page/2');
  console.log(`${kind} proxy: first response at ${Math.round(first)} ms, second at ${Math.round(sim.clock.now())} ms`);
}
