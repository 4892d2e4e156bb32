import { createServer, createSimulation, http, isHopByHop } from 'roundtrip/wire';

// A client talks to the origin through a smart proxy. Its request mixes end-to-end fields with
// hop-by-hop ones: TE and Keep-Alive from the fixed set, and X-Debug, which Connection names.
// The origin allows one request per connection (max: 1), so its reply says Connection: close.
const server = createServer({ keepAlive: { max: 1 }, routes: [http.get('/report', () => new Response('ok', { headers: { 'Cache-Control': 'max-age=60' } }))] });
const sim = createSimulation({ server, proxy: { kind: 'smart' } });

const connection = 'keep-alive, X-Debug';
const headers = { Accept: 'text/plain', TE: 'trailers', 'Keep-Alive': 'timeout=30', 'X-Debug': '1', Connection: connection };
for (const name of Object.keys(headers)) console.log(name.padEnd(10), isHopByHop(name, [connection]) ? 'hop-by-hop' : 'end-to-end');

const res = await sim.fetch('/report', { headers });
for (const e of sim.trace.ofType('proxy-forwarded')) console.log(`proxy removed from the ${e.kind}:`, e.removedHeaders);
const atOrigin = sim.trace.ofType('message-parsed').find((e) => e.by === 'server' && e.kind === 'request');
console.log('the origin received:', atOrigin?.headers.map((h) => h.name).join(', '));
console.log('the client received:', [...res.headers.keys()].join(', '));
