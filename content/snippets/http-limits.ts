import { HTTP1_DEFAULT_MAX_HEADER_BYTES, createServer, createSimulation, http, parseHttp1 } from 'roundtrip/wire';

// A header section just past the HTTP/1 reader's limit. Try a shorter cookie.
const cookie = 'c'.repeat(HTTP1_DEFAULT_MAX_HEADER_BYTES);
const { error } = parseHttp1(`GET / HTTP/1.1\r\nHost: api.example\r\nCookie: ${cookie}\r\n\r\n`, { role: 'server' });
console.log(error?.code, '->', error?.statusHint, `(found at byte ${error?.offset})`);

// The mock server reads with the same engine, so over the network the client gets the status itself.
const server = createServer({ keepAlive: { timeout: 2000, max: 2 }, routes: [http.get('/n/:n', () => new Response('ok'))] });
const sim = createSimulation({ server, httpVersion: '1.0', keepAlive: true });
console.log('huge header:', (await sim.fetch('/n/0', { headers: { Cookie: cookie } })).status);

// Keep-Alive terms: at most 2 requests per connection, closed after 2 s idle. Try other values.
const show = async (n: number) => {
  const res = await sim.fetch(`/n/${n}`);
  const reused = sim.trace.ofType('request-finished').at(-1)!.timings.connect < 0;
  console.log(
    `request ${n} (${reused ? 'reused' : 'new'} connection): Connection: ${res.headers.get('connection')}, Keep-Alive: ${res.headers.get('keep-alive') ?? '-'}`,
  );
};
for (const n of [1, 2, 3]) await show(n);
await sim.advance(3000); // idle longer than the timeout
await show(4);
