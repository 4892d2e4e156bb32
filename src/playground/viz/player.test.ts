import { describe, expect, it } from 'vitest';
import { MAX_GAP_MS, MIN_STEP_MS, Player, REPLAY_BUDGET_MS, replaySchedule, TICK_MS, type PlayerClock } from './player';

/** A clock whose time moves only when the test says so. */
function fakeClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: PlayerClock = {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id) => void timers.delete(id as number),
  };
  return {
    clock,
    get pending() {
      return timers.size;
    },
    /** Moves time forward, firing due timers in order. */
    advance(ms: number) {
      const target = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = target;
    },
  };
}

const at = [0, 0, 100, 100, 5000, 5200];
const gapBefore = (i: number) => (i <= 0 ? 0 : at[i]! - at[i - 1]!);

function player(options: { reducedMotion?: boolean } = {}) {
  const time = fakeClock();
  const p = new Player({ clock: time.clock, gapBefore, ...options });
  p.setLength(at.length);
  return { p, time };
}

describe('Player', () => {
  it('starts on the first step of a recording', () => {
    const { p } = player();
    expect(p.state).toMatchObject({ cursor: 0, length: 6, playing: false });
  });

  it('paces steps by the events own time, clamped to MIN_STEP_MS and MAX_GAP_MS', () => {
    const { p, time } = player();
    p.play();
    // Step 1 is at the same instant as step 0: the minimum applies.
    time.advance(MIN_STEP_MS - 1);
    expect(p.state.cursor).toBe(0);
    time.advance(1);
    expect(p.state.cursor).toBe(1);
    // Step 2 is 100 ms later.
    time.advance(99);
    expect(p.state.cursor).toBe(1);
    time.advance(1);
    expect(p.state.cursor).toBe(2);
    time.advance(MIN_STEP_MS);
    expect(p.state.cursor).toBe(3);
    // 4,900 ms of event time: clamped, so playback does not stall.
    time.advance(MAX_GAP_MS);
    expect(p.state.cursor).toBe(4);
    time.advance(200);
    expect(p.state).toMatchObject({ cursor: 5, playing: false });
    expect(time.pending).toBe(0);
  });

  it('scales waits by speed, including a wait already under way', () => {
    const { p, time } = player();
    p.setSpeed(2);
    p.play();
    time.advance(MIN_STEP_MS / 2);
    expect(p.state.cursor).toBe(1);
    // 100 ms at 2x is 50 ms; 25 ms served (half), then 1x: the other 50 ms of schedule take 50 ms.
    time.advance(25);
    p.setSpeed(1);
    time.advance(49);
    expect(p.state.cursor).toBe(1);
    time.advance(1);
    expect(p.state.cursor).toBe(2);
    p.setSpeed(100);
    expect(p.state.speed).toBe(10);
    p.setSpeed(0.01);
    expect(p.state.speed).toBe(0.1);
  });

  it('steps, seeks and pauses', () => {
    const { p, time } = player();
    p.stepForward();
    p.stepForward();
    expect(p.state.cursor).toBe(2);
    p.stepBack();
    expect(p.state.cursor).toBe(1);
    p.seek(99);
    expect(p.state.cursor).toBe(5);
    p.seek(-4);
    expect(p.state.cursor).toBe(0);
    p.stepBack();
    expect(p.state.cursor).toBe(0);
    p.play();
    time.advance(MIN_STEP_MS);
    p.pause();
    time.advance(10_000);
    expect(p.state).toMatchObject({ cursor: 1, playing: false });
    // Stepping while playing pauses.
    p.play();
    p.stepForward();
    expect(p.state.playing).toBe(false);
    expect(time.pending).toBe(0);
  });

  it('starts over when Play is pressed at the end', () => {
    const { p, time } = player();
    p.seek(5);
    p.play();
    expect(p.state).toMatchObject({ cursor: 0, playing: true });
    time.advance(MIN_STEP_MS);
    expect(p.state.cursor).toBe(1);
  });

  it('keeps playing from a new position after a seek', () => {
    const { p, time } = player();
    p.play();
    p.seek(3);
    expect(p.state.playing).toBe(true);
    time.advance(MAX_GAP_MS);
    expect(p.state.cursor).toBe(4);
  });

  it('under reduced motion, never moves by itself but still steps', () => {
    const { p, time } = player({ reducedMotion: true });
    p.play();
    time.advance(60_000);
    expect(p.state).toMatchObject({ cursor: 0, playing: false });
    p.stepForward();
    p.seek(4);
    expect(p.state.cursor).toBe(4);
    // Switching reduced motion on stops playback.
    const other = player();
    other.p.play();
    other.p.setReducedMotion(true);
    other.time.advance(60_000);
    expect(other.p.state).toMatchObject({ cursor: 0, playing: false });
  });

  it('follows the live end until the reader moves the cursor', () => {
    const time = fakeClock();
    const p = new Player({ clock: time.clock, gapBefore });
    p.follow();
    p.setLength(3);
    expect(p.state.cursor).toBe(2);
    p.setLength(5);
    expect(p.state).toMatchObject({ cursor: 4, following: true });
    p.stepBack();
    p.setLength(6);
    expect(p.state).toMatchObject({ cursor: 3, following: false });
  });

  it('notifies listeners once per change', () => {
    const { p } = player();
    const seen: number[] = [];
    const stop = p.subscribe((s) => seen.push(s.cursor));
    p.seek(2);
    p.seek(2);
    p.stepForward();
    stop();
    p.stepForward();
    expect(seen).toEqual([2, 3]);
  });

  it('after a seek while playing, goes on from the new step at its own pace', () => {
    const { p, time } = player();
    p.play();
    time.advance(30);
    p.seek(2);
    // Step 3 is MIN_STEP_MS after step 2 in the schedule, counted from the seek.
    time.advance(MIN_STEP_MS - 1);
    expect(p.state.cursor).toBe(2);
    time.advance(1);
    expect(p.state.cursor).toBe(3);
  });
});

