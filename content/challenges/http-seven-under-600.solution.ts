import { createSimulation, createServer, http } from 'roundtrip/wire';

// A page and its six subresources, from a server that answers each in 10 ms. Don't change the server.
const server = createServer({ routes: [http.get('/:name', (_req, { params }) => new Response(`content of ${params.name}`), { latency: 10 })] });
const paths = ['/index.html', '/app.css', '/app.js', '/logo.svg', '/font.woff2', '/data.json', '/photo.jpg'];

// Six connections, as browsers open per origin, and the subresources requested together.
const sim = createSimulation({ server, httpVersion: '1.1', rtt: 100, maxConnectionsPerOrigin: 6 });
await sim.fetch(paths[0]!);
await Promise.all(paths.slice(1).map((path) => sim.fetch(path)));
console.log(`page loaded at ${Math.round(sim.clock.now())} ms`);
