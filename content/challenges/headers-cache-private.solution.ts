import { createServer, createSimulation, http } from 'roundtrip/wire';

// A user's own profile: a browser may reuse it for a minute, a shared cache (a CDN, a proxy) may not store it.
// private: only the user's own cache may store it (RFC 9111 §5.2.2.7); max-age=60: fresh for 60 s (§5.2.2.1).
const server = createServer({
  routes: [http.get('/me', () => Response.json({ name: 'Ada' }, { headers: { 'Cache-Control': 'private, max-age=60' } }))],
});
const sim = createSimulation({ server });
const res = await sim.fetch('/me');
console.log(res.status, 'Cache-Control:', res.headers.get('cache-control'));
