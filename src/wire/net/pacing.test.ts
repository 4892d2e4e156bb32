/**
 * Issue #32 item 8, TCP side: pacing at Linux's rate (tcp_update_pacing_rate), an option (`pacing`, default off
 * as under Linux's usual fq_codel qdisc). Hand computation for the server's initial window: SRTT is the
 * handshake's 100 ms, cwnd 10 x 1,448 = 14,480 bytes in slow start, so the rate is 2 x 14,480 / 100 =
 * 289.6 bytes per ms and a 1,448-byte segment leaves every 1,448 / 289.6 = 5 ms: the ten segments spread over
 * 45 ms instead of leaving together.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../server/index';
import { createSimulation } from '../sim/simulation';

async function firstWindow(pacing: boolean): Promise<{ gaps: number[]; ms: number }> {
  const server = createServer({ resources: { '/f': { body: 'p'.repeat(100_000), contentType: 'application/octet-stream' } } });
  const sim = createSimulation({ httpVersion: '1.1', rtt: 100, bandwidth: 10_000_000, server, pacing });
  expect((await (await sim.fetch('/f')).arrayBuffer()).byteLength).toBe(100_000);
  const sent = sim.trace.ofType('segment-sent').filter((e) => e.from === 'server');
  const times = sent.slice(0, 10).map((e) => e.at);
  return { gaps: times.slice(1).map((t, i) => Math.round((t - times[i]!) * 1000) / 1000), ms: sim.clock.now() };
}

describe('TCP pacing', () => {
  it('spreads the initial window: one 1,448-byte segment every 5 ms (2 x cwnd / SRTT), where unpaced they leave at once', async () => {
    const paced = await firstWindow(true);
    expect(paced.gaps).toEqual(Array(9).fill(5));
    const unpaced = await firstWindow(false);
    expect(unpaced.gaps).toEqual(Array(9).fill(0));
  });
});

describe('QUIC pacing (RFC 9002 §7.7)', () => {
  async function serverFlight(pacing: boolean) {
    const server = createServer({ resources: { '/f': { body: 'p'.repeat(100_000), contentType: 'application/octet-stream' } } });
    // No bandwidth limit: every RTT sample is exactly 100 ms, so the rate is 1.25 x cwnd / 100.
    const sim = createSimulation({ httpVersion: '3', tls: '1.3', rtt: 100, bandwidth: Infinity, server, pacing });
    expect((await (await sim.fetch('/f')).arrayBuffer()).byteLength).toBe(100_000);
    return sim.trace.ofType('quic-packet-sent').filter((e) => e.from === 'server' && e.space === '1rtt' && e.frames.some((f) => f.startsWith('STREAM 0 ')));
  }

  it('the first window leaves one packet per size / (1.25 x cwnd / smoothed_rtt), not all at once', async () => {
    const paced = (await serverFlight(true)).slice(0, 8);
    expect(paced).toHaveLength(8);
    for (let i = 1; i < paced.length; i++) {
      const previous = paced[i - 1]!;
      // The response's packets: 1,442 bytes at 1.25 x 17,883 / 100 = 223.5 bytes per ms, 6.451 ms apart.
      expect(paced[i]!.at - previous.at).toBeCloseTo(previous.size / ((1.25 * previous.cwnd) / 100), 2);
      expect(paced[i]!.at - previous.at).toBeGreaterThan(3);
    }
    const unpaced = (await serverFlight(false)).slice(0, 8);
    expect(new Set(unpaced.map((e) => e.at)).size).toBe(1);
  });
});
