/**
 * Issue #32 item 10, QUIC side: the application space's ACKs are delayed as RFC 9000 §13.2 allows
 * (packet-spaces.ts) and carry the ACK Delay the sender takes off its RTT samples (RFC 9002 §5.3,
 * transport/congestion.ts). Hand-computed sequences.
 */
import { describe, expect, it } from 'vitest';
import { LossRecovery, type TransportRules } from '../transport/congestion';
import { MAX_ACK_DELAY, PacketSpaces } from './packet-spaces';
import type { QuicPacket } from './packets';

const recovery = { sampleRtt: () => {}, onUntrackedSent: () => {}, onUntrackedAcked: () => undefined, onUntrackedDiscarded: () => {} };
const ping = (number: number, space: QuicPacket['space'] = '1rtt'): QuicPacket => ({ space, number, frames: [{ type: 'PING' }] });

describe("the receiver's delayed ACK (RFC 9000 §13.2)", () => {
  it('waits for a second ack-eliciting packet or max_ack_delay, and says how long it held the largest', () => {
    const spaces = new PacketSpaces('client', recovery);
    spaces.onReceived(ping(0), 0);
    expect(spaces.ackDue('app', 0)).toBe(false);
    expect(spaces.ackDeadline).toBe(MAX_ACK_DELAY);
    spaces.onReceived(ping(1), 1);
    expect(spaces.ackDue('app', 1)).toBe(true); // §13.2.2: two ack-eliciting packets
    expect(spaces.ack('app', 1)).toEqual({ type: 'ACK', ranges: [[0, 1]], ackDelay: 0 });
    expect(spaces.ackDue('app', 1)).toBe(false);
    expect(spaces.ackDeadline).toBeUndefined();
    spaces.onReceived(ping(2), 10);
    expect(spaces.ackDue('app', 34.999)).toBe(false);
    expect(spaces.ackDue('app', 35)).toBe(true);
    // Held 25 ms: 25,000 microseconds in units of 2^3 (ack_delay_exponent 3, §18.2) = 3,125.
    expect(spaces.ack('app', 35)).toEqual({ type: 'ACK', ranges: [[0, 2]], ackDelay: 3125 });
  });

  it('acknowledges at once a packet after a gap or below the largest (§13.2.1), and never an ACK-only packet', () => {
    const spaces = new PacketSpaces('client', recovery);
    spaces.onReceived(ping(0), 0);
    spaces.ack('app', 0);
    spaces.onReceived(ping(2), 40); // 1 is missing
    expect(spaces.ackDue('app', 40)).toBe(true);
    spaces.ack('app', 40);
    spaces.onReceived(ping(1), 41); // below the largest
    expect(spaces.ackDue('app', 41)).toBe(true);
    spaces.ack('app', 41);
    spaces.onReceived({ space: '1rtt', number: 3, frames: [{ type: 'ACK', ranges: [[0, 0]] }] }, 50);
    expect(spaces.ackPending('app')).toBe(false);
    expect(spaces.ackDue('app', 500)).toBe(false);
  });

  it('Initial and Handshake packets are acknowledged at once', () => {
    const spaces = new PacketSpaces('client', recovery);
    spaces.onReceived(ping(0, 'handshake'), 0);
    expect(spaces.ackDue('handshake', 0)).toBe(true);
  });
});

describe("the sender's RTT sample less the ACK delay (RFC 9002 §5.3)", () => {
  const rules: TransportRules = {
    maxSegmentSize: 1000,
    initialWindow: 10_000,
    minimumWindow: 2000,
    reductionBasis: 'cwnd',
    initialRtt: 100,
    timeout: { kind: 'pto', maxAckDelay: 25 },
    congestionControl: 'newreno',
  };
  const sent = (r: LossRecovery<null>, number: number, at: number) => r.onSent({ number, sentAt: at, size: 1000, ackEliciting: true, payload: null });

  it('takes 25 ms off a 130 ms sample (smoothed 100 -> 100.625, not 103.75); min_rtt keeps the raw 100', () => {
    const r = new LossRecovery<null>(rules);
    sent(r, 0, 0);
    r.onAck(new Set([0]), 100, undefined, 0);
    sent(r, 1, 100);
    r.onAck(new Set([1]), 230, undefined, 25);
    expect(r.latestRtt).toBe(130);
    expect(r.minRtt).toBe(100);
    // 0.875 x 100 + 0.125 x 105; rttvar 0.75 x 50 + 0.25 x |100 - 105| = 38.75.
    expect(r.smoothedRtt).toBeCloseTo(100.625, 9);
    expect(r.rttVar).toBeCloseTo(38.75, 9);
  });

  it('keeps the sample whole when the delay would take it below min_rtt: 110 with 25 ms of delay', () => {
    const r = new LossRecovery<null>(rules);
    sent(r, 0, 0);
    r.onAck(new Set([0]), 100, undefined, 0);
    sent(r, 1, 100);
    r.onAck(new Set([1]), 210, undefined, 25);
    expect(r.smoothedRtt).toBeCloseTo(0.875 * 100 + 0.125 * 110, 9);
  });
});

describe('the delayed-ACK timer fires when it is due', () => {
  it('1 MiB over HTTP/3 at 2 % loss, seed 7, completes (the unrounded deadline re-armed at 4,119.36 ms forever)', async () => {
    const { createSimulation } = await import('../sim/simulation');
    const { createServer } = await import('../server/index');
    const server = createServer({ resources: { '/big': { body: 'x'.repeat(1024 * 1024), contentType: 'application/octet-stream' } } });
    const sim = createSimulation({ httpVersion: '3', tls: '1.3', rtt: 100, bandwidth: 10_000_000, loss: 0.02, seed: 7, server });
    expect((await (await sim.fetch('/big')).arrayBuffer()).byteLength).toBe(1024 * 1024);
  });
});
