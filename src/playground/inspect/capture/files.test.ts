import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCaptureFile } from './files';
import { decodePacket, ipv6Text } from './packet';
import { ipv4Tcp, pcapFile } from './testing';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/capture/${name}`, import.meta.url)));

describe('pcap files (tcpdump -w)', () => {
  it('reads every packet of a little-endian microsecond capture with the times tcpdump printed', () => {
    const file = readCaptureFile(fixture('http1-ipv4.pcap'));
    expect(file.format).toBe('pcap');
    expect(file.problem).toBeUndefined();
    // tcpdump -r http1-ipv4.pcap | wc -l: 20; tcpdump -tt: first 1795927467.693082, last 1795927467.867423.
    expect(file.packets).toHaveLength(20);
    expect(file.precision).toBe('microseconds');
    expect([file.packets[0]!.seconds, file.packets[0]!.nanoseconds]).toEqual([1795927467, 693082000]);
    expect([file.packets.at(-1)!.seconds, file.packets.at(-1)!.nanoseconds]).toEqual([1795927467, 867423000]);
    expect(file.packets[0]!.linkType).toBe(1);
  });

  it('keeps nanoseconds from a --time-stamp-precision=nano capture', () => {
    const file = readCaptureFile(fixture('http1-ipv6-nano.pcap'));
    expect(file.precision).toBe('nanoseconds');
    // tcpdump --nano -tt: 1795927470.565935780 first, 1795927470.583669851 last.
    expect([file.packets[0]!.seconds, file.packets[0]!.nanoseconds]).toEqual([1795927470, 565935780]);
    expect(file.packets.at(-1)!.nanoseconds).toBe(583669851);
  });

  it('reads a big-endian file as well as a little-endian one', () => {
    const data = ipv4Tcp({ sport: 1234, dport: 80, seq: 1, flags: 0x02 });
    for (const little of [true, false]) {
      const file = readCaptureFile(pcapFile(101, [{ seconds: 7, micros: 500, data }], little));
      expect(file.packets.map((p) => [p.seconds, p.nanoseconds, p.linkType, p.data.length])).toEqual([[7, 500_000, 101, 40]]);
    }
  });

  it('says where a cut file ends and keeps the packets before it', () => {
    const whole = fixture('http1-ipv4.pcap');
    const file = readCaptureFile(whole.subarray(0, whole.length - 10));
    expect(file.packets).toHaveLength(19);
    expect(file.problem?.message).toMatch(/Packet 20 says it holds \d+ bytes, but the file ends/);
    expect(file.problem?.offset).toBeGreaterThan(24);
  });

  it('rejects a record whose fraction is a second or more', () => {
    const bad = pcapFile(101, [{ seconds: 1, micros: 1_000_000, data: new Uint8Array(40) }]);
    expect(readCaptureFile(bad).problem).toEqual({ message: expect.stringMatching(/1000000 microseconds, more than a second/), offset: 28 });
  });
});

describe('pcapng files', () => {
  it('gives the packets, times and bytes of the pcap they were written from (microseconds, no if_tsresol)', () => {
    const ng = readCaptureFile(fixture('h2c.pcapng'));
    const classic = readCaptureFile(fixture('h2c.pcap'));
    expect(ng.format).toBe('pcapng');
    expect(ng.problem).toBeUndefined();
    expect(ng.remarks).toEqual(['Section: roundtrip craft.py', 'Interface 0: lo']);
    expect(ng.packets.map((p) => [p.seconds, p.nanoseconds, p.linkType, [...p.data]])).toEqual(
      classic.packets.map((p) => [p.seconds, p.nanoseconds, p.linkType, [...p.data]]),
    );
  });

  it('reads if_tsresol 9 as nanoseconds', () => {
    const ng = readCaptureFile(fixture('http1-ipv6-nano.pcapng'));
    expect(ng.precision).toBe('nanoseconds');
    expect([ng.packets[0]!.seconds, ng.packets[0]!.nanoseconds]).toEqual([1795927470, 565935780]);
  });

  it('names a block whose trailing length disagrees, at its byte', () => {
    const bytes = fixture('h2c.pcapng').slice();
    const v = new DataView(bytes.buffer);
    const shb = v.getUint32(4, true);
    const idb = v.getUint32(shb + 4, true);
    const first = shb + idb;
    const length = v.getUint32(first + 4, true);
    v.setUint32(first + length - 4, length + 4, true);
    const file = readCaptureFile(bytes);
    expect(file.packets).toHaveLength(0);
    expect(file.problem).toEqual({ message: expect.stringMatching(/Block type 6 at byte \d+: its trailing length/), offset: first + length - 4 });
  });
});

describe('link, IP and TCP headers', () => {
  const tcp = ipv4Tcp({ sport: 40000, dport: 8080, seq: 100, ack: 7, flags: 0x18, payload: 'GET / HTTP/1.1\r\n\r\n' });
  const read = (data: Uint8Array, link: number) => {
    const d = decodePacket(data, link);
    return d.kind === 'tcp' ? [d.source, d.sourcePort, d.destination, d.destinationPort, d.seq, d.ack, d.flags, new TextDecoder().decode(d.payload)] : d;
  };
  const want = ['10.0.0.1', 40000, '10.0.0.2', 8080, 100, 7, 0x18, 'GET / HTTP/1.1\r\n\r\n'];

  it('reads Ethernet (with a VLAN tag and frame padding), BSD loopback, Linux cooked v1/v2 and raw IP', () => {
    const ethernet = new Uint8Array([...new Array(12).fill(0), 0x81, 0x00, 0, 5, 0x08, 0x00, ...tcp, 0, 0, 0, 0]);
    const loopback = new Uint8Array([2, 0, 0, 0, ...tcp]);
    const sll = new Uint8Array([...new Array(14).fill(0), 0x08, 0x00, ...tcp]);
    const sll2 = new Uint8Array([0x08, 0x00, ...new Array(18).fill(0), ...tcp]);
    expect(read(ethernet, 1)).toEqual(want);
    expect(read(loopback, 0)).toEqual(want);
    expect(read(sll, 113)).toEqual(want);
    expect(read(sll2, 276)).toEqual(want);
    expect(read(tcp, 101)).toEqual(want);
  });

  it('reads IPv6 from the fixture and writes addresses as RFC 5952 does', () => {
    const file = readCaptureFile(fixture('http1-ipv6-nano.pcap'));
    const d = decodePacket(file.packets[0]!.data, 1);
    expect(d.kind === 'tcp' && [d.ipVersion, d.source, d.destinationPort, d.flags]).toEqual([6, '::1', 18502, 0x02]);
    expect(ipv6Text(new Uint8Array([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))).toBe('2001:db8::1');
    expect(ipv6Text(new Uint8Array([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]))).toBe('2001:db8:0:1::1');
  });

  it('gives a UDP datagram its payload, bounded by the UDP length', () => {
    const udp = new Uint8Array([
      0x45, 0, 0, 33, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2, 0xc3, 0x50, 0x01, 0xbb, 0, 13, 0, 0, 0xc0, 0, 0, 0, 1, 0, 0,
    ]);
    const d = decodePacket(udp, 101);
    expect(d.kind === 'udp' && [d.sourcePort, d.destinationPort, [...d.payload]]).toEqual([50000, 443, [0xc0, 0, 0, 0, 1]]);
  });

  it('says what a packet is when it is not TCP', () => {
    const fragment = tcp.slice();
    fragment[6] = 0x20; // More Fragments
    expect(decodePacket(fragment, 101)).toEqual({ kind: 'other', what: 'an IPv4 fragment (not reassembled)' });
    expect(decodePacket(new Uint8Array([...new Array(12).fill(0), 0x08, 0x06, ...new Array(28).fill(0)]), 1)).toEqual({ kind: 'other', what: 'ARP' });
    expect(decodePacket(tcp, 147)).toEqual({ kind: 'other', what: 'link type 147, which this reader does not follow' });
  });
});
