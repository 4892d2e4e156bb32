import { describe, expect, it } from 'vitest';
import { MAX_GAP_MS, MIN_STEP_MS, Player, type PlayerClock } from './player';

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
    p.setSpeed(10);
    p.play();
    time.advance(MIN_STEP_MS / 10);
    expect(p.state.cursor).toBe(1);
    // 100 ms at 10x is 10 ms; half of it served, then slow down to 1x: the other half becomes 50 ms.
    time.advance(5);
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
});
