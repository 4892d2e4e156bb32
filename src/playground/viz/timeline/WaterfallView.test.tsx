// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Simulation } from 'roundtrip/wire';
import { stepOf } from '../../recording/model';
import WaterfallView from './WaterfallView';
import { formatMs } from './format';
import { createSimulation } from 'roundtrip/wire';
import { loadPage, PAGE, pageServer, recordingOf } from './testing';

afterEach(cleanup);

let h2: Simulation;
let six: Simulation;
beforeAll(async () => {
  h2 = await loadPage({ httpVersion: '2', tls: '1.3' });
  six = await loadPage({ httpVersion: '1.1', tls: '1.2', maxConnectionsPerOrigin: 3 });
});

const rows = (container: HTMLElement) => [...container.querySelectorAll<HTMLTableRowElement>('tbody tr[data-request-id]')];
const cells = (row: HTMLTableRowElement) => [...row.querySelectorAll('td')].map((td) => td.textContent);

describe('WaterfallView', () => {
  it('has a row per request with the columns DevTools shows', () => {
    const recording = recordingOf([{ sim: h2 }]);
    const { container } = render(<WaterfallView recording={recording} cursor={recording.steps.length - 1} />);
    const finished = h2.trace.ofType('request-finished');
    const all = rows(container);
    expect(all).toHaveLength(h2.trace.ofType('request-started').length);
    all.forEach((row, i) => {
      const f = finished.find((e) => e.requestId === row.dataset.requestId)!;
      const [name, method, status, protocol, connection, size, time] = cells(row);
      expect(name).toBe(PAGE[i]);
      expect(method).toBe('GET');
      expect(status).toBe(String(f.response.status));
      expect(protocol).toBe('h2');
      expect(connection).toBe(f.connectionId);
      expect(size).toMatch(/\d (B|kB)$/);
      expect(time).toBe(formatMs(f.at - f.startedAt));
    });
    // A shared axis with tick labels, and a legend naming every phase.
    expect(container.querySelectorAll('.rt-tl-tick').length).toBeGreaterThan(2);
    expect(
      within(screen.getByRole('list', { name: 'Phases' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Queueing / stalled', 'DNS lookup', 'Initial connection', 'TLS', 'Request sent', 'Waiting (TTFB)', 'Content download']);
  });

  it('sizes each phase bar by the HAR timings of request-finished, on one time scale', () => {
    const recording = recordingOf([{ sim: six }]);
    const { container } = render(<WaterfallView recording={recording} cursor={recording.steps.length - 1} />);
    const finished = six.trace.ofType('request-finished');
    const widths = new Set<string>();
    let scale: number | undefined;
    for (const row of rows(container)) {
      const f = finished.find((e) => e.requestId === row.dataset.requestId)!;
      const bars = [...row.querySelectorAll<HTMLElement>('.rt-tl-bar')];
      const ms = (phase: string) => bars.filter((b) => b.dataset.phase === phase).reduce((sum, b) => sum + Number(b.dataset.ms), 0);
      expect(ms('connect')).toBeCloseTo(Math.max(0, f.timings.connect - Math.max(0, f.timings.ssl)), 6);
      expect(ms('ssl')).toBeCloseTo(Math.max(0, f.timings.ssl), 6);
      expect(ms('blocked')).toBeCloseTo(Math.max(0, f.timings.blocked), 6);
      expect(ms('wait')).toBeCloseTo(f.timings.wait, 6);
      expect(ms('receive')).toBeCloseTo(f.timings.receive, 6);
      for (const bar of bars) {
        // width% / ms is the same for every bar: one axis for all rows.
        const ratio = parseFloat(bar.style.width) / Number(bar.dataset.ms);
        scale ??= ratio;
        expect(ratio).toBeCloseTo(scale, 6);
        widths.add(bar.dataset.phase!);
      }
      // Bars start where the request started.
      expect(parseFloat(bars[0]!.style.left) / scale!).toBeCloseTo(f.startedAt, 6);
    }
    // Three connections for seven requests: new ones pay TCP and TLS, later ones queue. (Over TLS a whole
    // small response arrives in one record, so its receive phase is 0 and draws no bar.)
    expect([...widths].sort()).toEqual(['blocked', 'connect', 'ssl', 'wait']);
  });

  it('shows only requests started by the cursor and draws the ones in progress up to it', () => {
    const recording = recordingOf([{ sim: h2 }]);
    const events = h2.trace.events;
    const cursor = events.findIndex((e) => e.type === 'response-started');
    const { container } = render(<WaterfallView recording={recording} cursor={cursor} />);
    const started = events.slice(0, cursor + 1).filter((e) => e.type === 'request-started').length;
    expect(rows(container)).toHaveLength(started);
    const first = rows(container)[0]!;
    expect(cells(first)[2]).toBe('(pending)');
    const bars = [...first.querySelectorAll<HTMLElement>('.rt-tl-bar')];
    expect(bars.map((b) => b.dataset.phase)).toEqual(['connect', 'ssl', 'wait']);
    const end = bars.reduce((max, b) => Math.max(max, parseFloat(b.style.left) + parseFloat(b.style.width)), 0);
    // Every row's cursor line sits at --rt-tl-now, set once on the table.
    expect(first.querySelector('.rt-tl-cursor-line')).not.toBeNull();
    const table = container.querySelector<HTMLElement>('table')!;
    expect(end).toBeCloseTo(parseFloat(table.style.getPropertyValue('--rt-tl-now')), 6);
    expect(bars.at(-1)!.classList.contains('is-live')).toBe(true);
  });

  it('opens exact per-phase numbers from the keyboard and jumps the cursor to the request', () => {
    const recording = recordingOf([{ sim: six }, { sim: h2 }]);
    const onCursor = vi.fn();
    render(<WaterfallView recording={recording} cursor={0} onCursor={onCursor} />);
    expect(screen.getByRole('combobox', { name: 'Simulation' })).toBeTruthy();
    cleanup();
    render(<WaterfallView recording={recording} cursor={recording.steps.length - 1} onCursor={onCursor} />);
    const f = h2.trace.ofType('request-finished')[0]!;
    const name = screen.getByRole('button', { name: PAGE[0] });
    name.focus();
    fireEvent.click(name);
    expect(name.getAttribute('aria-expanded')).toBe('true');
    const details = screen.getByRole('region', { name: /Timing of GET \/index\.html/ });
    const duration = (label: string) => within(details).getByRole('rowheader', { name: label }).parentElement!.lastElementChild!.textContent;
    expect(duration('TLS')).toBe(formatMs(f.timings.ssl));
    expect(duration('Initial connection')).toBe(formatMs(f.timings.connect - f.timings.ssl));
    expect(duration('Waiting (TTFB)')).toBe(formatMs(f.timings.wait));
    expect(duration('Queueing / stalled')).toBe('–');
    fireEvent.click(within(details).getByRole('button', { name: 'Go to its last byte' }));
    const finishedIndex = h2.trace.events.indexOf(f);
    expect(onCursor).toHaveBeenLastCalledWith(stepOf(recording, 'sim-2', finishedIndex));
  });

  it('HTTP/2, six requests at once on one connection: only the one that opened it has connection phases, as in Chrome', async () => {
    const sim = createSimulation({ rtt: 100, server: pageServer(), httpVersion: '2', tls: '1.3' });
    await Promise.all(PAGE.slice(1).map(async (p) => (await sim.fetch(`https://api.example${p}`)).text()));
    const recording = recordingOf([{ sim }]);
    const phasesOf = (container: HTMLElement) =>
      rows(container).map((row) => [...new Set([...row.querySelectorAll<HTMLElement>('.rt-tl-bar')].map((b) => b.dataset.phase))]);
    const { container } = render(<WaterfallView recording={recording} cursor={recording.steps.length - 1} />);
    const finished = phasesOf(container);
    expect(finished).toHaveLength(6);
    expect(finished[0]).toEqual(['connect', 'ssl', 'wait']);
    // the other five queued (stalled) for the handshakes the first one paid for, then waited for their responses
    for (const phases of finished.slice(1)) expect(phases).toEqual(['blocked', 'wait']);
    const [opener, ...others] = sim.trace.ofType('request-finished');
    for (const f of others) expect(f.timings.blocked).toBeCloseTo(opener!.timings.connect, 3);
    cleanup();
    // In the middle of the TLS handshake, before anything was sent: the same, drawn up to the cursor.
    const opened = sim.trace.ofType('connection-opened')[0]!;
    const tls = sim.trace.events.findIndex((e) => e.at > opened.at);
    expect(sim.trace.events.slice(0, tls + 1).some((e) => e.type === 'request-sent')).toBe(false);
    const { container: early } = render(<WaterfallView recording={recording} cursor={tls} />);
    const live = phasesOf(early);
    expect(live[0]).toEqual(['connect', 'ssl']);
    for (const phases of live.slice(1)) expect(phases).toEqual(['blocked']);
  });
});
