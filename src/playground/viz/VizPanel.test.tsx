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
  it('follows the run live, shows the final state at once when it finishes, and Play replays from the start', async () => {
    const store = await recordedStore();
    const positions: unknown[] = [];
    render(<VizPanel store={store} idPrefix="t" playgroundId="pg" title="Test" onPosition={(p) => positions.push(p)} />);
    await frame();
    const slider = screen.getByRole('slider', { name: 'Step' }) as HTMLInputElement;
    expect(Number(slider.value)).toBe(store.length - 1);
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    act(() => store.finish());
    await frame();
    // Finished: still the last step, nothing playing.
    expect(Number(slider.value)).toBe(store.length - 1);
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    expect(screen.getByText(`${store.length} / ${store.length}`)).toBeTruthy();
    // At the end the position names no step, so a share link reopens at the end.
    expect(positions.at(-1)).toEqual({});
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(Number(slider.value)).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('a devtools action returns the cursor to the live end, which then follows the effect', async () => {
    const store = new RecordingStore();
    store.addSource({ id: 'client-1', kind: 'query', label: 'QueryClient' });
    const env = (at: number, online: boolean) => ({ kind: 'environment', at, online, focused: true }) as const;
    store.append('client-1', [env(0, true), env(10, true), env(20, true)]);
    store.finish();
    const onAction = vi.fn();
    render(<VizPanel store={store} idPrefix="t" playgroundId="pg" title="Test" onAction={onAction} />);
    await frame();
    const slider = screen.getByRole('slider', { name: 'Step' }) as HTMLInputElement;
    fireEvent.change(slider, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Query devtools' }));
    await frame();
    const offline = await screen.findByRole('checkbox', { name: 'Offline' });
    fireEvent.click(offline);
    expect(onAction).toHaveBeenCalledWith('client-1', { type: 'set-online', online: false });
    expect(slider.value).toBe('2');
    // The box turns at once, before the sandbox's event confirms it.
    expect((screen.getByRole('checkbox', { name: 'Offline' }) as HTMLInputElement).checked).toBe(true);
    // The sandbox answers with the change: the view follows it to the new end, and the toggle shows it.
    act(() => store.append('client-1', [env(30, false)]));
    await frame();
    expect(slider.value).toBe('3');
    expect((screen.getByRole('checkbox', { name: 'Offline' }) as HTMLInputElement).checked).toBe(true);
  });

  it('steps and scrubs, and the live log says what the step is', async () => {
    const store = await recordedStore();
    store.finish();
    render(<VizPanel store={store} idPrefix="t" playgroundId="pg" title="Test" />);
    await frame();
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

  it('under reduced motion, shows the last step and never plays', async () => {
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
