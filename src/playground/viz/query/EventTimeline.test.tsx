// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as queryLib from 'roundtrip/query';
import { stepOf, type QuerySource } from '../../recording/model';
import EventTimeline from './EventTimeline';
import { buildLanes } from './lanes';
import { T0, recorder, useQueryTestEnvironment } from './test-recording';

const { QueryObserver, onlineManager } = queryLib;

/** A query that fails twice, then succeeds, with retryDelay growing 300, 600 ms; each attempt takes 100 ms. */
async function flaky() {
  const rec = recorder();
  const client = new rec.lib.QueryClient();
  let calls = 0;
  const stop = new QueryObserver(client, {
    queryKey: ['todos'],
    retry: 3,
    retryDelay: (failures) => (failures + 1) * 300, // failures so far: 0 before the first retry
    queryFn: () => new Promise((resolve, reject) => setTimeout(() => (++calls < 3 ? reject(new Error(`HTTP 503 (${calls})`)) : resolve(['milk'])), 100)),
  }).subscribe(() => undefined);
  await vi.advanceTimersByTimeAsync(2000);
  return { rec, client, stop };
}

describe('event timeline', () => {
  useQueryTestEnvironment();

  it('lays out each attempt, and each retry delay as a gap from the failure to its due time', async () => {
    const { rec } = await flaky();
    const source = rec.recording().sources[0] as QuerySource;
    const retries = source.events.flatMap((e) => (e.kind === 'instrumentation' && e.event.type === 'retry' ? [e.event] : []));
    expect(retries.map((r) => r.delay)).toEqual([300, 600]);
    const [lane] = buildLanes(source.events).lanes;
    const backoffs = lane!.spans.filter((s) => s.kind === 'backoff');
    expect(backoffs.map((b) => ({ from: b.from, to: b.to, label: b.label }))).toEqual(
      retries.map((r) => ({ from: r.at, to: r.dueAt, label: `retry ${r.attempt} of 3 in ${r.delay} ms` })),
    );
    const attempts = lane!.spans.filter((s) => s.kind === 'attempt').map((s) => [s.from - T0, s.to - T0]);
    // 0-100 fails, waits 300; 400-500 fails, waits 600; 1100-1200 succeeds
    expect(attempts).toEqual([
      [0, 100],
      [400, 500],
      [1100, 1200],
    ]);
    expect(lane!.spans.filter((s) => s.kind === 'fetch').map((s) => [s.from - T0, s.to - T0, s.open])).toEqual([[0, 1200, false]]);
    expect(lane!.marks.map((m) => [m.kind, m.at - T0])).toEqual([['success', 1200]]);
  });

  it('draws a paused span while offline, and the attempt after it', async () => {
    const rec = recorder();
    const client = new rec.lib.QueryClient();
    client.mount();
    onlineManager.setOnline(false);
    new QueryObserver(client, { queryKey: ['p'], queryFn: async () => 'ok' }).subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(500);
    onlineManager.setOnline(true);
    await vi.advanceTimersByTimeAsync(10);
    const [lane] = buildLanes((rec.recording().sources[0] as QuerySource).events).lanes;
    expect(lane!.spans.filter((s) => s.kind === 'paused').map((s) => [s.from - T0, s.to - T0])).toEqual([[0, 500]]);
    expect(lane!.spans.filter((s) => s.kind === 'attempt').map((s) => s.from - T0)).toEqual([500]);
    client.unmount();
  });

  it('open spans run to the cursor time and say so', async () => {
    const rec = recorder();
    const client = new rec.lib.QueryClient();
    void client.prefetchQuery({ queryKey: ['slow'], queryFn: () => new Promise((r) => setTimeout(() => r(1), 5000)) });
    await vi.advanceTimersByTimeAsync(0);
    const events = (rec.recording().sources[0] as QuerySource).events;
    const [lane] = buildLanes(events, T0 + 2000).lanes;
    expect(lane!.spans.map((s) => [s.kind, s.to - T0, s.open])).toEqual([
      ['fetch', 2000, true],
      ['attempt', 2000, true],
    ]);
  });

  it('lists exactly the retries the instrumentation emitted, and a click moves the cursor', async () => {
    const { rec } = await flaky();
    const recording = rec.recording();
    const source = recording.sources[0] as QuerySource;
    const onCursor = vi.fn();
    render(<EventTimeline recording={recording} cursor={recording.steps.length - 1} onCursor={onCursor} />);
    const list = screen.getByRole('list', { name: 'Events of QueryClient 1' });
    const texts = within(list)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(texts.filter((t) => t!.includes('retry'))).toEqual(["+100 ms['todos']: retry 1 of 3 in 300 ms", "+500 ms['todos']: retry 2 of 3 in 600 ms"]);
    // the lanes draw one gap per retry, labelled with its delay
    const svg = screen.getByRole('img');
    expect([...svg.querySelectorAll('.rt-q-backoff-label')].map((t) => t.textContent)).toEqual(['300 ms', '600 ms']);
    expect(svg.querySelectorAll('line.rt-q-backoff')).toHaveLength(2);
    expect(
      [...svg.querySelectorAll('g.rt-q-item')].filter((g) => g.querySelector('line.rt-q-backoff')).map((g) => g.querySelector('title')!.textContent),
    ).toEqual(["['todos']: retry 1 of 3 in 300 ms", "['todos']: retry 2 of 3 in 600 ms"]);
    fireEvent.click(within(list).getByRole('button', { name: /retry 2 of 3/ }));
    const index = source.events.findIndex((e) => e.kind === 'instrumentation' && e.event.type === 'retry' && e.event.attempt === 2);
    expect(onCursor).toHaveBeenCalledWith(stepOf(recording, source.id, index));
  });

  it('as of an earlier cursor, draws only what had happened and marks the current event', async () => {
    const { rec } = await flaky();
    const recording = rec.recording();
    const source = recording.sources[0] as QuerySource;
    const first = source.events.findIndex((e) => e.kind === 'instrumentation' && e.event.type === 'retry');
    render(<EventTimeline recording={recording} cursor={stepOf(recording, source.id, first)} />);
    expect(screen.getByRole('img').querySelectorAll('line.rt-q-backoff')).toHaveLength(1);
    const current = screen.getByRole('list', { name: 'Events of QueryClient 1' }).querySelector('[aria-current="step"]');
    expect(current!.textContent).toContain('retry 1 of 3 in 300 ms');
  });

  it('lists the routine event at the cursor while routine events are hidden, without adding or removing list items', async () => {
    const { rec } = await flaky();
    const recording = rec.recording();
    const source = recording.sources[0] as QuerySource;
    const routine = source.events.findIndex((e) => e.kind === 'instrumentation' && e.event.type === 'timerScheduled');
    const listed = source.events.findIndex((e, i) => i > routine && e.kind === 'instrumentation' && e.event.type === 'retry');
    expect(routine).toBeGreaterThanOrEqual(0);
    const { rerender } = render(<EventTimeline recording={recording} cursor={stepOf(recording, source.id, routine)} />);
    const list = screen.getByRole('list', { name: 'Events of QueryClient 1' });
    const items = [...list.children];
    // On the routine event: it is the marked item, and in the accessibility tree.
    const marked = within(list).getByRole('button', { current: 'step' });
    expect(marked.textContent).toContain('timer');
    const names = within(list)
      .getAllByRole('button')
      .map((b) => b.textContent);
    rerender(<EventTimeline recording={recording} cursor={stepOf(recording, source.id, listed)} />);
    // Moved off it: the same <li> elements, the routine one hidden again, so one button fewer is exposed.
    expect([...list.children]).toEqual(items);
    expect(marked.closest('li')!.hidden).toBe(true);
    expect(within(list).getAllByRole('button')).toHaveLength(names.length - 1);
    expect(within(list).getByRole('button', { current: 'step' }).textContent).toContain('retry 1 of 3');
  });

  it('never repeats an axis label, however short the run (a run of 1 ms read "0 ms 0 ms 0 ms 1 ms")', async () => {
    const rec = recorder();
    const client = new rec.lib.QueryClient();
    void client.prefetchQuery({ queryKey: ['quick'], queryFn: () => new Promise((r) => setTimeout(() => r(1), 1)) });
    await vi.advanceTimersByTimeAsync(5);
    const recording = rec.recording();
    render(<EventTimeline recording={recording} cursor={recording.steps.length - 1} />);
    const labels = [...screen.getByRole('img').querySelectorAll('.rt-q-axis text')].map((t) => t.textContent);
    expect(labels).toEqual(['0 ms', '1 ms']);
  });
});
