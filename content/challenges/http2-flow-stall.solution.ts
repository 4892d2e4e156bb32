import { createServer, createSimulation, http } from 'roundtrip/wire';

// The photo's stream stalls on flow control: the server sends DATA up to the window the client
// gave, waits, and goes on only after the client's WINDOW_UPDATE (RFC 9113 §6.9). Change the photo or the
// client's windows ('browser': Chrome's 6 MiB per stream; 'rfc-defaults': 65,535 octets).
const photoBytes = 100_000; // more than one 65,535-octet window
const server = createServer({
  routes: [http.get('/photo.jpg', () => new Response(new Uint8Array(photoBytes), { headers: { 'content-type': 'image/jpeg' } }))],
});
const sim = createSimulation({ server, httpVersion: '2', http2: { flowControl: 'rfc-defaults' } });
const photo = await sim.fetch('/photo.jpg');
console.log(`${(await photo.arrayBuffer()).byteLength} bytes at ${Math.round(sim.clock.now())} ms`);
