import { createSimulation, createServer, http } from 'roundtrip/wire';

const server = () => createServer({ routes: [http.get('/todos/:id', (_req, { params }) => Response.json({ id: Number(params.id) }))] });

// HTTP/2 through a forward proxy: one CONNECT, then TLS and h2 end to end inside the tunnel.
const sim = createSimulation({ httpVersion: '2', tls: '1.3', proxy: {}, server: server() });
const responses = await Promise.all([sim.fetch('https://api.example/todos/1'), sim.fetch('https://api.example/todos/2')]);
console.log(
  'statuses:',
  responses.map((r) => r.status),
);

for (const e of sim.trace.ofType('message-parsed').filter((m) => m.by === 'proxy')) {
  console.log(`the proxy read only: ${e.startLine}`);
}
for (const e of sim.trace.ofType('tunnel-established')) console.log(`tunnel open to ${e.authority}`);
const versions = sim.trace.ofType('request-finished').map((e) => e.response.httpVersion);
console.log('protocol inside the tunnel:', versions);

// HTTP/3 cannot take the same road: QUIC is UDP, and CONNECT tunnels TCP.
try {
  createSimulation({ httpVersion: '3', proxy: {}, server: server() });
} catch (error) {
  console.log('HTTP/3:', (error as Error).message);
}
