/**
 * quic-codec.ts against another implementation: a loopback capture of Debian's ngtcp2 examples (gtlsclient
 * fetching /index.html from gtlsserver, ngtcp2 0.12.1 with GnuTLS), with packet protection removed by
 * fixtures/ngtcp2-unprotect.mjs (Initial keys from the client's first DCID, RFC 9001 §5.2; the other levels'
 * from the key log). Every datagram must decode, to the packet numbers the AEAD opened, and each side's frames
 * must read as ngtcp2's own debug log says it sent them ("frm tx" lines).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QuicFrame, QuicSpace } from './packets';
import { type DecodedQuicPacket, decodeQuicDatagram } from './quic-codec';
import { encodeQuicFrames, quicFrameType } from './quic-frame-writer';

interface Fixture {
  readonly description: string;
  readonly originalDcid: string;
  readonly datagrams: readonly {
    readonly from: 'client' | 'server';
    readonly protected: string;
    readonly unprotected: string;
    readonly packets: readonly { readonly level: QuicSpace; readonly number: number }[];
    readonly shortHeaderDcidLength?: number;
  }[];
  readonly log: { readonly client: readonly string[]; readonly server: readonly string[] };
}

const fixture: Fixture = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'ngtcp2-get.json'), 'utf8'));
const fromHex = (s: string) => Uint8Array.from((s.match(/../g) ?? []).map((b) => Number.parseInt(b, 16)));
const toHex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

const LEVEL: Record<QuicSpace, string> = { initial: 'Initial', handshake: 'Handshake', '0rtt': '0RTT', '1rtt': '1RTT' };
const hex2 = (n: number) => `0x${n.toString(16).padStart(2, '0')}`;

/** The lines ngtcp2's debug log prints for a frame it sends (lib/ngtcp2_log.c's formats). */
function logLines(frame: QuicFrame): string[] {
  const type = hex2(quicFrameType(frame));
  switch (frame.type) {
    case 'PADDING':
      return [`PADDING(${type}) len=${frame.length}`];
    case 'PING':
    case 'HANDSHAKE_DONE':
      return [`${frame.type}(${type})`];
    case 'ACK': {
      const [first, ...rest] = frame.ranges;
      const lines = [
        `ACK(${type}) largest_ack=${first![1]} ack_delay=(${frame.ackDelay}) ack_range_count=${rest.length}`,
        `ACK(${type}) range=[${first![1]}..${first![0]}] len=${first![1] - first![0]}`,
      ];
      let smallest = first![0];
      for (const [low, high] of rest) {
        lines.push(`ACK(${type}) range=[${high}..${low}] gap=${smallest - high - 2} len=${high - low}`);
        smallest = low;
      }
      if (frame.ecn) lines.push(`ACK(${type}) ect0=${frame.ecn.ect0} ect1=${frame.ecn.ect1} ce=${frame.ecn.ce}`);
      return lines;
    }
    case 'CRYPTO':
      return [`CRYPTO(${type}) offset=${frame.offset ?? 0} len=${frame.length}`];
    case 'STREAM':
      return [
        `STREAM(${type}) id=0x${frame.streamId.toString(16)} fin=${frame.fin ? 1 : 0} offset=${frame.offset} len=${frame.data.length} uni=${frame.streamId & 2 ? 1 : 0}`,
      ];
    case 'NEW_CONNECTION_ID':
      return [
        `NEW_CONNECTION_ID(${type}) seq=${frame.sequence} cid=0x${toHex(frame.connectionId)} retire_prior_to=${frame.retirePriorTo} stateless_reset_token=0x${toHex(frame.resetToken)}`,
      ];
    case 'NEW_TOKEN':
      return [`NEW_TOKEN(${type}) token=0x${toHex(frame.token)} len=${frame.token.length}`];
    case 'CONNECTION_CLOSE':
      return [
        `CONNECTION_CLOSE(${type}) error_code=(0x${frame.errorCode.toString(16)}) frame_type=${frame.frameType ?? 0} reason_len=${frame.reason.length} reason=[${frame.reason}]`,
      ];
    default:
      return [`${frame.type}(${type}) (not in this capture)`];
  }
}

