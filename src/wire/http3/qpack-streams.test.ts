/**
 * QPACK's dynamic table inside HTTP/3 (RFC 9204 over RFC 9114): the encoder and decoder streams between two
 * Http3Connection engines, a field section blocked behind a lost encoder-stream packet, and the encoder
 * falling back to literals when the peer allows no blocked streams.
 */
import { describe, expect, it } from 'vitest';
import { HTTP3_ERROR_CODES, HTTP3_STREAM_TYPES } from './frames';
import type { Http3Event } from './http3-events';
import type { Http3QpackOptions } from './http3-options';
import type { QuicDatagram } from './packets';
import type { QpackField } from './qpack';
import { Http3Pair } from './testing';

const text = new TextEncoder();
const request = (path: string, extra: QpackField[] = []): QpackField[] => [
  { name: ':method', value: 'GET' },
  { name: ':scheme', value: 'https' },
  { name: ':authority', value: 'shop.example' },
  { name: ':path', value: path },
  { name: 'user-agent', value: 'roundtrip-test/1.0' },
  ...extra,
];
const OK: QpackField[] = [
  { name: ':status', value: '200' },
  { name: 'content-type', value: 'text/plain' },
];
/** Client encoder stream: the client's second unidirectional stream (its control stream is 2; RFC 9000 §2.1). */
const CLIENT_ENCODER = 6;

const carries = (d: QuicDatagram, streamId: number): boolean => d.packets.some((p) => p.frames.some((f) => f.type === 'STREAM' && f.streamId === streamId));

/**
 * A warm-up request fills the table and is acknowledged; when its response arrives the client sends two more:
 * stream 4 with a header never seen before (a new insert) and stream 8 identical to the warm-up (only
 * acknowledged entries). `lose` drops the first transmission of the datagram carrying stream 4's insert.
 */
function lesson(lose: boolean, qpack: { client?: Http3QpackOptions; server?: Http3QpackOptions } = {}) {
  let encoderPackets = 0;
  const pair = new Http3Pair({
    qpack,
    drop: (d, from) => lose && from === 'client' && carries(d, CLIENT_ENCODER) && ++encoderPackets === 2,
    react: (p, side, event: Http3Event) => {
      // The warm-up leaves once the server's SETTINGS are known, so it may use the dynamic table (§3.2.3).
      if (side === 'client' && event.type === 'settings-received') p.record('client', p.client.request(request('/app'), new Uint8Array(0), p.now).events);
      if (side === 'client' && event.type === 'message' && event.streamId === 0) {
        p.record('client', p.client.request(request('/cart', [{ name: 'x-basket', value: 'b-2291' }]), new Uint8Array(0), p.now).events);
        p.record('client', p.client.request(request('/app'), new Uint8Array(0), p.now).events);
      }
      if (side === 'server' && event.type === 'message') return p.server.respond(event.streamId, OK, text.encode(`for ${event.streamId}`), p.now);
      return undefined;
    },
  });
  pair.record('client', pair.client.start(0));
  pair.run();
  /** When the server had each request whole (its 'message'), by stream. */
  const arrived = new Map(
    pair.log.filter((l) => l.side === 'server' && l.event.type === 'message').map((l) => [(l.event as { streamId: number }).streamId, l.at]),
  );
  const done = new Map(
    pair.log.filter((l) => l.side === 'client' && l.event.type === 'message').map((l) => [(l.event as { streamId: number }).streamId, l.at]),
  );
  return { pair, arrived, done };
}

