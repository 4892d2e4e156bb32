/**
 * Issue #32 item 10: TCP's delayed ACKs as a Linux receiver sends them (tcp.ts): the first 16 data segments
 * acknowledged at once (quick-ack mode, TCP_MAX_QUICKACKS), then one ACK per two full segments (more than one
 * MSS owed, RFC 5681 §4.2) or 40 ms after the first owed segment (TCP_DELACK_MIN), and at once for a segment
 * out of order, one that fills the gap, or when the receiver sends data of its own.
 *
 * Hand counts, HTTP/1.1 without TLS, 1,448-byte segments: a 100,000-byte body with its 143 bytes of response
 * head is 100,143 bytes, 70 segments (69 full and 231 bytes). Without delayed ACKs, 70 ACKs; with them the
 * first 16 segments get 16, the other 54 one per pair, 27: 43 ACKs.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../server/index';
import { createSimulation, type Simulation } from '../sim/simulation';

async function fetchBody(bytes: number, delayedAcks: boolean, extra: { lossSchedule?: { server: number[] } } = {}): Promise<Simulation> {
  const server = createServer({ resources: { '/f': { body: 'q'.repeat(bytes), contentType: 'application/octet-stream' } } });
  const sim = createSimulation({ httpVersion: '1.1', rtt: 100, bandwidth: 10_000_000, server, delayedAcks, ...extra });
  expect((await (await sim.fetch('/f')).arrayBuffer()).byteLength).toBe(bytes);
  return sim;
}
const clientAcks = (sim: Simulation) => sim.trace.ofType('ack').filter((e) => e.from === 'client');
const serverSegments = (sim: Simulation) => sim.trace.ofType('segment-sent').filter((e) => e.from === 'server');
const arrivals = (sim: Simulation) => sim.trace.ofType('segment-arrived').filter((e) => e.by === 'client');

describe('delayed ACKs (TCP receiver)', () => {
  it('100,143 bytes in 70 segments: 43 ACKs (16 quick, then 27 for 54 segments in pairs); 70 without', async () => {
    const delayed = await fetchBody(100_000, true);
    expect(serverSegments(delayed)).toHaveLength(70);
    expect(clientAcks(delayed)).toHaveLength(43);
    const immediate = await fetchBody(100_000, false);
    expect(clientAcks(immediate)).toHaveLength(70);
    // The download itself ends when the last byte arrives, as before: 449.498 ms either way.
    expect(delayed.clock.now()).toBe(immediate.clock.now());
  });

  it('a lone segment after the quick ACKs waits 40 ms: 24,142 bytes (a 142-byte head) are 17 segments, the 17th (974 bytes) ACKed at arrival + 40', async () => {
    const sim = await fetchBody(24_000, true);
    sim.clock.advance(100); // the fetch resolves with the last byte; the owed ACK comes after
    expect(serverSegments(sim).map((e) => e.length)).toEqual([...Array(16).fill(1448), 974]);
    const acks = clientAcks(sim);
    expect(acks).toHaveLength(17);
    const last = arrivals(sim).at(-1)!;
    expect(acks.at(-1)!.at).toBeCloseTo(last.at + 40, 6);
    expect(acks.at(-1)!.ack).toBe(24_142);
    // The first 16 were acknowledged as they arrived.
    expect(acks.slice(0, 16).map((a) => a.at)).toEqual(
      arrivals(sim)
        .slice(0, 16)
        .map((e) => e.at),
    );
  });

  it('segments out of order, and the retransmission that fills the gap, are acknowledged at once', async () => {
    // Byte 60,000 of the body is in segment 42 of 70: past the quick ACKs, where pairs would be the rule.
    const sim = await fetchBody(100_000, true, { lossSchedule: { server: [60_000] } });
    expect(sim.trace.ofType('packet-lost')).toHaveLength(1);
    const acks = clientAcks(sim);
    const outOfOrder = arrivals(sim).filter((e) => !e.inOrder);
    expect(outOfOrder.length).toBeGreaterThan(3);
    for (const e of outOfOrder) expect(acks.some((a) => a.at === e.at)).toBe(true);
    const fill = sim.trace.ofType('segment-sent').find((e) => e.retransmission)!;
    const filled = arrivals(sim).find((e) => e.offset === fill.offset && e.inOrder)!;
    expect(acks.find((a) => a.at === filled.at)!.ack).toBeGreaterThan(fill.offset + fill.length);
  });

  it('the receiver that answers at once sends its ACK with the answer: 20 requests on one connection, none waits 40 ms', async () => {
    const server = createServer({ resources: { '/s': { body: 'ok', contentType: 'text/plain' } } });
    const sim = createSimulation({ httpVersion: '1.1', rtt: 100, server, maxConnectionsPerOrigin: 1 });
    for (let i = 0; i < 20; i++) await (await sim.fetch('/s')).text();
    const requests = sim.trace.ofType('segment-arrived').filter((e) => e.by === 'server');
    expect(requests).toHaveLength(20);
    const serverAcks = sim.trace.ofType('ack').filter((e) => e.from === 'server');
    // One ACK per request, at the moment it arrived, though the quick ACKs ran out after 16.
    expect(serverAcks.map((a) => a.at)).toEqual(requests.map((e) => e.at));
  });
});
