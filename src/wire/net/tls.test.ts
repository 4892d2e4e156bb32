/**
 * The handshake's records as a capture shows them (RFC 8446 §5.1-5.2 and Appendix D.4; RFC 5246 §7.1 and
 * §7.4.9; RFC 5288 §3): which records each flight is written as, of which type and size, what a receiver
 * accepts, and the handshake table's own consistency. Every size is worked out by hand from
 * transport/tls-sizes.ts.
 */
import type { TlsKeyShare } from '../transport/tls-sizes';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock';
import { createRandom } from './random';
import { Link } from './link';
import { TcpNetwork } from './tcp';
import { TLS_FLIGHTS, TlsStream, type TlsVersion } from './tls';
import { Trace } from '../trace/trace';
import type { Side } from '../trace/events';

function setup() {
  const clock = new VirtualClock();
  const trace = new Trace(() => clock.now());
  let n = 0;
  const ctx = { clock, trace, nextId: (p: string) => `${p}${++n}` };
  const network = new TcpNetwork(ctx);
  const link = new Link({ rtt: 100, bandwidth: Infinity, loss: 0 }, createRandom(1));
  return { clock, trace, ctx, network, link };
}

interface Rec {
  readonly type: number;
  readonly length: number;
  /** The ASCII at the start of the record's plaintext (TLS 1.2's protected records: after the nonce). */
  readonly name: string;
  /** TLS 1.3's inner content type: the byte before the 16-byte tag. */
  readonly inner?: number;
}

/** The records of every write of one side, write by write. */
function writes(trace: Trace, from: Side, version: '1.2' | '1.3'): Rec[][] {
  let protectedFrom = false;
  return trace
    .ofType('bytes-sent')
    .filter((e) => e.from === from)
    .map((e) => {
      const out: Rec[] = [];
      for (let at = 0; at + 5 <= e.data.length; ) {
        const type = e.data.charCodeAt(at);
        const length = (e.data.charCodeAt(at + 3) << 8) | e.data.charCodeAt(at + 4);
        const payload = e.data.slice(at + 5, at + 5 + length);
        const start = version === '1.2' && protectedFrom ? 8 : 0;
        const text = payload.slice(start);
        const name = text.slice(0, text.search(/[^ -~]|$/));
        out.push(version === '1.3' && type === 23 ? { type, length, name, inner: payload.charCodeAt(length - 17) } : { type, length, name });
        if (type === 20) protectedFrom = true;
        at += 5 + length;
      }
      return out;
    });
}

function run(version: '1.2' | '1.3', certificateChainBytes?: number, keyShare?: TlsKeyShare) {
  const { clock, trace, ctx, network, link } = setup();
  let got = '';
  network.listen('h:443', 'server', (s) => {
    const tls = new TlsStream(s, version, ctx, { certificateChainBytes, keyShare });
    tls.onData((b) => {
      got += new TextDecoder().decode(b);
      tls.write(new TextEncoder().encode('pong'));
    });
  });
  const tls = new TlsStream(network.connect('h:443', { from: 'client', link }), version, ctx, { keyShare });
  let reply = '';
  tls.onData((b) => (reply += new TextDecoder().decode(b)));
  tls.write(new TextEncoder().encode('ping'));
  clock.runUntilIdle();
  return { trace, got, reply };
}

/** A ping and its pong over `version`, both delivered, and the records each side wrote, write by write. */
function exchange(version: TlsVersion) {
  const r = run(version);
  expect(r.got).toBe('ping');
  expect(r.reply).toBe('pong');
  return { r, client: writes(r.trace, 'client', version), server: writes(r.trace, 'server', version) };
}

