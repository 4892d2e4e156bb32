import { createSimulation, createServer, http, methodInfo } from 'roundtrip/wire';

// A mock server with one resource store: PUT creates or replaces, GET reads, DELETE removes.
const server = createServer({
  resources: true,
  routes: [http.post('/todos', async (req) => Response.json({ created: await req.json() }, { status: 201 }))],
});
const sim = createSimulation({ server });

const show = async (method: string, path: string, body?: string) => {
  const res = await sim.fetch(path, { method, ...(body === undefined ? {} : { body, headers: { 'Content-Type': 'application/json' } }) });
  const info = methodInfo(method);
  console.log(`${method} ${path} -> ${res.status} ${res.statusText}`, { safe: info?.safe, idempotent: info?.idempotent });
};

await show('PUT', '/todos/1', '{"title":"milk"}'); // created: 201
await show('PUT', '/todos/1', '{"title":"oat milk"}'); // replaced: 200 or 204
await show('GET', '/todos/1');
await show('HEAD', '/todos/1'); // the GET headers, no body
await show('POST', '/todos', '{"title":"bread"}');
await show('DELETE', '/todos/1');
await show('DELETE', '/todos/1'); // idempotent: same server state, even if the status differs
