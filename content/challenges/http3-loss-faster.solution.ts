import { createServer, createSimulation } from 'roundtrip/wire';

// Six small responses over HTTP/2 and over HTTP/3, on a link that loses one packet of the responses: the
// one carrying byte 2,000 of the server's data (lossSchedule), in both runs. Requested together, the six
// share HTTP/2's one TCP byte stream, so the lost packet holds back the responses behind it too; over
// HTTP/3 each is its own QUIC stream, and a loss holds back only the stream it hit (RFC 9000 §2.2).
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
  await Promise.all(parts.map((n) => sim.fetch(`https://api.example/part/${n}`))); // all at once
  console.log(`HTTP/${httpVersion}: done at ${Math.round(sim.clock.now())} ms`);
}
