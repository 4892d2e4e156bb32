// @vitest-environment jsdom
/**
 * The page's `view` (Playground.astro -> the island -> VizPanel's `defaultView`): a run opens on it when it
 * applies, on the first view that applies when it does not, and a share link's view (`initial.view`) wins.
 * The position the panel reports (for share links and the next run) names the open view whenever it is not
 * the first that applies, or not the page's: a link then reopens it even where the page's view differs.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HpackEncoder, HTTP2_FLAGS, encodeHttp2Frames } from 'roundtrip/wire';
import { createCapture } from '../sandbox/capture';
import { createShowRecorder } from '../sandbox/capture-show';
import { RecordingStore } from './recording';
import type { VizPosition } from './VizPanel';
import VizPanel from './VizPanel';

/** A finished recording of HTTP/2 frames shown with show(): Sequence, Frames, HPACK and State machines apply. */
function framesRecording(): RecordingStore {
  const store = new RecordingStore();
  const capture = createCapture({
    runId: 1,
    send: (m) => {
      if (m.type === 'viz-source') store.addSource(m.source);
      else if (m.type === 'viz-events') store.append(m.sourceId, m.events);
    },
    warn: () => {},
    schedule: () => {},
    now: () => 0,
  });
  const block = new HpackEncoder().encode([
    { name: ':method', value: 'GET' },
    { name: ':path', value: '/' },
  ]);
  createShowRecorder(capture, () => {})(encodeHttp2Frames([{ type: 'HEADERS', streamId: 1, flags: HTTP2_FLAGS.END_HEADERS, headerBlockFragment: block }]), {
    as: 'http2',
  });
  capture.flush();
  store.finish();
  return store;
}

const selected = () => screen.getAllByRole('tab').find((t) => t.getAttribute('aria-selected') === 'true')?.textContent;

beforeEach(() => {
  vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => {}, removeEventListener: () => {} }));
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => setTimeout(() => f(performance.now()), 0));
  vi.stubGlobal('cancelAnimationFrame', (h: number) => clearTimeout(h));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the panel opens on the page's view", () => {
  it('opens on the default view when it applies, and reports it', () => {
    const positions: VizPosition[] = [];
    render(<VizPanel store={framesRecording()} idPrefix="t" playgroundId="pg" title="T" defaultView="hpack" onPosition={(p) => positions.push(p)} />);
    expect(selected()).toBe('HPACK');
    expect(positions.at(-1)?.view).toBe('hpack');
  });

  it('reports no view on the first view when the page names none', () => {
    const positions: VizPosition[] = [];
    render(<VizPanel store={framesRecording()} idPrefix="t" playgroundId="pg" title="T" onPosition={(p) => positions.push(p)} />);
    expect(selected()).toBe('Sequence');
    expect(positions.at(-1)?.view).toBeUndefined();
  });

  it('falls back to the first view that applies when the default does not', () => {
    render(<VizPanel store={framesRecording()} idPrefix="t" playgroundId="pg" title="T" defaultView="devtools" />);
    expect(selected()).toBe('Sequence');
  });

  it("lets a share link's view win, and reports it even when it is the first view", () => {
    const positions: VizPosition[] = [];
    render(
      <VizPanel
        store={framesRecording()}
        idPrefix="t"
        playgroundId="pg"
        title="T"
        defaultView="hpack"
        initial={{ view: 'sequence' }}
        onPosition={(p) => positions.push(p)}
      />,
    );
    expect(selected()).toBe('Sequence');
    expect(positions.at(-1)?.view).toBe('sequence');
  });
});
