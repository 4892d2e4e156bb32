// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Simulation } from 'roundtrip/wire';
import CompareView from './CompareView';
import { formatBytes, formatMs } from './format';
import { loadPage, PAGE, recordingOf } from './testing';

afterEach(cleanup);

const RUNS = [
  { label: 'HTTP/1.0 short-lived', options: { httpVersion: '1.0' } },
  { label: 'HTTP/1.1, 1 connection', options: { httpVersion: '1.1', maxConnectionsPerOrigin: 1 } },
  { label: 'HTTP/2', options: { httpVersion: '2', tls: '1.3' } },
  { label: 'HTTP/1.1, 6 connections', options: { httpVersion: '1.1' } },
] as const;

let sims: Simulation[];
beforeAll(async () => {
  sims = [];
  for (const run of RUNS) sims.push(await loadPage({ ...run.options, label: run.label }));
});

const loadTime = (sim: Simulation) => {
  const started = sim.trace.ofType('request-started')[0]!.at;
  return Math.max(...sim.trace.ofType('request-finished').map((e) => e.at)) - started;
};
const bodyRows = (container: HTMLElement) => [...container.querySelectorAll<HTMLTableRowElement>('tbody tr[data-source-id]')];
const col = (row: HTMLTableRowElement, name: string) => row.querySelector(`[data-col="${name}"]`)!.textContent;

describe('CompareView', () => {
  it('shows every simulation in run order, labelled, with its numbers', () => {
    const recording = recordingOf(sims.map((sim) => ({ sim })));
    const { container } = render(<CompareView recording={recording} cursor={recording.steps.length - 1} />);
    const rows = bodyRows(container);
    expect(rows.map((r) => r.querySelector('th')!.textContent!.replace('Fastest', ''))).toEqual(RUNS.map((r) => r.label));
    rows.forEach((row, i) => {
      const sim = sims[i]!;
      expect(col(row, 'load')).toBe(formatMs(loadTime(sim)));
      const opened = sim.trace.ofType('connection-opening').filter((e) => e.from === 'client').length;
      expect(col(row, 'connections')).toBe(String(opened));
      expect(col(row, 'round-trips')).toBe((loadTime(sim) / 100).toFixed(1));
      const bytes = sim.trace.ofType('segment-sent').reduce((sum, e) => sum + e.length, 0);
      expect(col(row, 'bytes')).toBe(formatBytes(bytes));
      // A compact waterfall under the numbers: one bar row per request.
      const timeline = container.querySelector(`[data-timeline-of="${row.dataset.sourceId}"]`)!;
      const ys = new Set([...timeline.querySelectorAll('rect')].map((r) => r.getAttribute('y')));
      expect(ys.size).toBe(PAGE.length);
    });
    expect(col(rows[0]!, 'connections')).toBe(String(PAGE.length));
    expect(col(rows[1]!, 'connections')).toBe('1');
  });

  it('marks the fastest run, and sorts by page-load time on request', () => {
    const recording = recordingOf(sims.map((sim) => ({ sim })));
    const { container } = render(<CompareView recording={recording} cursor={recording.steps.length - 1} />);
    const times = sims.map(loadTime);
    const best = times.indexOf(Math.min(...times));
    const marked = container.querySelectorAll('tr[data-source-id].is-fastest');
    expect(marked).toHaveLength(1);
    expect(marked[0]!.querySelector('th')!.textContent).toBe(`${RUNS[best]!.label}Fastest`);
    expect(screen.getByTestId('compare-verdict').textContent).toContain(RUNS[best]!.label);

    fireEvent.change(screen.getByRole('combobox', { name: 'Order' }), { target: { value: 'time' } });
    const sorted = [...RUNS.keys()].sort((a, b) => times[a]! - times[b]!).map((i) => RUNS[i]!.label);
    expect(bodyRows(container).map((r) => r.querySelector('th')!.textContent!.replace('Fastest', ''))).toEqual(sorted);
  });

  it('names no winner while a run is still loading at the cursor', () => {
    const recording = recordingOf(sims.map((sim) => ({ sim })));
    // Halfway through the last simulation's events.
    const cursor = recording.steps.length - Math.floor(sims.at(-1)!.trace.events.length / 2);
    const { container } = render(<CompareView recording={recording} cursor={cursor} />);
    expect(container.querySelectorAll('.is-fastest')).toHaveLength(0);
    expect(screen.getByTestId('compare-verdict').textContent).toMatch(/Still loading/);
    expect(col(bodyRows(container).at(-1)!, 'load')).toMatch(/so far$/);
  });
});
