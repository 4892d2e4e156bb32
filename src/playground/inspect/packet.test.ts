import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from './detect';
import { parseHex } from './hex';
import { inspect } from './inspect';
import { decodePacket } from './capture/packet';
import { readPacket, type TcpPacket } from './packet';

// One packet each, copied out of `tcpdump -i lo -w` captures made here (a 14-byte Ethernet header of zeros):
// curl 7.88.1 fetching / from python's http.server on 127.0.0.1:18400 (tcpdump -nn: "127.0.0.1.41074 >
// 127.0.0.1.18400: Flags [P.], seq 1:80 ... length 79", and the answer's head, "length 186"), and
// curl --http2-prior-knowledge 'http://[::1]:18401/index.html' against nghttpd --no-tls ("::1.45302 >
// ::1.18401: Flags [P.], seq 1:65 ... length 64", and "::1.18401 > ::1.45302: ... seq 25:294 ... length 269").
const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const bytesOf = (name: string) => {
  const hex = parseHex(fixture(name));
  if (!hex.ok) throw new Error(hex.message);
  return hex.bytes;
};
const hexOf = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
const packet = (bytes: Uint8Array): TcpPacket => {
  const r = readPacket(bytes);
  if (!r?.ok) throw new Error(r ? r.message : 'not a packet');
  return r.packet;
};
const request = bytesOf('packet-ipv4-http1-request.hexstream.txt');

