import { createServer, createSimulation } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// Six responses on one connection, on a clean link and then on a lossy one. Same seed and loss for both:
// one TCP byte stream (HTTP/2) against independent QUIC streams (HTTP/3). The seed decides which packets
// are lost, so a run replays exactly; change it to see another pattern of losses.
const { loss, rtt, seed } = defineOptions({
  loss: {
    type: 'number',
    default: 0.1,
    min: 0,
    max: 0.5,
    step: 0.01,
    label: 'Packet loss',
    doc: 'Probability that a data packet is lost (second run of each version)',
  },
  rtt: { type: 'number', default: 100, min: 1, max: 1000, step: 10, label: 'Round-trip time', doc: 'Round-trip time, virtual ms' },
  seed: {
    type: 'number',
    default: 2,
    min: 0,
    max: 1_000_000,
    integer: true,
    label: 'Random seed',
    doc: 'Seed of the random generator that picks lost packets',
  },
});

const parts = [1, 2, 3, 4, 5, 6];
const resources = Object.fromEntries(parts.map((n) => [`/part/${n}`, { body: 'x'.repeat(1500), contentType: 'text/plain' }]));

for (const httpVersion of ['2', '3'] as const) {
  for (const linkLoss of [0, loss]) {
    // The label names the run in the Compare tab, where all four line up on one time scale.
    const label = `HTTP/${httpVersion}, ${linkLoss === 0 ? 'no loss' : `${+(linkLoss * 100).toFixed(1)}% loss`}`;
    const sim = createSimulation({ label, httpVersion, tls: '1.3', rtt, bandwidth: Infinity, loss: linkLoss, seed, server: createServer({ resources }) });
    await Promise.all(parts.map((n) => sim.fetch(`https://api.example/part/${n}`)));
    const done = sim.trace.ofType('request-finished');
    // Only the request that opened the connection paid for setup; the others report -1.
    const connect = Math.max(...done.map((e) => e.timings.connect));
    const finished = done.map((e) => Math.round(e.at)).join(', ');
    console.log(`HTTP/${httpVersion}, loss ${linkLoss}: ${Math.round(connect)} ms to connect; finished at ${finished} ms`);
  }
}
