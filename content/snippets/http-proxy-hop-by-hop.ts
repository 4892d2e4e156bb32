import { createSimulation, createServer, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/headers', () => new Response('ok'))] });
const sim = createSimulation({ server, proxy: { kind: 'smart' } });

await sim.fetch('/headers', {
  headers: { 'X-Trace': 'kept', TE: 'trailers', 'Secret-Hop': 'dropped', Connection: 'Secret-Hop' },
});

// The request as each hop parsed it off the wire: first the proxy (from the client), then the origin.
for (const e of sim.trace.ofType('message-parsed').filter((m) => m.kind === 'request')) {
  console.log(`${e.by} received: ${e.startLine}`);
  for (const h of e.headers) console.log(`    ${h.name}: ${h.value}`);
}
for (const e of sim.trace.ofType('proxy-forwarded')) {
  console.log(`proxy removed from the ${e.kind}:`, e.removedHeaders);
}
