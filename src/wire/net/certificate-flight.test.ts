/**
 * The server's certificate flight (issue #23): the same TLS messages in TLS over TCP and in QUIC, a few KB by
 * default, carried in as many TCP segments or QUIC datagrams as they take, and `certificateChainBytes`
 * changes them. Every number here is worked out by hand from transport/tls-sizes.ts.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, type Simulation } from '../sim/simulation';
import { createServer } from '../server/index';
import { resolveOptions } from './options';

const RTT = 100;

async function fetched(
  httpVersion: '1.1' | '3',
  options: { bandwidth?: number; certificateChainBytes?: number; tcpTimestamps?: boolean; tlsKeyShare?: 'x25519' | 'x25519mlkem768' } = {},
): Promise<Simulation> {
  const server = createServer({ resources: { '/a': { body: 'a', contentType: 'text/plain' } } });
  // The chain's arithmetic below is worked with the X25519 hellos (ClientHello 280, ServerHello 90); the
  // hybrid key share's own numbers are in the last tests.
  const s = createSimulation({ httpVersion, tls: '1.3', rtt: RTT, bandwidth: Infinity, server, tlsKeyShare: 'x25519', ...options });
  await (await s.fetch('/a')).text();
  return s;
}

/** Server segments carrying TLS handshake bytes: the server's flight is the first record it writes. */
const serverHandshakeSegments = (s: Simulation, flight: number) =>
  s.trace
    .ofType('segment-sent')
    .filter((e) => e.from === 'server' && e.offset < flight)
    .map((e) => e.length);

const serverHandshakeDatagrams = (s: Simulation) =>
  s.trace
    .ofType('quic-packet-sent')
    .filter((e) => e.from === 'server' && e.space === 'handshake')
    .map((e) => e.frames.join('; '));

