import { HTTP2_FLAGS, HpackEncoder, decodeHttp2Frames, encodeHttp2Frames, type Http2Frame } from 'roundtrip/wire';
import { show } from 'roundtrip/playground';

// Two requests multiplexed on one HTTP/2 connection: odd stream ids, interleaved frames, and the
// request line turned into pseudo-header fields compressed with HPACK.
const hpack = new HpackEncoder();
const headers = (path: string, method = 'GET') =>
  hpack.encode([
    { name: ':method', value: method },
    { name: ':scheme', value: 'https' },
    { name: ':authority', value: 'api.example' },
    { name: ':path', value: path },
    ...(method === 'POST' ? [{ name: 'content-type', value: 'application/json' }] : []),
  ]);
const body = new TextEncoder().encode('{"title":"milk"}');

const frames: Http2Frame[] = [
  { type: 'SETTINGS', streamId: 0, flags: 0, settings: [{ id: 0x3, value: 100 }] },
  { type: 'HEADERS', streamId: 1, flags: HTTP2_FLAGS.END_HEADERS, headerBlockFragment: headers('/todos', 'POST') },
  { type: 'HEADERS', streamId: 3, flags: HTTP2_FLAGS.END_HEADERS | HTTP2_FLAGS.END_STREAM, headerBlockFragment: headers('/todos') },
  { type: 'DATA', streamId: 1, flags: HTTP2_FLAGS.END_STREAM, data: body },
];

const bytes = encodeHttp2Frames(frames);
show(bytes, { as: 'http2' }); // the Frames view reads these bytes, field by field
console.log(`${frames.length} frames, ${bytes.length} bytes on the wire`);
for (const frame of decodeHttp2Frames(bytes).frames) {
  console.log(`stream ${frame.streamId}`.padEnd(10), frame.type.padEnd(9), `flags 0x${frame.flags.toString(16)}`);
}
