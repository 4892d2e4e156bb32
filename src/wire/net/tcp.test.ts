import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock';
import { createRandom } from './random';
import { Link } from './link';
import { MSS, TcpNetwork, type TcpSocket } from './tcp';
import { TlsStream } from './tls';
import { Trace } from '../trace/trace';
import type { ByteStream } from './stream';
import { concatBytes } from './stream';

function setup(link: { rtt?: number; bandwidth?: number; loss?: number } = {}, seed = 1) {
  const clock = new VirtualClock();
  const trace = new Trace(() => clock.now());
  let n = 0;
  const network = new TcpNetwork({ clock, trace, nextId: (p) => `${p}${++n}` });
  const l = new Link({ rtt: link.rtt ?? 100, bandwidth: link.bandwidth ?? Infinity, loss: link.loss ?? 0 }, createRandom(seed));
  return { clock, trace, network, link: l };
}

/** A server that collects what it receives and can answer. */
function collect(stream: ByteStream): { bytes: () => Uint8Array; at: number[] } {
  const chunks: Uint8Array[] = [];
  const at: number[] = [];
  stream.onData((b) => {
    chunks.push(b);
  });
  return { bytes: () => concatBytes(chunks), at };
}

const payload = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => i % 251);

describe('TCP model', () => {
  it('three-way handshake: client ready after 1 RTT, server after 1.5 RTT', () => {
    const { clock, trace, network, link } = setup({ rtt: 80 });
    let acceptedAt = -1;
    network.listen('h:80', 'server', () => (acceptedAt = clock.now()));
    const socket = network.connect('h:80', { from: 'client', link });
    let openAt = -1;
    socket.onOpen(() => (openAt = clock.now()));
    clock.runUntilIdle();
    expect(openAt).toBe(80);
    expect(acceptedAt).toBe(120);
    expect(trace.ofType('handshake').map((e) => `${e.at}:${e.step}:${e.from}`)).toEqual(['0:SYN:client', '40:SYN-ACK:server', '80:ACK:client']);
    expect(trace.ofType('connection-opened')[0]!.tcpMs).toBe(80);
  });

  it('refused connections end with RST after one RTT', () => {
    const { clock, trace, network, link } = setup({ rtt: 50 });
    const socket = network.connect('nobody:80', { from: 'client', link });
    let reason = '';
    socket.onClose((info) => (reason = info.reason));
    clock.runUntilIdle();
    expect(reason).toBe('connection refused: nothing listens on nobody:80');
    expect(socket.state).toBe('closed');
    expect(trace.ofType('connection-closed')[0]).toMatchObject({ at: 50, how: 'reset', by: 'server' });
  });

  it('delivers bytes in order and exactly, split into MSS segments', () => {
    const { clock, trace, network, link } = setup();
    let got: ReturnType<typeof collect> | undefined;
    network.listen('h:80', 'server', (s) => (got = collect(s)));
    const socket = network.connect('h:80', { from: 'client', link });
    const data = payload(5000);
    socket.write(data);
    clock.runUntilIdle();
    expect(got!.bytes()).toEqual(data);
    expect(trace.ofType('segment-sent').map((s) => s.length)).toEqual([MSS, MSS, MSS, 5000 - 3 * MSS]);
    // Each segment is acknowledged at once, cumulatively.
    expect(trace.ofType('ack').filter((a) => a.from === 'server').map((a) => a.ack)).toEqual([MSS, 2 * MSS, 3 * MSS, 5000]);
  });

  it('slow start: initial window of 10 segments, doubling each round trip', () => {
    const { clock, trace, network, link } = setup({ rtt: 100 });
    network.listen('h:80', 'server', () => {});
    const socket = network.connect('h:80', { from: 'client', link });
    socket.write(payload(MSS * 70)); // 10 + 20 + 40 segments
    clock.runUntilIdle();
    const rounds = new Map<number, number>();
    for (const s of trace.ofType('segment-sent')) rounds.set(s.at, (rounds.get(s.at) ?? 0) + 1);
    // Sent in bursts at 100 (after the handshake), 200, 300 ms... with ACKs clocking growth.
    const first = trace.ofType('segment-sent').filter((s) => s.at === 100).length;
    expect(first).toBe(10);
    const byRtt = [100, 200, 300].map((t) => trace.ofType('segment-sent').filter((s) => s.at >= t && s.at < t + 100).length);
    expect(byRtt).toEqual([10, 20, 40]);
  });

  it('bandwidth adds serialization delay per segment', () => {
    const { clock, network, link } = setup({ rtt: 0, bandwidth: 8_000_000 }); // 1 byte per µs
    let doneAt = -1;
    network.listen('h:80', 'server', (s) => s.onData(() => (doneAt = clock.now())));
    const socket = network.connect('h:80', { from: 'client', link });
    socket.write(payload(960)); // 960 + 40 header bytes = 1000 bytes = 1 ms
    clock.runUntilIdle();
    expect(doneAt).toBeCloseTo(1, 6);
  });

  it('a lost segment is retransmitted after the RTO and holds later bytes back (head-of-line blocking)', () => {
    // Find a seed whose first data segment is lost with loss 0.3 (deterministic for that seed).
    let chosen = 0;
    for (let seed = 1; seed < 200; seed++) {
      const r = createRandom(seed);
      if (r.next() < 0.3 && r.next() >= 0.3 && r.next() >= 0.3 && r.next() >= 0.3) {
        chosen = seed;
        break;
      }
    }
    const { clock, trace, network, link } = setup({ rtt: 100, loss: 0.3 }, chosen);
    const deliveries: { at: number; length: number }[] = [];
    let received: Uint8Array[] = [];
    network.listen('h:80', 'server', (s) =>
      s.onData((b) => {
        deliveries.push({ at: clock.now(), length: b.length });
        received.push(b);
      }),
    );
    const socket = network.connect('h:80', { from: 'client', link });
    const data = payload(MSS * 3);
    socket.write(data);
    clock.runUntilIdle();
    const lost = trace.ofType('packet-lost');
    expect(lost[0]).toMatchObject({ offset: 0, length: MSS });
    expect(trace.ofType('hol-blocked').length).toBeGreaterThan(0);
    const retransmit = trace.ofType('retransmit')[0]!;
    expect(retransmit).toMatchObject({ offset: 0, rto: 300, attempt: 1, at: 400 });
    // Nothing reached the application before the retransmission arrived; then all of it at once.
    expect(deliveries[0]!.at).toBe(450);
    expect(concatBytes(received)).toEqual(data);
    received = [];
  });

  it('close delivers queued data first, then ends both sides', () => {
    const { clock, trace, network, link } = setup();
    let server: TcpSocket | undefined;
    let got: ReturnType<typeof collect> | undefined;
    network.listen('h:80', 'server', (s) => {
      server = s;
      got = collect(s);
    });
    const socket = network.connect('h:80', { from: 'client', link });
    socket.write(payload(3000));
    socket.close('done');
    const closes: string[] = [];
    socket.onClose((i) => closes.push(`client:${i.how}:${i.by}`));
    clock.runUntilIdle();
    expect(got!.bytes().length).toBe(3000);
    expect(server!.state).toBe('closed');
    expect(closes).toEqual(['client:fin:client']);
    expect(trace.ofType('connection-closed')).toHaveLength(1);
  });

  it('abort resets: the peer sees it one one-way delay later', () => {
    const { clock, network, link } = setup({ rtt: 60 });
    let peerClosedAt = -1;
    network.listen('h:80', 'server', (s) => s.onClose((i) => (peerClosedAt = i.how === 'reset' ? clock.now() : -2)));
    const socket = network.connect('h:80', { from: 'client', link });
    clock.advance(200);
    socket.abort('bye');
    clock.runUntilIdle();
    expect(peerClosedAt).toBe(230);
  });
});

