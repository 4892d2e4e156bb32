import { createServer, createSimulation, http } from 'roundtrip/wire';

// A user's own profile: a browser may reuse it for a minute, a shared cache (a CDN, a proxy) may not store it.
// Goal: make the response say exactly that, with Cache-Control.
const server = createServer({
  routes: [http.get('/me', () => Response.json({ name: 'Ada' }, { headers: { 'Cache-Control': 'public, max-age=3600' } }))],
});
const sim = createSimulation({ server });
const res = await sim.fetch('/me');
console.log(res.status, 'Cache-Control:', res.headers.get('cache-control'));
