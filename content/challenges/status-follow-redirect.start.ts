import { createServer, createSimulation, http } from 'roundtrip/wire';

const server = createServer({
  resources: { '/todos/1': { body: '{"title":"milk"}', contentType: 'application/json' } },
  routes: [http.get('/old', () => new Response(null, { status: 301, headers: { Location: '/todos/1' } }))],
});
const sim = createSimulation({ server });

// Goal: asking for /old ends with the todo itself (200 from /todos/1), not with the redirect.
const res = await sim.fetch('/old', { redirect: 'manual' });
console.log(res.status, res.headers.get('location'));
