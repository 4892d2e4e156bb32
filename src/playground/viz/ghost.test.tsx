// @vitest-environment jsdom
/**
 * The previous run as a ghost in the views (issue #27, item 5): Waterfall, Compare and the query event timeline
 * draw the ghost's matching source faded under the current one, mark what moved, and pin or clear it.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactElement } from 'react';
import * as query from 'roundtrip/query';
import { createServer, createSimulation } from 'roundtrip/wire';
import type { Recording } from '../recording/model';
import { GhostContext, type GhostContextValue } from './ghost-context';
import { formatDelta } from './ghost';
import { recordSnippet } from './run-snippet';
import { loadPage, recordingOf } from './timeline/testing';
import WaterfallView from './timeline/WaterfallView';
import CompareView from './timeline/CompareView';
import EventTimeline from './query/EventTimeline';

afterEach(cleanup);

function withGhost(ui: ReactElement, recording: Recording, label: string) {
  const pin = vi.fn();
  const clear = vi.fn();
  const value: GhostContextValue = { ghost: { recording, label, pinned: false, key: 1 }, pin, clear };
  const view = render(<GhostContext.Provider value={value}>{ui}</GhostContext.Provider>);
  return { ...view, pin, clear };
}

/** Six parts over HTTP/2 on a lossy link, as the HTTP/3 page's playground loads them. */
async function lossy(loss: number) {
  const resources = Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`/part/${n}`, { body: 'x'.repeat(1500), contentType: 'text/plain' }]));
  const sim = createSimulation({ httpVersion: '2', tls: '1.3', rtt: 100, bandwidth: Infinity, loss, seed: 2, server: createServer({ resources }) });
  await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => (await sim.fetch(`https://api.example/part/${n}`)).text()));
  return sim;
}

const lastFinish = (sim: Awaited<ReturnType<typeof lossy>>) => Math.max(...sim.trace.ofType('request-finished').map((e) => e.at));

describe('the ghost in the Waterfall', () => {
  it('draws each request of the previous run faded under this run, and says what moved, per row and in total', async () => {
    const before = await lossy(0.1);
    const after = await lossy(0.3);
    const now = recordingOf([{ sim: after }]);
    const { container, pin, clear } = withGhost(
      <WaterfallView recording={now} cursor={now.steps.length - 1} />,
      recordingOf([{ sim: before }]),
      'ghost: loss 0.1',
    );
    const rows = [...container.querySelectorAll<HTMLTableRowElement>('tbody tr[data-request-id]')];
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row.querySelectorAll('.rt-tl-ghost-bar').length).toBeGreaterThan(0);
    // each row's delta is its duration against the same request's in the ghost
    const finished = (sim: typeof before, id: string) => sim.trace.ofType('request-finished').find((e) => e.requestId === id)!;
    for (const row of rows) {
      const id = row.dataset.requestId!;
      const a = finished(after, id);
      const b = finished(before, id);
      expect(row.querySelector('.rt-tl-delta')!.textContent).toBe(formatDelta(a.at - a.startedAt - (b.at - b.startedAt)));
    }
    const total = screen.getByTestId('waterfall-summary').querySelector('.rt-tl-delta')!;
    expect(Number(total.getAttribute('data-delta'))).toBe(Math.round(lastFinish(after) - lastFinish(before)));
    expect(lastFinish(after)).not.toBe(lastFinish(before));
    const bar = screen.getByTestId('ghost-bar');
    expect(bar.textContent).toContain('ghost: loss 0.1');
    fireEvent.click(within(bar).getByRole('button', { name: 'Pin' }));
    expect(pin).toHaveBeenCalledWith(true);
    fireEvent.click(within(bar).getByRole('button', { name: 'Clear ghost' }));
    expect(clear).toHaveBeenCalled();
  });

  it('without a ghost, draws no ghost and no bar', async () => {
    const sim = await loadPage({ httpVersion: '2', tls: '1.3' });
    const recording = recordingOf([{ sim }]);
    const { container } = render(<WaterfallView recording={recording} cursor={recording.steps.length - 1} />);
    expect(container.querySelectorAll('.rt-tl-ghost-bar, .rt-tl-delta')).toHaveLength(0);
    expect(screen.queryByTestId('ghost-bar')).toBeNull();
  });
});

describe('the ghost in Compare', () => {
  it("puts each simulation's previous page-load time beside this one's, and its requests under this run's", async () => {
    const [a0, a1] = [await lossy(0), await lossy(0.1)];
    const [b0, b1] = [await lossy(0), await lossy(0.3)];
    const now = recordingOf([{ sim: b0 }, { sim: b1 }]);
    const { container } = withGhost(<CompareView recording={now} cursor={now.steps.length - 1} />, recordingOf([{ sim: a0 }, { sim: a1 }]), 'ghost: loss 0.1');
    const delta = (id: string) => container.querySelector(`tr[data-source-id="${id}"] [data-col="load"] .rt-tl-delta`)!.getAttribute('data-delta');
    const load = (sim: typeof a0) => {
      const started = sim.trace.ofType('request-started')[0]!.at;
      return lastFinish(sim) - started;
    };
    expect(delta('sim-1')).toBe('0');
    expect(Number(delta('sim-2'))).toBe(Math.round(load(b1) - load(a1)));
    expect(container.querySelectorAll('[data-timeline-of="sim-2"] rect.is-ghost').length).toBeGreaterThan(0);
    expect(screen.getByTestId('ghost-bar').textContent).toContain('ghost: loss 0.1');
  });
});

describe('the ghost in the query event timeline', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(Date.UTC(2026, 0, 1));
    query.environmentManager.setIsServer(() => false);
    query.focusManager.setFocused(true);
  });
  afterEach(() => {
    query.focusManager.setFocused(undefined);
    vi.useRealTimers();
  });

  it('retry 1 against retry 3: the ghost lane shows its attempts, and the lane says how much later it settled', async () => {
    // Two failures before a success, 100 ms apart: retry 1 gives up after 2 attempts, retry 3 succeeds on the third.
    const options = (retry: number) => ({ overrides: { retry, failures: 2, retryDelay: 100 } });
    const { recording: before } = await recordSnippet('query-observer-states.ts', options(1));
    const { recording: after } = await recordSnippet('query-observer-states.ts', options(3));
    const { container } = withGhost(<EventTimeline recording={after} cursor={after.steps.length - 1} />, before, 'ghost: retry 1');
    const lane = container.querySelector('[data-ghost-lane]')!;
    expect([...lane.querySelectorAll('rect')].filter((r) => r.getAttribute('data-kind') === 'attempt')).toHaveLength(2);
    expect([...lane.querySelectorAll('rect')].filter((r) => r.getAttribute('data-kind') === 'backoff')).toHaveLength(1);
    // this run settled one retry delay (100 ms) later than the ghost: its third attempt ran after a second wait
    expect(lane.querySelector('.rt-q-ghost-delta')!.getAttribute('data-delta')).toBe('100');
    expect(screen.getByTestId('ghost-bar').textContent).toContain('ghost: retry 1');
  });
});
