import { connectRawHttp2, createServer, createSimulation, http } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// Slowloris: start a request and never finish it, sending just enough, just often enough, that the
// connection never looks idle. One such client costs a connection slot for as long as it likes.
// Turn the defence off, or switch the version, and watch whether the server lets go.
const { defence, version } = defineOptions({
  defence: {
    type: 'boolean',
    default: true,
    label: 'Defence on',
    doc: 'HTTP/1: the header section must arrive within 10 s of its first byte (else 408). HTTP/2: a request still arriving does not keep the connection open past the 5 s idle timeout',
  },
  version: { type: 'select', choices: ['HTTP/1.1', 'HTTP/2'], default: 'HTTP/1.1', label: 'Protocol', doc: 'Protocol the slow client speaks' },
});

const server = createServer({
  routes: [http.post('/upload', () => new Response('stored'))],
  headerTimeout: defence ? 10_000 : false,
  halfOpenStreamsKeepAlive: !defence,
});
const sim = createSimulation({ server, httpVersion: version === 'HTTP/2' ? '2' : '1.1' });
const encoder = new TextEncoder();
const SECONDS = 30; // how long the attacker keeps at it (the page runs this in virtual time)

if (version === 'HTTP/1.1') {
  const socket = sim.connect('api.example:80');
  let answer = '';
  let closedAt: number | undefined;
  socket.onData((bytes) => (answer += new TextDecoder().decode(bytes)));
  socket.onClose(() => (closedAt ??= sim.clock.now()));
  socket.write(encoder.encode('POST /upload HTTP/1.1\r\nHost: api.example\r\n'));
  // One more header line every 4 s: never the blank line that ends the header section.
  for (let t = 4; t <= SECONDS && closedAt === undefined; t += 4) {
    await sim.advance(4000);
    if (closedAt === undefined) socket.write(encoder.encode(`X-Slow-${t}: ${'z'.repeat(8)}\r\n`));
  }
  await sim.advance(1000);
  console.log(`server answered: ${answer.split('\r\n')[0] || '(nothing)'}`);
  console.log(closedAt === undefined ? `connection still open after ${SECONDS} s` : `connection closed at ${(closedAt / 1000).toFixed(1)} s`);
} else {
  const attacker = connectRawHttp2(sim);
  // A request with a body to come (no END_STREAM), then one byte of it every 4 s.
  attacker.request(1, '/upload', { method: 'POST', endStream: false });
  for (let t = 4; t <= SECONDS && attacker.closed === undefined; t += 4) {
    await sim.advance(4000);
    if (attacker.closed === undefined) attacker.send({ type: 'DATA', streamId: 1, flags: 0, data: encoder.encode('z') });
  }
  await sim.advance(1000);
  const goaway = attacker.goaway;
  console.log(goaway ? `GOAWAY ${attacker.goawayError}: ${new TextDecoder().decode(goaway.debugData)}` : 'no GOAWAY');
  const closed = attacker.closed;
  console.log(closed ? `connection closed by the ${closed.by}` : `connection still open after ${SECONDS} s, stream 1 still arriving`);
}
