/**
 * Both HTTP/2 directions read as one connection (issue #30 item 13), with real bytes: nghttp and nghttpd's
 * exchange (fixtures/h2-client.*, h2-server.*) pasted, and a timed capture of nghttp -w 12 downloading 10,000
 * octets from nghttpd through a recording relay (fixtures/h2c-flow.chunks.json: each chunk one read, as a pcap
 * reader's TCP reassembly hands them over), whose 4,095-octet stream window only the client's WINDOW_UPDATE
 * frames keep open.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from 'roundtrip/wire';
import { parseHex } from './hex';
import { type H2Chunk, readH2Connection } from './h2-connection';
import { inspect } from './inspect';
import { h2ConnectionEvents } from './to-recording';

const text = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const hex = (name: string): Uint8Array => {
  const r = parseHex(text(name));
  if (!r.ok) throw new Error(`${name}: ${r.message}`);
  return r.bytes;
};
const CLIENT = hex('h2-client.hexstream.txt');
const SERVER = hex('h2-server.hexstream.txt');
const FLOW = JSON.parse(text('h2c-flow.chunks.json')) as Record<'client' | 'server', { time: number; hex: string }[]>;
const chunks = (side: 'client' | 'server'): H2Chunk[] => FLOW[side].map((c) => ({ bytes: Uint8Array.from(Buffer.from(c.hex, 'hex')), time: c.time }));
const frames = (events: readonly TraceEvent[]) => events.flatMap((e) => (e.type === 'h2-frame' ? [`${e.side} ${e.frameType} ${e.streamId}`] : []));

describe('the pasted nghttp/nghttpd pair as one connection', () => {
  const r = readH2Connection({ client: [{ bytes: CLIENT }], server: [{ bytes: SERVER }] });

  it('matches each request with its response by stream id, each side decoded with its own HPACK table', () => {
    expect(r.streams.map((s) => ({ id: s.streamId, path: s.request?.find((f) => f.name === ':path')?.value, status: s.status, body: s.responseData }))).toEqual(
      [
        { id: 13, path: '/todos/1', status: 200, body: 60 },
        { id: 15, path: '/todos', status: 200, body: 185 },
      ],
    );
    // The server's second HEADERS (9 octets) names entries its first one added: read with the server's table.
    const second = r.streams[1]!.response!;
    expect(second.find((f) => f.name === 'server')?.value).toBe('roundtrip-serve');
    expect(r.server.table.entries.length).toBeGreaterThan(0);
    expect(r.client.table.entries.map((e) => e.name)).toContain(':authority');
    expect(r.findings).toEqual([]);
  });

  it('orders the sides by cause: the server speaks after the client began, answers a stream after its HEADERS', () => {
    const order = frames(r.events);
    expect(order.slice(0, 3)).toEqual(['client SETTINGS 0', 'server SETTINGS 0', 'server SETTINGS 0']);
    expect(order.indexOf('server HEADERS 13')).toBe(order.indexOf('client HEADERS 13') + 1);
    expect(order.indexOf('server HEADERS 15')).toBe(order.indexOf('client HEADERS 15') + 1);
  });

  it('ends each stream closed at both endpoints, through half-closed (local) at the sender of each END_STREAM', () => {
    const moves = r.events.flatMap((e) => (e.type === 'h2-stream-transition' && e.streamId === 13 ? [`${e.side}: ${e.from} -> ${e.to}`] : []));
    expect(moves).toEqual([
      'client: idle -> open',
      'server: idle -> open',
      'client: open -> half_closed_local',
      'server: open -> half_closed_remote',
      'server: half_closed_remote -> closed',
      'client: half_closed_local -> closed',
    ]);
    expect(r.streams.map((s) => s.states)).toEqual([
      { client: 'closed', server: 'closed' },
      { client: 'closed', server: 'closed' },
    ]);
  });
});

describe('a timed capture: flow control from both sides', () => {
  it("the server's DATA stays inside the 4,095-octet window the client set, thanks to its WINDOW_UPDATE credit", () => {
    const r = readH2Connection({ client: chunks('client'), server: chunks('server') });
    expect(r.timed).toBe(true);
    expect(r.findings).toEqual([]);
    expect(r.streams[0]).toMatchObject({ streamId: 13, status: 200, responseData: 10_000 });
    // 4,095 (SETTINGS_INITIAL_WINDOW_SIZE) + 2 x 4,095 (WINDOW_UPDATE) - 10,000.
    expect(r.server.flow.find((f) => f.streamId === 13)).toMatchObject({ dataSent: 10_000, windowLeft: 2_285 });
    expect(r.client.flow.find((f) => f.streamId === 13)).toMatchObject({ granted: 8_190 });
    // Frames sit at their capture times (ms from the first chunk), in order.
    const times = r.events.filter((e) => e.type === 'h2-frame').map((e) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeCloseTo(FLOW.client.at(-1)!.time - FLOW.client[0]!.time, 3);
  });

  it('without the WINDOW_UPDATE frames, the second DATA overruns the stream window: FLOW_CONTROL_ERROR at -4,095', () => {
    const client = chunks('client');
    // Chunk 2 is the SETTINGS ACK (9 octets) and a WINDOW_UPDATE (13); chunk 3 is the other WINDOW_UPDATE.
    const cut = [client[0]!, { ...client[1]!, bytes: client[1]!.bytes.subarray(0, 9) }, client[3]!];
    const r = readH2Connection({ client: cut, server: chunks('server') });
    expect(r.findings).toEqual([
      expect.objectContaining({
        sender: 'server',
        message: expect.stringMatching(
          /^The server's DATA takes the flow-control window of stream 13 to -4,095 at frame \d+: .*FLOW_CONTROL_ERROR \(RFC 9113 §6\.9\.1\)\. The client gave 4,095 octets \(its SETTINGS_INITIAL_WINDOW_SIZE\) and 0 more with WINDOW_UPDATE\.$/,
        ),
      }),
    ]);
    // Untimed, only the sum is certain: -5,905 once all 10,000 octets are counted.
    const untimed = readH2Connection({ client: cut.map((c) => ({ bytes: c.bytes })), server: chunks('server').map((c) => ({ bytes: c.bytes })) });
    expect(untimed.findings.map((f) => f.message)).toEqual([expect.stringContaining('stream 13 to -5,905 at the end of the capture')]);
  });

  it('draws each frame from its sender at its own time (to-recording)', () => {
    const r = readH2Connection({ client: chunks('client'), server: chunks('server') });
    const drawn = h2ConnectionEvents(r.events, true).filter((e) => e.type === 'bytes-sent');
    expect(drawn.filter((e) => e.type === 'bytes-sent' && e.from === 'server').length).toBe(r.server.frames);
    expect(drawn.map((e) => e.at)).toEqual([...drawn.map((e) => e.at)].sort((a, b) => a - b));
  });
});

describe('pasting both sides in /inspect/', () => {
  const client = text('h2-client.hexstream.txt').trim();
  const server = text('h2-server.hexstream.txt').trim();

  it.each([
    ['labelled client: and server:', `client:\n${client}\nserver:\n${server}\n`],
    ['labels with the hex on the same line, server first', `Server: ${server}\nClient: ${client}`],
    ['two hex blocks separated by a blank line', `${client}\n\n${server}\n`],
    ['an xxd dump and an od dump', `client:\n${text('h2-client.xxd.txt')}\nserver:\n${text('h2-server.od.txt')}`],
  ])('%s: one connection, Replay offered with what the server answered', (_, pasted) => {
    const r = inspect({ text: pasted });
    expect(r.format).toBe('h2');
    expect(r.problems).toEqual([]);
    expect(r.h2Connection?.streams.map((s) => [s.streamId, s.method, s.path, s.status, s.responseData, s.states.client])).toEqual([
      [13, 'GET', '/todos/1', 200, 60, 'closed'],
      [15, 'GET', '/todos', 200, 185, 'closed'],
    ]);
    expect(r.replay?.exchanges.map((e) => [e.path, e.status, JSON.parse(e.responseBody)])).toEqual([
      ['/todos/1', 200, expect.objectContaining({ id: '1', title: 'Read RFC 9110 §9 (methods)' })],
      ['/todos', 200, expect.any(Array)],
    ]);
    const source = r.recording?.sources[0];
    const drawn = source?.kind === 'wire' ? source.events.filter((e) => e.type === 'bytes-sent').map((e) => (e.type === 'bytes-sent' ? e.from : '')) : [];
    expect(new Set(drawn)).toEqual(new Set(['client', 'server']));
  });

  it('a section that is not hex names its side', () => {
    const r = inspect({ text: `client:\n${client}\nserver:\n00 zz 11\n` });
    expect(r.problems[0]?.where).toMatch(/^the server's section \(2 of 2\)/);
  });
});
