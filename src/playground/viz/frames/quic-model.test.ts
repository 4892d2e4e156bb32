import { beforeAll, describe, expect, it } from 'vitest';
import { createServer, createSimulation, http, readQuicFrame } from 'roundtrip/wire';
import type { Recording } from '../../recording/model';
import type { FieldNode } from './model';
import { decodePacket, protectInitial, quicConnections, quicPacketTree, type QuicConnectionView, type QuicPacketRef } from './quic-model';
import { hex, RFC9001_A2, rfc9001A2Payload, toHex } from '../../../wire/crypto/testing';
import { recordingOf } from './test-recording';

let recording: Recording;
let conn: QuicConnectionView;

beforeAll(async () => {
  const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1, title: 'Learn HTTP/3' }]))] });
  const sim = createSimulation({ server, httpVersion: '3', seed: 7 });
  await sim.fetch('/todos');
  await sim.fetch('/todos?page=2');
  recording = recordingOf([sim]);
  conn = quicConnections(recording)[0]!;
});

const find = (nodes: readonly FieldNode[], pred: (n: FieldNode) => boolean): FieldNode[] =>
  nodes.flatMap((n) => [...(pred(n) ? [n] : []), ...find(n.children ?? [], pred)]);

describe('QUIC packets in the Frames view model', () => {
  it('keeps every traced packet with bytes of the size the trace gives', () => {
    const sent = (recording.sources[0]!.events as readonly { type: string }[]).filter((e) => e.type === 'quic-packet-sent').length;
    expect(conn.packets.length).toBe(sent);
    for (const p of conn.packets) expect(p.bytes.length).toBe(p.event.size);
  });

  it("gives each frame the byte range quic-codec's reader consumed", () => {
    for (const ref of conn.packets) {
      const d = decodePacket(ref);
      const tree = quicPacketTree(ref, conn.streams);
      const frames = tree.find((n) => n.id === 'frames')!.children!;
      let at = d.payloadStart;
      for (const node of frames) {
        const read = readQuicFrame(ref.bytes.subarray(0, d.payloadEnd), at);
        expect(read.kind).toBe('ok');
        expect([node.start, node.end]).toEqual([at, read.kind === 'ok' ? read.next : -1]);
        at = node.end!;
      }
      expect(at).toBe(d.payloadEnd);
      expect(tree.find((n) => n.id === 'tag')).toMatchObject({ start: d.payloadEnd, end: ref.bytes.length });
    }
  });

  it("reads the client's first Initial header field by field (RFC 9000 §17.2.2)", () => {
    const first = conn.packets[0]!;
    expect(first.event).toMatchObject({ from: 'client', space: 'initial', packetNumber: 0 });
    const header = quicPacketTree(first)[0]!.children!;
    const at = (id: string) => header.find((n) => n.id === id)!;
    expect(at('version')).toMatchObject({ value: '0x00000001', start: 1, end: 5 });
    // RFC 9001 Appendix A's DCID, which the simulator's client uses for its first Initial.
    expect(at('dcid')).toMatchObject({ value: '8394c8f03e515708', start: 6, end: 14 });
    expect(at('scid-length')).toMatchObject({ start: 14, end: 15 });
    expect(at('token-length')).toMatchObject({ value: '0', start: 23, end: 24 });
    // Length is a 2-byte varint (top bits 01): the packet's 1,452 bytes less the 26 before the packet number.
    expect(first.bytes.length).toBe(1452);
    expect(at('length')).toMatchObject({ start: 24, end: 26 });
    expect(at('length').value).toMatch(/^1426 /);
    expect(((first.bytes[24]! & 0x3f) << 8) | first.bytes[25]!).toBe(1426);
    expect(first.bytes[24]! >> 6).toBe(1);
  });

  it('puts the HTTP/3 frames of each stream on it: SETTINGS on the control streams, HEADERS then DATA on requests', () => {
    const kinds = conn.streams.map((s) => `${s.from} ${s.streamId} ${s.kind} ${s.frames.map((f) => f.frame.type).join(',')}`);
    expect(kinds).toContain('client 0 request HEADERS');
    expect(kinds).toContain('server 0 request HEADERS,DATA');
    expect(kinds).toContain('client 4 request HEADERS');
    expect(kinds.some((k) => /^client 2 control SETTINGS/.test(k))).toBe(true);
    expect(kinds.some((k) => /^server 3 control SETTINGS/.test(k))).toBe(true);
    expect(conn.streams.some((s) => s.kind === 'qpack-encoder')).toBe(true);
    // A STREAM frame on stream 0 from the client names the HEADERS inside it, its range within the frame's data.
    const ref = conn.packets.find((p) => p.event.from === 'client' && p.event.frames.some((f) => f.startsWith('STREAM 0 ')))!;
    const tree = quicPacketTree(ref, conn.streams);
    const [headers] = find(tree, (n) => n.label === 'HTTP/3 HEADERS');
    const [data] = find(tree, (n) => n.label === 'Stream Data' && n.start! <= headers!.start! && headers!.end! <= n.end!);
    expect(headers).toBeDefined();
    expect(data).toBeDefined();
    expect(ref.bytes[headers!.start!]).toBe(0x01); // HEADERS frame type (RFC 9114 §7.2.2)
  });

  it("protects the client's Initial as RFC 9001 §5 says, and opening it gives the traced packet back", async () => {
    const first = conn.packets[0]!;
    const sealed = await protectInitial(first);
    expect(sealed.roundTrips).toBe(true);
    expect(sealed.bytes.length).toBe(first.bytes.length);
    // Unprotected header bytes stay as they were; the payload and the tag change.
    expect(Array.from(sealed.bytes.subarray(1, 24))).toEqual(Array.from(first.bytes.subarray(1, 24)));
    expect(Array.from(sealed.bytes.subarray(-16))).not.toEqual(new Array(16).fill(0));
    // The first byte keeps its top 4 bits (long header, fixed bit, type Initial): §5.4.1 masks only the low 4.
    expect(sealed.bytes[0]! & 0xf0).toBe(first.bytes[0]! & 0xf0);
  });

  it("protects RFC 9001 Appendix A.2's client Initial to A.2's protected bytes, byte for byte", async () => {
    // The unprotected packet as the trace would carry it: A.2's header, its payload, and 16 zero tag bytes.
    const header = hex(RFC9001_A2.unprotectedHeader);
    const payload = rfc9001A2Payload();
    const bytes = new Uint8Array(header.length + payload.length + 16);
    bytes.set(header);
    bytes.set(payload, header.length);
    const ref = {
      event: { type: 'quic-packet-sent', from: 'client', space: 'initial', packetNumber: 2, size: bytes.length, frames: [] },
      bytes,
      index: 0,
      step: 0,
    } as unknown as QuicPacketRef;
    const header0 = quicPacketTree(ref)[0]!.children!;
    expect(header0.find((n) => n.id === 'packet-number')).toMatchObject({ start: 18, end: 22 });
    const sealed = await protectInitial(ref);
    expect(sealed.bytes.length).toBe(1200);
    expect(toHex(sealed.bytes)).toBe(toHex(hex(RFC9001_A2.packet)));
    expect(sealed.roundTrips).toBe(true);
  });
});
