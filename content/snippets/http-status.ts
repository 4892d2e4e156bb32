import { createServer, createSimulation, http, reasonPhrase, statusClassOf } from 'roundtrip/wire';

// A handful of answers a server can give, and how the client classifies them. A status the client
// does not know (499 here) is treated like the x00 code of its class.
const server = createServer({
  resources: { '/todos/1': { body: '{"title":"milk"}', contentType: 'application/json' } },
  routes: [
    http.post('/todos', () => new Response(null, { status: 201, headers: { Location: '/todos/2' } })),
    http.get('/old', () => new Response(null, { status: 301, headers: { Location: '/todos/1' } })),
    http.get('/teapot', () => new Response('unknown to most clients', { status: 499 })),
    http.get('/boom', () => {
      throw new Error('handler crashed');
    }),
  ],
});
const sim = createSimulation({ server });

const requests: [string, string][] = [
  ['GET', '/todos/1'],
  ['POST', '/todos'],
  ['GET', '/old'],
  ['GET', '/nowhere'],
  ['PATCH', '/todos/1'],
  ['GET', '/teapot'],
  ['GET', '/boom'],
];
for (const [method, path] of requests) {
  const res = await sim.fetch(path, { method, redirect: 'manual' });
  console.log(`${method} ${path} -> ${res.status} ${reasonPhrase(res.status) || '(no registered phrase)'} [${statusClassOf(res.status)}]`);
}
