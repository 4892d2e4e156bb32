/**
 * Time to download a body over HTTP/1.1, HTTP/2 and HTTP/3, with and without one lost packet, against
 * times computed by hand from the model's rules: set-up round trips, slow start from a 10-packet
 * window doubling per round trip, serialization at the link's rate, and loss recovery in one RTT.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, type Simulation } from '../sim/simulation';
import { createServer } from '../server/index';
import type { Direction } from './link';

const RTT = 100;

/** Without a bottleneck queue: these are times for a path that never overflows (fair-transport.test.ts has the queue). */
function sim(httpVersion: '1.1' | '2' | '3', bytes: number, bandwidth: number, congestionControl: 'cubic' | 'newreno' = 'cubic'): Simulation {
  const server = createServer({ resources: { '/file': { body: 'z'.repeat(bytes), contentType: 'application/octet-stream' } } });
  return createSimulation({ httpVersion, tls: '1.3', rtt: RTT, bandwidth, queue: 'unlimited', server, congestionControl });
}

/**
 * Loses the `k`-th full-size packet (1-based) the server sends, and nothing else: a packet of the response
 * body in every protocol (the handshake's and HTTP/3's control-stream packets are small).
 */
function loseServerPacket(s: Simulation, k: number): void {
  let full = false;
  let count = 0;
  const transmit = s.link.transmit.bind(s.link);
  s.link.transmit = (d: Direction, payload, now, headers) => {
    full = d === 'down' && payload >= 1100;
    return transmit(d, payload, now, headers);
  };
  s.link.dropCause = () => (full && ++count === k ? 'random' : undefined);
}

async function download(s: Simulation, bytes: number): Promise<number> {
  const body = await (await s.fetch('/file')).arrayBuffer();
  expect(body.byteLength).toBe(bytes);
  return s.clock.now();
}

const retransmissions = (s: Simulation) => [...s.trace.ofType('retransmit').map((e) => e.reason), ...s.trace.ofType('quic-packets-lost').map((e) => e.reason)];

describe('transfer time, no bandwidth limit: round trips only', () => {
  // 32,000 bytes: 23 TCP segments of 1,448 bytes (the response in two TLS records, 22 bytes each on top), or
  // 23 QUIC packets of about 1,407 stream bytes; two flights for both (12, then the rest). TCP + TLS 1.3: 2 RTT
  // of set-up, the request arrives at 2.5 RTT, the first flight at 3 RTT, the second at 4 RTT: 400 ms. QUIC:
  // 1 RTT of set-up, so 300 ms.
  const BYTES = 32_000;
  const clean = { '1.1': 400, '2': 400, '3': 300 } as const;
  // With the first body packet lost: the packets behind it arrive, and the third of their acknowledgements
  // (back one RTT after the loss) declares it lost. Both windows grew by the server's handshake flight, which
  // the client acknowledged before the body (RFC 9002 §7 for QUIC's Handshake packets):
  // - TCP: 14,480 + 3,263 = 17,743, a first body flight of 12 segments (12 x 1,448 = 17,376). At 350 ms the
  //   three SACKs grow it in slow start to 17,743 + 3 x 1,448 = 22,087 (two new segments leave), and the third
  //   starts the recovery. CUBIC keeps 0.7 of the window: ssthresh = floor(0.7 x 22,087) = 15,460, and PRR
  //   (RFC 6937) sends the retransmission at once, then refills the flight to ssthresh as the other eight
  //   SACKs drain it: the copy and all eight segments left leave at 350, and TCP finishes at 400 ms, the same
  //   as without the loss. NewReno's halving (11,043, 7 segments) leaves the last three for 450 ms: 500 ms.
  // - QUIC: 14,520 + 1,304 + 1,452 + 543 = 17,819 with 277 bytes in flight (NewSessionTicket 237, control
  //   stream 40): 12 body packets (277 + 1,441 + 11 x 1,442 = 17,580). At 250 ms the ACKs of those two and of
  //   the next two body packets grow it to 17,819 + 40 + 237 + 1,442 + 1,442 = 20,980 (four new packets
  //   leave), the third body ACK (22,422) declares the first lost and cuts it at once (CUBIC: 15,695; NewReno:
  //   11,211): the copy and two new packets leave at 250, the last five at 350, arriving at 400 ms.
  // (Before QUIC's Handshake ACKs grew its window, its first flight was 10 packets and it took two round
  // trips more: 500 ms.)
  const lossy = { '1.1': 400, '2': 400, '3': 400 } as const;
  const lossyNewReno = { '1.1': 500, '2': 500, '3': 400 } as const;

  for (const v of ['1.1', '2', '3'] as const) {
    it(`HTTP/${v}: ${clean[v]} ms clean, ${lossy[v]} ms with one lost packet, found by three later packets, not a timeout`, async () => {
      expect(await download(sim(v, BYTES, Infinity), BYTES)).toBe(clean[v]);
      const s = sim(v, BYTES, Infinity);
      loseServerPacket(s, 1);
      expect(await download(s, BYTES)).toBe(lossy[v]);
      expect(retransmissions(s)).toEqual(['packet-threshold']);
      const reno = sim(v, BYTES, Infinity, 'newreno');
      loseServerPacket(reno, 1);
      expect(await download(reno, BYTES)).toBe(lossyNewReno[v]);
      // The algorithm is a fact of the connection in the trace, and named in QUIC's congestion events.
      const opening = v === '3' ? reno.trace.ofType('quic-connection-opening') : reno.trace.ofType('connection-opening');
      expect(opening.map((e) => e.congestionControl)).toEqual(['newreno']);
      expect(s.trace.events.find((e) => e.type === 'connection-opening' || e.type === 'quic-connection-opening')).toMatchObject({ congestionControl: 'cubic' });
      if (v === '3') expect(reno.trace.ofType('quic-congestion').every((e) => e.algorithm === 'newreno')).toBe(true);
    });
  }
});

