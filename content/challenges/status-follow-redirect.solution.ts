import { createServer, createSimulation, http } from 'roundtrip/wire';

const server = createServer({
  resources: { '/todos/1': { body: '{"title":"milk"}', contentType: 'application/json' } },
  routes: [http.get('/old', () => new Response(null, { status: 301, headers: { Location: '/todos/1' } }))],
});
const sim = createSimulation({ server });

// A client that follows redirects asks again at the Location (RFC 9110 §15.4.2).
const res = await sim.fetch('/old'); // 'follow' is fetch's default: a 301 is followed to its Location
console.log(res.status, res.headers.get('location'));
