import { createServer, createSimulation, http } from 'roundtrip/wire';

// A resource store: PUT creates or replaces the resource at a URL; POST to a collection creates a new one.
let created = 0;
const server = createServer({
  resources: true,
  routes: [http.post('/todos', async (req) => Response.json({ id: ++created, ...(await req.json()) }, { status: 201 }))],
});
const sim = createSimulation({ server });

// The network dropped the answer, so the client sends the same request again.
// PUT is idempotent (RFC 9110 §9.2.2): the same PUT twice leaves the same one resource.
const send = () => sim.fetch('/todos/milk', { method: 'PUT', body: '{"title":"milk"}', headers: { 'Content-Type': 'application/json' } });
for (const attempt of [1, 2]) console.log(`attempt ${attempt}:`, (await send()).status);
