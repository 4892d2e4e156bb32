import { createSimulation, createServer, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/profile', () => new Response('ok'))] });
const sim = createSimulation({ server, proxy: { kind: 'smart' } });

// X-Session is meant for the proxy only; X-Trace is meant for the origin.
// Goal: the proxy removes X-Session before forwarding, and X-Trace still reaches the origin.
await sim.fetch('/profile', { headers: { 'X-Session': 'proxy-only', 'X-Trace': 'end-to-end' } });

for (const e of sim.trace.ofType('message-parsed').filter((m) => m.kind === 'request')) {
  console.log(`${e.by} received:`, e.headers.map((h) => h.name).join(', '));
}