/** A long capture's pacing: bursts of one frame type at one instant, then idle gaps. */
function longCapture() {
  const kinds = ['HEADERS', 'DATA', 'DATA', 'DATA', 'DATA', 'DATA', 'WINDOW_UPDATE', 'SETTINGS'];
  return {
    gapBefore: (i: number) => (i % 500 === 0 ? 60_000 : i % 7 === 0 ? 100 : 0),
    kindOf: (i: number) => kinds[Math.floor(i / 40) % kinds.length]!,
  };
}

describe('replay pacing', () => {
  it('fits a 3,530-step recording into the replay budget at 1x', () => {
    const { gapBefore, kindOf } = longCapture();
    const at = replaySchedule(3530, gapBefore, kindOf);
    expect(at[0]).toBe(0);
    expect(at[3529]).toBeGreaterThan(REPLAY_BUDGET_MS / 2);
    expect(at[3529]).toBeLessThanOrEqual(REPLAY_BUDGET_MS);
    for (let i = 1; i < at.length; i++) expect(at[i]).toBeGreaterThanOrEqual(at[i - 1]!);
    // An idle minute still reads as a longer wait than a step inside a burst.
    expect(at[500]! - at[499]!).toBeGreaterThan(at[41]! - at[40]!);
  });

  it('plays a 3,530-step recording to its end in at most the budget of injected clock, in frame-sized ticks', () => {
    const time = fakeClock();
    const { gapBefore, kindOf } = longCapture();
    const p = new Player({ clock: time.clock, gapBefore, kindOf });
    p.setLength(3530);
    expect(p.replayDuration).toBeLessThanOrEqual(REPLAY_BUDGET_MS);
    let ticks = 0;
    p.subscribe(() => ticks++);
    p.play();
    time.advance(REPLAY_BUDGET_MS + TICK_MS);
    expect(p.state).toMatchObject({ cursor: 3529, playing: false });
    expect(time.pending).toBe(0);
    // No more changes than frames: steps due together share a tick.
    expect(ticks).toBeLessThanOrEqual(REPLAY_BUDGET_MS / TICK_MS + 2);
    // Step still goes one step at a time.
    p.seek(100);
    p.stepForward();
    expect(p.state.cursor).toBe(101);
    p.stepBack();
    p.stepBack();
    expect(p.state.cursor).toBe(99);
  });

  it('compresses bursts of one kind more than a mix of kinds', () => {
    const same = replaySchedule(
      2000,
      () => 0,
      () => 'DATA',
    );
    const mixed = replaySchedule(
      2000,
      () => 0,
      (i) => `kind-${i}`,
    );
    // A 2,000-frame burst costs about ln(2,000) steps' time, far under the budget; a mix is scaled to the budget.
    expect(same[1999]).toBeLessThan(MIN_STEP_MS * 10);
    expect(mixed[1999]).toBeCloseTo(REPLAY_BUDGET_MS, 6);
  });

  it('shows every step of a 10-step run, each for at least MIN_STEP_MS', () => {
    const time = fakeClock();
    const p = new Player({ clock: time.clock, gapBefore: (i) => (i === 5 ? 30_000 : 2), kindOf: () => 'DATA' });
    p.setLength(10);
    const seen: number[] = [];
    p.subscribe((s) => seen.push(s.cursor));
    p.play();
    time.advance(REPLAY_BUDGET_MS);
    // Play's own notification shows step 0; then each step in turn, none skipped.
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const at = replaySchedule(
      10,
      (i) => (i === 5 ? 30_000 : 2),
      () => 'DATA',
    );
    for (let i = 1; i < 10; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(MIN_STEP_MS);
    // The idle 30 s is clamped to MAX_GAP_MS.
    expect(at[5]! - at[4]!).toBe(MAX_GAP_MS);
  });

  it('keeps pace when the recording grows during playback', () => {
    const time = fakeClock();
    const p = new Player({ clock: time.clock, gapBefore: () => 100 });
    p.setLength(3);
    p.play();
    time.advance(60);
    p.setLength(4);
    time.advance(40);
    expect(p.state.cursor).toBe(1);
    time.advance(200);
    expect(p.state).toMatchObject({ cursor: 3, playing: false });
  });
});
