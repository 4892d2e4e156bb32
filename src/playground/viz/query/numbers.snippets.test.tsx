// @vitest-environment jsdom
/**
 * Numbers that agree (issue #27), on docs snippets run through the snippet runner.
 *
 * One clock for a run: the dedup snippet on /query/overview/ (content/snippets/query-dedup.ts) runs
 * a query whose queryFn awaits a simulated fetch. The simulation's clock moves in microtasks, where the realm's
 * timers never run, so the query side used to stamp everything "+0 ms" while the Sequence view showed the
 * response at 250 ms; it also reported "cancelled, state reverted" after the success, for a cancel the
 * finished fetch ignored. Run through the snippet runner, with the fake timers standing in for the sandbox's
 * virtual clock (setRunClock), as the runtime's VirtualTime does.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, within } from '@testing-library/react';
import * as query from 'roundtrip/query';
import type { QuerySource, WireSource } from '../../recording/model';
import { setRunClock } from '../../sandbox/virtual-time';
import { recordSnippet } from '../run-snippet';
import { describeQueryEvent } from './describe';
import EventTimeline from './EventTimeline';
import TimersView from './TimersView';
import { stepOf } from '../../recording/model';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(Date.UTC(2026, 0, 1));
  query.environmentManager.setIsServer(() => false);
  query.onlineManager.setOnline(true);
  query.focusManager.setFocused(true);
  // vi.setSystemTime moves Date.now (what timeoutManager reads) without firing timers, as catchUp does.
  setRunClock({ now: () => Date.now(), catchUp: (to) => void (to > Date.now() && vi.setSystemTime(to)) });
});
afterEach(() => {
  cleanup();
  setRunClock(undefined);
  query.focusManager.setFocused(undefined);
  vi.useRealTimers();
});

describe('the dedup snippet on one clock', () => {
  it("stamps the query's success when the simulated response arrived, and reports no cancel", async () => {
    const { recording } = await recordSnippet('query-dedup.ts');
    const sim = recording.sources.find((s): s is WireSource => s.kind === 'wire')!;
    const client = recording.sources.find((s): s is QuerySource => s.kind === 'query')!;
    const response = sim.events.find((e) => e.type === 'request-finished')!;
    expect(response.at).toBeGreaterThan(200);
    const start = client.events[0]!.at;
    const success = client.events.find((e) => e.kind === 'instrumentation' && e.event.type === 'success')!;
    // The client was created right after the simulation, at the same instant of the run's clock.
    expect(success.at - start).toBe(Math.round(response.at));
    const texts = client.events.map(describeQueryEvent);
    expect(texts.filter((t) => /: cancelled/.test(t))).toEqual([]);

    const { container } = render(<EventTimeline recording={recording} cursor={recording.steps.length - 1} />);
    const labels = [...container.querySelectorAll('.rt-q-axis text')].map((t) => t.textContent);
    expect(labels.length).toBeGreaterThan(2);
    expect(new Set(labels).size).toBe(labels.length);
    const list = [...container.querySelectorAll('.rt-q-events li:not([hidden]) button')].map((b) => b.textContent);
    expect(list.find((t) => t?.includes('succeeded'))).toMatch(new RegExp(`^\\+${Math.round(response.at)} ms`));
  });
});

describe('attempts counted as TanStack counts them', () => {
  // The snippet of "Retries, step by step" (/query/queries/), every attempt failing: TanStack's fetchFailureCount
  // counts every failed attempt, so with retry: N the query gives up after N + 1 (retryer.ts, query.ts).
  it.each([
    [0, 1, '1 failed attempt'],
    [1, 2, '2 failed attempts'],
    [3, 4, '4 failed attempts'],
  ])('with retry: %i, says it gave up after as many failed attempts as fetchFailureCount (%i)', async (retry, failures, words) => {
    const { recording, output } = await recordSnippet('query-observer-states.ts', { overrides: { retry, failures: 10, retryDelay: 10 } });
    expect(output.at(-1)).toContain(`fetchFailureCount: ${failures}`);
    const view = render(<EventTimeline recording={recording} cursor={recording.steps.length - 1} />);
    const list = view.getByRole('list', { name: 'Events of QueryClient 1' });
    const gaveUp = within(list)
      .getAllByRole('button')
      .map((b) => b.textContent)
      .filter((t) => t!.includes('gave up'));
    expect(gaveUp).toEqual([expect.stringMatching(new RegExp(`\\['flaky'\\]: gave up after ${words}$`))]);
    expect(view.getByRole('img').querySelectorAll('line.rt-q-backoff')).toHaveLength(retry);
  });
});

describe('both retry timers of the retry timeline (500 ms, then 1,000 ms)', () => {
  it('the Timers view shows each retry delay as it becomes pending and keeps it listed after', async () => {
    const { recording } = await recordSnippet('query-retry-timeline.ts');
    const source = recording.sources.find((s): s is QuerySource => s.kind === 'query')!;
    const retryAt = (n: number) => source.events.findIndex((e) => e.kind === 'instrumentation' && e.event.type === 'retry' && e.event.attempt === n);
    const delays = (cursor: number) => {
      const view = render(<TimersView recording={recording} cursor={cursor} live={false} />);
      const items = within(view.getByRole('list', { name: 'Retry delays of QueryClient 1' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent);
      const pending = within(view.getByRole('list', { name: /Pending timers/ }))
        .getAllByRole('listitem')
        .map((li) => li.textContent)
        .filter((t) => t!.includes('retry backoff'));
      cleanup();
      return { items, pending };
    };
    const second = delays(stepOf(recording, source.id, retryAt(2)));
    expect(second.items).toEqual([
      "['todos'] retry 1 of 3: 500 ms, waited out at +800 ms, the next attempt started",
      "['todos'] retry 2 of 3: 1,000 ms, 1,000 ms left",
    ]);
    expect(second.pending).toEqual([expect.stringContaining('1,000 ms left')]);
    const first = delays(stepOf(recording, source.id, retryAt(1)));
    expect(first.items).toEqual(["['todos'] retry 1 of 3: 500 ms, 500 ms left"]);
    expect(first.pending).toEqual([expect.stringContaining('500 ms left')]);
    // At the end of the run both are still listed, with when each was waited out.
    const end = render(<TimersView recording={recording} cursor={recording.steps.length - 1} live={false} />);
    expect(
      within(end.getByRole('list', { name: 'Retry delays of QueryClient 1' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      "['todos'] retry 1 of 3: 500 ms, waited out at +800 ms, the next attempt started",
      "['todos'] retry 2 of 3: 1,000 ms, waited out at +2,100 ms, the next attempt started",
    ]);
  });

  it('the event timeline draws both retry-delay spans wide enough to label, even at phone width', async () => {
    const { recording } = await recordSnippet('query-retry-timeline.ts');
    const view = render(<EventTimeline recording={recording} cursor={recording.steps.length - 1} />);
    const svg = view.getByRole('img');
    expect(svg.querySelectorAll('rect.rt-q-backoff-band')).toHaveLength(2);
    expect([...svg.querySelectorAll('.rt-q-backoff-label')].map((t) => t.textContent)).toEqual(['500 ms', '1,000 ms']);
    // jsdom measures no width: the drawing starts from 600 px and widens so the 500 ms delay gets its 48 px
    const bands = [...svg.querySelectorAll<SVGRectElement>('rect.rt-q-backoff-band')].map((r) => Number(r.getAttribute('width')));
    expect(bands[0]).toBeGreaterThanOrEqual(48);
    expect(bands[1]! / bands[0]!).toBeCloseTo(2, 5);
    expect(view.getByRole('region', { name: /scroll sideways/ })).toBeTruthy();
  });
});
