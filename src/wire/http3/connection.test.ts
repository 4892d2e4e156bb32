import { describe, expect, it } from 'vitest';
import { QuicPair } from './testing';
import { QuicConnection } from './connection';
import type { QuicEvent, QuicRole } from './quic-events';
import { QUIC_HANDSHAKE, type QuicDatagram } from './packets';
import { type DecodedQuicPacket, decodeQuicDatagram } from './quic-codec';
import { tlsMessageNames } from './quic-frame-reader';
import { flightBytes } from './handshake-datagrams';
import { QUIC_INITIAL_WINDOW } from './recovery';

const RESPONSE = 3000;
const body = (streamId: number, n = RESPONSE): Uint8Array => new Uint8Array(n).fill(65 + streamId / 4);

/** The server answers every request stream (0, 4, 8) with `size` bytes once the request has ended. */
const answer =
  (size = RESPONSE) =>
  (pair: QuicPair, side: QuicRole, event: QuicEvent): void => {
    if (side === 'server' && event.type === 'stream-data' && event.fin && event.streamId % 4 === 0) {
      pair.apply('server', pair.server.write(event.streamId, body(event.streamId, size), true, pair.now));
    }
    if (side === 'client' && event.type === 'ready') {
      for (const id of [0, 4, 8]) pair.apply('client', pair.client.write(id, Uint8Array.of(1, 2, 3), true, pair.now));
    }
  };

function finishedAt(pair: QuicPair): Map<number, number> {
  const out = new Map<number, number>();
  for (const l of pair.events('client', 'stream-data')) if (l.event.fin) out.set(l.event.streamId, l.at);
  return out;
}

describe('the QUIC handshake (RFC 9001 §4)', () => {
  it('is a closed table: every flight one side sends has a row on the other side', () => {
    for (const row of QUIC_HANDSHAKE) {
      const other = row.side === 'client' ? 'server' : 'client';
      for (const flight of row.send) {
        expect(
          QUIC_HANDSHAKE.some((r) => r.side === other && r.received === flight.messages),
          `${other} row for "${flight.messages}"`,
        ).toBe(true);
      }
    }
  });

  it('treats a flight outside the table as a protocol violation and closes', () => {
    const server = new QuicConnection({ role: 'server' });
    const out = server.receive({ packets: [{ space: 'initial', number: 0, frames: [{ type: 'CRYPTO', messages: 'Finished', length: 36 }] }], size: 100 }, 0);
    expect(server.state).toBe('closed');
    expect(out.events.find((e) => e.type === 'closed')).toMatchObject({ errorCode: 0x0a });
    expect(out.datagrams[0]!.packets[0]!.frames.at(-1)).toMatchObject({ type: 'CONNECTION_CLOSE' });
  });

  it('lets the client send 1-RTT data after one round trip', () => {
    const pair = new QuicPair({ onEvent: answer() });
    pair.apply('client', pair.client.start(0));
    pair.run();
    const ready = pair.events('client', 'ready')[0]!;
    expect(ready.at).toBe(100);
    expect(ready.event.handshakeMs).toBe(100);
    expect(pair.events('client', 'confirmed')[0]!.at).toBe(200);
    // First flight: Initial padded to 1200 bytes (RFC 9000 §14.1).
    const first = pair.events('client', 'packet-sent')[0]!.event;
    expect(first.packet.space).toBe('initial');
    expect(first.size).toBe(1200);
    // Requests leave at 100 and the responses are complete at 200.
    expect([...finishedAt(pair).values()]).toEqual([200, 200, 200]);
  });

  it('with a session ticket, sends data in 0-RTT packets in the first flight', () => {
    const pair = new QuicPair({
      resume: true,
      onEvent: (p, side, event) => {
        if (side === 'server' && event.type === 'stream-data' && event.fin)
          p.apply('server', p.server.write(event.streamId, body(event.streamId, 100), true, p.now));
      },
    });
    pair.client.write(0, Uint8Array.of(1), true, 0);
    pair.apply('client', pair.client.start(0));
    pair.run();
    const spaces = pair.events('client', 'packet-sent').map((l) => `${l.at} ${l.event.packet.space}`);
    expect(spaces.slice(0, 2)).toEqual(['0 initial', '0 0rtt']);
    expect(finishedAt(pair).get(0)).toBe(100); // one round trip in total, handshake included
  });
});

