// @vitest-environment jsdom
/**
 * Every gallery example (each docs playground, gallery/examples.ts) runs to its end on the sandbox's virtual
 * clock (sandbox/virtual-time.ts), the way the sandbox runs it: the clock installed on the realm's globals, the
 * snippet's promise driven from timer to timer. The check that cannot flake: the run completed while the clock
 * was still virtual, with no real timer armed (so however many seconds of retries, stale times and backoff it
 * waits, none of it is wall time), within the clock's own limits. Its wall time is printed, not asserted; the
 * browser's figure per example comes from scripts/gallery-run-time.mjs.
 *
 * A snippet that opts into real time (`// @playground real-time`) could not keep this promise, so an example
 * that does fails here: the gallery's examples must finish at once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import * as jsxRuntime from 'react/jsx-runtime';
import * as wire from 'roundtrip/wire';
import * as query from 'roundtrip/query';
import * as reactBindings from 'roundtrip/react';
import * as playground from 'roundtrip/playground';
import { compileSnippet } from '../sandbox/compile';
import { executeSnippet } from '../sandbox/execute';
import { REAL_TIME_PRAGMA, VirtualTime, type RealTime, type TimeGlobals } from '../sandbox/virtual-time';
import { docsExamples } from './examples';

const MODULES = {
  'roundtrip/playground': playground,
  'roundtrip/wire': wire,
  'roundtrip/query': query,
  'roundtrip/react': reactBindings,
  react: React,
  'react-dom/client': ReactDOMClient,
  'react/jsx-runtime': jsxRuntime,
};

const globals = globalThis as unknown as TimeGlobals;
const original: TimeGlobals = {
  setTimeout: globals.setTimeout,
  clearTimeout: globals.clearTimeout,
  setInterval: globals.setInterval,
  clearInterval: globals.clearInterval,
  Date: globals.Date,
};
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const RealDate = Date;

/** The realm's real time, counting the real timers the clock arms (it arms one only once it follows real time). */
function countingRealTime(errors: unknown[]) {
  const counter = { timers: 0 };
  const real: RealTime = {
    now: () => performance.now(),
    epoch: () => RealDate.now(),
    setTimeout: (callback, ms) => {
      counter.timers++;
      return realSetTimeout(callback, ms);
    },
    clearTimeout: (handle) => realClearTimeout(handle as ReturnType<typeof setTimeout>),
    yieldTask: () => new Promise<void>((resolve) => setImmediate(resolve)),
    report: (error) => void errors.push(error),
  };
  return { real, counter };
}

const times: string[] = [];
afterAll(() => {
  Object.assign(globals, original);
  console.log(`Gallery examples on the virtual clock (wall ms, virtual ms):\n${times.join('\n')}`);
});

describe('every gallery example finishes on the virtual clock, without real waiting', () => {
  const examples = docsExamples();
  it('finds the gallery', () => {
    expect(examples.length).toBeGreaterThan(10);
  });

  for (const example of examples) {
    it(`${example.id} (${example.snippet})`, async () => {
      expect(REAL_TIME_PRAGMA.test(example.code), `${example.id} opts into real time`).toBe(false);
      const compiled = compileSnippet(example.code);
      if (!compiled.ok) throw new Error(`${example.id}: ${compiled.message}`);
      if (example.snippet.endsWith('.tsx')) {
        document.body.innerHTML = '';
        document.body.append(Object.assign(document.createElement('div'), { id: 'root' }));
      }
      const errors: unknown[] = [];
      const { real, counter } = countingRealTime(errors);
      const clock = new VirtualTime(real);
      clock.install(globals);
      const log = () => {};
      const started = performance.now();
      let realTimersAtEnd = -1;
      try {
        const running = executeSnippet(compiled.js, MODULES, { log, info: log, warn: log, error: log, debug: log, table: log }).finally(
          () => void (realTimersAtEnd = counter.timers),
        );
        const drove = await clock.drive(running);
        await running;
        const wall = performance.now() - started;
        times.push(`  ${example.id.padEnd(28)} ${wall.toFixed(0).padStart(6)} ${drove.elapsed.toFixed(0).padStart(8)}`);
        expect(drove.limit, `${example.id} hit the virtual clock's limit`).toBeUndefined();
        // It settled before the clock had to follow the wall clock: no real timer stood for any of its waits.
        expect(realTimersAtEnd).toBe(0);
      } finally {
        Object.assign(globals, original);
      }
    });
  }
});
