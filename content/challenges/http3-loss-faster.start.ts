import { createServer, createSimulation } from 'roundtrip/wire';

// Six small responses over HTTP/2 and over HTTP/3, on a link that loses one packet of the responses: the
// one carrying byte 2,000 of the server's data (lossSchedule), in both runs. Goal: make HTTP/3's median
// response time (from a request leaving to its last byte, the connection's setup left out) at least 30 %
// shorter than HTTP/2's, keeping the lost packet and the resources. The Waterfall shows each request's
// wait; the Compare view puts both runs side by side.
const parts = [1, 2, 3, 4, 5, 6];
const resources = Object.fromEntries(parts.map((n) => [`/part/${n}`, { body: 'x'.repeat(1_500), contentType: 'text/plain' }]));

for (const httpVersion of ['2', '3'] as const) {
  const sim = createSimulation({
    label: `HTTP/${httpVersion}`,
    httpVersion,
    tls: '1.3',
    rtt: 100,
    lossSchedule: { server: [2_000] },
    server: createServer({ resources }),
  });
  for (const n of parts) await sim.fetch(`https://api.example/part/${n}`); // one after another
  console.log(`HTTP/${httpVersion}: done at ${Math.round(sim.clock.now())} ms`);
}