describe('TLS 1.3 handshake records (RFC 8446 §2, §5)', () => {
  it('hide everything after the ServerHello in application_data records with inner type handshake', () => {
    const { r, client, server } = exchange('1.3');
    // ClientHello: one plaintext handshake record, 280 bytes + the X25519MLKEM768 KeyShareEntry (2 + 2 + 1,216)
    // browsers add beside the X25519 one = 1,500.
    expect(client[0]).toEqual([{ type: 22, length: 1500, name: 'ClientHello' }]);
    // ServerHello in clear (90 - 32 X25519 share + 1,120 hybrid share = 1,178), the compatibility
    // ChangeCipherSpec (the byte 0x01), then EncryptedExtensions 40 + Certificate 2,800 + CertificateVerify 264
    // + Finished 36 = 3,140, + inner type 1 + tag 16 = 3,157: 1,183 + 6 + 3,162 = 4,351 bytes on the wire.
    expect(server[0]).toEqual([
      { type: 22, length: 1178, name: 'ServerHello' },
      { type: 20, length: 1, name: '' },
      { type: 23, length: 3157, name: 'EncryptedExtensions, Certificate, CertificateVerify, Finished', inner: 22 },
    ]);
    expect(r.trace.ofType('bytes-sent').find((e) => e.from === 'server')!.data.length).toBe(4351);
    // The client: ChangeCipherSpec, then Finished 36 + 1 + 16 = 53 protected (6 + 58 = 64 bytes), then its data.
    expect(client[1]).toEqual([
      { type: 20, length: 1, name: '' },
      { type: 23, length: 53, name: 'Finished', inner: 22 },
    ]);
    expect(client[2]).toEqual([{ type: 23, length: 4 + 17, name: 'ping', inner: 23 }]);
    const ccs = r.trace.ofType('bytes-sent').find((e) => e.from === 'client' && e.data.charCodeAt(0) === 20)!;
    expect(ccs.data.slice(0, 6)).toBe('\x14\x03\x03\x00\x01\x01');
  });

  it("with keyShare 'x25519' the hellos are as before the hybrid: ClientHello 280, ServerHello 90 (3,263 bytes of server records)", () => {
    const r = run('1.3', undefined, 'x25519');
    expect(r.reply).toBe('pong');
    expect(writes(r.trace, 'client', '1.3')[0]).toEqual([{ type: 22, length: 280, name: 'ClientHello' }]);
    expect(writes(r.trace, 'server', '1.3')[0]![0]).toEqual({ type: 22, length: 90, name: 'ServerHello' });
    // 95 + 6 + 3,162 = 3,263.
    expect(r.trace.ofType('bytes-sent').find((e) => e.from === 'server')!.data.length).toBe(3263);
  });

  it('TLS 1.2: the ClientHello carries the hybrid share too (it offers TLS 1.3), the ServerHello none', () => {
    const r = run('1.2');
    expect(writes(r.trace, 'client', '1.2')[0]).toEqual([{ type: 22, length: 1500, name: 'ClientHello' }]);
  });

  it('cut a certificate chain larger than a record into records of 2^14 bytes, the peer waiting for the last', () => {
    // 20,000 + 340 = 20,340 bytes of messages: 16,384 + 3,956, each + 17 of protection.
    const r = run('1.3', 20_000);
    expect(r.reply).toBe('pong');
    expect(writes(r.trace, 'server', '1.3')[0]).toEqual([
      { type: 22, length: 1178, name: 'ServerHello' },
      { type: 20, length: 1, name: '' },
      { type: 23, length: 16_384 + 17, name: 'EncryptedExtensions, Certificate, CertificateVerify, Finished (1/2)', inner: 22 },
      { type: 23, length: 3956 + 17, name: 'EncryptedExtensions, Certificate, CertificateVerify, Finished (2/2)', inner: 22 },
    ]);
    // The client answers the flight once, when it is whole.
    const tls = r.trace.ofType('handshake').filter((e) => e.protocol === 'tls1.3');
    expect(tls.map((e) => `${e.from}: ${e.step}`)).toEqual([
      'client: ClientHello',
      'server: ServerHello, EncryptedExtensions, Certificate, CertificateVerify, Finished',
      'client: Finished',
    ]);
  });
});

