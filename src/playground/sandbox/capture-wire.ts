/**
 * Makes every simulation a snippet creates a 'wire' source of the visualizers: the `roundtrip/wire` module the
 * runtime hands to snippets is the real one with `createSimulation` wrapped. The wrapper changes nothing the
 * snippet can observe; it subscribes to the simulation's trace and forwards each (frozen, plain-data) event, and
 * has `sim.fetch` remember its callers' lines for the errors it fails with (callsite.ts).
 */
import type * as Wire from 'roundtrip/wire';
import type { Capture, SourceOptions } from './capture';
import { withCallSite } from './callsite';

type WireModule = typeof Wire;
type Resolved = Wire.Simulation['options'];

const VERSION_NAMES: Record<string, string> = { '0.9': 'HTTP/0.9', '1.0': 'HTTP/1.0', '1.1': 'HTTP/1.1', '2': 'HTTP/2', '3': 'HTTP/3' };

/** 'HTTP/2 · TLS 1.3 · 100 ms RTT · loss 10%': what sets this simulation apart, for tabs and legends. */
export function summarizeSimulation(o: Resolved): string {
  const parts = [VERSION_NAMES[o.httpVersion] ?? `HTTP/${o.httpVersion}`];
  if (o.httpVersion === '3') parts.push('QUIC');
  else if (o.tls !== 'none') parts.push(`TLS ${o.tls}`);
  parts.push(`${o.rtt} ms RTT`);
  if (o.loss > 0) parts.push(`loss ${+(o.loss * 100).toFixed(2)}%`);
  if (o.httpVersion === '1.0' || o.httpVersion === '1.1') {
    if (o.pipelining !== false) parts.push('pipelining');
    if (!o.keepAlive) parts.push('no keep-alive');
    if (o.maxConnectionsPerOrigin !== 6) parts.push(`${o.maxConnectionsPerOrigin} connection${o.maxConnectionsPerOrigin === 1 ? '' : 's'}`);
  }
  if (o.proxy) parts.push(`${o.proxy.kind ?? 'smart'} proxy`);
  return parts.join(' · ');
}

/** The resolved options a view may want to show, as JSON-safe scalars. */
export function simulationOptions(o: Resolved): SourceOptions {
  return {
    httpVersion: o.httpVersion,
    tls: o.tls,
    rtt: o.rtt,
    // Infinity is not JSON: null means "no limit".
    bandwidth: Number.isFinite(o.bandwidth) ? o.bandwidth : null,
    loss: o.loss,
    seed: o.seed,
    maxConnectionsPerOrigin: o.maxConnectionsPerOrigin,
    keepAlive: o.keepAlive,
    pipelining: o.pipelining,
    proxy: o.proxy ? (o.proxy.kind ?? 'smart') : false,
    drive: o.drive,
    epoch: o.epoch,
    baseUrl: o.baseUrl,
  };
}

/**
 * The wire module as a snippet gets it: simulations recorded. The sandbox's wire chunk also carries what draws
 * `show()` (chunk-wire.ts); that is the runtime's, not the snippet's, so it is left out here.
 */
export function instrumentWireModule(wire: WireModule, capture: Capture): WireModule {
  const { createShowRecorder: _, ...library } = wire as WireModule & { createShowRecorder?: unknown };
  const createSimulation: WireModule['createSimulation'] = (options) => {
    const sim = wire.createSimulation(options);
    const label = sim.options.label || summarizeSimulation(sim.options);
    const source = capture.addSource('wire', label, simulationOptions(sim.options));
    // Nothing is traced before the first fetch today, but do not depend on it.
    for (const event of sim.trace.events) source.push(event);
    sim.subscribe((event) => source.push(event));
    // A failed fetch's TypeError is made in a simulated timer, with no snippet frame: remember the calling line.
    sim.fetch = withCallSite(sim.fetch);
    return sim;
  };
  return Object.freeze({ ...library, createSimulation }) as WireModule;
}
