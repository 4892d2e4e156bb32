import { readFileSync } from 'node:fs';
import type { TraceEvent } from 'roundtrip/wire';
import { describe, expect, it } from 'vitest';
import { buildSequence } from '../../viz/timeline/sequence';
import { inspect, inspectAsync } from '../inspect';
import { isKeyLog, readCapture, readCaptureNow, readCapturePackets } from './index';
import { pcapFile } from './testing';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/capture/${name}`, import.meta.url)));
type Sent = Extract<TraceEvent, { type: 'bytes-sent' }>;
const eventsOf = (r: { recording?: { sources: readonly unknown[] } } | undefined): TraceEvent[] => {
  const source = r?.recording?.sources[0] as { kind: string; events: TraceEvent[] } | undefined;
  return source?.kind === 'wire' ? source.events : [];
};
const sentOf = (r: Parameters<typeof eventsOf>[0]) => eventsOf(r).filter((e): e is Sent => e.type === 'bytes-sent');
const textOf = (name: string) => readFileSync(new URL(`../fixtures/capture/${name}`, import.meta.url), 'utf8');

describe('HTTP/1.1 from tcpdump captures (curl against node:http on loopback)', () => {
  it('reads both connections, both ways, with Replay answering what the server sent', () => {
    const got = readCaptureNow(fixture('http1-ipv4.pcap'));
    expect(got.problems).toEqual([]);
    expect(got.capture.connections.map((c) => [c.label, c.protocol, c.bytes.client, c.bytes.server, c.closed])).toEqual([
      ['127.0.0.1:52546 -> 127.0.0.1:18501', 'http1', 79, 175, ['FIN from the client', 'FIN from the server']],
      ['127.0.0.1:52562 -> 127.0.0.1:18501', 'http1', 155, 184, ['FIN from the client', 'FIN from the server']],
    ]);
    const result = inspect({ text: '', bytes: fixture('http1-ipv4.pcap') });
    expect(result.format).toBe('pcap');
    expect(result.replay?.exchanges.map((e) => [e.method, e.path, e.requestBody, e.status, e.responseBody])).toEqual([
      ['GET', '/', '', 200, 'Roundtrip capture fixture\n'],
      ['POST', '/form', 'a=1', 201, 'got 3 bytes\n'],
    ]);
  });

  it('draws each message at its captured time, each connection under its own id', () => {
    const got = readCaptureNow(fixture('http1-ipv4.pcap'));
    const sent = sentOf(got);
    // tcpdump -tt: the capture's first packet at .693082; data at .693146, .788654, .797267 and .814216.
    expect(sent.map((e) => [e.connectionId, e.from, e.at.toFixed(3)])).toEqual([
      ['tcp1', 'client', '0.064'],
      ['tcp1', 'server', '95.572'],
      ['tcp2', 'client', '104.185'],
      ['tcp2', 'server', '121.134'],
    ]);
  });

  it('reads the retransmission capture to the same bytes, listing the reordered, repeated and overlapping segments', () => {
    const plain = readCaptureNow(fixture('http1-ipv4.pcap'));
    const crafted = readCaptureNow(fixture('http1-retransmit.pcap'));
    expect(crafted.problems).toEqual([]);
    const streams = (g: typeof plain) => g.http1.map((c) => c.segments.map((s) => [s.from, new TextDecoder().decode(s.bytes)]));
    expect(streams(crafted)).toEqual(streams(plain));
    const notes = crafted.capture.connections[0]!.segments.filter((s) => s.from === 'server' && s.length > 0).map((s) => [s.seq, s.length, s.notes[0]]);
    expect(notes).toEqual([
      [88, 88, expect.stringMatching(/^ahead of a gap: bytes 1-87 are missing/)],
      [1, 87, 'out of order: fills the gap before the held segments'],
      [1, 87, 'retransmission (bytes 1-87 came before)'],
      [83, 93, 'retransmission (bytes 83-175 came before)'],
    ]);
    // The response is whole once the gap is filled: at the second segment's time, not the first's.
    const response = sentOf(crafted).find((e) => e.from === 'server');
    expect(response!.at.toFixed(3)).toBe('95.772');
  });

  it('draws the handshake, the messages, the retransmissions and the FINs in the Sequence view, at their times', () => {
    const crafted = readCaptureNow(fixture('http1-retransmit.pcap'));
    const arrows = buildSequence(eventsOf(crafted))
      .arrows.filter((a) => a.connectionId === 'tcp1')
      .map((a) => [a.label, a.sentAt.toFixed(3), a.retransmission]);
    expect(arrows).toEqual([
      ['SYN', '0.000', false],
      ['SYN-ACK', '0.013', false],
      ['ACK', '0.026', false],
      ['GET / HTTP/1.1', '0.064', false],
      ['HTTP/1.1 200 OK', '95.772', false],
      ['↻ HTTP/1.1 200 OK', '95.972', true],
      ['↻ HTTP/1.1 200 OK (continued)', '96.172', true],
      ['FIN', '96.599', false],
      ['FIN', '120.369', false],
    ]);
  });

  it('reads IPv6 and a chunked response from a nanosecond pcapng', () => {
    const result = inspect({ text: '', bytes: fixture('http1-ipv6-nano.pcapng') });
    expect(result.problems).toEqual([]);
    expect(result.capture?.precision).toBe('nanoseconds');
    expect(result.capture?.startedAt).toBe('2026-11-29T04:44:30.565935780Z');
    expect(result.capture!.connections[0]!.label).toBe('[::1]:40654 -> [::1]:18502');
    expect(result.replay?.exchanges.map((e) => [e.path, e.status, e.responseBody])).toEqual([['/chunked', 200, 'hello, chunks\n']]);
  });
});

describe('h2c from a capture (nghttp -n against nghttpd --no-tls)', () => {
  it('reads both sides as one connection, with the frames at their captured times', () => {
    for (const name of ['h2c.pcap', 'h2c.pcapng']) {
      const result = inspect({ text: '', bytes: fixture(name) });
      expect(result.problems).toEqual([]);
      expect(result.capture!.connections[0]!.protocol).toBe('h2c');
      expect(result.replay?.exchanges.map((e) => [e.method, e.path, e.status, e.responseBody])).toEqual([['GET', '/index.html', 200, 'h2c fixture body\n']]);
      const frames = eventsOf(result).filter((e) => e.type === 'h2-frame');
      // The server's SETTINGS is in the first data segment (packet 4, 0.186 ms after the SYN).
      expect(frames[0]!.at.toFixed(3)).toBe('0.186');
      expect(frames.every((f, i) => i === 0 || f.at >= frames[i - 1]!.at)).toBe(true);
    }
  });
});

describe('h2c from tcpdump -i any (Linux cooked capture v2, curl --http2-prior-knowledge)', () => {
  it('strips the 20-byte SLL2 header and reads the connection', () => {
    const result = inspect({ text: '', bytes: fixture('h2c-any-sll2.pcap') });
    expect(result.problems).toEqual([]);
    expect(result.capture!.linkTypes).toEqual(['Linux cooked capture v2 (SLL2)']);
    expect(result.replay?.exchanges.map((e) => [e.path, e.status, e.responseBody])).toEqual([['/index.html', 200, 'h2c fixture body\n']]);
  });
});

describe('TLS 1.3 (curl -k against a node:http2 TLS server, SSLKEYLOGFILE)', () => {
  it('without the key log: lists the handshake records and says the rest is encrypted', () => {
    const result = inspect({ text: '', bytes: fixture('tls13-http1.pcap') });
    const tls = result.capture!.connections[0]!.tls!;
    expect(tls.version).toBe('TLS 1.3');
    expect(tls.cipherSuite).toBe(0x1301);
    expect(tls.alpnOffered).toEqual(['http/1.1']);
    expect(tls.records.slice(0, 3).map((r) => [r.from, r.what])).toEqual([
      ['client', 'handshake: ClientHello'],
      ['server', 'handshake: ServerHello'],
      ['server', 'change_cipher_spec (compatibility, RFC 8446 §D.4)'],
    ]);
    expect(tls.records.filter((r) => r.what === 'application data (encrypted)')).toHaveLength(11);
    expect(result.recording).toBeUndefined();
    expect(result.notes.join(' ')).toMatch(/TLS application data is encrypted/);
  });

  it('with the key log: decrypts TLS_AES_128_GCM_SHA256 and reads HTTP/1.1, byte for byte what curl wrote', async () => {
    const got = await readCapture(fixture('tls13-http1.pcap'), { keyLog: textOf('tls13-http1.keys') });
    const tls = got.capture.connections[0]!.tls!;
    expect(tls.problems).toEqual([]);
    expect(tls.alpn).toBe('http/1.1');
    expect(tls.records.filter((r) => r.what.endsWith('(decrypted)')).map((r) => `${r.from} ${r.what}`)).toEqual([
      'server handshake: EncryptedExtensions (decrypted)',
      'server handshake: Certificate (decrypted)',
      'server handshake: CertificateVerify (decrypted)',
      'server handshake: Finished (decrypted)',
      'client handshake: Finished (decrypted)',
      'client application data, 79 bytes (decrypted)',
      'server handshake: NewSessionTicket (decrypted)',
      'server handshake: NewSessionTicket (decrypted)',
      'server application data, 159 bytes (decrypted)',
      'client alert warning 0 (decrypted)',
      'server alert warning 0 (decrypted)',
    ]);
    const result = await inspectAsync({ text: '', bytes: fixture('tls13-http1.pcap'), keyLog: textOf('tls13-http1.keys') });
    expect(result.replay?.exchanges.map((e) => [e.method, e.path, e.status, e.responseBody])).toEqual([
      ['GET', '/', 200, textOf('tls13-http1.curl-output.txt')],
    ]);
    // tcpdump -tt: first packet .667959; the client's record (in the 101-byte segment) .675193, the server's (723 bytes) .678392.
    expect(sentOf(result).map((e) => [e.from, e.at.toFixed(3)])).toEqual([
      ['client', '7.234'],
      ['server', '10.433'],
    ]);
  });

  it('with the key log: decrypts TLS_AES_256_GCM_SHA384 and reads HTTP/2, as ALPN said', async () => {
    const result = await inspectAsync({ text: '', bytes: fixture('tls13-h2.pcap'), keyLog: textOf('tls13-h2.keys') });
    expect(result.problems).toEqual([]);
    expect(result.capture!.connections[0]!.protocol).toBe('TLS (h2)');
    expect(result.replay?.exchanges.map((e) => [e.method, e.path, e.status, e.responseBody])).toEqual([['GET', '/a', 200, textOf('tls13-h2.curl-output.txt')]]);
    expect(eventsOf(result).some((e) => e.type === 'h2-frame')).toBe(true);
  });

  it("with the key log: decrypts TLS_CHACHA20_POLY1305_SHA256 (not in WebCrypto: roundtrip/wire's own)", async () => {
    const result = await inspectAsync({ text: '', bytes: fixture('tls13-chacha20.pcap'), keyLog: textOf('tls13-chacha20.keys') });
    expect(result.capture!.connections[0]!.tls!.cipherSuite).toBe(0x1303);
    expect(result.replay?.exchanges.map((e) => [e.path, e.status, e.responseBody])).toEqual([['/c', 200, textOf('tls13-chacha20.curl-output.txt')]]);
  });

  it('TLS 1.2 with its CLIENT_RANDOM key log: AES-128-GCM and h2, AES-256-GCM-SHA384 and HTTP/1.1 (ALPN in the ServerHello)', async () => {
    const plain = inspect({ text: '', bytes: fixture('tls12-h2.pcap') });
    // TLS 1.2 chooses ALPN in the clear, so the protocol is named before any decryption.
    expect(plain.capture!.connections[0]!.protocol).toBe('TLS (h2)');
    for (const [name, suite, path] of [
      ['tls12-h2', 0xc02b, '/t12'],
      ['tls12-http1', 0xc02c, '/t12b'],
    ] as const) {
      const result = await inspectAsync({ text: '', bytes: fixture(`${name}.pcap`), keyLog: textOf(`${name}.keys`) });
      const tls = result.capture!.connections[0]!.tls!;
      expect([tls.version, tls.cipherSuite, tls.problems]).toEqual(['TLS 1.2', suite, []]);
      expect(tls.records.filter((r) => r.what === 'handshake: Finished (decrypted)').map((r) => r.from)).toEqual(['client', 'server']);
      expect(result.replay?.exchanges.map((e) => [e.path, e.status, e.responseBody])).toEqual([[path, 200, textOf(`${name}.curl-output.txt`)]]);
    }
  });

  it('names what is wrong with a key log: a changed secret, secrets of the wrong length, another connection', async () => {
    const keys = textOf('tls13-h2.keys');
    const changed = keys.replace(/^(CLIENT_HANDSHAKE_TRAFFIC_SECRET [0-9a-f]{64} )(.)/m, (_, head: string, c: string) => head + (c === '0' ? '1' : '0'));
    const bad = await readCapture(fixture('tls13-h2.pcap'), { keyLog: changed });
    // The client's first encrypted record is its Finished, right after its 517-byte ClientHello and 6-byte change_cipher_spec.
    expect(bad.capture.connections[0]!.tls!.problems).toEqual([expect.stringMatching(/^The client's record at byte 523 of its stream does not decrypt/)]);
    const random = keys.split(' ')[1]!;
    const swapped = textOf('tls13-http1.keys').replace(/^(\w+) [0-9a-f]{64}/gm, (_, label: string) => `${label} ${random}`);
    const short = await readCapture(fixture('tls13-h2.pcap'), { keyLog: swapped });
    expect(short.capture.connections[0]!.tls!.problems[0]).toMatch(/is 32 bytes, but TLS_AES_256_GCM_SHA384 uses 48-byte secrets/);
    const other = await readCapture(fixture('tls13-h2.pcap'), { keyLog: textOf('tls13-http1.keys') });
    expect(other.capture.connections[0]!.tls!.problems).toEqual([expect.stringMatching(/the key log has no line for this connection's client random/)]);
  });
});

it('keeps UDP datagrams, with their times, for the QUIC reader', () => {
  const udp = new Uint8Array([0x45, 0, 0, 33, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2, 0xc3, 0x50, 0x01, 0xbb, 0, 13, 0, 0, 0xc0, 0, 0, 0, 1]);
  const got = readCapturePackets(
    pcapFile(101, [
      { seconds: 5, micros: 999_900, data: udp },
      { seconds: 6, micros: 150, data: udp },
    ]),
  );
  expect(got.datagrams.map((d) => [d.number, d.time, d.source, d.destinationPort, d.payload.length])).toEqual([
    [1, 0, '10.0.0.1', 443, 5],
    [2, 0.25, '10.0.0.1', 443, 5],
  ]);
  expect(got.skipped).toEqual({});
});

it('tells a key log from other text', () => {
  expect(isKeyLog(textOf('tls13-http1.keys'))).toBe(true);
  expect(isKeyLog(`# SSL/TLS secrets log file, generated by NSS\n${textOf('tls13-h2.keys')}`)).toBe(true);
  expect(isKeyLog('GET / HTTP/1.1\r\nHost: a\r\n\r\n')).toBe(false);
  expect(isKeyLog(textOf('tls13-http1.curl-output.txt'))).toBe(false);
});

describe('QUIC from a capture (ngtcp2 gtlsclient against gtlsserver on loopback)', () => {
  it('reads the first UDP flow as QUIC: headers at once, the Initials opened by readCapture', async () => {
    const now = inspect({ text: '', bytes: fixture('quic-h3.pcap') });
    expect(now.format).toBe('pcap');
    expect(now.capture!.quicDatagrams).toBe(13);
    const full = await inspectAsync({ text: '', bytes: fixture('quic-h3.pcap') });
    expect(full.quic?.datagrams).toHaveLength(13);
    expect(full.quic?.originalDcid).toMatch(/^[0-9a-f]{16,40}$/);
    expect(full.quic?.tls.client[0]?.name).toBe('ClientHello');
    expect(full.notes.join(' ')).toMatch(/h3/);
  });
});

describe('a capture pasted or linked as text (one character per byte)', () => {
  it('reads the same as the dropped file', () => {
    const bytes = fixture('h2c.pcap');
    const pasted = inspect({ text: String.fromCharCode(...bytes) });
    expect(pasted.format).toBe('pcap');
    expect(pasted.replay?.exchanges).toEqual(inspect({ text: '', bytes }).replay?.exchanges);
  });
});
