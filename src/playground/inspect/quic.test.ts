import { describe, expect, it } from 'vitest';
import {
  NGTCP2_CLIENT_DATAGRAM,
  NGTCP2_CLIENT_FRAME,
  NGTCP2_SERVER_DATAGRAM,
  RFC9001_CLIENT_HELLO_FRAME,
  RFC9001_CLIENT_INITIAL,
  RFC9001_RETRY,
  RFC9001_SERVER_INITIAL,
  RFC9001_SHORT_HEADER,
} from './quic-fixtures';
import { inspectQuic, looksLikeQuicInitial, readQuicHeaders } from './quic';
import { parseHex } from './hex';
import { inspect, inspectAsync } from './inspect';
import { deriveQuicInitialKeys, encodeQuicVarint, protectQuicInitial } from 'roundtrip/wire';
import { readTlsHandshake } from './quic-tls';

const bytesOf = (text: string): Uint8Array => {
  const parsed = parseHex(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.bytes;
};

describe('QUIC datagrams in the Inspector', () => {
  it('RFC 9001 A.2 then A.3: the client Initial opens with its DCID and its keys open the server one; both Hellos read', async () => {
    const q = await inspectQuic(`${RFC9001_CLIENT_INITIAL}\n\n${RFC9001_SERVER_INITIAL}`);
    expect(q.problems).toEqual([]);
    expect(q.datagrams).toEqual([1200, 135]);
    expect(q.originalDcid).toBe('8394c8f03e515708');
    expect(q.keys?.client.hp).toBe('9f50449e04a0e810283a1e9933adedd2');
    const [client, server] = q.packets;
    expect(client?.initial).toMatchObject({
      side: 'client',
      packetNumber: 2,
      mask: '437b9aec36',
      unprotectedHeader: 'c300000001088394c8f03e5157080000449e00000002',
    });
    expect(client?.initial?.frames).toEqual(['CRYPTO offset 0, 241 bytes (ClientHello)', 'PADDING 917']);
    expect(server?.initial).toMatchObject({ side: 'server', packetNumber: 1, keysFrom: '8394c8f03e515708' });
    const hello = q.tls.client[0]?.hello;
    expect(hello).toMatchObject({ type: 'ClientHello', serverName: 'example.com', alpn: ['alpn'], versions: ['TLS 1.3'], keyShares: ['x25519'] });
    expect(hello?.cipherSuites).toEqual(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384']);
    // A.2's ClientHello sends initial_max_data 0xffffffffffffffff as an 8-byte varint: 2^62 - 1, past a number's range.
    expect(hello?.transportParameters?.find((t) => t.name === 'initial_max_data')?.value).toBe('4611686018427387903');
    expect(hello?.transportParameters?.find((t) => t.name === 'initial_source_connection_id')?.value).toBe('8394c8f03e515708');
    expect(q.tls.server[0]?.hello).toMatchObject({ type: 'ServerHello', cipherSuites: ['TLS_AES_128_GCM_SHA256'], keyShares: ['x25519'] });
    expect(q.notes).toContain('  server_name (SNI): example.com');
  });

  it('ngtcp2 on loopback: SNI localhost, ALPN h3, gtlsclient’s default windows (15M, 6M); the server datagram coalesces Initial, Handshake and 1-RTT', async () => {
    const q = await inspectQuic(`${NGTCP2_CLIENT_DATAGRAM}\n\n${NGTCP2_SERVER_DATAGRAM}`);
    expect(q.problems).toEqual([]);
    expect(q.packets.map((p) => `${p.datagram}:${p.kind}@${p.at}+${p.size}`)).toEqual([
      '1:Initial@0+1200',
      '2:Initial@0+166',
      '2:Handshake@166+718',
      '2:1-RTT@884+316',
    ]);
    const hello = q.tls.client[0]?.hello;
    expect(hello?.serverName).toBe('localhost');
    expect(hello?.alpn).toEqual(['h3']);
    const tp = Object.fromEntries((hello?.transportParameters ?? []).map((t) => [t.name, t.value]));
    expect(tp).toMatchObject({ initial_max_data: 15 * 1024 * 1024, initial_max_stream_data_bidi_local: 6 * 1024 * 1024, grease_quic_bit: '' });
    expect(q.packets[1]?.initial?.greasedFixedBit).toBe(true);
    expect(q.notes.some((l) => l.includes('greased, which RFC 9287 allows'))).toBe(true);
    expect(q.notes.filter((l) => l.includes('a key log would be needed')).length).toBe(2);
  });

  it('a server datagram alone says what is missing; with a dcid line it opens', async () => {
    const alone = await inspectQuic(RFC9001_SERVER_INITIAL);
    expect(alone.problems[0]?.message).toMatch(/^AEAD tag check failed for the Initial packet at datagram offset 0: .*needs the client's first DCID/);
    expect(alone.problems[0]?.where).toBe('datagram 1, byte 0');
    expect(alone.packets[0]?.kind).toBe('Initial');
    const given = await inspectQuic(`dcid: 8394c8f03e515708\n${RFC9001_SERVER_INITIAL}`);
    expect(given.problems).toEqual([]);
    expect(given.packets[0]?.initial?.side).toBe('server');
  });

  it('a changed byte is located, and the packets before it are kept', async () => {
    const bytes = bytesOf(RFC9001_CLIENT_INITIAL);
    bytes[600]! ^= 0x10;
    const text = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const q = await inspectQuic(`${RFC9001_CLIENT_INITIAL}\n\n${text}`);
    expect(q.problems).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^AEAD tag check failed for the Initial packet at datagram offset 0/),
        where: 'datagram 2, byte 0',
      }),
    ]);
    expect(q.packets[0]?.initial?.packetNumber).toBe(2);
  });

  it('headers alone, without keys; and what is not an Initial', () => {
    const h = readQuicHeaders(NGTCP2_SERVER_DATAGRAM);
    expect(h.packets.map((p) => p.kind)).toEqual(['Initial', 'Handshake', '1-RTT']);
    expect(h.packets[1]?.length).toBe(672);
    expect(looksLikeQuicInitial(bytesOf(RFC9001_CLIENT_INITIAL))).toBe(true);
    expect(looksLikeQuicInitial(bytesOf(RFC9001_SHORT_HEADER))).toBe(false);
    expect(looksLikeQuicInitial(bytesOf('505249202a20485454502f322e300d0a'))).toBe(false);
    const cutHex = RFC9001_CLIENT_INITIAL.replace(/\s+/g, '').slice(0, 400);
    // A cut datagram is still taken for QUIC, so the reader can say where it ends.
    expect(inspect({ text: cutHex }).format).toBe('quic');
    const cut = readQuicHeaders(cutHex);
    expect(cut.problems[0]?.message).toMatch(/Datagram 1: the packet at datagram offset 0 says Length 1182 at byte 16, but only 182 bytes follow/);
  });

  it('a ClientHello whose host name runs past its extension is a located error, in CRYPTO offsets', () => {
    // type 1, length 0x35; version, 32 zero bytes of random, no session id, one suite, null compression,
    // then server_name whose HostName says 5 bytes where 1 remains.
    const hello = bytesOf(`010000350303${'00'.repeat(32)}00000213010100000a0000000600040000057a`);
    expect(() => readTlsHandshake(hello, 100)).toThrow('The HostName at CRYPTO offset 156 needs 5 bytes, but its enclosing field ends at 157.');
    // Cut short, the message is listed as continued rather than read.
    expect(readTlsHandshake(hello.subarray(0, 20))).toEqual([{ type: 1, name: 'ClientHello', offset: 0, length: 0x35, complete: false }]);
  });

  it('the inspector detects a pasted Initial, lists headers at once and opens the Initials in inspectAsync', async () => {
    const text = `${NGTCP2_CLIENT_DATAGRAM}\n\n${NGTCP2_SERVER_DATAGRAM}`;
    const now = inspect({ text });
    expect(now.format).toBe('quic');
    expect(now.reason).toBe(
      'It is a continuous hex string (Wireshark "Copy as Hex Stream", xxd -p) that starts with a QUIC version 1 Initial packet (RFC 9000 §17.2.2).',
    );
    expect(now.notes.at(-1)).toBe(
      "Headers only: the 2 Initial packets open with the keys of the client's first DCID (RFC 9001 §5.2) in the decrypting reading (inspectAsync, WebCrypto).",
    );
    const later = await inspectAsync({ text });
    expect(later.quic?.tls.client[0]?.hello?.serverName).toBe('localhost');
    expect(later.notes).toContain('  ALPN: h3');
    expect(inspect({ text: `dcid: 8394c8f03e515708\n${RFC9001_SERVER_INITIAL}` }).format).toBe('quic');
    // HTTP/2 frames in hex are still HTTP/2.
    expect(inspect({ text: '505249202a20485454502f322e300d0a0d0a534d0d0a0d0a' }).format).toBe('h2');
  });

  it("a Retry's Integrity Tag is checked against the client's first DCID (RFC 9001 A.4)", async () => {
    const q = await inspectQuic(`${RFC9001_CLIENT_INITIAL}\n\n${RFC9001_RETRY}`);
    expect(q.problems).toEqual([]);
    expect(q.packets[1]).toMatchObject({
      kind: 'Retry',
      scid: 'f067a5502a4262b5',
      retry: { token: '746f6b656e', integrity: 'valid', checkedWith: '8394c8f03e515708' },
    });
    expect(q.notes).toContain('    Token 746f6b656e; Integrity Tag checks against DCID 8394c8f03e515708 (RFC 9001 §5.8).');
    const wrong = await inspectQuic(`dcid: 0001020304050607\n${RFC9001_RETRY}`);
    expect(wrong.packets[0]?.retry?.integrity).toBe('invalid');
    expect((await inspectQuic(RFC9001_RETRY)).packets[0]?.retry?.integrity).toBe('unchecked');
  });

  it('a whole frame copied from Wireshark: Ethernet, IPv4 and UDP headers are set aside and the datagram read', async () => {
    const q = await inspectQuic(`${NGTCP2_CLIENT_FRAME}\n\n${NGTCP2_SERVER_DATAGRAM}`);
    expect(q.problems).toEqual([]);
    expect(q.datagrams).toEqual([1200, 1200]);
    expect(q.notes[0]).toBe('Datagram 1 is a whole packet (Ethernet, IPv4, UDP from 127.0.0.1:43649 to 127.0.0.1:18200): its 1200-byte UDP payload is read.');
    expect(q.tls.client[0]?.hello?.serverName).toBe('localhost');
    expect(q.packets[1]?.initial?.side).toBe('server');
  });

  it('the inspector sends a whole UDP frame with a QUIC Initial to the QUIC reader, not to the TCP packet reader', async () => {
    const now = inspect({ text: NGTCP2_CLIENT_FRAME });
    expect(now.format).toBe('quic');
    expect(now.reason).toBe(
      'It is a continuous hex string (Wireshark "Copy as Hex Stream", xxd -p) of a whole packet (Ethernet, IPv4, UDP) whose payload starts with a QUIC version 1 Initial packet (RFC 9000 §17.2.2).',
    );
    expect(now.problems).toEqual([]);
    const later = await inspectAsync({ text: NGTCP2_CLIENT_FRAME });
    expect(later.notes).toContain('  server_name (SNI): localhost');
  });

  it('a ClientHello split over two Initials in two datagrams is read whole from the CRYPTO offsets', async () => {
    // RFC 9001 A.2's ClientHello (the 241 bytes after its CRYPTO frame header 060040f1), sent as 100 + 141 bytes.
    const hello = bytesOf(RFC9001_CLIENT_HELLO_FRAME).subarray(4);
    const dcid = bytesOf('8394c8f03e515708');
    const keys = await deriveQuicInitialKeys(dcid);
    const datagram = async (packetNumber: number, offset: number, data: Uint8Array): Promise<string> => {
      const frame = [0x06, ...encodeQuicVarint(offset), ...encodeQuicVarint(data.length), ...data];
      // A 22-byte header (8-byte DCID, 2-byte Length, 4-byte packet number) and a 16-byte tag leave 1,162 bytes, as in A.2.
      const payload = new Uint8Array(1200 - 22 - 16);
      payload.set(frame);
      const out = await protectQuicInitial(keys.client, { dcid, scid: new Uint8Array(0), packetNumber, packetNumberLength: 4, payload });
      return Array.from(out.packet, (b) => b.toString(16).padStart(2, '0')).join('');
    };
    const first = await datagram(0, 0, hello.subarray(0, 100));
    const second = await datagram(1, 100, hello.subarray(100));
    const q = await inspectQuic(`${first}\n\n${second}`);
    expect(q.problems).toEqual([]);
    expect(q.datagrams).toEqual([1200, 1200]);
    expect(q.packets[0]?.initial?.frames[0]).toBe('CRYPTO offset 0, 100 bytes (ClientHello)');
    expect(q.packets[1]?.initial?.frames[0]).toMatch(/^CRYPTO offset 100, 141 bytes/);
    expect(q.tls.client).toHaveLength(1);
    expect(q.tls.client[0]).toMatchObject({ name: 'ClientHello', length: 237, complete: true });
    expect(q.tls.client[0]?.hello?.serverName).toBe('example.com');
    // Only the first datagram: the ClientHello is listed as continued, not read.
    const half = await inspectQuic(first);
    expect(half.tls.client).toEqual([{ type: 1, name: 'ClientHello', offset: 0, length: 237, complete: false }]);
    expect(half.notes).toContain('Client TLS: ClientHello (type 1), 237 bytes at CRYPTO offset 0, continued in a later packet.');
  });
});