describe('a lost tail over HTTP/1.1: the tail loss probe or the RTO', () => {
  it('the probe finds the last two lost packets one round trip sooner than the retransmission timeout', async () => {
    const run = async (tailLossProbe: boolean) => {
      const server = createServer({ resources: { '/file': { body: 'z'.repeat(14_000), contentType: 'application/octet-stream' } } });
      const s = createSimulation({ httpVersion: '1.1', rtt: RTT, bandwidth: Infinity, queue: 'unlimited', server, tailLossProbe });
      // The body's last two segments (of ten) are lost on their first transmission.
      s.link.dropCause = (packet) => (packet?.firstSent && packet.firstSent[1] > 11_700 ? 'random' : undefined);
      await (await s.fetch('/file')).arrayBuffer();
      return { at: s.clock.now(), reasons: s.trace.ofType('retransmit').map((e) => e.reason) };
    };
    const probe = await run(true);
    const rto = await run(false);
    expect(probe.reasons[0]).toBe('tail-loss-probe');
    expect(rto.reasons).toContain('timeout');
    expect(rto.reasons).not.toContain('tail-loss-probe');
    // The response's ten segments leave at 150 ms; eight ACKs are back at 250. Probe: 250 + 2 x 100 + 2 = 452,
    // the last segment again; its SACK at 552 has RACK resend the ninth, which completes the body at 602.
    // Without it: the RTO at 250 + 300 = 550 resends the ninth with a one-segment window, its ACK at 650 lets
    // the tenth go, and the body completes at 700, a round trip later.
    expect(probe.at).toBe(602);
    expect(rto.at).toBe(700);
  });
});

// Two 1 MiB transfers per test: a generous runner limit for a busy machine (nothing here asserts on wall time).
describe('transfer time at 10 Mbit/s: 1 MiB', { timeout: 60_000 }, () => {
  const BYTES = 1024 * 1024;
  const BANDWIDTH = 10_000_000;
  /**
   * setup + RTT (request out, last packet back) + packets x serialization + the time the link idles while
   * slow start fills it: each round of w packets (10, 20, 40...) that takes less than an RTT to send
   * leaves the link idle for the rest of that RTT.
   */
  const byHand = (setupRtts: number, payloadPerPacket: number, wirePerPacket: number): number => {
    const perPacket = (wirePerPacket * 8 * 1000) / BANDWIDTH;
    const packets = Math.ceil(BYTES / payloadPerPacket);
    let idle = 0;
    for (let w = 10; w * perPacket < RTT; w *= 2) idle += RTT - w * perPacket;
    return setupRtts * RTT + RTT + packets * perPacket + idle;
  };
  // TCP: 1,448-byte segments (the timestamp option takes 12 bytes), 1,500 on the wire (1.2 ms each), carrying
  // TLS records of 16,384 + 22 bytes, so 1,448 x 16,384 / 16,406 = 1,446 bytes of the body each:
  // ceil(1,048,576 / 1,446) = 726 packets x 1.2 = 871.2, + idle 88 + 76 + 52 + 4 = 220, + 3 RTT = 1,391.2 ms
  // (with 1,460-byte segments and no record overhead it was 719 x 1.2 + 220 + 300 = 1,382.8).
  // QUIC: 1,452-byte datagrams carrying about 1,415 bytes of a stream, 1,480 on the wire with UDP/IPv4.
  const expected = { '1.1': byHand(2, 1446, 1500), '2': byHand(2, 1446, 1500), '3': byHand(1, 1415, 1480) };

  for (const v of ['1.1', '2', '3'] as const) {
    it(`HTTP/${v}: within 5% of ${Math.round(expected[v])} ms, and a mid-transfer loss costs about one packet's time`, async () => {
      const clean = await download(sim(v, BYTES, BANDWIDTH), BYTES);
      expect(Math.abs(clean - expected[v]) / expected[v]).toBeLessThan(0.05);
      const lossy = sim(v, BYTES, BANDWIDTH);
      loseServerPacket(lossy, 200);
      const withLoss = await download(lossy, BYTES);
      // The link is full when the 200th packet is lost: the copy goes out while later data still
      // queues, so the transfer ends about one packet time (1-1.2 ms) later, not an RTO or an RTT later.
      expect(Math.abs(withLoss - expected[v]) / expected[v]).toBeLessThan(0.05);
      expect(withLoss - clean).toBeGreaterThanOrEqual(0);
      expect(withLoss - clean).toBeLessThan(RTT / 4);
      expect(retransmissions(lossy)).toEqual(['packet-threshold']);
    });
  }
});
