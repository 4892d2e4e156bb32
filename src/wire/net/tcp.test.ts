import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock';
import { createRandom } from './random';
import { Link } from './link';
import { MSS, MSS_WITHOUT_TIMESTAMPS, TcpNetwork, type TcpOptions, type TcpSocket } from './tcp';
import { TlsStream } from './tls';
import { Trace } from '../trace/trace';
import type { ByteStream } from './stream';
import { concatBytes } from './stream';

function setup(link: { rtt?: number; bandwidth?: number; loss?: number } = {}, seed = 1, options: TcpOptions = {}) {
  const clock = new VirtualClock();
  const trace = new Trace(() => clock.now());
  let n = 0;
  const network = new TcpNetwork({ clock, trace, nextId: (p) => `${p}${++n}` }, options);
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
    expect(
      trace
        .ofType('ack')
        .filter((a) => a.from === 'server')
        .map((a) => a.ack),
    ).toEqual([MSS, 2 * MSS, 3 * MSS, 5000]);
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
    socket.write(payload(948)); // 948 + 40 header bytes + 12 of timestamp option = 1000 bytes = 1 ms
    clock.runUntilIdle();
    expect(doneAt).toBeCloseTo(1, 6);
  });

  it('the timestamp option (RFC 7323) takes 12 bytes of every segment: 1448-byte segments, 1460 without it', () => {
    // 1500-byte packets either way: 1448 + 40 + 12 = 1460 + 40 = 1500. At 12 Mbit/s, 1500 bytes take 1 ms.
    const run = (options: TcpOptions) => {
      const { clock, trace, network, link } = setup({ rtt: 0, bandwidth: 12_000_000 }, 1, options);
      network.listen('h:80', 'server', () => {});
      const socket = network.connect('h:80', { from: 'client', link });
      socket.write(payload(2920));
      clock.runUntilIdle();
      return { lengths: trace.ofType('segment-sent').map((e) => e.length), arrivals: trace.ofType('segment-arrived').map((e) => e.at), socket };
    };
    const on = run({});
    expect(MSS).toBe(1448);
    // 2,920 = 1,448 + 1,448 + 24: the last segment is 24 + 52 = 76 bytes, 76 x 8 / 12,000 = 0.050667 ms,
    // so it arrives at 1 + 1 + 0.050667 = 2.051 ms (rounded to µs).
    expect(on.lengths).toEqual([1448, 1448, 24]);
    expect(on.arrivals).toEqual([1, 2, 2.051]);
    // RFC 6928 §2: min(10 x 1448, max(2 x 1448, 14600)) = 14,480.
    expect(on.socket.recovery.rules.initialWindow).toBe(14_480);
    const off = run({ timestamps: false });
    expect(MSS_WITHOUT_TIMESTAMPS).toBe(1460);
    // 2,920 = 2 x 1,460, two full 1500-byte packets: 1 ms each.
    expect(off.lengths).toEqual([1460, 1460]);
    expect(off.arrivals).toEqual([1, 2]);
    // min(10 x 1460, max(2 x 1460, 14600)) = 14,600.
    expect(off.socket.recovery.rules.initialWindow).toBe(14_600);
  });

  it('fast retransmit: three later segments reveal a loss one RTT after it was sent, and the window is halved', () => {
    const { clock, trace, network, link } = setup({ rtt: 100 });
    let sends = 0;
    link.dropCause = () => (sends++ === 0 ? 'random' : undefined); // the first data segment is lost, nothing else
    const deliveries: number[] = [];
    let received: Uint8Array[] = [];
    network.listen('h:80', 'server', (s) => s.onData((b) => (deliveries.push(clock.now()), received.push(b))));
    const socket = network.connect('h:80', { from: 'client', link });
    const data = payload(MSS * 10);
    socket.write(data);
    clock.runUntilIdle();
    // Ten segments leave at 100 ms; nine arrive at 150 and their duplicate ACKs (each naming the segment it
    // holds, SACK) are back at 200: the third makes segment 0 lost. Its copy arrives at 250.
    expect(trace.ofType('hol-blocked').length).toBe(9);
    expect(trace.ofType('retransmit')).toMatchObject([{ offset: 0, reason: 'packet-threshold', attempt: 1, at: 200 }]);
    expect(deliveries).toEqual([250]);
    expect(concatBytes(received)).toEqual(data);
    // The three SACKs had grown the window from 10 to 13 segments in slow start; CUBIC (the default, RFC 9438
    // §4.6) keeps 0.7 of it: floor(0.7 x 18,824) = 13,176 bytes. One congestion response.
    expect(socket.recovery.ssthresh).toBe(13_176);
    expect(socket.recovery.reductions).toBe(1);
    received = [];
  });

  it("NewReno halves the window instead, as Linux's reno module does (tcp_reno_ssthresh)", () => {
    const { clock, network, link } = setup({ rtt: 100 }, 1, { congestionControl: 'newreno' });
    let sends = 0;
    link.dropCause = () => (sends++ === 0 ? 'random' : undefined);
    network.listen('h:80', 'server', () => {});
    const socket = network.connect('h:80', { from: 'client', link });
    socket.write(payload(MSS * 10));
    clock.runUntilIdle();
    // 13 segments when the loss is found: 18,824 / 2 = 9,412 (RFC 5681 eq. 4's FlightSize/2 would be 5 segments).
    expect(socket.recovery.ssthresh).toBe(9_412);
    expect(socket.recovery.algorithm).toBe('newreno');
  });

  it("a loss with too few segments behind it is found by RACK's time threshold, RTT + min_RTT / 4 after it was sent", () => {
    const { clock, trace, network, link } = setup({ rtt: 100 });
    let sends = 0;
    link.dropCause = () => (sends++ === 0 ? 'random' : undefined);
    const deliveries: number[] = [];
    network.listen('h:80', 'server', (s) => s.onData(() => deliveries.push(clock.now())));
    const socket = network.connect('h:80', { from: 'client', link });
    socket.write(payload(MSS * 3));
    clock.runUntilIdle();
    // Sent at 100; the two later segments are acknowledged at 200, so RACK.rtt = 100 and min_RTT = 100: the
    // segment is lost at 100 + 100 + 100 / 4 = 225 ms (RFC 8985 §6.2, reo_wnd = min_RTT / 4), before the tail
    // loss probe (200 + 2 x 100 + 2 = 402); the copy arrives at 275.
    expect(trace.ofType('retransmit')).toMatchObject([{ offset: 0, reason: 'time-threshold', at: 225 }]);
    expect(deliveries).toEqual([275]);
  });

  it('a tail loss is recovered by the probe at 2 x SRTT, not by the RTO (RACK-TLP, RFC 8985 §7)', () => {
    const { clock, trace, network, link } = setup({ rtt: 100 });
    let sends = 0;
    link.dropCause = () => (++sends === 9 || sends === 10 ? 'random' : undefined); // the last two of ten segments
    const deliveries: number[] = [];
    network.listen('h:80', 'server', (s) => s.onData(() => deliveries.push(clock.now())));
    const socket = network.connect('h:80', { from: 'client', link });
    socket.write(payload(MSS * 10));
    clock.runUntilIdle();
    // Ten segments leave at 100; the ACKs of eight are back at 200 and nothing later can reveal the last two.
    // Two segments in flight, so PTO = 2 x SRTT + 2 ms (Linux's TCP_TIMEOUT_MIN) = 202: the probe, the last
    // segment again, leaves at 402, before the RTO (200 + 100 + max(4 x 37.5, 200) = 500). Its SACK at 502
    // lets RACK find the ninth lost (sent at 100, 100 + 100 + 25 < 502), resent at 502, delivered at 552.
    expect(trace.ofType('retransmit')).toMatchObject([
      { offset: 9 * MSS, reason: 'tail-loss-probe', at: 402 },
      { offset: 8 * MSS, reason: 'time-threshold', at: 502 },
    ]);
    expect(socket.recovery.tailLossProbes).toBe(1);
    expect(deliveries.at(-1)).toBe(552);
    // The probe repeated a lost segment: one congestion response for the episode (RFC 8985 §7.4).
    expect(socket.recovery.reductions).toBe(1);
  });

  it('a single lost segment with nothing else in flight waits WCDelAckT longer, so the RTO goes first', () => {
    const { clock, trace, network, link } = setup({ rtt: 100 });
    let sends = 0;
    link.dropCause = () => (++sends === 10 ? 'random' : undefined);
    network.listen('h:80', 'server', () => {});
    network.connect('h:80', { from: 'client', link }).write(payload(MSS * 10));
    clock.runUntilIdle();
    // One segment in flight after the ACKs at 200: PTO = 2 x 100 + 200 (WCDelAckT) = 400, later than the RTO at 500.
    expect(trace.ofType('retransmit')).toMatchObject([{ offset: 9 * MSS, reason: 'timeout', at: 500 }]);
  });

  it('a lone lost segment waits for the RTO (RFC 6298), which doubles when the copy is lost too', () => {
    const { clock, trace, network, link } = setup({ rtt: 100 });
    let sends = 0;
    link.dropCause = () => (sends++ < 2 ? 'random' : undefined); // the segment and its first copy
    const deliveries: number[] = [];
    let received: Uint8Array[] = [];
    network.listen('h:80', 'server', (s) => s.onData((b) => (deliveries.push(clock.now()), received.push(b))));
    const socket = network.connect('h:80', { from: 'client', link });
    const data = payload(MSS);
    socket.write(data);
    clock.runUntilIdle();
    expect(trace.ofType('packet-lost')).toHaveLength(2);
    expect(trace.ofType('hol-blocked')).toHaveLength(0);
    // The handshake's sample: SRTT 100, RTTVAR 50, RTO = 100 + 4 x 50 = 300 (above the 200 ms floor).
    // Sent at 100, resent at 400; that copy is lost too, and the doubled RTO resends at 400 + 600.
    expect(trace.ofType('retransmit')).toMatchObject([
      { offset: 0, reason: 'timeout', rto: 300, attempt: 1, at: 400 },
      { offset: 0, reason: 'timeout', rto: 600, attempt: 2, at: 1000 },
    ]);
    // On a timeout the window falls to one segment (RFC 5681 §3.1).
    expect(trace.ofType('segment-sent').map((e) => e.cwnd)).toEqual([10, 1, 1]);
    expect(deliveries).toEqual([1050]);
    expect(concatBytes(received)).toEqual(data);
    received = [];
  });

  for (const [formula, minRto, rto] of [
    // Linux: SRTT + max(4 x RTTVAR, rto_min) = 20 + max(40, 200) = 220 ms.
    ['linux', 200, 220],
    // Linux with rto_min 1,000: 20 + 1,000.
    ['linux', 1000, 1020],
    // RFC 6298 §2.4: SRTT + 4 x RTTVAR = 20 + 40 = 60 ms, raised to the 1,000 ms floor.
    ['rfc6298', 1000, 1000],
    // RFC 6298 with a 200 ms floor: 200.
    ['rfc6298', 200, 200],
  ] as const) {
    it(`the RTO, ${formula} with minRto ${minRto}: ${rto} ms at a 20 ms RTT`, () => {
      const clock = new VirtualClock();
      const trace = new Trace(() => clock.now());
      let n = 0;
      // Without the tail loss probe, which would go first at 20 + 2 x 20 + 200 = 260 ms (one segment in flight).
      const network = new TcpNetwork({ clock, trace, nextId: (p) => `${p}${++n}` }, { minRto, rtoFormula: formula, tailLossProbe: false });
      const link = new Link({ rtt: 20, bandwidth: Infinity, loss: 0 }, createRandom(1));
      let sends = 0;
      link.dropCause = () => (sends++ === 0 ? 'random' : undefined);
      network.listen('h:80', 'server', () => {});
      network.connect('h:80', { from: 'client', link }).write(payload(100));
      clock.runUntilIdle();
      // The handshake's sample: SRTT = 20, RTTVAR = 10; the segment left at 20 ms.
      expect(trace.ofType('retransmit')).toMatchObject([{ reason: 'timeout', rto, at: 20 + rto }]);
    });
  }

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
  const handshake = (version: '1.2' | '1.3', falseStart?: boolean) => {
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
    const tls = new TlsStream(tcp, version, { clock, trace, nextId: (p) => p }, { falseStart });
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
    expect(
      r.trace
        .ofType('handshake')
        .filter((e) => e.protocol === 'tls1.3')
        .map((e) => e.step),
    ).toEqual(['ClientHello', 'ServerHello, EncryptedExtensions, Certificate, CertificateVerify, Finished', 'Finished']);
    expect(r.trace.ofType('tls-established').find((e) => e.side === 'client')!.tlsMs).toBe(100);
  });

  it('TLS 1.2 without False Start costs two round trips after TCP: first response after 4 RTT', () => {
    const r = handshake('1.2', false);
    expect(r.readyAt).toBe(300);
    expect(r.replyAt).toBe(400);
    expect(r.trace.ofType('tls-established').find((e) => e.side === 'client')!.tlsMs).toBe(200);
  });

  it("TLS 1.2 with False Start (RFC 7918, the default) sends 'ping' with the client's Finished: one round trip, as TLS 1.3", () => {
    const r = handshake('1.2');
    // TCP 100 + ClientHello/server flight 100: the client is ready when it sends its Finished, at 200.
    expect(r.readyAt).toBe(200);
    expect(r.serverGot).toBe('ping');
    // The server reads ping after the client's Finished (at 250) and answers after its own Finished: 300.
    expect(r.replyAt).toBe(300);
    expect(r.reply).toBe('pong');
    // The client still reads the server's ChangeCipherSpec and Finished, then the data: the whole handshake ran.
    const steps = r.trace
      .ofType('handshake')
      .filter((e) => e.protocol === 'tls1.2')
      .map((e) => `${e.from}: ${e.step}`);
    expect(steps).toEqual([
      'client: ClientHello',
      'server: ServerHello, Certificate, ServerKeyExchange, ServerHelloDone',
      'client: ClientKeyExchange, ChangeCipherSpec, Finished',
      'server: ChangeCipherSpec, Finished',
    ]);
  });

  it('application data travels in TLS records: readable plaintext, with the bytes protection adds as zeros', () => {
    // TLS 1.3 (RFC 8446 §5.2): 'ping' (4) + content type 0x17 (1) + AEAD tag (16) = 21 = 0x15 bytes after the
    // 5-byte header: 22 bytes more than the plaintext.
    const sent13 = handshake('1.3')
      .trace.ofType('bytes-sent')
      .map((e) => e.data);
    expect(sent13).toContain(`\x17\x03\x03\x00\x15ping\x17${'\0'.repeat(16)}`);
    // TLS 1.2 AES-GCM (RFC 5288 §3): explicit nonce (8) + 'ping' (4) + tag (16) = 28 = 0x1c: 29 bytes more.
    const r12 = handshake('1.2');
    expect(r12.trace.ofType('bytes-sent').map((e) => e.data)).toContain(`\x17\x03\x03\x00\x1c${'\0'.repeat(8)}ping${'\0'.repeat(16)}`);
    expect(r12.serverGot).toBe('ping');
    expect(r12.reply).toBe('pong');
  });

  it('cuts a write into records of at most 16 KiB of plaintext, each costing its overhead', () => {
    for (const [version, overhead] of [
      ['1.3', 22],
      ['1.2', 29],
    ] as const) {
      const { clock, trace, network, link } = setup({ rtt: 100 });
      let got = 0;
      network.listen('h:443', 'server', (s) => {
        const tls = new TlsStream(s, version, { clock, trace, nextId: (p) => p });
        tls.onData((b) => (got += b.length));
      });
      const tls = new TlsStream(network.connect('h:443', { from: 'client', link }), version, { clock, trace, nextId: (p) => p });
      tls.write(payload(40_000));
      clock.runUntilIdle();
      expect(got).toBe(40_000);
      // 40,000 = 16,384 + 16,384 + 7,232: three records, so 40,000 + 3 x overhead bytes of application data
      // (1.3: 40,066; 1.2: 40,087), after the client's handshake bytes.
      const appBytes = trace
        .ofType('bytes-sent')
        .filter((e) => e.from === 'client' && e.data.charCodeAt(0) === 23)
        .map((e) => e.data.length);
      expect(appBytes).toEqual([16_384 + overhead, 16_384 + overhead, 7_232 + overhead]);
      expect(appBytes.reduce((a, b) => a + b)).toBe(40_000 + 3 * overhead);
    }
  });
});