describe('TLS 1.2 handshake records (RFC 5246 §7.1, §7.4.9; RFC 5288 §3)', () => {
  it('protect each side Finished after its ChangeCipherSpec, keeping the handshake type in clear', () => {
    const { r, client, server } = exchange('1.2');
    // ServerHello 90, Certificate 2,800, ServerKeyExchange 4 + 36 + 260 = 300 (X25519, RSA-2048 signature),
    // ServerHelloDone 4: one plaintext record of 3,194.
    expect(server[0]).toEqual([{ type: 22, length: 3194, name: 'ServerHello, Certificate, ServerKeyExchange, ServerHelloDone' }]);
    // ClientKeyExchange 4 + 1 + 32 = 37; ChangeCipherSpec 1; Finished 8 (nonce) + 4 + 12 + 16 (tag) = 40:
    // 42 + 6 + 45 = 93 bytes on the wire.
    expect(client[1]).toEqual([
      { type: 22, length: 37, name: 'ClientKeyExchange' },
      { type: 20, length: 1, name: '' },
      { type: 22, length: 40, name: 'Finished' },
    ]);
    expect(r.trace.ofType('bytes-sent').filter((e) => e.from === 'client')[1]!.data.length).toBe(93);
    // The server: ChangeCipherSpec and Finished, 6 + 45 = 51 bytes.
    expect(server[1]).toEqual([
      { type: 20, length: 1, name: '' },
      { type: 22, length: 40, name: 'Finished' },
    ]);
    expect(r.trace.ofType('bytes-sent').filter((e) => e.from === 'server')[1]!.data.length).toBe(51);
  });
});

describe('a TLS receiver', () => {
  /** A client TlsStream against a raw server that answers its ClientHello with `answer`. */
  function against(version: '1.2' | '1.3', answer: string): string | undefined {
    const { clock, trace, ctx, network, link } = setup();
    network.listen('h:443', 'server', (s) => {
      const off = s.onData(() => {
        off();
        s.write(Uint8Array.from(answer, (c) => c.charCodeAt(0)));
      });
    });
    new TlsStream(network.connect('h:443', { from: 'client', link }), version, ctx);
    clock.runUntilIdle();
    return trace.ofType('connection-closed').find((e) => e.by === 'client')?.reason;
  }
  const rec = (type: number, payload: string) =>
    `${String.fromCharCode(type)}\x03\x03${String.fromCharCode(payload.length >> 8, payload.length & 0xff)}${payload}`;
  const tag = '\0'.repeat(16);

  it('aborts on a record type it does not expect, naming the type and the RFC section', () => {
    expect(against('1.3', rec(21, '\x02\x28'))).toMatch(/TLS record type 21 is not allowed now \(unexpected_message, RFC 8446 §5\)/);
    expect(against('1.2', rec(23, 'x'))).toMatch(/TLS record type 23 is not allowed now \(unexpected_message, RFC 5246 §7\.2\.2\)/);
  });

  it('aborts on a TLS 1.3 protected record that is not a handshake before the handshake is done', () => {
    expect(against('1.3', rec(22, 'ServerHello') + rec(23, `data\x17${tag}`))).toMatch(/inner type 23 .*RFC 8446 §5/);
  });

  it('aborts on a flight the table does not have, and drops TLS 1.3 ChangeCipherSpec records unread', () => {
    expect(against('1.3', rec(22, 'ServerHello') + rec(20, '\x01') + rec(23, `Certificate\x16${tag}`))).toMatch(
      /TLS 1\.3 client did not expect "ServerHello, Certificate" \(handshake_failure\)/,
    );
    // A ChangeCipherSpec record that is not the one byte 0x01 is not dropped.
    expect(against('1.3', rec(22, 'ServerHello') + rec(20, '\x02'))).toMatch(/TLS record type 20 is not allowed now/);
    // A whole flight, its ChangeCipherSpec dropped: no abort.
    const flight = rec(22, 'ServerHello') + rec(20, '\x01') + rec(23, `EncryptedExtensions, Certificate, CertificateVerify, Finished\x16${tag}`);
    expect(against('1.3', flight)).toBeUndefined();
  });
});

describe('TLS_FLIGHTS', () => {
  it('lists, for each flight sent, records whose messages are the flight (TLS 1.3 adding ChangeCipherSpec for middleboxes)', () => {
    for (const row of TLS_FLIGHTS.filter((r) => r.send !== undefined)) {
      const names = (row.records ?? []).filter((r) => row.version === '1.2' || r.type !== 'change_cipher_spec').map((r) => r.messages);
      expect(names.join(', ')).toBe(row.send);
      // The peer has a row for what this one sends.
      expect(TLS_FLIGHTS.some((r) => r.version === row.version && r.side !== row.side && r.received === row.send)).toBe(true);
    }
  });
});