describe('the certificate flight', () => {
  it('defaults to a 2,800-byte chain', () => {
    expect(resolveOptions().certificateChainBytes).toBe(2800);
    expect(() => resolveOptions({ certificateChainBytes: 20_000 })).toThrow(/certificateChainBytes/);
  });

  it('over TCP: 3,263 bytes of records (ServerHello 90 + chain 2,800 + 340, in three records), in three segments', async () => {
    const s = await fetched('1.1');
    // The ServerHello record (5 + 90 = 95), the ChangeCipherSpec record (5 + 1 = 6) and the protected record of
    // the rest (5 + 2,800 + 340 + inner type 1 + tag 16 = 3,162): 95 + 6 + 3,162 = 3,263 bytes.
    // 1,448-byte segments (1,500 - 40 - 12 of timestamp option): 3,263 = 1,448 + 1,448 + 367.
    expect(serverHandshakeSegments(s, 3263)).toEqual([1448, 1448, 367]);
    // Without the timestamp option (createSimulation's tcpTimestamps: false): 3,263 = 1,460 + 1,460 + 343.
    expect(serverHandshakeSegments(await fetched('1.1', { tcpTimestamps: false }), 3263)).toEqual([1460, 1460, 343]);
    // A 500-byte chain: 95 + 6 + (5 + 500 + 340 + 1 + 16 = 862) = 963 bytes, one segment.
    expect(serverHandshakeSegments(await fetched('1.1', { certificateChainBytes: 500 }), 963)).toEqual([963]);
  });

  it('over QUIC: the Handshake CRYPTO data (340 + 2,800 = 3,140 bytes) split over three datagrams', async () => {
    const s = await fetched('3');
    // Sizes as serialised (http3/quic-codec.ts). The first datagram also holds the Initial packet (142 bytes),
    // so 1,452 - 142 - 26 (Handshake header) - 16 (AEAD tag) - 4 (CRYPTO type, offset 0, 2-byte length) = 1,264
    // bytes; the second 1,452 - 26 - 16 - 5 (the offset 1,264 takes 2 bytes) = 1,405; the third the remaining 471.
    expect(serverHandshakeDatagrams(s)).toEqual([
      'CRYPTO EncryptedExtensions, Certificate, CertificateVerify, Finished @0+1264',
      'CRYPTO EncryptedExtensions, Certificate, CertificateVerify, Finished @1264+1405',
      'CRYPTO EncryptedExtensions, Certificate, CertificateVerify, Finished @2669+471',
    ]);
    const first = s.trace
      .ofType('quic-packet-sent')
      .filter((e) => e.from === 'server' && e.at === s.trace.ofType('quic-packet-sent').find((p) => p.from === 'server')!.at);
    // RFC 9000 §8.1: within three times the client's 1,200-byte Initial (not enforced, but the default keeps to it).
    expect(first.reduce((n, e) => n + e.size, 0)).toBeLessThanOrEqual(3600);
    // A 500-byte chain: 840 bytes of CRYPTO data fit beside the Initial packet in one datagram.
    expect(serverHandshakeDatagrams(await fetched('3', { certificateChainBytes: 500 }))).toEqual([
      'CRYPTO EncryptedExtensions, Certificate, CertificateVerify, Finished',
    ]);
  });

  it('costs its serialization time: at 1 Mbit/s, 2,300 more bytes of chain cost their bytes on the wire over TCP and QUIC', async () => {
    const bandwidth = 1_000_000;
    const tlsMs = async (chain: number) =>
      (await fetched('1.1', { bandwidth, certificateChainBytes: chain })).trace.ofType('tls-established').find((e) => e.side === 'client')!.tlsMs;
    const quicMs = async (chain: number) =>
      (await fetched('3', { bandwidth, certificateChainBytes: chain })).trace.ofType('quic-ready').find((e) => e.side === 'client')!.handshakeMs;
    // TCP: 500 -> 2,800 bytes of chain takes the flight's records from 963 bytes (one segment, 963 + 52 of
    // headers with the timestamp option = 1,015 on the wire) to 3,263 (three segments, 3,263 + 3 x 52 = 3,419 on
    // the wire): 2,404 bytes more, 2,404 x 8 / 1e6 s = 19.232 ms.
    expect((await tlsMs(2800)) - (await tlsMs(500))).toBeCloseTo(19.232, 3);
    // QUIC: from one datagram of 142 + 26 + 4 + 840 + 16 = 1,028 bytes (1,056 with UDP/IPv4) to three of 1,452,
    // 1,452 and 518 (3,506 with UDP/IPv4): 2,450 bytes more, 19.6 ms.
    expect((await quicMs(2800)) - (await quicMs(500))).toBeCloseTo(19.6, 3);
  });

  it('with the hybrid key share (the default): ServerHello 1,178, so 4,351 bytes of records in four segments', async () => {
    const s = await fetched('1.1', { tlsKeyShare: 'x25519mlkem768' });
    // ServerHello record 5 + 1,178 = 1,183, ChangeCipherSpec 6, the protected rest 3,162: 4,351 bytes
    // = 1,448 + 1,448 + 1,448 + 7.
    expect(serverHandshakeSegments(s, 4351)).toEqual([1448, 1448, 1448, 7]);
  });

  it('over QUIC the 1,500-byte hybrid ClientHello takes two Initial packets', async () => {
    const initials = (s: Simulation) =>
      s.trace.ofType('quic-packet-sent').filter((e) => e.from === 'client' && e.space === 'initial' && e.frames.some((f) => f.startsWith('CRYPTO')));
    const hybrid = initials(await fetched('3', { tlsKeyShare: 'x25519mlkem768' }));
    expect(hybrid).toHaveLength(2);
    // 1,500 bytes of CRYPTO data do not fit one 1,452-byte datagram: 1,405 in the first (1,452 - 27 of Initial
    // header - 16 of AEAD tag - 4 of frame header), 95 in the second, which is padded to 1,200 like the first
    // (RFC 9000 §14.1): 27 + 5 + 95 + 1,057 of PADDING + 16.
    expect(hybrid.map((e) => [e.size, e.frames.join('; ')])).toEqual([
      [1452, 'CRYPTO ClientHello @0+1405'],
      [1200, 'CRYPTO ClientHello @1405+95; PADDING 1057'],
    ]);
    // So before it validates the client's address the server may send 3 x (1,452 + 1,200) = 7,956 bytes (RFC
    // 9000 §8.1), room for its 4,318 bytes of TLS messages; the X25519 ClientHello's one 1,200-byte datagram
    // allows 3,600.
    // The 280-byte ClientHello fits one.
    expect(initials(await fetched('3'))).toHaveLength(1);
  });
});