describe('a whole packet (Wireshark "Copy as Hex Stream")', () => {
  it('takes Ethernet, IPv4 and TCP apart and finds the payload tcpdump counted', () => {
    const p = packet(request);
    expect(p).toMatchObject({
      link: 'Ethernet',
      ip: 4,
      source: { address: '127.0.0.1', port: 41074 },
      destination: { address: '127.0.0.1', port: 18400 },
      // The SYN's seq was 486684071 (tcpdump printed it absolute), so the first data byte is 486684072.
      seq: 486684072,
      flags: ['PSH', 'ACK'],
      tcpHeader: 32,
      payloadAt: 66,
    });
    expect(p.payload.length).toBe(79);
    expect(new TextDecoder().decode(p.payload)).toMatch(/^GET \/ HTTP\/1\.1\r\nHost: 127\.0\.0\.1:18400\r\n/);
    expect(packet(bytesOf('packet-ipv4-http1-response.hexstream.txt')).payload.length).toBe(186);
  });

  it('takes IPv6 apart, and writes ::1 as RFC 5952 does', () => {
    const client = packet(bytesOf('packet-ipv6-h2-client.hexstream.txt'));
    expect(client).toMatchObject({ ip: 6, source: { address: '::1', port: 45302 }, destination: { address: '::1', port: 18401 }, payloadAt: 86 });
    expect(client.payload.length).toBe(64);
    expect(new TextDecoder().decode(client.payload.subarray(0, 24))).toBe('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    expect(packet(bytesOf('packet-ipv6-h2-server.hexstream.txt')).payload.length).toBe(269);
  });

  it('reads the other link layers: raw IP, 802.1Q, Linux cooked capture, BSD loopback', () => {
    const ip = request.subarray(14);
    const withLink = (link: number[]) => Uint8Array.from([...link, ...ip]);
    expect(packet(ip)).toMatchObject({ link: 'none (raw IP)', payloadAt: 52 });
    const vlan = Uint8Array.from([...request.subarray(0, 12), 0x81, 0x00, 0x00, 0x05, 0x08, 0x00, ...ip]);
    expect(packet(vlan)).toMatchObject({ link: 'Ethernet with 1 802.1Q tag', payloadAt: 70 });
    // SLL: packet type 0 (to us), ARPHRD_LOOPBACK 772, address length 6, 8 address bytes, protocol 0x0800.
    const sll = withLink([0, 0, 0x03, 0x04, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x00]);
    expect(packet(sll)).toMatchObject({ link: 'Linux cooked capture (SLL)', payloadAt: 68 });
    expect(packet(withLink([2, 0, 0, 0]))).toMatchObject({ link: 'BSD loopback', payloadAt: 56 });
    for (const p of [ip, vlan, sll]) expect(packet(p).payload).toEqual(packet(request).payload);
  });

  it('says what a packet without HTTP holds: no payload, UDP, a fragment', () => {
    // The SYN of the same connection (tcpdump: "Flags [S], seq 486684071 ... length 0").
    const syn = parseHex(
      '00000000000000000000000008004500003c6f9140004006cd287f0000017f000001a07247e01d0235a700000000a002ffd7fe3000000204ffd70402080a93b92f98000000000103030a',
    );
    expect(syn.ok && packet(syn.bytes)).toMatchObject({ flags: ['SYN'], seq: 486684071 });
    const r = inspect({ text: syn.ok ? hexOf(syn.bytes) : '' });
    expect(r.format).toBeNull();
    expect(r.problems[0]!.message).toMatch(/no TCP payload \(flags SYN\).* from 127\.0\.0\.1:41074 to 127\.0\.0\.1:18400/);
    const udp = Uint8Array.from(request);
    udp[14 + 9] = 17;
    expect(readPacket(udp)).toMatchObject({ ok: false, message: expect.stringMatching(/carries UDP, not TCP \(port 41074 to port 18400\)/) });
    const fragment = Uint8Array.from(request);
    fragment[14 + 6] = 0x20; // More Fragments set, Don't Fragment cleared
    expect(readPacket(fragment)).toMatchObject({ ok: false, message: expect.stringMatching(/an IPv4 fragment \(offset 0, more follow\)/) });
  });

  it('passes IPv6 extension headers before TCP, and reads a fragment as one, as a capture file is read', () => {
    // The IPv6 client packet with extension headers put in before its TCP header (RFC 8200 §4): hop-by-hop
    // (0) and destination options (60), 8 bytes each (a PadN option); then a fragment header (44), offset
    // 1,448, more following. Payload Length grows by what is put in.
    const client = bytesOf('packet-ipv6-h2-client.hexstream.txt');
    const withHeaders = (headers: (next: number) => number[][], first: number) => {
      const ip = Uint8Array.from(client.subarray(14, 54));
      const inserted = headers(ip[6]!).flat();
      ip[6] = first;
      const length = ((ip[4]! << 8) | ip[5]!) + inserted.length;
      ip[4] = length >> 8;
      ip[5] = length & 0xff;
      return Uint8Array.from([...client.subarray(0, 14), ...ip, ...inserted, ...client.subarray(54)]);
    };
    const padN = (next: number) => [next, 0, 1, 4, 0, 0, 0, 0];
    const options = withHeaders((tcp) => [padN(60), padN(tcp)], 0);
    expect(packet(options)).toMatchObject({ ip: 6, source: { port: 45302 }, destination: { port: 18401 }, payloadAt: 86 + 16 });
    expect(packet(options).payload).toEqual(packet(client).payload);
    const captured = decodePacket(options, 1);
    expect(captured.kind === 'tcp' && [captured.sourcePort, captured.destinationPort, captured.payload]).toEqual([45302, 18401, packet(client).payload]);

    const fragment = withHeaders((tcp) => [padN(44), [tcp, 0, 0x05, 0xa9, 0, 0, 0, 1]], 0);
    expect(readPacket(fragment)).toMatchObject({ ok: false, message: expect.stringMatching(/an IPv6 fragment \(offset 1448, more follow\)/) });
    expect(decodePacket(fragment, 1)).toEqual({ kind: 'other', what: 'an IPv6 fragment (not reassembled)' });
  });

  it('does not take HTTP/2 frames, HTTP/1 text or an HPACK block for a packet', () => {
    for (const name of ['h2-client.hexstream.txt', 'h2-server.hexstream.txt']) expect(readPacket(bytesOf(name))).toBeUndefined();
    expect(readPacket(new TextEncoder().encode('GET / HTTP/1.1\r\nHost: a\r\n\r\n'))).toBeUndefined();
    expect(readPacket(Uint8Array.from([0x82, 0x86, 0x84, 0x41, 0x0f]))).toBeUndefined();
    // The same packet cut by one byte: IPv4's Total Length no longer fits, and nothing else does.
    expect(readPacket(request.subarray(0, request.length - 1))).toBeUndefined();
  });

  it('reads the payload as what it is, and says which connection and direction', () => {
    const h1 = inspect({ text: fixture('packet-ipv4-http1-request.hexstream.txt') });
    expect(h1.format).toBe('http1');
    expect(h1.reason).toMatch(/of a whole packet \(Ethernet, IPv4, TCP\), whose 79-byte TCP payload is HTTP\/1 text/);
    expect(h1.problems).toEqual([]);
    expect(h1.verdicts!.filter((v) => v.strict).map((v) => [v.from, v.messages, v.incomplete])).toEqual([['client', 1, false]]);
    expect(h1.notes[0]).toMatch(
      /from 127\.0\.0\.1:41074 to 127\.0\.0\.1:18400.*bytes 66-144 \(79\).*127\.0\.0\.1:41074 is the client, 127\.0\.0\.1:18400 the server/,
    );
    const server = inspect({ text: fixture('packet-ipv6-h2-server.hexstream.txt') });
    expect(server.format).toBe('h2');
    expect(server.problems).toEqual([]);
    expect(server.h2).toMatchObject({ sender: 'server', frames: 2, blocks: 1 });
    expect(server.notes[0]).toMatch(/\[::1\]:18401 is the server, \[::1\]:45302 the client/);
    // Saved to a file and dropped: the file's bytes are the hex text, read the same way.
    const text = fixture('packet-ipv4-http1-request.hexstream.txt');
    const dropped = inspect({ text, bytes: new TextEncoder().encode(text) });
    expect(dropped.format).toBe('http1');
    expect(dropped.problems).toEqual([]);
    expect(dropped.notes[0]).toBe(h1.notes[0]);
    const client = inspect({ text: fixture('packet-ipv6-h2-client.hexstream.txt') });
    expect(client.h2).toMatchObject({ sender: 'client', preface: true, frames: 2 });
    expect(detect(fixture('packet-ipv6-h2-client.hexstream.txt'))).toMatchObject({
      format: 'h2',
      reason: expect.stringMatching(/64-byte TCP payload starts with the HTTP\/2 connection preface/),
    });
  });
});

describe('whole packets, one a line', () => {
  // Every packet of the two connections above, copied one per line in capture order (SYN to last ACK).
  it('reads an HTTP/1 connection both ways, the client being the side that sent the SYN', () => {
    const r = inspect({ text: fixture('packets-ipv4-http1.hexstream.txt') });
    expect(r.format).toBe('http1');
    expect(r.problems).toEqual([]);
    expect(r.verdicts!.filter((v) => v.strict).map((v) => [v.from, v.messages, v.incomplete])).toEqual([
      ['client', 1, false],
      ['server', 1, false],
    ]);
    expect(r.notes[0]).toMatch(
      /^12 whole packets \(Ethernet, IPv4, TCP\), one a line; 12 packets of the connection between 127\.0\.0\.1:41074 \(the client, it sent the SYN\) and 127\.0\.0\.1:18400 \(the server\), 3 payloads read/,
    );
    // The 186-byte head and the 157-byte body, as tcpdump counted them.
    expect(r.replay!.exchanges[0]).toMatchObject({ method: 'GET', path: '/', status: 200 });
    expect(r.replay!.exchanges[0]!.responseBody).toHaveLength(157);
  });

  it('reads an h2c connection as both sides, and a retransmitted packet once', () => {
    const lines = fixture('packets-ipv6-h2c.hexstream.txt').trim().split('\n');
    const r = inspect({ text: [...lines.slice(0, 10), lines[9]!, ...lines.slice(10)].join('\n') });
    expect(r.format).toBe('h2');
    expect(r.problems).toEqual([]);
    expect(r.h2Connection).toMatchObject({ client: { preface: true }, server: { preface: false } });
    expect(r.h2Connection!.streams).toEqual([expect.objectContaining({ streamId: 1, method: 'GET', path: '/index.html', status: 200, responseData: 157 })]);
    expect(r.notes[0]).toMatch(
      /\[::1\]:45302 \(the client, it sent the SYN\) and \[::1\]:18401 \(the server\), 6 payloads read in the order given, 1 retransmission read once/,
    );
  });
});
