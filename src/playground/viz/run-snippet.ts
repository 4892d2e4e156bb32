/**
 * For tests: runs a docs snippet (content/snippets) the way the playground runs it, compiled, executed with
 * the instrumented libraries, its sources captured and recorded by the host's store, and gives back the
 * Recording the views would draw.
 *
 * Under fake timers (vi.useFakeTimers) the snippet's sleeps are driven forward until its run ends; the
 * simulations keep their own virtual clocks and need none. A React snippet (.tsx) renders into a `#root` it
 * is given (jsdom), and its app is then played: given time to settle, each button pressed once.
 */
import { readFileSync } from 'node:fs';
import { vi } from 'vitest';
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import * as jsxRuntime from 'react/jsx-runtime';
import * as wire from 'roundtrip/wire';
import * as query from 'roundtrip/query';
import * as reactBindings from 'roundtrip/react';
import * as playground from 'roundtrip/playground';
import { compileSnippet } from '../sandbox/compile';
import { executeSnippet } from '../sandbox/execute';
import { formatArgs } from '../sandbox/format';
import { createCapture, type Capture } from '../sandbox/capture';
import { instrumentWireModule } from '../sandbox/capture-wire';
import { instrumentQueryModule } from '../sandbox/capture-query';
import { createShowRecorder } from '../sandbox/capture-show';
import type { Recording } from '../recording/model';
import { installOptionsContext } from '../options/context';
import type { OptionsSchema } from '../options/schema';
import { RecordingStore } from './recording';

export const SNIPPETS_DIR = 'content/snippets';

/** Fake time a snippet may take before it counts as stuck (the longest docs snippet sleeps 11.5 s). */
const FAKE_TIME_LIMIT_MS = 60_000;

/** A real turn of the event loop: React's scheduler, which keeps the real timers it found, gets to run. */
const realTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The modules a snippet may import, as the sandbox runtime builds them (runtime.ts modulesFor): the query
 * classes roundtrip/react re-exports are the instrumented ones, so `new QueryClient()` is recorded whichever
 * module it came from.
 */
function modulesFor(capture: Capture): Record<string, unknown> {
  const instrumentedQuery = instrumentQueryModule(query, capture) as unknown as Record<string, unknown>;
  const react: Record<string, unknown> = { ...reactBindings };
  for (const [name, value] of Object.entries(reactBindings)) {
    if (Object.hasOwn(query, name) && (query as Record<string, unknown>)[name] === value) react[name] = instrumentedQuery[name];
  }
  return {
    'roundtrip/playground': playground,
    'roundtrip/wire': instrumentWireModule(wire, capture),
    'roundtrip/query': instrumentedQuery,
    'roundtrip/react': Object.freeze(react),
    react: React,
    'react-dom/client': ReactDOMClient,
    'react/jsx-runtime': jsxRuntime,
  };
}

/**
 * Runs content/snippets/`file` to its end (a React snippet's app until it settles); what was printed and
 * recorded, and the options schema the snippet reported. `overrides` are the reader's knob values, as the
 * options panel passes them (defineOptions returns them in place of the defaults).
 */
export async function recordSnippet(
  file: string,
  { overrides = {} }: { overrides?: Record<string, unknown> } = {},
): Promise<{ recording: Recording; output: string[]; reported: OptionsSchema | undefined }> {
  return recordCode(readFileSync(`${SNIPPETS_DIR}/${file}`, 'utf8'), { name: file, react: file.endsWith('.tsx'), overrides });
}

/** The same for code given as text (a challenge's starting snippet or solution); `name` labels its errors. */
export async function recordCode(
  source: string,
  { name, react = false, overrides = {} }: { name: string; react?: boolean; overrides?: Record<string, unknown> },
): Promise<{ recording: Recording; output: string[]; reported: OptionsSchema | undefined }> {
  const compiled = compileSnippet(source);
  if (!compiled.ok) throw new Error(`${name}: ${compiled.message}`);
  const store = new RecordingStore();
  const capture = createCapture({
    runId: 1,
    send: (m) => {
      if (m.type === 'viz-source') store.addSource(m.source);
      else if (m.type === 'viz-events') store.append(m.sourceId, m.events);
    },
    warn: () => {},
    schedule: (flush) => queueMicrotask(flush),
    now: () => 0,
  });
  const output: string[] = [];
  const log = (...args: unknown[]) => output.push(formatArgs(args));
  const app = react ? document.body.appendChild(Object.assign(document.createElement('div'), { id: 'root' })) : undefined;
  let done = false;
  let reported: OptionsSchema | undefined;
  installOptionsContext({ overrides, onSchema: (schema) => (reported = schema), show: createShowRecorder(capture, log) });
  const run = executeSnippet(compiled.js, modulesFor(capture), { log, info: log, warn: log, error: log, debug: log }).finally(() => {
    done = true;
    installOptionsContext(undefined);
  });
  const started = Date.now();
  while (!done && vi.isFakeTimers()) {
    if (Date.now() - started > FAKE_TIME_LIMIT_MS) throw new Error(`${name} did not finish within ${FAKE_TIME_LIMIT_MS} ms of fake time`);
    await realTurn();
    if (!done) await vi.advanceTimersToNextTimerAsync();
  }
  await run;
  if (app) await playApp(app);
  capture.flush();
  store.finish();
  return { recording: store.snapshot(), output, reported };
}

/**
 * A React snippet's run is its app: it renders, fetches, then waits for the reader. Here the reader presses
 * each button once, and the app is given time, fake and real, to settle before and after each press.
 */
async function playApp(root: HTMLElement): Promise<void> {
  const settle = async () => {
    for (let i = 0; i < 50; i++) {
      await realTurn();
      if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(100);
    }
  };
  await settle();
  for (const button of root.querySelectorAll('button')) {
    if (!button.isConnected) continue;
    button.click();
    await settle();
  }
}
