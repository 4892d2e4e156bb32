import { describe, expect, it } from 'vitest';
import { createSimulation, type Simulation } from '../simulation';
import type { SimulationOptions } from '../options';
import { createServer } from '../../server/index';

const MiB = 1024 * 1024;

function sim(options: SimulationOptions = {}): Simulation {
  const server = createServer({ resources: { '/big': { body: 'x'.repeat(MiB), contentType: 'application/octet-stream' } } });
  return createSimulation({ httpVersion: '2', rtt: 100, bandwidth: 10_000_000, server, ...options });
}

const sent = (s: Simulation, side: 'client' | 'server', type: string) =>
  s.trace.ofType('h2-frame').filter((f) => f.side === side && f.direction === 'sent' && f.frameType === type);

async function download(s: Simulation): Promise<number> {
  const body = await (await s.fetch('/big')).arrayBuffer();
  expect(body.byteLength).toBe(MiB);
  return s.clock.now();
}

// Several 1 MiB transfers per test: generous runner limits for a busy machine (nothing here asserts on wall time).
describe('HTTP/2 flow control of the simulated client', { timeout: 60_000 }, () => {
  it("offers Chrome's windows by default: 6 MiB per stream in SETTINGS, 15 MiB for the connection", async () => {
    const s = sim();
    await download(s);
    const settings = sent(s, 'client', 'SETTINGS').find((f) => !f.flags.includes('ACK'))!;
    expect(settings.fields).toMatchObject({ INITIAL_WINDOW_SIZE: 6_291_456 });
    // 15 x 2^20 - 65,535: the increment Chrome sends right after its SETTINGS.
    expect(sent(s, 'client', 'WINDOW_UPDATE').map((f) => [f.streamId, f.fields.windowSizeIncrement])).toEqual([[0, 15_663_105]]);
    expect(sent(s, 'client', 'WINDOW_UPDATE')[0]!.seq).toBeLessThan(sent(s, 'client', 'HEADERS')[0]!.seq);
  });

  it('a 1 MiB download then takes as long as over HTTP/1.1; with the RFC windows it waits for WINDOW_UPDATEs', async () => {
    const h1 = createSimulation({
      httpVersion: '1.1',
      rtt: 100,
      bandwidth: 10_000_000,
      server: createServer({ resources: { '/big': { body: 'x'.repeat(MiB), contentType: 'application/octet-stream' } } }),
    });
    await (await h1.fetch('/big')).arrayBuffer();
    const browser = await download(sim());
    const rfcSim = sim({ http2: { flowControl: 'rfc-defaults' } });
    const rfc = await download(rfcSim);
    // Same TCP underneath, a few hundred bytes of HTTP/2 framing more (9 octets per 16 KiB DATA frame).
    expect(Math.abs(browser - h1.clock.now()) / h1.clock.now()).toBeLessThan(0.01);
    // 65,535 bytes per round trip at most: 1 MiB needs at least 16 round trips, 1.6 s, on top of set-up.
    expect(rfc).toBeGreaterThan(1600 + 200);
    expect(rfc).toBeGreaterThan(browser * 1.5);
    const updates = sent(rfcSim, 'client', 'WINDOW_UPDATE');
    expect(updates.filter((f) => f.streamId === 0).length).toBeGreaterThanOrEqual(16);
    expect(updates.filter((f) => f.streamId === 1).length).toBeGreaterThanOrEqual(15);
    expect(sent(rfcSim, 'client', 'SETTINGS').find((f) => !f.flags.includes('ACK'))!.fields).not.toHaveProperty('INITIAL_WINDOW_SIZE');
  });

  it('takes explicit window sizes, and refuses sizes HTTP/2 cannot announce', async () => {
    const s = sim({ http2: { flowControl: { streamWindow: 131_072, connectionWindow: 1_000_000 } } });
    await download(s);
    expect(sent(s, 'client', 'SETTINGS').find((f) => !f.flags.includes('ACK'))!.fields).toMatchObject({ INITIAL_WINDOW_SIZE: 131_072 });
    expect(sent(s, 'client', 'WINDOW_UPDATE')[0]!.fields.windowSizeIncrement).toBe(1_000_000 - 65_535);
    expect(() => sim({ http2: { flowControl: { streamWindow: 2 ** 31, connectionWindow: 65_535 } } })).toThrow(/option "http2" must be/);
    expect(() => sim({ http2: { flowControl: 'huge' as never } })).toThrow(/option "http2" must be/);
  });
});
