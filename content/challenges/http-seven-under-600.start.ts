import { createSimulation, createServer, http } from 'roundtrip/wire';

// A page and its six subresources, from a server that answers each in 10 ms. Don't change the server.
const server = createServer({ routes: [http.get('/:name', (_req, { params }) => new Response(`content of ${params.name}`), { latency: 10 })] });
const paths = ['/index.html', '/app.css', '/app.js', '/logo.svg', '/font.woff2', '/data.json', '/photo.jpg'];

// Goal: all seven loaded in under 600 ms over HTTP/1.1 at 100 ms RTT.
const sim = createSimulation({ server, httpVersion: '1.1', rtt: 100, maxConnectionsPerOrigin: 1 });
await sim.fetch(paths[0]!);
for (const path of paths.slice(1)) await sim.fetch(path);
console.log(`page loaded at ${Math.round(sim.clock.now())} ms`);
