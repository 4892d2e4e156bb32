// @vitest-environment jsdom
/**
 * The docs snippet that shows the query views off (content/snippets/query-retry-timeline.ts), run through the
 * real capture: what the page promises the reader will see is in the recording.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as queryLib from 'roundtrip/query';
import { compileSnippet } from '../../sandbox/compile';
import { executeSnippet } from '../../sandbox/execute';
import type { QuerySource } from '../../recording/model';
import { describeQueryEvent } from './describe';
import { buildLanes } from './lanes';
import { recorder } from './test-recording';

describe('query-retry-timeline snippet', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 0, 1));
    queryLib.environmentManager.setIsServer(() => false);
    queryLib.focusManager.setFocused(true);
  });
  afterEach(() => {
    queryLib.focusManager.setFocused(undefined);
    vi.useRealTimers();
  });

  it('records two retries (500 and 1,000 ms), a success, refetches, staleness and the gc removal', async () => {
    const compiled = compileSnippet(readFileSync('content/snippets/query-retry-timeline.ts', 'utf8'));
    if (!compiled.ok) throw new Error(compiled.message);
    const rec = recorder();
    const lines: string[] = [];
    const log = (...args: unknown[]) => lines.push(args.join(' '));
    const run = executeSnippet(compiled.js, { 'roundtrip/query': rec.lib }, { log, info: log, warn: log, error: log, debug: log });
    await vi.advanceTimersByTimeAsync(12_000);
    await run;
    const source = rec.recording().sources[0] as QuerySource;
    const texts = source.events.map(describeQueryEvent);
    expect(texts.filter((t) => /: retry \d/.test(t))).toEqual(["['todos']: retry 1 of 3 in 500 ms", "['todos']: retry 2 of 3 in 1,000 ms"]);
    expect(texts).toContain("['todos']: became stale");
    expect(texts).toContain("['todos']: refetch interval of 3,000 ms elapsed");
    expect(texts.slice(-2)).toEqual(["['todos']: removed from the cache", "['todos']: removed by gc after 4,000 ms"]);
    const [lane] = buildLanes(source.events).lanes;
    // three attempts for the first fetch, then one refetch: the interval starts over at every query update
    // (as TanStack's observer does), so it fires 3 s after the success at 2.4 s, and next at 8.7 s, after stop()
    const attempts = lane!.spans.filter((s) => s.kind === 'attempt').map((s) => s.from - lane!.spans[0]!.from);
    expect(attempts).toEqual([0, 800, 2100, 5400]);
    expect(lines.at(-1)).toBe('still cached? false');
  });
});
