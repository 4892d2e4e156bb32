import { describe, expect, it } from 'vitest';
import { createServer, createSimulation, http, type TraceEvent } from 'roundtrip/wire';
import { describePosition, describeStep, describeWireEvent } from './describe';
import { RecordingStore } from './recording';

async function trace(options: Parameters<typeof createSimulation>[0]): Promise<readonly TraceEvent[]> {
  const server = createServer({ routes: [http.get('/item/:id', (_r, { params }) => Response.json({ id: params.id, pad: 'x'.repeat(3000) }))] });
  const sim = createSimulation({ server, rtt: 80, seed: 4, ...options });
  await Promise.all(Array.from({ length: 4 }, (_, i) => sim.fetch(`/item/${i}`)));
  return sim.trace.events;
}

describe('describeWireEvent', () => {
  it('tells an HTTP/2 frame by stream, type, direction and flags', async () => {
    const events = await trace({ httpVersion: '2', tls: '1.3' });
    const headers = events.find((e) => e.type === 'h2-frame' && e.frameType === 'HEADERS' && e.direction === 'sent' && e.side === 'client');
    expect(headers && describeWireEvent(headers)).toBe('stream 1: HEADERS sent by client, END_STREAM, END_HEADERS');
    const settings = events.find((e) => e.type === 'h2-frame' && e.frameType === 'SETTINGS' && e.flags.includes('ACK'));
    expect(settings && describeWireEvent(settings)).toMatch(/^c1: SETTINGS sent by (client|server), ACK$/);
    const syn = events.find((e) => e.type === 'handshake' && e.step === 'SYN');
    expect(syn && describeWireEvent(syn)).toBe('c1: SYN from client');
  });

  it('has words of its own for every event the simulator emits', async () => {
    const all = [
      ...(await trace({ httpVersion: '1.1', maxConnectionsPerOrigin: 1, loss: 0.2 })),
      ...(await trace({ httpVersion: '1.0', tls: '1.2' })),
      ...(await trace({ httpVersion: '2', tls: '1.3', loss: 0.2 })),
      ...(await trace({ httpVersion: '3', loss: 0.2 })),
    ];
    const types = new Set(all.map((e) => e.type));
    expect(types.size).toBeGreaterThan(20);
    for (const e of all) {
      const text = describeWireEvent(e);
      expect(text, e.type).not.toMatch(new RegExp(`(^|: )${e.type}$`));
      expect(text).not.toMatch(/undefined|NaN|\[object/);
    }
  });
});

describe('describeStep and describePosition', () => {
  it('tell the step at the cursor, naming the source when there are several', async () => {
    const store = new RecordingStore();
    store.addSource({ id: 'sim-1', kind: 'wire', label: 'HTTP/1.1' });
    expect(describeStep(store.snapshot(), -1)).toBe('Nothing recorded yet.');
    const events = await trace({});
    store.append('sim-1', events);
    const r = store.snapshot();
    expect(describeStep(r, 0)).toBe(describeWireEvent(events[0]!));
    expect(describePosition(r, 2)).toBe(`step 3 of ${events.length}, ${new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(events[2]!.at)} ms`);
    store.addSource({ id: 'sim-2', kind: 'wire', label: 'Other' });
    store.append('sim-2', [events[0]!]);
    const two = store.snapshot();
    expect(describeStep(two, events.length)).toBe(`Other: ${describeWireEvent(events[0]!)}`);
  });
});
