// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createServer, createSimulation, http } from 'roundtrip/wire';
import { RecordingStore } from './recording';
import { describeStep } from './describe';
import VizPanel from './VizPanel';

let reduced = false;
beforeEach(() => {
  reduced = false;
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('reduce') && reduced,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
  // One frame per macrotask is enough for the panel's coalescing.
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => setTimeout(() => f(performance.now()), 0));
  vi.stubGlobal('cancelAnimationFrame', (h: number) => clearTimeout(h));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function recordedStore() {
  const store = new RecordingStore();
  const server = createServer({ routes: [http.get('/x', () => Response.json({ ok: true }))] });
  const sim = createSimulation({ server, httpVersion: '1.1', seed: 1 });
  store.addSource({ id: 'sim-1', kind: 'wire', label: 'HTTP/1.1' });
  sim.subscribe((e) => store.append('sim-1', [e]));
  await sim.fetch('/x');
  return store;
}

const frame = () => act(() => new Promise((r) => setTimeout(r, 5)));

describe('VizPanel', () => {
  it('follows the run live, then replays it from the start when it finishes', async () => {
    const store = await recordedStore();
    render(<VizPanel store={store} idPrefix="t" playgroundId="pg" title="Test" />);
    await frame();
    const slider = screen.getByRole('slider', { name: 'Step' }) as HTMLInputElement;
    expect(Number(slider.value)).toBe(store.length - 1);
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    act(() => store.finish());
    await frame();
    expect(Number(slider.value)).toBe(0);
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('steps and scrubs, and the live log says what the step is', async () => {
    const store = await recordedStore();
    store.finish();
    render(<VizPanel store={store} idPrefix="t" playgroundId="pg" title="Test" />);
    await frame();
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    const slider = screen.getByRole('slider', { name: 'Step' }) as HTMLInputElement;
    fireEvent.change(slider, { target: { value: '3' } });
    const log = screen.getByTestId('viz-log');
    expect(log.getAttribute('aria-live')).toBe('polite');
    expect(log.textContent).toBe(describeStep(store.snapshot(), 3));
    fireEvent.click(screen.getByRole('button', { name: 'Step forward' }));
    expect(slider.value).toBe('4');
    expect(log.textContent).toBe(describeStep(store.snapshot(), 4));
    expect(slider.getAttribute('aria-valuetext')).toMatch(new RegExp(`^step 5 of ${store.length}, [\\d.,]+ ms$`));
  });

  it('has keyboard tabs for the views that apply, and reports a non-default view and step', async () => {
    const store = await recordedStore();
    store.finish();
    const positions: unknown[] = [];
    render(<VizPanel store={store} idPrefix="t" playgroundId="pg" title="Test" initial={{ step: 2 }} onPosition={(p) => positions.push(p)} />);
    await frame();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.length).toBeGreaterThan(1);
    expect(tabs[0]!.getAttribute('aria-selected')).toBe('true');
    expect(tabs.map((t) => t.tabIndex)).toEqual(tabs.map((_, i) => (i === 0 ? 0 : -1)));
    fireEvent.keyDown(tabs[0]!, { key: 'ArrowRight' });
    expect(tabs[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tabs[1]!, { key: 'End' });
    expect(tabs[tabs.length - 1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tabs[tabs.length - 1]!, { key: 'ArrowRight' });
    expect(tabs[0]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tabs[0]!, { key: 'ArrowLeft' });
    // A share link's step: shown, not played.
    expect((screen.getByRole('slider', { name: 'Step' }) as HTMLInputElement).value).toBe('2');
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    expect(positions.at(-1)).toEqual({ view: tabs[tabs.length - 1]!.dataset.view, step: 2 });
  });

  it('under reduced motion, goes to the last step and never plays', async () => {
    reduced = true;
    const store = await recordedStore();
    store.finish();
    render(<VizPanel store={store} idPrefix="t" playgroundId="pg" title="Test" />);
    await frame();
    expect((screen.getByRole('slider', { name: 'Step' }) as HTMLInputElement).value).toBe(String(store.length - 1));
    const play = screen.getByRole('button', { name: 'Play' }) as HTMLButtonElement;
    expect(play.disabled).toBe(true);
    expect(screen.getByText(/Reduced motion is on/)).toBeTruthy();
  });
});
