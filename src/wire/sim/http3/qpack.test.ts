/**
 * QPACK in the simulator: a `lossSchedule` offset taken from a 'qpack-instructions' event loses exactly the
 * packet that carries that encoder-stream insert, and the request that needs it is traced as blocked and
 * unblocked (RFC 9204 §2.1.2).
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../../server/server';
import { createSimulation } from '../simulation';

const resources = { '/a': { body: 'a' }, '/b': { body: 'b' } };

async function load(options: Omit<NonNullable<Parameters<typeof createSimulation>[0]>, 'server'>) {
  const sim = createSimulation({ httpVersion: '3', rtt: 100, bandwidth: Infinity, server: createServer({ resources }), ...options });
  // The first request leaves before the server's SETTINGS (no table yet, RFC 9204 §3.2.3); the second fills
  // the table and is acknowledged.
  await sim.fetch('https://api.example/a');
  await sim.fetch('https://api.example/a');
  const mark = sim.trace.events.length;
  await Promise.all([sim.fetch('https://api.example/b', { headers: { 'x-new': 'v1' } }), sim.fetch('https://api.example/a')]);
  return { sim, batch: sim.trace.events.slice(mark) };
}

describe('QPACK in the HTTP/3 simulation', () => {
  it("a lossSchedule offset from a 'qpack-instructions' event loses that encoder-stream packet; the request needing it waits", async () => {
    const clean = await load({});
    const insert = clean.batch.find((e) => e.type === 'qpack-instructions' && e.from === 'client' && e.stream === 'encoder');
    if (insert?.type !== 'qpack-instructions') throw new Error('no encoder-stream insert in the batch');
    // A client unidirectional stream other than its control stream (2): its decoder and encoder streams open
    // in the order first needed (RFC 9000 §2.1), so the encoder's may be 6 or 10.
    expect(insert.streamId % 4).toBe(2);
    expect(insert.streamId).toBeGreaterThan(2);
    const { offset, streamId: encoderStream } = insert;
    const { batch } = await load({ lossSchedule: { client: [offset] } });
    const dropped = batch.filter((e) => e.type === 'quic-datagram-dropped');
    expect(dropped.map((e) => e.type === 'quic-datagram-dropped' && [e.from, e.cause, e.streams])).toEqual([['client', 'schedule', [encoderStream]]]);
    const blocked = batch.filter((e) => e.type === 'qpack-blocked');
    expect(blocked.map((e) => e.type === 'qpack-blocked' && [e.side, e.streamId])).toEqual([['server', 8]]);
    const unblocked = batch.find((e) => e.type === 'qpack-unblocked');
    expect(unblocked?.type === 'qpack-unblocked' && unblocked.streamId).toBe(8);
    // The other request (every field acknowledged) finishes first; /b only after its insert was retransmitted.
    const finished = batch.flatMap((e) => (e.type === 'request-finished' ? [[new URL(e.request.url).pathname, e.at]] : []));
    expect(finished.map(([path]) => path)).toEqual(['/a', '/b']);
    expect(finished[1]![1]).toBeGreaterThanOrEqual(unblocked!.at);
    const cleanA = clean.batch.find((e) => e.type === 'request-finished' && e.request.url.endsWith('/a'));
    expect(finished[0]![1]).toBe(cleanA?.at);
  });

  it('http3.qpack reaches both endpoints: maxTableCapacity 0 sends no QPACK instructions at all', async () => {
    const { sim } = await load({ http3: { qpack: { maxTableCapacity: 0 } } });
    expect(sim.trace.ofType('qpack-instructions')).toEqual([]);
    const settings = sim.trace.ofType('http3-frame').filter((e) => e.frame === 'SETTINGS');
    expect(settings).toHaveLength(2);
  });

  it('rejects a qpack option that is not a whole number, naming it', () => {
    expect(() => createSimulation({ httpVersion: '3', http3: { qpack: { maxBlockedStreams: -1 } } })).toThrow(/qpack\.maxBlockedStreams/);
  });
});
