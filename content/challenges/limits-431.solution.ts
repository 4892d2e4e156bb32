import { createServer, createSimulation, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/', () => new Response('ok'))] });
const sim = createSimulation({ server, httpVersion: '1.1' });

// Cookies grow. Goal: send a Cookie big enough that the server refuses the request's header section
// with 431 Request Header Fields Too Large (RFC 6585 §5), instead of answering 200.
const cookie = 'session=' + 'x'.repeat(17_000); // past the server's 16 KiB limit on the header section
const res = await sim.fetch('/', { headers: { Cookie: cookie } });
console.log(res.status, res.statusText);
