import { describe, expect, it } from 'vitest';
import { RecordingStore } from './recording';
import { eventAt, eventsAt, stepIndex, stepOf, visibleCount, type Recording } from '../recording/model';

const ev = (at: number, type = 'x') => ({ type, seq: at, at });

describe('RecordingStore', () => {
  it('builds a recording in arrival order across sources', () => {
    const store = new RecordingStore();
    store.addSource({ id: 'sim-1', kind: 'wire', label: 'A' });
    store.append('sim-1', [ev(1), ev(2)]);
    store.addSource({ id: 'sim-2', kind: 'wire', label: 'B' });
    store.append('sim-2', [ev(10)]);
    store.append('sim-1', [ev(3)]);
    const r = store.snapshot();
    expect(r.sources.map((s) => [s.id, s.events.length])).toEqual([
      ['sim-1', 3],
      ['sim-2', 1],
    ]);
    expect(r.steps).toEqual([
      { sourceId: 'sim-1', index: 0 },
      { sourceId: 'sim-1', index: 1 },
      { sourceId: 'sim-2', index: 0 },
      { sourceId: 'sim-1', index: 2 },
    ]);
    expect(visibleCount(r, 'sim-1', 2)).toBe(2);
    expect(visibleCount(r, 'sim-2', 1)).toBe(0);
    expect(visibleCount(r, 'sim-2', 2)).toBe(1);
    expect(stepOf(r, 'sim-1', 2)).toBe(3);
    expect(stepOf(r, 'sim-1', 3)).toBe(-1);
    expect(eventAt(r, 2)?.event).toEqual(ev(10));
    expect(eventsAt(r, r.sources[0]!, 1)).toEqual([ev(1), ev(2)]);
  });

  it('hands out immutable snapshots, the same one until the next change', () => {
    const store = new RecordingStore();
    store.addSource({ id: 'sim-1', kind: 'wire', label: 'A' });
    store.append('sim-1', [ev(1)]);
    const first = store.snapshot();
    expect(store.snapshot()).toBe(first);
    store.append('sim-1', [ev(2)]);
    const second = store.snapshot();
    expect(second).not.toBe(first);
    expect(first.steps).toHaveLength(1);
    expect(first.sources[0]!.events).toHaveLength(1);
    expect(Object.isFrozen(second.steps)).toBe(true);
    expect(Object.isFrozen(second.sources[0]!.events)).toBe(true);
  });

  it('primes an index that matches the one the model builds', () => {
    const store = new RecordingStore();
    store.addSource({ id: 'a', kind: 'wire', label: 'A' });
    store.addSource({ id: 'b', kind: 'query', label: 'B' });
    for (let i = 0; i < 50; i++) store.append(i % 3 === 0 ? 'b' : 'a', [ev(i)]);
    const primed = store.snapshot();
    const fresh: Recording = { sources: primed.sources, steps: primed.steps };
    expect(stepIndex(primed)).toEqual(stepIndex(fresh));
    for (let cursor = -1; cursor < 52; cursor++) {
      for (const id of ['a', 'b']) {
        const slow = primed.steps.slice(0, Math.max(0, cursor + 1)).filter((s) => s.sourceId === id).length;
        expect(visibleCount(fresh, id, cursor)).toBe(slow);
      }
    }
  });

  it('drops events of unknown sources and past the cap, and counts them', () => {
    const store = new RecordingStore({ maxEvents: 3 });
    store.append('nope', [ev(1)]);
    store.addSource({ id: 'sim-1', kind: 'wire', label: 'A' });
    store.addSource({ id: 'sim-1', kind: 'wire', label: 'again' });
    store.append('sim-1', [ev(1), ev(2)]);
    store.append('sim-1', [ev(3), ev(4), ev(5)]);
    expect(store.length).toBe(3);
    expect(store.dropped).toBe(2);
    expect(store.snapshot().sources).toHaveLength(1);
    expect(store.snapshot().sources[0]!.label).toBe('A');
  });

  it('tells subscribers about each change', () => {
    const store = new RecordingStore();
    let calls = 0;
    const stop = store.subscribe(() => calls++);
    store.addSource({ id: 'sim-1', kind: 'wire', label: 'A' });
    store.append('sim-1', [ev(1), ev(2)]);
    store.append('sim-1', []);
    stop();
    store.append('sim-1', [ev(3)]);
    expect(calls).toBe(2);
  });
});
