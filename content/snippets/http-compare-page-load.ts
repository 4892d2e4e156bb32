import { createServer, createSimulation, type SimulationOptions } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// One page, seven ways to fetch it. Every run loads the same HTML document over HTTPS, then the
// subresources the document names, all at once, as a browser does once it has parsed the HTML.
// Open the Compare tab to see the runs side by side; Waterfall and Sequence show one run in detail.
const { rtt, assets, loss, burst, congestionControl } = defineOptions({
  rtt: { type: 'number', default: 100, min: 10, max: 500, step: 10, label: 'Round-trip time', doc: 'Round-trip time, virtual ms' },
  assets: { type: 'number', default: 8, min: 1, max: 20, integer: true, label: 'Subresources', doc: 'Subresources the page loads after its HTML' },
  loss: {
    type: 'number',
    default: 0,
    min: 0,
    max: 0.1,
    step: 0.01,
    label: 'Packet loss',
    doc: 'Share of data packets lost, the same packets in every run (seed 1)',
  },
  burst: {
    type: 'number',
    default: 1,
    min: 1,
    max: 10,
    integer: true,
    label: 'Loss burst',
    doc: 'Mean packets lost in a row: 1 draws each loss on its own; more uses a Gilbert-Elliott model at the same mean loss',
  },
  congestionControl: {
    type: 'select',
    choices: ['cubic', 'newreno'],
    default: 'cubic',
    label: 'Congestion control',
    doc: 'CUBIC with HyStart++ (RFC 9438, RFC 9406; Linux and most QUIC stacks) or NewReno (RFC 6582)',
  },
});

const kinds = ['style.css', 'app.js', 'logo.svg', 'photo.jpg'];
const paths = Array.from({ length: assets }, (_, i) => `/assets/${i + 1}-${kinds[i % kinds.length]}`);
const resources = Object.fromEntries([
  ['/index.html', { body: '<!doctype html>' + '<p>Hello</p>'.repeat(500), contentType: 'text/html' }],
  ...paths.map((path, i) => [path, { body: 'x'.repeat(2_000 + 1_500 * (i % 4)), contentType: 'application/octet-stream' }]),
]);

const runs: SimulationOptions[] = [
  { label: 'HTTP/1.0, a new connection per request', httpVersion: '1.0', maxConnectionsPerOrigin: 1 },
  { label: 'HTTP/1.0 with Keep-Alive, 1 connection', httpVersion: '1.0', keepAlive: true, maxConnectionsPerOrigin: 1 },
  { label: 'HTTP/1.1 persistent, 1 connection', httpVersion: '1.1', maxConnectionsPerOrigin: 1 },
  { label: 'HTTP/1.1 pipelining, 1 connection', httpVersion: '1.1', maxConnectionsPerOrigin: 1, pipelining: true },
  { label: 'HTTP/1.1, 6 connections', httpVersion: '1.1', maxConnectionsPerOrigin: 6 },
  { label: 'HTTP/2, 1 connection', httpVersion: '2' },
  { label: 'HTTP/3 (QUIC)', httpVersion: '3' },
];

for (const run of runs) {
  const lossModel = burst > 1 ? { kind: 'gilbert-elliott' as const, burst } : 'independent';
  const sim = createSimulation({ ...run, tls: '1.3', rtt, loss, lossModel, congestionControl, seed: 1, server: createServer({ resources }) });
  await (await sim.fetch('/index.html')).text();
  await Promise.all(paths.map(async (path) => (await sim.fetch(path)).text()));

  const opened = sim.trace.events.filter((e) => (e.type === 'connection-opening' && e.from === 'client') || e.type === 'quic-connection-opening').length;
  const loaded = Math.round(sim.clock.now());
  console.log(`${run.label}: ${loaded} ms (${(loaded / rtt).toFixed(1)} round trips), ${opened} connection${opened === 1 ? '' : 's'}`);
}