describe('independent streams: no head-of-line blocking across streams', () => {
  it('a lost packet delays only the stream whose data it carried', () => {
    let dropped = false;
    const pair = new QuicPair({
      onEvent: answer(),
      drop: (datagram, from) => {
        const carries4 = datagram.packets.some((p) => p.frames.some((f) => f.type === 'STREAM' && f.streamId === 4));
        if (from === 'server' && carries4 && !dropped) return (dropped = true);
        return false;
      },
    });
    pair.apply('client', pair.client.start(0));
    pair.run();
    expect(pair.dropped).toHaveLength(1);
    const done = finishedAt(pair);
    // Streams 0 and 8 finish as if nothing had happened...
    expect(done.get(0)).toBe(200);
    expect(done.get(8)).toBe(200);
    // ...stream 4 waits for the retransmission: lost after 3 later packets were acknowledged, re-sent, +1 RTT.
    expect(done.get(4)).toBe(300);
    const lost = pair.events('server', 'packets-lost');
    expect(lost.map((l) => [l.event.streams, l.event.reason])).toEqual([[[4], 'packet-threshold']]);
    // Only stream 4 ever held bytes behind a gap.
    expect(new Set(pair.events('client', 'stream-blocked').map((l) => l.event.streamId))).toEqual(new Set([4]));
    // The data went again in a new packet (new number): QUIC never re-sends a packet, only its frames.
    const numbers = pair
      .events('server', 'packet-sent')
      .filter((l) => l.event.packet.space === '1rtt')
      .map((l) => l.event.packet.number);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('a lost last packet is recovered by the probe timeout', () => {
    let last: number | undefined;
    const pair = new QuicPair({
      onEvent: (p, side, event) => {
        if (side === 'client' && event.type === 'ready') p.apply('client', p.client.write(0, Uint8Array.of(1), true, p.now));
        if (side === 'server' && event.type === 'stream-data' && event.fin) p.apply('server', p.server.write(0, body(0, 100), true, p.now));
      },
      drop: (datagram, from) => {
        const fin = datagram.packets.some((p) => p.frames.some((f) => f.type === 'STREAM' && f.fin && f.streamId === 0));
        if (from === 'server' && fin && last === undefined) {
          last = datagram.packets[0]!.number;
          return true;
        }
        return false;
      },
    });
    pair.apply('client', pair.client.start(0));
    pair.run();
    const pto = pair.events('server', 'pto');
    expect(pto).toHaveLength(1);
    const probe = pair.events('server', 'packet-sent').find((l) => l.event.probe)!;
    expect(probe.event.packet.number).toBeGreaterThan(last!);
    expect(finishedAt(pair).get(0)).toBe(probe.at + 50);
  });

  it('a probe timeout sends two probes when two packets are outstanding (RFC 9002 §6.2.4)', () => {
    const dropped = new Set<number>();
    const pair = new QuicPair({
      onEvent: (p, side, event) => {
        if (side === 'client' && event.type === 'ready') p.apply('client', p.client.write(0, Uint8Array.of(1), true, p.now));
        if (side === 'server' && event.type === 'stream-data' && event.fin) p.apply('server', p.server.write(0, body(0, 3000), true, p.now));
      },
      // The body takes three packets; the first transmissions of the last two are lost: a tail that no later
      // packet can reveal.
      drop: (datagram, from) => {
        const frame = datagram.packets.flatMap((p) => p.frames).find((f) => f.type === 'STREAM' && f.streamId === 0);
        if (from !== 'server' || !frame || frame.type !== 'STREAM' || (frame.offset ?? 0) === 0 || dropped.has(frame.offset!)) return false;
        dropped.add(frame.offset!);
        return true;
      },
    });
    pair.apply('client', pair.client.start(0));
    pair.run();
    expect(dropped.size).toBe(2);
    expect(pair.events('server', 'pto')).toHaveLength(1);
    const probes = pair.events('server', 'packet-sent').filter((l) => l.event.probe);
    // Both outstanding packets' data go again at once, in two probe packets.
    expect(probes).toHaveLength(2);
    expect(probes[0]!.at).toBe(probes[1]!.at);
    expect(finishedAt(pair).get(0)).toBe(probes[0]!.at + 50);
  });
});

describe('congestion control seen on a connection', () => {
  it('the window grows in slow start, then halves on loss', () => {
    let count = 0;
    const pair = new QuicPair({
      onEvent: (p, side, event) => {
        if (side === 'client' && event.type === 'ready') p.apply('client', p.client.write(0, Uint8Array.of(1), true, p.now));
        if (side === 'server' && event.type === 'stream-data' && event.fin) p.apply('server', p.server.write(0, body(0, 200_000), true, p.now));
      },
      // Lose the 40th data datagram from the server.
      drop: (datagram, from) =>
        from === 'server' && datagram.packets.some((p) => p.frames.some((f) => f.type === 'STREAM' && f.streamId === 0)) && ++count === 40,
    });
    pair.apply('client', pair.client.start(0));
    pair.run();
    const sent = pair.events('server', 'packet-sent').filter((l) => l.event.packet.frames.some((f) => f.type === 'STREAM' && f.streamId === 0));
    const windows = sent.map((l) => l.event.cwnd);
    // The server's Handshake packets (1,310 + 1,452 + 518 = 3,280 bytes, see the handshake-ACK test below)
    // were acknowledged before the request came: 14,520 + 3,280.
    expect(windows[0]).toBe(QUIC_INITIAL_WINDOW + 3280);
    const loss = pair.events('server', 'congestion').find((l) => l.event.reason === 'loss')!;
    const before = sent.filter((l) => l.at < loss.at).map((l) => l.event.cwnd);
    const peak = Math.max(...before);
    expect(peak).toBeGreaterThan(3 * QUIC_INITIAL_WINDOW); // 14520 -> ~29000 -> ~55000: doubling per round trip
    expect(loss.event.phase).toBe('recovery');
    // ssthresh is half the window at the time of the loss (which had grown a little more from acks).
    expect(loss.event.cwnd).toBe(loss.event.ssthresh);
    expect(loss.event.cwnd).toBeGreaterThanOrEqual(peak / 2);
    expect(loss.event.cwnd).toBeLessThan(peak);
    expect(pair.events('server', 'congestion').map((l) => l.event.phase)).toContain('congestion-avoidance');
    expect(finishedAt(pair).get(0)).toBeDefined();
  });
});

describe('handshake packets and the congestion window (RFC 9002 §7, §6.4)', () => {
  it('acknowledged Initial and Handshake bytes grow the window in slow start; discarded ones just leave the flight', () => {
    const pair = new QuicPair({ onEvent: answer() });
    pair.apply('client', pair.client.start(0));
    pair.run();
    const sizes = (side: QuicRole, space: string) =>
      pair
        .events(side, 'packet-sent')
        .filter((l) => l.event.packet.space === space)
        .map((l) => l.event.size);
    // Sizes are the serialised packets' (quic-codec.ts), 8-byte connection IDs both ways, 1-byte packet numbers.
    // Server, first datagram: its Initial packet = long header 27 (1 first byte + 4 version + 1 + 8 DCID + 1 + 8
    // SCID + 1 token length + 2 Length + 1 packet number) + ACK of packet 0 (02 00 00 00 00: 5) + CRYPTO
    // ServerHello (1 type + 1 offset + 2 length + 90 = 94) + AEAD tag 16 = 142 bytes. The Handshake flight
    // (EncryptedExtensions 40 + Certificate 2,800 + CertificateVerify 264 + Finished 36 = 3,140 bytes) fills
    // the rest: a Handshake packet's header is 26 (no token), so 1,452 - 142 - 26 - 16 - 4 (CRYPTO header) =
    // 1,264 bytes in a 1,310-byte packet; then 1,405 bytes (CRYPTO offset 1,264 takes 2 bytes) in a full
    // 1,452-byte packet, then the last 471 in a 26 + 5 + 471 + 16 = 518-byte one.
    expect(sizes('server', 'initial')).toEqual([142]);
    expect(sizes('server', 'handshake')).toEqual([1310, 1452, 518]);
    // Client: the Initial padded to 1,200 bytes; the Finished = 25 (its Length, 61, fits in 1 byte) + ACK 0-2 (5)
    // + CRYPTO (1 + 1 + 1 + 36 = 39) + 16 = 85.
    expect(sizes('client', 'initial')).toEqual([1200]);
    expect(sizes('client', 'handshake')).toEqual([85]);

    const server = pair.events('server', 'packet-sent');
    // Every ack-eliciting packet counts in bytes in flight whatever its space (packet-sent reports it with the
    // packet): 142, 142 + 1,310 = 1,452, + 1,452 = 2,904, + 518 = 3,422.
    expect(server.slice(0, 4).map((l) => l.event.bytesInFlight)).toEqual([142, 1452, 2904, 3422]);
    // The client's Finished acknowledges the three Handshake packets: in slow start the window grows by each
    // one's size (at most one datagram each), 14,520 + 1,310 + 1,452 + 518 = 17,800. The server's Initial
    // packet is never acknowledged (the client has no Initial to send back): it leaves the flight when the
    // server drops its Initial keys on the client's first Handshake packet (RFC 9001 §4.9.1), without growth.
    const firstData = server.find((l) => l.event.packet.space === '1rtt' && l.event.packet.frames.some((f) => f.type === 'STREAM'))!;
    expect(firstData.event.cwnd).toBe(QUIC_INITIAL_WINDOW + 1310 + 1452 + 518);
    expect(pair.server.recovery.cwnd).toBeGreaterThanOrEqual(17_800);

    // The client's 1,200-byte Initial is acknowledged by the server's Initial: 14,520 + 1,200 = 15,720, before
    // it sends its Finished and its requests. Its Finished (85) is never acknowledged (the server sends nothing
    // more in the Handshake space) and leaves the flight when the handshake is confirmed (RFC 9002 §6.4).
    const clientSent = pair.events('client', 'packet-sent');
    const finished = clientSent.find((l) => l.event.packet.space === 'handshake')!;
    expect(finished.event.cwnd).toBe(QUIC_INITIAL_WINDOW + 1200);
    expect(finished.event.bytesInFlight).toBe(85); // the Initial left when acknowledged
    // Nothing is left in flight once everything is acknowledged and both handshakes are confirmed.
    expect(pair.client.recovery.bytesInFlight).toBe(0);
    expect(pair.server.recovery.bytesInFlight).toBe(0);
  });

  it("the ACKs of Initial and Handshake packets are RTT samples, so the first PTO is already the path's (RFC 9002 §5.1)", () => {
    // One way 50 ms. The client's Initial leaves at 0 and the server's Initial acknowledging it arrives at 100:
    // a 100 ms sample, so smoothed_rtt = 100 and rttvar = 50 (first-sample rule, §5.3), and the PTO is
    // 100 + 4 x 50 + max_ack_delay 25 (§6.2.1; RFC 9000 §18.2's default) = 325 ms, not the 1,024 ms of the
    // 333 ms guess (333 + 4 x 166.5 + 25) before any sample.
    const pair = new QuicPair({ onEvent: answer() });
    expect(pair.client.recovery.smoothedRtt).toBe(333);
    pair.apply('client', pair.client.start(0));
    pair.run(100);
    expect(pair.client.recovery.smoothedRtt).toBe(100);
    expect(pair.client.recovery.pto).toBe(325);
    // The server's Handshake flight leaves at 50; the client's Finished acknowledging it arrives at 150.
    expect(pair.server.recovery.smoothedRtt).toBe(333);
    pair.run(150);
    expect(pair.server.recovery.smoothedRtt).toBe(100);
  });
});

describe('datagrams as bytes (quic-codec.ts)', () => {
  it('every datagram both sides send is its bytes: size is their length, and they decode back to the typed packets', () => {
    const seen: { datagram: QuicDatagram; from: QuicRole }[] = [];
    const pair = new QuicPair({
      onEvent: answer(5_000),
      drop: (datagram, from) => {
        seen.push({ datagram, from });
        return false;
      },
    });
    pair.apply('client', pair.client.start(0));
    pair.run();
    expect(seen.length).toBeGreaterThan(10);
    const largest: Record<QuicRole, Partial<Record<string, number>>> = { client: {}, server: {} };
    const spaceOf = (space: string) => (space === '0rtt' || space === '1rtt' ? 'app' : space);
    const names: string[] = [];
    for (const { datagram, from } of seen) {
      const bytes = datagram.bytes!;
      expect(bytes.length).toBe(datagram.size);
      const to: QuicRole = from === 'client' ? 'server' : 'client';
      const decoded = decodeQuicDatagram(bytes, { largestReceived: (space) => largest[to][spaceOf(space)] }) as DecodedQuicPacket[];
      expect(decoded.map((p) => [p.space, p.number])).toEqual(datagram.packets.map((p) => [p.space, p.number]));
      for (const [i, packet] of datagram.packets.entries()) {
        const back = decoded[i]!;
        largest[to][spaceOf(packet.space)] = Math.max(largest[to][spaceOf(packet.space)] ?? -1, packet.number);
        // The typed frames, as the decoder gives them: ACK with its delay; CRYPTO with its bytes, its messages
        // named from their TLS headers (those that start in a flight's first fragment).
        expect(back.frames).toEqual(
          packet.frames.map((f) =>
            f.type === 'ACK'
              ? { ackDelay: 0, ...f }
              : f.type === 'CRYPTO'
                ? {
                    type: 'CRYPTO',
                    messages: f.offset ? '' : tlsMessageNames(f.data!),
                    length: f.length,
                    ...(f.offset ? { offset: f.offset } : {}),
                    data: f.data,
                  }
                : f,
          ),
        );
        for (const f of back.frames) if (f.type === 'CRYPTO' && !f.offset) names.push(f.messages);
        // 8-byte connection IDs both ways; the client's first Initial goes to RFC 9001 Appendix A's DCID.
        expect(back.header.dcid.length).toBe(8);
      }
    }
    // Each flight's messages carry their TLS handshake headers (RFC 8446 §4), so the bytes name them.
    expect(names).toEqual(['ClientHello', 'ServerHello', 'EncryptedExtensions, Certificate', 'Finished', 'NewSessionTicket']);
    // RFC 9000 §14.1: the client's Initial datagram is 1,200 bytes; RFC 9001 §5.3: each packet ends with a 16-byte tag.
    expect(seen[0]!.datagram.size).toBe(1200);
    expect(Buffer.from((decodeQuicDatagram(seen[0]!.datagram.bytes!)[0] as DecodedQuicPacket).header.dcid).toString('hex')).toBe('8394c8f03e515708');
  });
});

describe('CONNECTION_CLOSE on the wire (RFC 9000 §19.19, §10.2.3)', () => {
  const closeFrame = (datagram: QuicDatagram) => {
    const packets = decodeQuicDatagram(datagram.bytes!, { largestReceived: () => undefined }) as DecodedQuicPacket[];
    const packet = packets[packets.length - 1]!;
    return { space: packet.space, frame: packet.frames.find((f) => f.type === 'CONNECTION_CLOSE') };
  };

  it("an application's close after the handshake is type 0x1d with its code and reason", () => {
    const pair = new QuicPair({ onEvent: answer() });
    pair.apply('client', pair.client.start(0));
    pair.run();
    const out = pair.client.close(0x100, 'bye', pair.now);
    expect(out.datagrams).toHaveLength(1);
    expect(closeFrame(out.datagrams[0]!)).toEqual({ space: '1rtt', frame: { type: 'CONNECTION_CLOSE', errorCode: 0x100, reason: 'bye', application: true } });
  });

  it('during the handshake it goes in an Initial packet as type 0x1c APPLICATION_ERROR (0x0c), without its reason', () => {
    const client = new QuicConnection({ role: 'client' });
    client.start(0);
    const out = client.close(0x100, 'bye', 0);
    expect(closeFrame(out.datagrams[0]!)).toEqual({ space: 'initial', frame: { type: 'CONNECTION_CLOSE', errorCode: 0x0c, reason: '', frameType: 0 } });
  });
});

describe('flightBytes: the TLS messages a flight carries in its CRYPTO frames (RFC 8446 §4)', () => {
  const headers = (bytes: Uint8Array) => {
    const out: [number, number, number][] = [];
    for (let pos = 0; pos + 4 <= bytes.length; ) {
      const length = (bytes[pos + 1]! << 16) | (bytes[pos + 2]! << 8) | bytes[pos + 3]!;
      out.push([pos, bytes[pos]!, length]);
      pos += 4 + length;
    }
    return out;
  };

  it("the server's full flight: EncryptedExtensions 40, the Certificate the rest, CertificateVerify 264, Finished 36", () => {
    const bytes = flightBytes({ space: 'handshake', messages: 'EncryptedExtensions, Certificate, CertificateVerify, Finished', length: 3140 });
    // [offset, type, body length]: 8 = EncryptedExtensions, 11 = Certificate, 15 = CertificateVerify, 20 = Finished.
    expect(headers(bytes)).toEqual([
      [0, 8, 36],
      [40, 11, 2796],
      [2840, 15, 260],
      [3104, 20, 32],
    ]);
    expect(bytes.length).toBe(3140);
  });

  it('a resumed flight, and a ClientHello whose name has a comma in its parentheses', () => {
    expect(headers(flightBytes({ space: 'handshake', messages: 'EncryptedExtensions (early_data), Finished', length: 60 }))).toEqual([
      [0, 8, 20],
      [24, 20, 32],
    ]);
    expect(headers(flightBytes({ space: 'initial', messages: 'ClientHello (pre_shared_key, early_data)', length: 420 }))).toEqual([[0, 1, 416]]);
  });
});
