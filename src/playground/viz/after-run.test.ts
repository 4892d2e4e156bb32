import { describe, expect, it } from 'vitest';
import { RecordingStore } from './recording';
import { afterRun } from './after-run';

/** A finished recording with one source of `kind` and `events` events. */
function recorded(kind: 'wire' | 'query', events: number) {
  const store = new RecordingStore();
  store.addSource({ id: 's1', kind, label: kind } as never);
  store.append(
    's1',
    Array.from({ length: events }, (_, i) => ({ type: 'tick', at: i * 1000 })),
  );
  store.finish();
  return store.snapshot();
}

describe('after a run', () => {
  it('plays an instant (virtual-clock) run from the start, query clients only included, so its countdowns tick on screen', () => {
    expect(afterRun(recorded('query', 12), { realTime: false, reducedMotion: false })).toEqual({ kind: 'play' });
    expect(afterRun(recorded('wire', 5), { realTime: false, reducedMotion: false })).toEqual({ kind: 'play' });
  });

  it('shows the final state to a reader who prefers reduced motion', () => {
    expect(afterRun(recorded('query', 12), { realTime: false, reducedMotion: true })).toEqual({ kind: 'seek', step: 11 });
  });

  it('keeps following a real-time run of query clients, and replays a real-time run with wire events', () => {
    expect(afterRun(recorded('query', 12), { realTime: true, reducedMotion: false })).toEqual({ kind: 'follow' });
    expect(afterRun(recorded('wire', 3), { realTime: true, reducedMotion: false })).toEqual({ kind: 'play' });
  });

  it("goes to a share link's step, within the recording", () => {
    expect(afterRun(recorded('query', 12), { initialStep: 4, realTime: false, reducedMotion: false })).toEqual({ kind: 'seek', step: 4 });
    expect(afterRun(recorded('query', 12), { initialStep: 40, realTime: false, reducedMotion: false })).toEqual({ kind: 'seek', step: 11 });
  });
});
