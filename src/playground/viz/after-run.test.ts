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
  it('shows the final state at once and keeps following the live end, whatever the sources', () => {
    expect(afterRun(recorded('query', 12), {})).toEqual({ kind: 'follow' });
    expect(afterRun(recorded('wire', 3530), {})).toEqual({ kind: 'follow' });
    expect(afterRun(recorded('wire', 0), {})).toEqual({ kind: 'follow' });
  });

  it("goes to a share link's step, within the recording", () => {
    expect(afterRun(recorded('query', 12), { initialStep: 4 })).toEqual({ kind: 'seek', step: 4 });
    expect(afterRun(recorded('query', 12), { initialStep: 0 })).toEqual({ kind: 'seek', step: 0 });
    expect(afterRun(recorded('query', 12), { initialStep: 40 })).toEqual({ kind: 'seek', step: 11 });
  });
});
