// @vitest-environment jsdom
/**
 * How the panel brings in a view's code. Its own file: it replaces the view list with one whose load the test
 * controls, and runs React on fake timers outside act(), as in a browser. act() flushes Suspense boundaries at
 * once, which would hide what this checks: React holds back a boundary's content that resolves within 300 ms
 * of a fallback (its FALLBACK_THROTTLE_MS), and a view drawn through lazy() and <Suspense> waited for that.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { ComponentType } from 'react';
import type { ViewProps } from './views';

const pending: { resolve: (m: { default: ComponentType<ViewProps> }) => void; reject: (e: unknown) => void }[] = [];
vi.mock('./views', () => ({
  VIEWS: [
    {
      id: 'sequence',
      label: 'Sequence',
      applies: () => true,
      load: () => new Promise((resolve, reject) => pending.push({ resolve, reject })),
    },
  ],
  VIEW_IDS: ['sequence'],
}));

const SequenceStub = ({ cursor }: ViewProps) => <p data-testid="stub-view">view at step {cursor + 1}</p>;

// Installed before React first loads, for the whole file: its scheduler keeps the timer functions it finds then.
vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'performance', 'Date'] });

/** The panel in a fresh root, from a fresh copy of its module (no view code remembered from an earlier test). */
async function mountPanel() {
  pending.length = 0;
  vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => {}, removeEventListener: () => {} }));
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => setTimeout(() => f(performance.now()), 0));
  vi.stubGlobal('cancelAnimationFrame', (h: number) => clearTimeout(h));
  vi.stubGlobal('IS_REACT_ACT_ENVIRONMENT', false);
  vi.resetModules();
  const [{ createRoot }, { RecordingStore }, { default: VizPanel }] = await Promise.all([
    import('react-dom/client'),
    import('./recording'),
    import('./VizPanel'),
  ]);
  const store = new RecordingStore();
  store.addSource({ id: 'sim-1', kind: 'wire', label: 'HTTP/1.1' });
  store.append('sim-1', [{ type: 'connection-opened', at: 0, connectionId: 'c1' } as never]);
  store.finish();
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  root.render(<VizPanel store={store} idPrefix="t" playgroundId="pg" title="Test" />);
  return { container, root };
}

/** Runs what is due within `ms` of fake time, with the promise callbacks between timers. */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
afterAll(() => void vi.useRealTimers());

describe('VizPanel views', () => {
  it('says the view is loading, then draws it as soon as its code is in, without waiting out a Suspense throttle', async () => {
    const { container, root } = await mountPanel();
    await advance(20);
    expect(container.textContent).toContain('Loading the Sequence view…');
    expect(pending).toHaveLength(1);
    pending[0]!.resolve({ default: SequenceStub });
    await advance(20);
    expect(container.querySelector('[data-testid="stub-view"]')?.textContent).toBe('view at step 1');
    expect(container.textContent).not.toContain('Loading the Sequence view…');
    root.unmount();
  });

  it('shows a view whose code failed to load as failed, and the rest of the panel keeps working', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container, root } = await mountPanel();
    await advance(20);
    pending[0]!.reject(new Error('Failed to fetch dynamically imported module: SequenceView.js'));
    await advance(20);
    expect(container.textContent).toContain('The Sequence view failed: Failed to fetch dynamically imported module: SequenceView.js');
    expect(container.querySelector('input[type="range"]')).not.toBeNull();
    root.unmount();
  });
});
