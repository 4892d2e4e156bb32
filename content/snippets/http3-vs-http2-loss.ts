import { createServer, createSimulation } from 'roundtrip/wire';

// Six responses on one connection, on a clean link and then with 10% of packets lost.
// Same seed and loss for both: one TCP byte stream (HTTP/2) against independent QUIC streams (HTTP/3).
const parts = [1, 2, 3, 4, 5, 6];
const resources = Object.fromEntries(parts.map((n) => [`/part/${n}`, { body: 'x'.repeat(1500), contentType: 'text/plain' }]));

for (const httpVersion of ['2', '3'] as const) {
  for (const loss of [0, 0.1]) {
    const sim = createSimulation({ httpVersion, tls: '1.3', rtt: 100, bandwidth: Infinity, loss, seed: 2, server: createServer({ resources }) });
    await Promise.all(parts.map((n) => sim.fetch(`https://api.example/part/${n}`)));
    const done = sim.trace.ofType('request-finished');
    // Only the request that opened the connection paid for setup; the others report -1.
    const connect = Math.max(...done.map((e) => e.timings.connect));
    const finished = done.map((e) => Math.round(e.at)).join(', ');
    console.log(`HTTP/${httpVersion}, loss ${loss}: ${connect} ms to connect; finished at ${finished} ms`);
  }
}
