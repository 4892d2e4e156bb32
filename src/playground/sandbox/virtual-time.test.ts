// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import * as query from 'roundtrip/query';
import source from '../../../content/snippets/query-retry-timeline.ts?raw';
import { compileSnippet } from './compile';
import { executeSnippet } from './execute';
import { REAL_TIME_PRAGMA, VirtualTime, type RealTime, type TimeGlobals } from './virtual-time';

/** A wall clock that never moves by itself and records what was handed to it. */
function fakeReal() {
  const scheduled: { callback: () => void; ms: number }[] = [];
  const reported: unknown[] = [];
  let now = 0;
  const real: RealTime = {
    now: () => now,
    epoch: () => Date.UTC(2026, 0, 1),
    setTimeout: (callback, ms) => scheduled.push({ callback, ms }),
    clearTimeout: () => {},
    yieldTask: () => new Promise<void>((resolve) => setImmediate(resolve)),
    report: (error) => void reported.push(error),
  };
  return { real, scheduled, reported, advance: (ms: number) => void (now += ms) };
}

describe('VirtualTime', () => {
  it('fast-forwards the waits a pending snippet makes, in due order, and then follows the wall clock', async () => {
    const { real, scheduled, advance } = fakeReal();
    const clock = new VirtualTime(real);
    const order: string[] = [];
    const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
    const snippet = (async () => {
      clock.setTimeout(() => order.push(`b@${clock.now()}`), 500);
      clock.setTimeout(() => order.push(`a@${clock.now()}`), 200);
      const tick = clock.setInterval(() => order.push(`tick@${clock.now()}`), 400);
      await sleep(1_000);
      clock.clearInterval(tick);
      await sleep(10_500);
      clock.setTimeout(() => order.push(`now@${clock.now()}`), 0);
      clock.setTimeout(() => order.push('later'), 60_000);
    })();
    expect(await clock.drive(snippet)).toEqual({ elapsed: 11_500 });
    expect(order).toEqual(['a@200', 'tick@400', 'b@500', 'tick@800', 'now@11500']);
    // The timer left for a minute later runs on real time, from where the clock stood.
    expect(scheduled.map((s) => s.ms)).toEqual([60_000]);
    advance(60_000);
    expect(clock.now()).toBe(71_500);
    scheduled[0]!.callback();
    expect(order.at(-1)).toBe('later');
  });

  it('catches up to a simulation: timers passed on the way fire at the next turn, in due order, none skipped', async () => {
    const { real, scheduled, advance } = fakeReal();
    const clock = new VirtualTime(real);
    const order: string[] = [];
    const snippet = (async () => {
      clock.setTimeout(() => order.push(`b@${clock.now()}`), 400);
      clock.setTimeout(() => order.push(`a@${clock.now()}`), 100);
      await Promise.resolve();
      clock.catchUp(250); // a simulated fetch took 250 ms, in microtasks
      clock.catchUp(200); // never back
      order.push(`fetched@${clock.now()}`);
      await new Promise((resolve) => clock.setTimeout(resolve, 500));
      clock.setTimeout(() => order.push('later'), 1_000);
    })();
    expect(await clock.drive(snippet)).toEqual({ elapsed: 750 });
    expect(order).toEqual(['fetched@250', 'a@250', 'b@400']);
    // Following the wall clock, a catch-up moves the reading and keeps the pending timer's due time.
    clock.catchUp(1_000);
    expect(clock.now()).toBe(1_000);
    expect(scheduled.map((s) => s.ms)).toEqual([1_000, 750]);
    advance(750);
    expect(clock.now()).toBe(1_750);
  });

  it('waits without spinning when the snippet waits for something other than a timer', async () => {
    const { real } = fakeReal();
    const clock = new VirtualTime(real);
    let release: () => void = () => {};
    const outside = new Promise<void>((resolve) => (release = resolve));
    const snippet = (async () => {
      await outside;
      await new Promise((resolve) => clock.setTimeout(resolve, 3_000));
    })();
    const driving = clock.drive(snippet);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(clock.now()).toBe(0);
    release();
    expect(await driving).toEqual({ elapsed: 3_000 });
  });

  it('stops fast-forwarding at its limits and reports an error a timer threw without stopping', async () => {
    const { real, reported } = fakeReal();
    const clock = new VirtualTime(real);
    clock.setTimeout(() => {
      throw new Error('in a timer');
    }, 1);
    clock.setInterval(() => {}, 1_000);
    const never = new Promise(() => {});
    expect(await clock.drive(never, { maxVirtualMs: 10_000 })).toEqual({ elapsed: 10_000, limit: 'time' });
    expect(reported).toEqual([new Error('in a timer')]);
    const other = new VirtualTime(real);
    other.setInterval(() => {}, 1);
    expect(await other.drive(never, { maxSteps: 50 })).toEqual({ elapsed: 50, limit: 'steps' });
  });

  it('gives new Date() and Date.now() the virtual time, and leaves the rest of Date alone', async () => {
    const { real } = fakeReal();
    const clock = new VirtualTime(real);
    const target = { setTimeout, clearTimeout, setInterval, clearInterval, Date } as TimeGlobals;
    clock.install(target);
    const VDate = target.Date;
    const waited = new Promise((resolve) => (target.setTimeout as typeof clock.setTimeout)(resolve, 1_234));
    await clock.drive(waited);
    expect(VDate.now()).toBe(Date.UTC(2026, 0, 1) + 1_234);
    expect(new VDate().getTime()).toBe(VDate.now());
    expect(new VDate(0).toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(new VDate() instanceof Date).toBe(true);
    expect(VDate.UTC(2000, 0, 1)).toBe(Date.UTC(2000, 0, 1));
  });

  it('knows the opt-out comment', () => {
    expect(REAL_TIME_PRAGMA.test("// @playground real-time: it times a real computation\nconsole.log('x');")).toBe(true);
    expect(REAL_TIME_PRAGMA.test("console.log('// @playground real-time')")).toBe(false);
  });
});

describe('the retry-timeline example on virtual time', () => {
  it('runs its 11.5 s of retries, stale times and gc to the end without waiting, with the times real timers would give', async () => {
    expect(REAL_TIME_PRAGMA.test(source)).toBe(false);
    const compiled = compileSnippet(source);
    if (!compiled.ok) throw new Error(compiled.message);
    const { real, scheduled } = fakeReal();
    const clock = new VirtualTime(real);
    // The snippet and the query library read the realm's globals: here, Node's, put back afterwards.
    const realm = globalThis as unknown as TimeGlobals;
    const saved = {
      setTimeout: realm.setTimeout,
      clearTimeout: realm.clearTimeout,
      setInterval: realm.setInterval,
      clearInterval: realm.clearInterval,
      Date: realm.Date,
    };
    const lines: string[] = [];
    const log = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
    let result: Awaited<ReturnType<VirtualTime['drive']>>;
    try {
      clock.install(realm);
      const run = executeSnippet(compiled.js, { 'roundtrip/query': query }, { log });
      result = await clock.drive(run);
      await run;
    } finally {
      Object.assign(realm, saved);
    }
    // The recording's last event comes 11.5 s of simulated time in; the clock got there by jumping.
    expect(result).toEqual({ elapsed: 11_500 });
    expect(lines.at(-1)).toBe('still cached? false');
    expect(lines).toContain('unsubscribed: the query is inactive, gc removes it in 4 s');
    // Two failures 300 ms each, backoffs of 500 and 1,000 ms, a success at 2,400 ms: exact, not "about".
    // Failures at 300 and 1,100 ms after 500 and 1,000 ms of backoff, success at 2,400, stale 2 s (and the 1 ms
    // TanStack adds) later, the 3 s refetch: exact, where real timers print "about" these.
    expect(lines.filter((l) => l.endsWith('stale') || l.endsWith('fresh')).map((l) => l.slice(0, 8).trim())).toEqual([
      '0 ms',
      '300 ms',
      '1100 ms',
      '2400 ms',
      '4401 ms',
      '5400 ms',
      '5700 ms',
    ]);
    expect(scheduled).toEqual([]);
  });
});
