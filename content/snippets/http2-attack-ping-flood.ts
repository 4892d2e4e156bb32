import { HTTP2_FLAGS, type Http2Frame, connectRawHttp2, createServer, createSimulation } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// PING flood (CVE-2019-9512) and SETTINGS flood (CVE-2019-9515): every PING and every SETTINGS must be
// acknowledged, so each small frame the attacker sends makes the server queue an answer, and an attacker
// that stops reading lets those answers pile up. The simulated socket takes every write at once, so here
// answers wait only between two reads: one TCP segment carries about 85 PINGs, more than this budget.
// Turn the defence off and count the acknowledgements.
const { defence, frame, count } = defineOptions({
  defence: { type: 'boolean', default: true, label: 'Defence on', doc: 'At most 50 PING/SETTINGS acknowledgements waiting to be written (nghttp2: 1000)' },
  frame: { type: 'select', choices: ['PING', 'SETTINGS'], default: 'PING', label: 'Flood frame', doc: 'What the attacker floods with' },
  count: { type: 'number', default: 500, min: 10, max: 2000, integer: true, label: 'Frames sent', doc: 'Frames in the flood' },
});

const server = createServer({ http2Limits: { maxQueuedAcks: defence ? 50 : Number.POSITIVE_INFINITY } });
const sim = createSimulation({ server, httpVersion: '2' });
const attacker = connectRawHttp2(sim);
await sim.advance(300); // TCP handshake, then the prefaces and SETTINGS cross (100 ms round trips)

const flood: Http2Frame[] = Array.from(
  { length: count },
  (_, i) =>
    frame === 'PING'
      ? { type: 'PING', streamId: 0, flags: 0, opaqueData: new Uint8Array(8).fill(i % 256) }
      : { type: 'SETTINGS', streamId: 0, flags: 0, settings: [{ id: 0x4, value: 65_535 + i }] }, // INITIAL_WINDOW_SIZE
);
attacker.send(...flood); // one write, which arrives as a few full TCP segments
await sim.advance(1000);

const acks = attacker.received.filter((f) => f.type === frame && f.flags & HTTP2_FLAGS.ACK).length;
console.log(`attacker: ${count} ${frame} frames, ${attacker.sent.bytes} bytes sent`);
console.log(`server: ${acks} ${frame} acknowledgements written back`);
const goaway = attacker.goaway;
if (goaway) console.log(`GOAWAY ${attacker.goawayError}: ${new TextDecoder().decode(goaway.debugData)}`);
else console.log('no GOAWAY: the server answered every one');
