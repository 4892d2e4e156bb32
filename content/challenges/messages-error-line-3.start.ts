import { createServer, createSimulation, http } from 'roundtrip/wire';

const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1 }]))] });
const sim = createSimulation({ server, httpVersion: '1.1', rtt: 80, seed: 1 });

// A request written by hand on a raw connection. The server's parser stops at the first byte it refuses.
// Goal: change the request so that the parser stops at line 3, column 5 (open the Messages view to see where).
const request = 'GET /todos HTTP/1.1\r\nHost : api.example\r\n\r\n';

const socket = sim.connect('api.example:80');
socket.onData((bytes) => console.log('server answered:', new TextDecoder().decode(bytes).split('\r\n')[0]));
socket.write(new TextEncoder().encode(request));
await sim.advance(1_000); // nothing is fetched, so move the virtual clock by hand