/** ngtcp2 prints the ACK delay in ms before the field's value, and an error code's name: both are left out. */
const normalise = (line: string) => line.replace(/ack_delay=\d+\(/, 'ack_delay=(').replace(/error_code=(\(unknown\)|[A-Z_0-9]*)\(/, 'error_code=(');

function decodeAll() {
  const largest = { client: {} as Partial<Record<string, number>>, server: {} as Partial<Record<string, number>> };
  return fixture.datagrams.map((d) => {
    const seen = largest[d.from];
    const numberSpace = (space: QuicSpace) => (space === '0rtt' || space === '1rtt' ? 'app' : space);
    const packets = decodeQuicDatagram(fromHex(d.unprotected), {
      shortHeaderDcidLength: d.shortHeaderDcidLength ?? 0,
      greaseQuicBit: true, // both examples send grease_quic_bit (RFC 9287) and clear the bit in most packets
      largestReceived: (space) => seen[numberSpace(space)],
    }) as DecodedQuicPacket[];
    for (const p of packets) seen[numberSpace(p.space)] = Math.max(seen[numberSpace(p.space)] ?? -1, p.number);
    return { datagram: d, packets };
  });
}

describe(`ngtcp2 interop: ${fixture.description}`, () => {
  it('decodes all 19 datagrams (a GSO send split into 1,200-byte ones), to the packets the AEAD opened', () => {
    const decoded = decodeAll();
    expect(decoded).toHaveLength(19);
    for (const { datagram, packets } of decoded) {
      expect(packets.map((p) => [p.space, p.number])).toEqual(datagram.packets.map((p) => [p.level, p.number]));
      // The unprotected form is as long as the protected one: the tags are still there.
      expect(datagram.unprotected.length).toBe(datagram.protected.length);
    }
    // The server's first datagram coalesces Initial, Handshake and 1-RTT packets (RFC 9000 §12.2).
    expect(decoded[1]!.packets.map((p) => p.space)).toEqual(['initial', 'handshake', '1rtt']);
    const first = decoded[0]!.packets[0]!;
    expect(toHex(first.header.dcid)).toBe(fixture.originalDcid);
    expect(first.frames[0]).toMatchObject({ type: 'CRYPTO', messages: 'ClientHello', length: 371 });
    expect(decoded[0]!.datagram.unprotected.length / 2).toBe(1200);
    // Without grease_quic_bit on our side, the cleared fixed bit of ngtcp2's later packets is refused.
    expect(() => decodeQuicDatagram(fromHex(fixture.datagrams[4]!.unprotected), { shortHeaderDcidLength: 18 })).toThrow(/fixed bit/);
  });

  it.each(['client', 'server'] as const)('reads every frame the %s sent as its debug log prints it', (side) => {
    const lines: string[] = [];
    for (const { datagram, packets } of decodeAll()) {
      if (datagram.from !== side) continue;
      for (const p of packets) for (const frame of p.frames) for (const line of logLines(frame)) lines.push(`${p.number} ${LEVEL[p.space]} ${line}`);
    }
    expect(lines.length).toBeGreaterThan(30);
    expect(lines).toEqual(fixture.log[side].map(normalise));
  });

  it('writes every payload back byte for byte', () => {
    let frames = 0;
    for (const { datagram, packets } of decodeAll()) {
      const bytes = fromHex(datagram.unprotected);
      for (const p of packets) {
        expect(toHex(encodeQuicFrames(p.frames))).toBe(toHex(bytes.subarray(p.payloadStart, p.payloadEnd)));
        frames += p.frames.length;
      }
    }
    expect(frames).toBeGreaterThan(50);
  });
});