describe('QPACK encoder and decoder streams in Http3Connection (RFC 9204 §4.2)', () => {
  it('opens the encoder stream (type 0x02) with its first inserts and the decoder stream (type 0x03) with its first acknowledgment', () => {
    const { pair } = lesson(false);
    const sent = pair.events('client', 'qpack-instructions').filter((e) => e.stream === 'encoder');
    expect(sent[0]?.streamId).toBe(CLIENT_ENCODER);
    // §4.3.1: the first instruction is Set Dynamic Table Capacity 4096: 001 + 5-bit prefix 31, then 4065 = 0xe1 0x1f.
    expect([...sent[0]!.bytes.subarray(0, 3)]).toEqual([0x3f, 0xe1, 0x1f]);
    // The stream's first byte on the wire is its type.
    const first = pair.log.flatMap((l) =>
      l.side === 'client' && l.event.type === 'packet-sent'
        ? l.event.packet.frames.flatMap((f) => (f.type === 'STREAM' && f.streamId === CLIENT_ENCODER && f.offset === 0 ? [f.data[0]] : []))
        : [],
    );
    expect(first).toEqual([HTTP3_STREAM_TYPES.QPACK_ENCODER]);
    const acks = pair.events('server', 'qpack-instructions').filter((e) => e.stream === 'decoder');
    // A server-initiated unidirectional stream (RFC 9000 §2.1) whose first byte is the decoder stream's type.
    expect(acks[0]!.streamId % 4).toBe(3);
    const decoderType = pair.log.flatMap((l) =>
      l.side === 'server' && l.event.type === 'packet-sent'
        ? l.event.packet.frames.flatMap((f) => (f.type === 'STREAM' && f.streamId === acks[0]!.streamId && f.offset === 0 ? [f.data[0]] : []))
        : [],
    );
    expect(decoderType).toEqual([HTTP3_STREAM_TYPES.QPACK_DECODER]);
    // §4.4.1 Section Acknowledgment for stream 0: 1 + 7-bit stream id 0 = 0x80, after the Insert Count Increment
    // (§4.4.3: 00 + 6-bit increment) for the inserts that arrived in an earlier datagram, if any.
    expect(acks.flatMap((e) => [...e.bytes])).toContain(0x80);
    // Every insert acknowledged: the client's encoder knows all the server received.
    expect(pair.client.qpack.encoder.knownReceivedCount).toBe(pair.client.qpack.encoder.insertCount);
    expect(pair.client.qpack.encoder.insertCount).toBeGreaterThan(0);
    expect(pair.server.qpack.decoder.insertCount).toBe(pair.client.qpack.encoder.insertCount);
    expect(pair.events('server', 'qpack-blocked')).toEqual([]);
  });

  it('the dynamic table shrinks a repeated request: 7 bytes, a 2-byte prefix and five 1-byte indexed lines (§4.5.1, §4.5.2)', () => {
    const { pair } = lesson(false);
    const sizes = pair.events('server', 'message').map((e) => [e.streamId, e.fieldSectionSize]);
    // Stream 8 repeats stream 0's fields: :method GET and :scheme https from the static table, :authority, :path
    // and user-agent from the dynamic table, each one byte; the prefix is Required Insert Count and Delta Base.
    const section = (id: number) => sizes.find(([s]) => s === id)![1]!;
    expect(section(8)).toBe(7);
    // Without the table: prefix 2, :method and :scheme 1 each, then three literals with static name references
    // (§4.5.4) and Huffman-coded values (RFC 7541 Appendix B): :authority 1 + (1 + 9 for 69 bits), :path 1 +
    // (1 + 3 for 23 bits), user-agent 2 (index 95 overflows the 4-bit prefix) + (1 + 13 for 99 bits) = 36.
    const staticOnly = lesson(false, { server: { maxTableCapacity: 0 } }).pair.events('server', 'message');
    expect(staticOnly.find((e) => e.streamId === 8)!.fieldSectionSize).toBe(2 + 1 + 1 + 11 + 5 + 16);
  });

  it('a lost encoder-stream packet blocks only the stream that references its insert, until the retransmission (§2.1.2)', () => {
    const clean = lesson(false);
    const lossy = lesson(true);
    expect(lossy.pair.dropped.length).toBe(1);
    const blocked = lossy.pair.events('server', 'qpack-blocked');
    expect(blocked.map((e) => e.streamId)).toEqual([4]);
    // Stream 0 inserted :authority, :path and user-agent (3 entries, acknowledged); stream 4 needs 2 more
    // (:path /cart and x-basket), both in the lost packet: Required Insert Count 5 with 3 received.
    expect(blocked[0]).toMatchObject({ requiredInsertCount: 5, insertCount: 3 });
    const unblocked = lossy.pair.events('server', 'qpack-unblocked');
    expect(unblocked.map((e) => e.streamId)).toEqual([4]);
    // Stream 8 is read as soon as it arrives, before stream 4 though it was sent after it, and no later than without loss.
    expect(lossy.arrived.get(8)!).toBeLessThan(lossy.arrived.get(4)!);
    expect(lossy.arrived.get(8)).toBe(clean.arrived.get(8));
    // Stream 4 waits for the retransmission: it is read once its insert arrives, later than without loss.
    expect(lossy.arrived.get(4)!).toBeGreaterThan(clean.arrived.get(4)!);
    const unblockedAt = lossy.pair.log.find((l) => l.side === 'server' && l.event.type === 'qpack-unblocked')!.at;
    expect(lossy.arrived.get(4)).toBe(unblockedAt);
    // Its fields are the ones sent, and every request is answered.
    const req4 = lossy.pair.events('server', 'message').find((e) => e.streamId === 4)!;
    expect(req4.fields.find((f) => f.name === 'x-basket')?.value).toBe('b-2291');
    expect([...lossy.done.keys()].sort()).toEqual([0, 4, 8]);
    expect(lossy.pair.client.state).not.toBe('closed');
  });

  it('maxBlockedStreams 0: the encoder never references an unacknowledged insert, so nothing blocks (§2.1.2)', () => {
    const lossy = lesson(true, { server: { maxBlockedStreams: 0 } });
    expect(lossy.pair.events('server', 'qpack-blocked')).toEqual([]);
    // The insert still went out (and was lost), but stream 4 carried its new field as a literal.
    expect(lossy.pair.dropped.length).toBe(1);
    const clean = lesson(false, { server: { maxBlockedStreams: 0 } });
    expect(lossy.arrived.get(4)).toBe(clean.arrived.get(4));
    const req4 = lossy.pair.events('server', 'message').find((e) => e.streamId === 4)!;
    expect(req4.fields.find((f) => f.name === 'x-basket')?.value).toBe('b-2291');
    // The literal costs bytes: stream 4's section is larger than with blocking allowed.
    const allowed = lesson(false)
      .pair.events('server', 'message')
      .find((e) => e.streamId === 4)!;
    expect(req4.fieldSectionSize).toBeGreaterThan(allowed.fieldSectionSize);
  });

  it('uses at most 64 KiB of a larger table the peer allows: Set Dynamic Table Capacity 65,536 (§3.2.3, §4.3.1)', () => {
    const { pair } = lesson(false, { server: { maxTableCapacity: 100_000 } });
    const [first] = pair.events('client', 'qpack-instructions').filter((e) => e.stream === 'encoder');
    // 001 + 5-bit prefix 31, then 65,536 - 31 = 65,505 in 7-bit groups, low first: 97 | 0x80, 127 | 0x80, 3.
    expect([...first!.bytes.subarray(0, 4)]).toEqual([0x3f, 0xe1, 0xff, 0x03]);
    expect(pair.server.qpack.decoder.tableState().capacity).toBe(65_536);
  });

  it('maxTableCapacity 0: static table and literals only, no encoder or decoder stream (§3.2.3)', () => {
    const { pair } = lesson(false, { client: { maxTableCapacity: 0 }, server: { maxTableCapacity: 0 } });
    expect(pair.events('client', 'qpack-instructions')).toEqual([]);
    expect(pair.events('server', 'qpack-instructions')).toEqual([]);
    expect(pair.events('client', 'message').length).toBe(3);
    const streams = new Set(
      pair.log.flatMap((l) => (l.event.type === 'packet-sent' ? l.event.packet.frames.flatMap((f) => (f.type === 'STREAM' ? [f.streamId] : [])) : [])),
    );
    expect([...streams].sort((a, b) => a - b)).toEqual([0, 2, 3, 4, 8]);
  });

  it('a request reset before its field section was read sends a Stream Cancellation (§4.4.2)', () => {
    let cancelled = false;
    const pair = new Http3Pair({
      drop: (d, from) => from === 'client' && carries(d, CLIENT_ENCODER) && !cancelled,
      react: (p, side, event: Http3Event) => {
        if (side === 'client' && event.type === 'settings-received') {
          p.record('client', p.client.request(request('/slow'), new Uint8Array(0), p.now).events);
        }
        // The server's request is blocked (its inserts were lost): the client gives up on it.
        if (side === 'server' && event.type === 'qpack-blocked' && !cancelled) {
          cancelled = true;
          p.record('client', p.client.cancel(event.streamId, p.now));
        }
        return undefined;
      },
    });
    pair.record('client', pair.client.start(0));
    pair.run();
    expect(pair.events('server', 'qpack-blocked').map((e) => e.streamId)).toEqual([0]);
    expect(pair.events('server', 'message')).toEqual([]);
    const decoder = pair.events('server', 'qpack-instructions').filter((e) => e.stream === 'decoder');
    // §4.4.2 Stream Cancellation of stream 0: 01 + 6-bit stream id = 0x40.
    expect(decoder.some((e) => e.bytes.includes(0x40))).toBe(true);
    expect(pair.server.qpack.decoder.blockedStreams).toEqual([]);
    expect(pair.client.qpack.encoder.blockingStreams).toEqual([]);
  });

  it('a second encoder stream from the peer is H3_STREAM_CREATION_ERROR (§4.2)', () => {
    const pair = new Http3Pair({
      react: (p, side, event: Http3Event) => {
        if (side === 'client' && event.type === 'ready') {
          // Two streams that each open with type 0x02 (the first with Set Dynamic Table Capacity 0).
          p.record('client', p.client.writeRaw(6, Uint8Array.of(HTTP3_STREAM_TYPES.QPACK_ENCODER, 0x20), false, p.now));
          p.record('client', p.client.writeRaw(10, Uint8Array.of(HTTP3_STREAM_TYPES.QPACK_ENCODER), false, p.now));
        }
        return undefined;
      },
    });
    pair.record('client', pair.client.start(0));
    pair.run();
    const [error] = pair.events('server', 'connection-error');
    expect(error?.error.code).toBe('H3_STREAM_CREATION_ERROR');
    expect(error?.error.message).toContain('Stream 10 is a second QPACK encoder stream');
    expect(pair.events('client', 'closed')[0]?.errorCode).toBe(HTTP3_ERROR_CODES.H3_STREAM_CREATION_ERROR);
  });

  it('a malformed encoder-stream instruction closes the connection with QPACK_ENCODER_STREAM_ERROR (§6)', () => {
    const pair = new Http3Pair({
      react: (p, side, event: Http3Event) => {
        // Set Dynamic Table Capacity 8192, above the 4096 the server allowed (§4.3.1).
        if (side === 'client' && event.type === 'ready') p.record('client', p.client.writeRaw(6, Uint8Array.of(0x02, 0x3f, 0xe1, 0x3f), false, p.now));
        return undefined;
      },
    });
    pair.record('client', pair.client.start(0));
    pair.run();
    const [error] = pair.events('server', 'connection-error');
    expect(error?.error.code).toBe('QPACK_ENCODER_STREAM_ERROR');
    const closed = pair.events('client', 'closed');
    expect(closed[0]?.errorCode).toBe(HTTP3_ERROR_CODES.QPACK_ENCODER_STREAM_ERROR);
  });
});
