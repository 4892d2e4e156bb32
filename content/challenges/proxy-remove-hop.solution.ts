import { createSimulation, createServer, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/profile', () => new Response('ok'))] });
const sim = createSimulation({ server, proxy: { kind: 'smart' } });

// X-Session is meant for the proxy only; X-Trace is meant for the origin.
// Naming X-Session in Connection makes it hop-by-hop: a proxy removes it (RFC 9110 §7.6.1).
await sim.fetch('/profile', { headers: { 'X-Session': 'proxy-only', 'X-Trace': 'end-to-end', Connection: 'X-Session' } });

for (const e of sim.trace.ofType('message-parsed').filter((m) => m.kind === 'request')) {
  console.log(`${e.by} received:`, e.headers.map((h) => h.name).join(', '));
}