describe('TLS model', () => {
  const handshake = (version: '1.2' | '1.3') => {
    const { clock, trace, network, link } = setup({ rtt: 100 });
    let serverGot = '';
    network.listen('h:443', 'server', (s) => {
      const tls = new TlsStream(s, version, { clock, trace, nextId: (p) => p });
      tls.onData((b) => {
        serverGot += new TextDecoder().decode(b);
        tls.write(new TextEncoder().encode('pong'));
      });
    });
    const tcp = network.connect('h:443', { from: 'client', link });
    const tls = new TlsStream(tcp, version, { clock, trace, nextId: (p) => p });
    let readyAt = -1;
    let reply = '';
    let replyAt = -1;
    tls.onOpen(() => (readyAt = clock.now()));
    tls.onData((b) => {
      reply += new TextDecoder().decode(b);
      replyAt = clock.now();
    });
    tls.write(new TextEncoder().encode('ping'));
    clock.runUntilIdle();
    return { readyAt, serverGot, reply, replyAt, trace };
  };

  it('TLS 1.3 costs one round trip after TCP: first response after 3 RTT', () => {
    const r = handshake('1.3');
    expect(r.readyAt).toBe(200);
    expect(r.serverGot).toBe('ping');
    expect(r.reply).toBe('pong');
    expect(r.replyAt).toBe(300);
    expect(r.trace.ofType('handshake').filter((e) => e.protocol === 'tls1.3').map((e) => e.step)).toEqual([
      'ClientHello',
      'ServerHello, EncryptedExtensions, Certificate, CertificateVerify, Finished',
      'Finished',
    ]);
    expect(r.trace.ofType('tls-established').find((e) => e.side === 'client')!.tlsMs).toBe(100);
  });

  it('TLS 1.2 costs two round trips after TCP: first response after 4 RTT', () => {
    const r = handshake('1.2');
    expect(r.readyAt).toBe(300);
    expect(r.replyAt).toBe(400);
    expect(r.trace.ofType('tls-established').find((e) => e.side === 'client')!.tlsMs).toBe(200);
  });

  it('application data travels in TLS records (5-byte header, readable plaintext)', () => {
    const r = handshake('1.3');
    const sent = r.trace.ofType('bytes-sent').map((e) => e.data);
    expect(sent).toContain('\x17\x03\x03\x00\x04ping');
  });
});
