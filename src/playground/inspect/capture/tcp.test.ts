import { describe, expect, it } from 'vitest';
import { decodePacket, TCP_FLAGS, type TcpPacket } from './packet';
import { TcpReassembler } from './tcp';
import { ipv4Tcp } from './testing';

const { SYN, ACK, FIN, RST, PSH } = TCP_FLAGS;
const C = { src: [10, 0, 0, 1], dst: [10, 0, 0, 2], sport: 40000, dport: 80 };
const S = { src: [10, 0, 0, 2], dst: [10, 0, 0, 1], sport: 80, dport: 40000 };

function run(segments: { from: 'c' | 's'; seq: number; ack?: number; flags: number; payload?: string }[]) {
  const r = new TcpReassembler();
  segments.forEach((s, i) => {
    const ends = s.from === 'c' ? C : S;
    const packet = decodePacket(
      ipv4Tcp({ ...ends, seq: s.seq, ...(s.ack !== undefined ? { ack: s.ack } : {}), flags: s.flags, ...(s.payload ? { payload: s.payload } : {}) }),
      101,
    ) as TcpPacket;
    r.add({ number: i + 1 }, i * 10, packet);
  });
  return r.connections();
}

const text = (chunks: readonly { bytes: Uint8Array }[]) => chunks.map((c) => new TextDecoder().decode(c.bytes)).join('');

describe('TCP reassembly', () => {
  it('tells client from server by the SYN and numbers sequence and ack from each ISN, as Wireshark does', () => {
    const [c] = run([
      { from: 'c', seq: 1000, flags: SYN },
      { from: 's', seq: 5000, ack: 1001, flags: SYN | ACK },
      { from: 'c', seq: 1001, ack: 5001, flags: ACK | PSH, payload: 'hello' },
      { from: 's', seq: 5001, ack: 1006, flags: ACK | PSH, payload: 'world!' },
      { from: 'c', seq: 1006, ack: 5007, flags: FIN | ACK },
      { from: 's', seq: 5007, ack: 1007, flags: RST },
    ]);
    expect(c!.roles).toBe('syn');
    expect([c!.client.port, c!.server.port]).toEqual([40000, 80]);
    expect(c!.segments.map((s) => [s.from, s.seq, s.ack, s.length])).toEqual([
      ['client', 0, undefined, 0],
      ['server', 0, 1, 0],
      ['client', 1, 1, 5],
      ['server', 1, 6, 6],
      ['client', 6, 7, 0],
      ['server', 7, undefined, 0],
    ]);
    expect(text(c!.chunks.client)).toBe('hello');
    expect(text(c!.chunks.server)).toBe('world!');
    expect(c!.closed).toEqual([
      { by: 'client', how: 'FIN' },
      { by: 'server', how: 'RST' },
    ]);
    expect(c!.segments[5]!.notes[0]).toMatch(/^reset/);
    // Each chunk carries the time of the packet that delivered it.
    expect(c!.chunks.server.map((x) => x.time)).toEqual([30]);
  });

  it('holds a segment ahead of a gap and releases it, in order, when the gap fills', () => {
    const [c] = run([
      { from: 'c', seq: 1, flags: SYN },
      { from: 'c', seq: 7, flags: ACK, payload: 'world' },
      { from: 'c', seq: 2, flags: ACK, payload: 'hello' },
    ]);
    expect(text(c!.chunks.client)).toBe('helloworld');
    expect(c!.chunks.client).toHaveLength(1);
    expect(c!.chunks.client[0]!.time).toBe(20);
    expect(c!.segments[1]!.notes[0]).toMatch(/^ahead of a gap: bytes 1-5 are missing/);
    expect(c!.segments[2]!.notes).toEqual(['out of order: fills the gap before the held segments', 'releases 5 held bytes']);
  });

  it('reads retransmitted bytes once, takes only the new part of an overlap, and flags changed bytes', () => {
    const [c] = run([
      { from: 'c', seq: 1, flags: SYN },
      { from: 'c', seq: 2, flags: ACK, payload: 'abcdef' },
      { from: 'c', seq: 2, flags: ACK, payload: 'abcdef' },
      { from: 'c', seq: 5, flags: ACK, payload: 'dEfghi' },
    ]);
    expect(text(c!.chunks.client)).toBe('abcdefghi');
    expect(c!.segments[2]!.notes).toEqual(['retransmission (bytes 1-6 came before)']);
    expect(c!.segments[3]!.notes).toEqual(['overlaps 3 bytes already received (DIFFERENT bytes: the first copy is kept)']);
  });

  it('follows sequence numbers across the 2^32 wrap', () => {
    const [c] = run([
      { from: 'c', seq: 0xfffffffd, flags: SYN },
      { from: 'c', seq: 0xfffffffe, flags: ACK, payload: 'abc' },
      { from: 'c', seq: 1, flags: ACK, payload: 'def' },
    ]);
    expect(text(c!.chunks.client)).toBe('abcdef');
    expect(c!.segments.map((s) => s.seq)).toEqual([0, 1, 4]);
  });

  it('starts mid-connection without a SYN, taking the lower port as the server', () => {
    const [c] = run([
      { from: 's', seq: 9000, ack: 77, flags: ACK, payload: 'HTTP/1.1 200 OK\r\n' },
      { from: 'c', seq: 77, ack: 9017, flags: ACK, payload: 'GET' },
    ]);
    expect(c!.roles).toBe('ports');
    expect(c!.server.port).toBe(80);
    expect(c!.segments[0]!.notes).toEqual(['first segment of this side (its SYN is not in the capture)']);
    expect(text(c!.chunks.server)).toBe('HTTP/1.1 200 OK\r\n');
  });

  it('names bytes that never arrived and the segments left unread after them', () => {
    const [c] = run([
      { from: 'c', seq: 1, flags: SYN },
      { from: 'c', seq: 2, flags: ACK, payload: 'ab' },
      { from: 'c', seq: 10, flags: ACK, payload: 'zz' },
    ]);
    expect(text(c!.chunks.client)).toBe('ab');
    expect(c!.problems).toEqual(["The client's bytes 3-8 were never captured: the 2 bytes after them (segment 3) cannot be read in order and are left out."]);
  });

  it("reads data carried on a SYN (TCP Fast Open, RFC 7413) as the stream's first bytes", () => {
    const [c] = run([
      { from: 'c', seq: 700, flags: SYN, payload: 'GET ' },
      { from: 's', seq: 9, ack: 705, flags: SYN | ACK },
      { from: 'c', seq: 705, ack: 10, flags: ACK, payload: '/ HTTP/1.1' },
    ]);
    expect(text(c!.chunks.client)).toBe('GET / HTTP/1.1');
    expect(c!.segments.map((s) => s.notes)).toEqual([[], [], []]);
  });

  it('starts a new connection when a SYN with a new ISN reuses the 4-tuple', () => {
    const conns = run([
      { from: 'c', seq: 1, flags: SYN },
      { from: 'c', seq: 2, flags: FIN | ACK },
      { from: 'c', seq: 500, flags: SYN },
      { from: 'c', seq: 501, flags: ACK, payload: 'x' },
    ]);
    expect(conns.map((c) => [c.id, c.segments.length, text(c.chunks.client)])).toEqual([
      ['tcp1', 2, ''],
      ['tcp2', 2, 'x'],
    ]);
  });
});
