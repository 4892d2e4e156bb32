/**
 * Issue #32 item 5: one drop, one time. The link's bottleneck sits at the sender's end (link.ts), so a packet
 * is lost when it is sent; TCP's 'packet-lost' used to be stamped at its would-be arrival (rtt / 2 plus the
 * queue later) while QUIC's 'quic-datagram-dropped' was stamped at the send, so side by side the same loss
 * showed half a round trip apart.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../server/index';
import { createSimulation } from '../sim/simulation';

async function lostAt(httpVersion: '2' | '3'): Promise<{ sent: number; lost: number }> {
  const server = createServer({ resources: { '/f': { body: 'q'.repeat(60_000), contentType: 'application/octet-stream' } } });
  const sim = createSimulation({ httpVersion, tls: '1.3', rtt: 100, bandwidth: 10_000_000, server, lossSchedule: { server: [20_000] } });
  await (await sim.fetch('/f')).arrayBuffer();
  if (httpVersion === '2') {
    const [lost, ...more] = sim.trace.ofType('packet-lost');
    expect(more).toEqual([]);
    const sent = sim.trace.ofType('segment-sent').find((e) => e.from === lost!.from && e.offset === lost!.offset && !e.retransmission)!;
    return { sent: sent.at, lost: lost!.at };
  }
  const [lost, ...more] = sim.trace.ofType('quic-datagram-dropped');
  expect(more).toEqual([]);
  const sent = sim.trace.ofType('quic-packet-sent').find((e) => e.from === lost!.from && e.packetNumber === lost!.packetNumbers[0])!;
  return { sent: sent.at, lost: lost!.at };
}

describe('a dropped packet is traced when it is sent, in both stacks', () => {
  it('HTTP/2 (TCP): packet-lost carries the time of the segment-sent it names, not 50 ms and a queue later', async () => {
    const { sent, lost } = await lostAt('2');
    expect(sent).toBeGreaterThan(0);
    expect(lost).toBe(sent);
  });
  it('HTTP/3 (QUIC): quic-datagram-dropped carries the time its packets were sent', async () => {
    const { sent, lost } = await lostAt('3');
    expect(sent).toBeGreaterThan(0);
    expect(lost).toBe(sent);
  });
});
