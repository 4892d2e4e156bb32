// @vitest-environment jsdom
/**
 * The sequence diagram's scale and labels (issue #27, "Room to see"): time never squeezed below 90 px per
 * 100 ms unless the reader fits the run, and no label merged so that it hides a connection opening or closing,
 * checked on every docs snippet that runs a simulation, as the playground records it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WireSource } from '../../recording/model';
import { recordSnippet, SNIPPETS_DIR } from '../run-snippet';
import { buildSequence, type SequenceModel } from './sequence';
import { isControl, labelText } from './sequence-labels';
import { basePxPerMs, canZoom, geometry, layoutLabels, MIN_PX_PER_MS, pxPerMsFor, scrollToKeep, tickTimes, TOP, zoomNear } from './sequence-layout';

/** Every docs snippet that runs a simulation (the others draw no sequence). */
const WIRE_SNIPPETS = readdirSync(SNIPPETS_DIR)
  .filter((f) => /\.tsx?$/.test(f) && readFileSync(`${SNIPPETS_DIR}/${f}`, 'utf8').includes('createSimulation'))
  .sort();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(Date.UTC(2026, 0, 1));
});
afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

const wireSources = (sources: readonly { kind: string }[]) => sources.filter((s): s is WireSource => s.kind === 'wire');

/** What is wrong with the labels of one model at one width and scale: merged across kinds or connections, a control arrow's label hidden, or a label past the drawing's edge. */
function labelProblems(model: SequenceModel, width: number, pxPerMs: number): string[] {
  const geo = geometry(model, pxPerMs, width);
  const placed = layoutLabels(model, geo, tickTimes(model, geo));
  const problems: string[] = [];
  const own = new Map<number, (typeof placed)[number]>();
  for (const p of placed) {
    const [lead, ...rest] = p.members.map((m) => model.arrows[m]!);
    for (const a of rest) {
      if (isControl(a) || isControl(lead!)) problems.push(`${a.connectionId} ${a.label} merged into "${lead!.label}"`);
      else if (a.connectionId !== lead!.connectionId || a.category !== lead!.category)
        problems.push(`${a.connectionId} ${a.label} (${a.category}) merged into ${lead!.connectionId} "${lead!.label}" (${lead!.category})`);
    }
    if (p.members.length === 1) own.set(p.members[0]!, p);
  }
  for (const p of placed) {
    if (p.box.some(([x]) => x < -1 || x > width + 1)) problems.push(`"${model.arrows[p.members[0]!]!.label}" runs past the edge`);
  }
  model.arrows.forEach((a, i) => {
    if (!isControl(a) || !a.label) return;
    const p = own.get(i);
    if (!p) problems.push(`${a.connectionId} ${a.label} at ${a.sentAt.toFixed(1)} ms has no label of its own`);
    else if (p.chars !== undefined) problems.push(`${a.connectionId} ${a.label} shortened`);
  });
  return problems;
}

describe('sequence scale', () => {
  it('never draws 100 ms shorter than 90 px unless the run is fitted to the box', () => {
    expect(MIN_PX_PER_MS * 100).toBeGreaterThanOrEqual(90);
    // "Seven ways" runs about 2 s: fitting it into 600 px gave 0.3 px a ms (30 px per 100 ms).
    for (const duration of [50, 400, 2_000, 12_000, 60_000]) {
      for (let zoom = -6; zoom <= 6; zoom++) expect(pxPerMsFor(duration, { zoom }) * 100).toBeGreaterThanOrEqual(90);
      // At the minimum the zoom-out button is disabled.
      expect(canZoom(duration, -10).out).toBe(false);
      expect(pxPerMsFor(duration, { zoom: zoomNear(duration, pxPerMsFor(duration, { zoom: 2 })) })).toBeCloseTo(pxPerMsFor(duration, { zoom: 2 }));
    }
    expect(basePxPerMs(2_000) * 100).toBeGreaterThanOrEqual(90);
    // Short runs still get room: 150 ms is drawn at 4 px a ms.
    expect(basePxPerMs(150)).toBe(4);
    // Zooming in doubles; fitting squeezes below the minimum when asked to.
    expect(pxPerMsFor(2_000, { zoom: 1 })).toBeCloseTo(2 * pxPerMsFor(2_000, { zoom: 0 }));
    expect(pxPerMsFor(2_000, { fit: true, fitHeight: 600 }) * 100).toBeLessThan(30);
  });

  it('keeps the cursor in the box: scrolls only when it leaves the visible band, then centres it', () => {
    expect(scrollToKeep(300, 0, 500)).toBe(0);
    expect(scrollToKeep(1200, 0, 500)).toBe(950);
    expect(scrollToKeep(10, 400, 500)).toBe(0);
    expect(scrollToKeep(TOP + 400, 400, 500)).toBe(400);
  });

  it('fits a phone: the lanes stay inside a 300 px wide box', () => {
    const model = buildSequence([]);
    const geo = geometry({ ...model, lanes: ['client', 'proxy', 'server'] }, 1, 300);
    for (const x of geo.laneX.values()) {
      expect(x).toBeGreaterThan(geo.gutter);
      expect(x).toBeLessThan(300);
    }
  });
});

describe('sequence labels on the docs snippets', () => {
  it('Hello, wire over HTTP/1.0: c1 closes with a FIN and c2 opens with a SYN, each labelled on its own', async () => {
    const { recording } = await recordSnippet('hello-wire.ts', { overrides: { httpVersion: '1.0' } });
    const [source] = wireSources(recording.sources);
    const model = buildSequence(source!.events);
    for (const width of [720, 330]) {
      const geo = geometry(model, pxPerMsFor(model.duration, { zoom: 0 }), width);
      const placed = layoutLabels(model, geo, tickTimes(model, geo));
      const texts = placed.map((p) => labelText(model.arrows, p.members, () => true));
      expect(texts).toContain('c1 FIN');
      expect(texts).toContain('c2 SYN');
      expect(texts).toContain('c2 SYN-ACK');
      expect(texts.filter((t) => t.includes('more)') && /FIN|SYN/.test(t))).toEqual([]);
    }
  });

  it('finds the snippets that run simulations', () => {
    expect(WIRE_SNIPPETS.length).toBeGreaterThanOrEqual(15);
    expect(WIRE_SNIPPETS).toContain('http-compare-page-load.ts');
  });

  it.each(WIRE_SNIPPETS)(
    '%s: no merged label hides a SYN, FIN or RST, nor joins kinds or connections (desktop and phone widths)',
    async (file) => {
      const { recording } = await recordSnippet(file);
      const problems: string[] = [];
      for (const source of wireSources(recording.sources)) {
        const model = buildSequence(source.events);
        const px = pxPerMsFor(model.duration, { zoom: 0 });
        expect(px * 100).toBeGreaterThanOrEqual(90);
        for (const width of [720, 330]) problems.push(...labelProblems(model, width, px).map((p) => `${source.label} at ${width} px: ${p}`));
      }
      expect(problems).toEqual([]);
    },
    120_000,
  );
});
