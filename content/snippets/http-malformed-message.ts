import { createServer, createSimulation, http } from 'roundtrip/wire';

// Not every client is a browser. This one opens a raw socket to the server and writes a request by hand,
// with one mistake: a space between a field name and its colon (RFC 9112 §5.1 forbids it, because
// proxies and servers once disagreed about what it meant, and that disagreement smuggled requests).
// Open the Messages tab after running: the inspector points at the byte the parser stopped at.
const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1 }]))] });
const sim = createSimulation({ server, httpVersion: '1.1', rtt: 80, seed: 1 });

const socket = sim.connect('api.example:80');
socket.onData((bytes) => console.log('server answered:', new TextDecoder().decode(bytes).split('\r\n')[0]));
socket.onClose(({ by, how }) => console.log(`connection closed by the ${by} (${how})`));
socket.write(new TextEncoder().encode('GET /todos HTTP/1.1\r\nHost : api.example\r\n\r\n'));

// Nothing is fetched, so nothing drives the virtual clock: move it along by hand.
await sim.advance(1_000);
