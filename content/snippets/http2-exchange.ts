import { createServer, createSimulation, http, http2Client } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// A page and a photo fetched at once over one HTTP/2 connection: SETTINGS first, two streams whose frames
// interleave, a photo larger than the 65,535-octet window so the server waits for WINDOW_UPDATE, and a
// stylesheet the server pushes with the page. Switch flow control to 'browser' and the stall is gone.
const { flowControl, push } = defineOptions({
  flowControl: {
    type: 'select',
    choices: ['rfc-defaults', 'browser'],
    default: 'rfc-defaults',
    label: 'Flow-control windows',
    doc: "Receive windows the client offers: RFC 9113's 65,535 octets, or Chrome's 6 MiB per stream",
  },
  push: { type: 'boolean', default: true, label: 'Server push allowed', doc: 'Client lets the server push (SETTINGS_ENABLE_PUSH, RFC 9113 §6.5.2)' },
});

const page = '<!doctype html><link rel="stylesheet" href="/style.css"><img src="/photo.jpg">';
const server = createServer({
  routes: [
    http.get('/', () => new Response(page, { headers: { 'content-type': 'text/html' } }), { push: ['/style.css'] }),
    http.get('/style.css', () => new Response('img { width: 100% }', { headers: { 'content-type': 'text/css' } })),
    http.get('/photo.jpg', () => new Response(new Uint8Array(100_000), { headers: { 'content-type': 'image/jpeg' } })),
  ],
});
const sim = createSimulation({ server, httpVersion: '2', http2: { flowControl }, protocols: { '2': http2Client({ enablePush: push }) } });

const [html, photo] = await Promise.all([sim.fetch('/'), sim.fetch('/photo.jpg')]);
console.log(`/ ${html.status}, ${(await html.text()).length} bytes; /photo.jpg ${photo.status}, ${(await photo.arrayBuffer()).byteLength} bytes`);
const css = await sim.fetch('/style.css'); // taken from the push, if there was one: no new request
console.log(`/style.css ${css.status}: ${await css.text()}`);

const frames = sim.trace.ofType('h2-frame').filter((f) => f.direction === 'sent');
const count = (side: string, type: string) => frames.filter((f) => f.side === side && f.frameType === type).length;
console.log(`client sent ${count('client', 'SETTINGS')} SETTINGS, ${count('client', 'HEADERS')} HEADERS, ${count('client', 'WINDOW_UPDATE')} WINDOW_UPDATE`);
console.log(`server sent ${count('server', 'PUSH_PROMISE')} PUSH_PROMISE, ${count('server', 'DATA')} DATA frames`);
