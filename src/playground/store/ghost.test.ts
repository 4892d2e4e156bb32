import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../sandbox/host';
import { RecordingStore } from '../viz/recording';
import { validateSchema } from '../options/schema';
import { ghostLabel } from './ghost';
import { PlaygroundStore, type PlaygroundEnv, type SandboxPort, type VizModules, type VizPanelComponent } from './store';

const schema = validateSchema({
  loss: { type: 'number', default: 0.1, min: 0, max: 0.5, doc: 'Loss' },
  defence: { type: 'boolean', default: true, doc: 'Defence' },
});

/** A sandbox whose every run records one simulation with one event, at a time that tells the runs apart. */
function setup() {
  const runs: Readonly<Record<string, unknown>>[] = [];
  const sandbox: SandboxPort = {
    async run(_code, onEvent, options = {}) {
      runs.push(options);
      await Promise.resolve();
      const at = runs.length * 100;
      onEvent({ v: 1, type: 'viz-source', runId: runs.length, source: { id: 'sim-1', kind: 'wire', label: 'Simulation 1' } } as RunEvent);
      onEvent({ v: 1, type: 'viz-events', runId: runs.length, sourceId: 'sim-1', events: [{ at }] } as unknown as RunEvent);
      onEvent({ v: 1, type: 'done', runId: runs.length } as RunEvent);
    },
    prewarm() {},
    isLive: () => true,
    devtools: () => true,
    reset() {},
  };
  const modules: VizModules = [{ RecordingStore }, { default: (() => null) as unknown as VizPanelComponent }];
  const env = {
    createHost: () => sandbox,
    loadViz: () => Promise.resolve(modules),
    now: () => 0,
    location: () => ({ origin: 'https://rt.test', pathname: '/', search: '', hash: '' }),
  } as unknown as PlaygroundEnv;
  const store = new PlaygroundStore({ id: 'demo', title: 'Demo', code: 'run();', schema }, env);
  /** Sets options (which runs), and waits for that run to end. */
  const runWith = async (values: Record<string, number | boolean>) => {
    store.setOptions(values);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  const ghostAt = () => {
    const ghost = store.getState().ghost;
    return ghost && { label: ghost.label, pinned: ghost.pinned, at: (ghost.recording.sources[0]!.events[0] as { at: number }).at };
  };
  return { store, runs, runWith, ghostAt };
}

describe('ghostLabel', () => {
  it('names what the previous run had for each option that differs, and edited code', () => {
    expect(ghostLabel({ code: 'a', values: { loss: 0.1, rtt: 100 } }, { code: 'a', values: { loss: 0.3, rtt: 100 } })).toBe('ghost: loss 0.1');
    expect(ghostLabel({ code: 'a', values: { defence: true } }, { code: 'a', values: { defence: false } })).toBe('ghost: defence on');
    expect(ghostLabel({ code: 'a', values: { retry: 1, seed: 2 } }, { code: 'b', values: { retry: 3, seed: 7 } })).toBe(
      'ghost: retry 1, seed 2, previous code',
    );
    expect(ghostLabel({ code: 'a', values: { loss: 0.1 } }, { code: 'a', values: { loss: 0.1 } })).toBeNull();
  });
});

describe('PlaygroundStore: the previous run as a ghost', () => {
  it('keeps the last run and its options when an option changes; an unchanged re-run keeps the ghost', async () => {
    const { store, runWith, ghostAt } = setup();
    await store.run();
    expect(store.getState().ghost).toBeNull();
    await runWith({ loss: 0.3 });
    expect(ghostAt()).toEqual({ label: 'ghost: loss 0.1', pinned: false, at: 100 });
    await store.run(); // nothing changed: the ghost still shows what loss 0.1 -> 0.3 moved
    expect(ghostAt()).toEqual({ label: 'ghost: loss 0.1', pinned: false, at: 100 });
    await runWith({ defence: false });
    expect(ghostAt()).toEqual({ label: 'ghost: defence on', pinned: false, at: 300 });
  });

  it('a pinned ghost stays across further runs until it is cleared; then the next change makes a new one', async () => {
    const { store, runWith, ghostAt } = setup();
    await store.run();
    await runWith({ loss: 0.3 });
    store.pinGhost();
    await runWith({ loss: 0.5 });
    await runWith({ loss: 0.2 });
    expect(ghostAt()).toEqual({ label: 'ghost: loss 0.1', pinned: true, at: 100 });
    store.clearGhost();
    expect(store.getState().ghost).toBeNull();
    await store.run(); // same options as the run before: nothing to compare
    expect(store.getState().ghost).toBeNull();
    await runWith({ loss: 0.4 });
    expect(ghostAt()).toEqual({ label: 'ghost: loss 0.2', pinned: false, at: 500 });
    store.pinGhost(false);
    expect(ghostAt()!.pinned).toBe(false);
  });
});
