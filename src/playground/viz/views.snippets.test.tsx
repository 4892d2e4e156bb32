// @vitest-environment jsdom
/**
 * Every docs snippet (content/snippets), run the way the playground runs it (compiled, executed with the
 * instrumented libraries, captured as sources, recorded by the host's store), then every view that applies to
 * the recording drawn and stepped through the whole run, from before the first event (-1) to the last step:
 * no view may throw or log an error at any step (issue #22: the Messages view threw on an HTTP/0.9 response,
 * and every later step of that run failed with it).
 *
 * Time: query snippets sleep with setTimeout (up to 11.5 s in query-retry-timeline), so timers are fake and
 * driven forward until the snippet's run ends; the simulations keep their own virtual clocks and need none.
 * React's scheduler keeps the real timers it found when it loaded (before these fake ones are installed), so
 * the React snippets render as they do in a browser, between fake-timer steps.
 *
 * Steps: a view takes 5-50 ms to draw a step in jsdom with React's development build, and the docs snippets
 * record thousands of steps between them (3,381 in http-compare-page-load alone), each drawn by four to seven
 * views: drawing them all would take many minutes. So a recording with more than STEP_BUDGET steps is not drawn
 * at every one: each view gets -1, the first and last step, the first step of every kind of event each source
 * recorded (where a describer or a view meets something new), and evenly spaced steps up to the budget.
 * Recordings shorter than the budget (the small query snippets) are drawn at every step.
 *
 * Every snippet runs, the two React ones (.tsx) included, in jsdom. Those that only call the codecs (no
 * simulation, no query client) hand their bytes to `show()` (roundtrip/playground), so they record and are
 * stepped through like the others.
 *
 * Captions: every step drawn is also read (text, aria-label, title) for float noise such as
 * "200.00000000000006 ms": numbers are shown rounded (number.ts, timeline/format.ts).
 */
import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ComponentType } from 'react';
import * as ReactDOMClient from 'react-dom/client';
import { flushSync } from 'react-dom';
import * as query from 'roundtrip/query';
import { formatArgs } from '../sandbox/format';
import type { Recording } from '../recording/model';
import { recordSnippet, SNIPPETS_DIR } from './run-snippet';
import { VIEWS, type ViewProps } from './views';

const SNIPPETS = readdirSync(SNIPPETS_DIR)
  .filter((f) => /\.tsx?$/.test(f))
  .sort();

/** Steps (cursors) each view is drawn at per snippet, at most; see the file's comment. */
const STEP_BUDGET = 45;

/** -1 and every step, or STEP_BUDGET of them: the ends, each source's first event of each type, evenly spaced others. */
function cursors(recording: Recording): number[] {
  const steps = recording.steps.length;
  if (steps + 1 <= STEP_BUDGET) return Array.from({ length: steps + 1 }, (_, i) => i - 1);
  const picked = new Set<number>([-1, 0, steps - 1]);
  const seen = new Set<string>();
  recording.steps.forEach(({ sourceId, index }, step) => {
    const event = recording.sources.find((s) => s.id === sourceId)!.events[index] as { type: string };
    const kind = `${sourceId} ${event.type}`;
    if (!seen.has(kind)) {
      seen.add(kind);
      picked.add(step);
    }
  });
  const spare = STEP_BUDGET - picked.size;
  for (let i = 1; i <= spare; i++) picked.add(Math.round((i * (steps - 1)) / (spare + 1)));
  return [...picked].sort((x, y) => x - y);
}

/** A number printed with float noise: 15 or more significant digits after a decimal point. */
const FLOAT_NOISE = /\d\.\d*(?:0{6,}|9{6,})\d/;

/** What a reader sees or hears of the view: its text, and its accessible names and tooltips. */
function captions(container: HTMLElement): string[] {
  const out: string[] = [];
  // Text node by text node: the text of neighbouring cells run together ('927.4' then '43.0 kB') is no number.
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) out.push(node.nodeValue ?? '');
  for (const el of container.querySelectorAll('[aria-label], [title], [aria-valuetext]')) {
    for (const name of ['aria-label', 'title', 'aria-valuetext']) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
  }
  return out;
}

/**
 * Draws `View` at each cursor in turn, synchronously, in a bare root (no act(): it costs more than the views
 * themselves at thousands of steps); returns what went wrong, each with the step it happened at. An error
 * thrown while rendering reaches the root's handlers, not the caller, so they collect it.
 *
 * React's development build captures a stack for every element it creates (its owner stacks), which is most
 * of the time a step takes here; the pass runs with stack capture off (an accessor in place of
 * Error.stackTraceLimit, which V8 does not read), and a failing pass is replayed up to its failing step with
 * stacks on, so the report says where the error came from.
 */
function stepThrough(View: ComponentType<ViewProps>, recording: Recording, at: readonly number[]): string[] {
  const fast = drawAt(View, recording, at, false);
  if (fast.problems.length === 0) return [];
  const replayed = drawAt(View, recording, at.slice(0, at.indexOf(fast.stoppedAt) + 1), true);
  return replayed.problems.length > 0 ? replayed.problems : fast.problems;
}

function drawAt(View: ComponentType<ViewProps>, recording: Recording, at: readonly number[], stacks: boolean): { problems: string[]; stoppedAt: number } {
  const problems: string[] = [];
  let cursor = at[0]!;
  const report = (what: string) => (error: unknown) =>
    problems.push(`${what} at step ${cursor}: ${error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error)}`);
  const container = document.createElement('div');
  document.body.append(container);
  const root = ReactDOMClient.createRoot(container, {
    onUncaughtError: report('threw'),
    onCaughtError: report('threw (caught)'),
    onRecoverableError: report('recovered from'),
  });
  const limit = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')!;
  if (!stacks) Object.defineProperty(Error, 'stackTraceLimit', { get: () => 0, set: () => {}, configurable: true });
  const logged = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void problems.push(`logged at step ${cursor}: ${formatArgs(args)}`));
  try {
    for (cursor of at) {
      flushSync(() => root.render(<View recording={recording} cursor={cursor} onCursor={() => {}} onAction={() => {}} />));
      for (const text of captions(container)) {
        const noise = FLOAT_NOISE.exec(text);
        if (noise) problems.push(`shows float noise at step ${cursor}: ...${text.slice(Math.max(0, noise.index - 60), noise.index + 40)}...`);
      }
      if (problems.length > 0) break;
    }
    flushSync(() => root.unmount());
  } finally {
    logged.mockRestore();
    Object.defineProperty(Error, 'stackTraceLimit', limit);
    container.remove();
  }
  return { problems, stoppedAt: cursor };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(Date.UTC(2026, 0, 1));
  query.environmentManager.setIsServer(() => false);
  query.onlineManager.setOnline(true);
  query.focusManager.setFocused(true);
});
afterEach(() => {
  document.body.replaceChildren();
  query.onlineManager.setOnline(true);
  query.focusManager.setFocused(undefined);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('every view through every docs snippet', () => {
  it('finds all the snippets', () => {
    expect(SNIPPETS.length).toBeGreaterThanOrEqual(31);
  });

  it.each(SNIPPETS)(
    '%s',
    async (file) => {
      const { recording } = await recordSnippet(file);
      expect(recording.steps.length, 'the run recorded something').toBeGreaterThan(0);
      const views = VIEWS.filter((v) => v.applies(recording));
      const problems: string[] = [];
      for (const view of views) {
        const { default: View } = await view.load();
        problems.push(...stepThrough(View, recording, cursors(recording)).map((p) => `${view.label} view ${p}`));
      }
      expect(problems).toEqual([]);
    },
    120_000,
  );
});
