/**
 * Test helpers (not shipped): real simulations of a small page load, wrapped as the Recording the
 * playground host builds from a run.
 */
import { createServer, createSimulation, type Simulation, type SimulationOptions } from 'roundtrip/wire';
import type { Recording, Step, WireSource } from '../../recording/model';

export const PAGE = ['/index.html', '/style.css', '/app.js', '/logo.svg', '/font.woff2', '/hero.jpg', '/data.json'];

export function pageServer() {
  const resources: Record<string, { body: string; contentType: string }> = {
    '/index.html': { body: `<!doctype html>${'<p>text</p>'.repeat(300)}`, contentType: 'text/html' },
  };
  PAGE.slice(1).forEach((path, i) => (resources[path] = { body: 'x'.repeat(1200 + 700 * i), contentType: 'application/octet-stream' }));
  return createServer({ resources });
}

/** The document first, then every subresource at once, as a browser does after parsing the HTML. */
export async function loadPage(options: SimulationOptions): Promise<Simulation> {
  const sim = createSimulation({ rtt: 100, server: pageServer(), ...options });
  const base = options.tls && options.tls !== 'none' ? 'https://api.example' : 'http://api.example';
  await (await sim.fetch(`${base}${PAGE[0]}`)).text();
  await Promise.all(PAGE.slice(1).map(async (p) => (await sim.fetch(`${base}${p}`)).text()));
  return sim;
}

/**
 * One source per simulation, in order. `interleave` spreads the steps round-robin across sources, so a
 * step index differs from the event index (as when simulations run concurrently).
 */
export function recordingOf(runs: readonly { readonly sim: Simulation; readonly label?: string }[], interleave = false): Recording {
  const sources: WireSource[] = runs.map(({ sim, label }, i) => ({
    id: `sim-${i + 1}`,
    kind: 'wire',
    label: label ?? (sim.options.label || `Simulation ${i + 1}`),
    options: { httpVersion: sim.options.httpVersion, rtt: sim.options.rtt, loss: sim.options.loss },
    events: sim.trace.events,
  }));
  const steps: Step[] = [];
  if (interleave) {
    const longest = Math.max(...sources.map((s) => s.events.length));
    for (let index = 0; index < longest; index++) for (const s of sources) if (index < s.events.length) steps.push({ sourceId: s.id, index });
  } else {
    for (const s of sources) s.events.forEach((_, index) => steps.push({ sourceId: s.id, index }));
  }
  return { sources, steps };
}
