import { HTTP2_ERROR_CODES, HTTP2_FLAGS, connectRawHttp2, createServer, createSimulation, http } from 'roundtrip/wire';

// Rapid reset (CVE-2023-44487): open a stream and cancel it at once, 200 times on one connection.
// Without the defences, every one of them costs the server a handler.
const resetBudget = false; // no reset budget, and a request reset in the same read still reaches a handler

const server = createServer({
  routes: [http.get('/search', () => Response.json({ results: [] }), { latency: 500 })],
  http2Limits: { resetBurst: resetBudget ? 50 : Number.POSITIVE_INFINITY, maxConcurrentStreams: 20 },
  handleResetStreams: !resetBudget,
});
const sim = createSimulation({ server, httpVersion: '2' });
const attacker = connectRawHttp2(sim);
await sim.advance(300);
for (let i = 0; i < 200; i++) {
  const streamId = 1 + 2 * i;
  attacker.send(
    {
      type: 'HEADERS',
      streamId,
      flags: HTTP2_FLAGS.END_HEADERS | HTTP2_FLAGS.END_STREAM,
      headerBlockFragment: attacker.fieldBlock(attacker.requestFields('/search')),
    },
    { type: 'RST_STREAM', streamId, flags: 0, errorCode: HTTP2_ERROR_CODES.CANCEL },
  );
}
await sim.advance(1000);
console.log('handlers started:', sim.trace.ofType('server-handled').length);
