/**
 * HTTP/2 read one direction at a time (issue #30 item 8): stream states per endpoint, HPACK errors at their
 * byte, flow-control windows and frame sizes checked against RFC 9113, and both directions pasted as one
 * noticed and split.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeHttp2Frames, HpackEncoder, HTTP2_CLIENT_PREFACE, HTTP2_FLAGS, type Http2Frame, type TraceEvent } from 'roundtrip/wire';
import { parseHex } from './hex';
import { h2ConnectionReadStates, readBlock, readFrames } from './h2';
import { inspect } from './inspect';

const hex = (name: string): Uint8Array => {
  const r = parseHex(readFileSync(join(__dirname, 'fixtures', name), 'utf8'));
  if (!r.ok) throw new Error(`${name}: ${r.message}`);
  return r.bytes;
};
const CLIENT = hex('h2-client.hexstream.txt'); // nghttp: GET /todos/1 on stream 13, GET /todos on 15
const SERVER = hex('h2-server.hexstream.txt'); // nghttpd's answers to them
const transitions = (events: readonly TraceEvent[]) =>
  events.flatMap((e) => (e.type === 'h2-stream-transition' ? [`${e.side} ${e.streamId}: ${e.from} -${e.input}/${e.direction}-> ${e.to}`] : []));

const response = (streamId: number, end = false): Http2Frame => ({
  type: 'HEADERS',
  streamId,
  flags: HTTP2_FLAGS.END_HEADERS | (end ? HTTP2_FLAGS.END_STREAM : 0),
  headerBlockFragment: new HpackEncoder().encode([{ name: ':status', value: '200' }]),
});
const data = (streamId: number, length: number, end = false): Http2Frame => ({
  type: 'DATA',
  streamId,
  flags: end ? HTTP2_FLAGS.END_STREAM : 0,
  data: new Uint8Array(length),
});

describe('stream states per endpoint (RFC 9113 §5.1)', () => {
  it("a server's frames move the server's stream as the receiver of the client's HEADERS, then as the sender of END_STREAM", () => {
    const r = readFrames(SERVER);
    expect(r.sender).toBe('server');
    expect(transitions(r.events).filter((t) => t.includes(' 13:'))).toEqual([
      // The client's HEADERS on 13 is not in the capture: it opened the stream at both ends.
      'client 13: idle -HEADERS/send-> open',
      'server 13: idle -HEADERS/recv-> open',
      // The server's DATA with END_STREAM: half-closed (local) at the server, (remote) at the client.
      'server 13: open -END_STREAM/send-> half_closed_local',
      'client 13: open -END_STREAM/recv-> half_closed_remote',
    ]);
    expect(transitions(r.events).some((t) => t.startsWith('server') && t.includes('idle -HEADERS/send'))).toBe(false);
    expect(r.openedByPeer).toEqual([13, 15]);
    expect(r.findings).toEqual([]);
  });

  it("a client's frames: send at the client, recv at the server, with no stream opened for it", () => {
    const r = readFrames(CLIENT);
    expect(transitions(r.events).filter((t) => t.includes(' 15:'))).toEqual([
      'client 15: idle -HEADERS/send-> open',
      'server 15: idle -HEADERS/recv-> open',
      'client 15: open -END_STREAM/send-> half_closed_local',
      'server 15: open -END_STREAM/recv-> half_closed_remote',
    ]);
    expect(r.openedByPeer).toEqual([]);
  });

  it('read a piece at a time with shared endpoint states, the server finds the stream the client opened', () => {
    const states = h2ConnectionReadStates();
    const request = readFrames(CLIENT, { state: states.client });
    const answer = readFrames(SERVER, { state: states.server });
    expect(request.openedByPeer).toEqual([]);
    expect(answer.openedByPeer).toEqual([]);
    expect(transitions(answer.events).filter((t) => t.includes(' 13:'))).toEqual([
      'server 13: half_closed_remote -END_STREAM/send-> closed',
      'client 13: half_closed_local -END_STREAM/recv-> closed',
    ]);
  });

  it('a frame the receiving endpoint cannot take in its state is flagged with the error §5.1 names', () => {
    const r = readFrames(encodeHttp2Frames([response(13), data(13, 5, true), data(13, 5)]));
    expect(r.findings).toEqual([
      expect.objectContaining({
        frame: 3,
        message: 'Frame 3 (DATA on stream 13) reaches the client with its stream half-closed (remote): a stream error of type STREAM_CLOSED (RFC 9113 §5.1).',
      }),
    ]);
  });
});

describe('HPACK errors at their byte', () => {
  it('index 62 at byte 3 of a block is reported at byte 3', () => {
    const { reading } = readBlock(Uint8Array.of(0x82, 0x86, 0x84, 0xbe));
    expect(reading.problem?.offset).toBe(3);
    expect(reading.problem?.message).toMatch(/Index 62 is past the end of the tables/);
  });

  it('in frames: at the byte of the input, across a CONTINUATION frame', () => {
    const block = new HpackEncoder().encode([
      { name: ':method', value: 'GET' },
      { name: ':path', value: '/a' },
    ]);
    const bad = Uint8Array.from([...block, 0xc1]); // index 65: nothing there
    const frames = encodeHttp2Frames([
      { type: 'HEADERS', streamId: 1, flags: 0, headerBlockFragment: bad.subarray(0, 2) },
      { type: 'CONTINUATION', streamId: 1, flags: HTTP2_FLAGS.END_HEADERS, headerBlockFragment: bad.subarray(2) },
    ]);
    const r = readFrames(frames);
    // HEADERS: 9 + 2 octets; CONTINUATION: a 9-octet header, then the rest of the block, whose last byte is 0xc1.
    expect(r.problem?.offset).toBe(frames.length - 1);
    expect(frames[r.problem!.offset]).toBe(0xc1);
    expect(r.problem?.frame).toBe(2);
  });

  it("in a real capture: the client's first block made to name index 62 fails at that byte, not at its frame", () => {
    const bytes = CLIENT.slice();
    const r0 = readFrames(CLIENT);
    const headers = r0.events.find((e) => e.type === 'h2-frame' && e.frameType === 'HEADERS');
    if (headers?.type !== 'h2-frame') throw new Error('no HEADERS');
    const fragment = headers.ranges.find((x) => /fragment|block/i.test(x.field))!;
    const at = indexOf(CLIENT, headers.data) + fragment.start;
    bytes[at] = 0xbe;
    const r = readFrames(bytes);
    expect(r.problem?.offset).toBe(at);
    expect(r.problem?.offset).toBeGreaterThan(indexOf(CLIENT, headers.data) + 9);
  });
});

describe('flow control and frame size (RFC 9113 §6.9.1, §4.2)', () => {
  it('DATA past the 65,535-octet window is flagged with its window (-137,097), and says the peer might have raised it', () => {
    // 202,632 octets of DATA on stream 1: twelve full frames and one of 6,024; the fourth full one overruns by 1.
    const frames = [response(1), ...Array.from({ length: 12 }, () => data(1, 16_384)), data(1, 6_024, true)];
    const r = readFrames(encodeHttp2Frames(frames), { sender: 'server' });
    expect(r.flow.find((f) => f.streamId === 1)).toMatchObject({ dataSent: 202_632, windowLeft: -137_097 });
    expect(r.findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/window of the connection to -1 at frame 5: .*FLOW_CONTROL_ERROR \(RFC 9113 §6\.9\.1\)/),
      expect.stringMatching(/window of stream 1 to -1 at frame 5: .*this capture, so this holds only if they gave no more/),
    ]);
    const inspected = inspect({ text: Buffer.from(encodeHttp2Frames(frames)).toString('hex'), format: 'h2', sender: 'server' });
    expect(inspected.problems.map((p) => p.message).join('\n')).toMatch(/FLOW_CONTROL_ERROR \(RFC 9113 §6\.9\.1\)/);
    expect(inspected.h2?.flow.find((f) => f.streamId === 1)?.windowLeft).toBe(-137_097);
  });

  it('a 16,385-octet DATA frame is over the default SETTINGS_MAX_FRAME_SIZE; 16,384 is not', () => {
    const over = readFrames(encodeHttp2Frames([response(1), data(1, 16_385, true)]), { sender: 'server' });
    expect(over.findings).toEqual([
      expect.objectContaining({
        frame: 2,
        offset: encodeHttp2Frames([response(1)]).length,
        message: expect.stringContaining(
          'carries 16,385 octets, over the 16,384 the client accepts (SETTINGS_MAX_FRAME_SIZE, 16,384 by default): a FRAME_SIZE_ERROR (RFC 9113 §4.2)',
        ),
      }),
    ]);
    expect(readFrames(encodeHttp2Frames([response(1), data(1, 16_384, true)]), { sender: 'server' }).findings).toEqual([]);
  });
});

describe('both directions pasted as one', () => {
  it("the client's and the server's bytes in one dump are split at the server's SETTINGS and read as one connection", () => {
    const both = Buffer.from([...CLIENT, ...SERVER]).toString('hex');
    const r = inspect({ text: both });
    expect(r.format).toBe('h2');
    expect(r.notes[0]).toMatch(/both directions pasted as one: the client's .* up to byte 213, then the server's/);
    expect(r.h2Connection?.streams.map((s) => [s.streamId, s.method, s.path, s.status])).toEqual([
      [13, 'GET', '/todos/1', 200],
      [15, 'GET', '/todos', 200],
    ]);
    expect(r.problems).toEqual([]);
  });

  it('read as one sender when asked, and warned about', () => {
    const both = Buffer.from([...CLIENT, ...SERVER]).toString('hex');
    const r = inspect({ text: both, format: 'h2', sender: 'client' });
    expect(r.h2Connection).toBeUndefined();
    expect(r.problems.map((p) => p.message)).toContainEqual(expect.stringMatching(/^A field block with :status follows the client's connection preface/));
  });

  it('a client capture alone is not split', () => {
    const r = inspect({ text: Buffer.from(CLIENT).toString('hex') });
    expect(r.h2Connection).toBeUndefined();
    expect(r.h2?.sender).toBe('client');
    expect([...CLIENT.subarray(0, 24)]).toEqual([...HTTP2_CLIENT_PREFACE]);
  });
});

function indexOf(haystack: Uint8Array, needle: string): number {
  const bytes = Uint8Array.from(needle, (c) => c.charCodeAt(0));
  outer: for (let i = 0; i + bytes.length <= haystack.length; i++) {
    for (let j = 0; j < bytes.length; j++) if (haystack[i + j] !== bytes[j]) continue outer;
    return i;
  }
  return -1;
}
