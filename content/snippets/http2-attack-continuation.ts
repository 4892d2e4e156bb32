import { HTTP2_FLAGS, connectRawHttp2, createServer, createSimulation, http } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// CONTINUATION flood (CVE-2024-27316 and its April 2024 family): one HEADERS without END_HEADERS, then
// CONTINUATION after CONTINUATION, none of them ending the block. Until it ends, the request cannot be handed
// on. A server either keeps the fragments, paying in memory (this one, and Apache httpd before its fix), or
// decodes each as it comes to keep HPACK in step and drops what is over its limit, paying in CPU (nghttp2
// before 1.61.0). Only the attacker is barred from sending other frames meanwhile (RFC 9113 §4.3, §6.10).
// Turn the defence off and watch the pile grow.
const { defence, frames } = defineOptions({
  defence: { type: 'boolean', default: true, label: 'Defence on', doc: 'At most 8 CONTINUATION frames per field block (nghttp2)' },
  frames: { type: 'number', default: 500, min: 10, max: 2000, integer: true, label: 'CONTINUATION frames', doc: 'CONTINUATION frames the attacker sends' },
});

let handled = 0;
const server = createServer({
  routes: [http.get('/', () => (handled++, new Response('hello')))],
  http2Limits: { maxContinuations: defence ? 8 : Number.POSITIVE_INFINITY },
});
const sim = createSimulation({ server, httpVersion: '2' });
const attacker = connectRawHttp2(sim);
await sim.advance(300); // TCP handshake, then the prefaces and SETTINGS cross (100 ms round trips)

const filler = new Uint8Array(100).fill(0x61); // never decoded: the block never ends
attacker.send(
  { type: 'HEADERS', streamId: 1, flags: HTTP2_FLAGS.END_STREAM, headerBlockFragment: attacker.fieldBlock(attacker.requestFields('/')) },
  ...Array.from({ length: frames }, () => ({ type: 'CONTINUATION' as const, streamId: 1, flags: 0, headerBlockFragment: filler })),
);
await sim.advance(1000);

console.log(`attacker: 1 HEADERS + ${frames} CONTINUATION frames, ${attacker.sent.bytes} bytes sent`);
const held = sim.server.http2Connections()[0]?.heldFieldBlock;
if (held) console.log(`server: holding ${held.frames} frames (${held.bytes} bytes) of one header block, still waiting for END_HEADERS`);
console.log(`handler runs: ${handled}`);
const goaway = attacker.goaway;
if (goaway) console.log(`GOAWAY ${attacker.goawayError}: ${new TextDecoder().decode(goaway.debugData)}`);
else console.log('no GOAWAY: the connection is still open');
