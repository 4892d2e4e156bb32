import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock';
import { createRandom } from './random';

describe('VirtualClock', () => {
  it('starts at the given time and only moves when told', () => {
    const clock = new VirtualClock(5);
    expect(clock.now()).toBe(5);
    let fired = false;
    clock.setTimeout(() => (fired = true), 10);
    expect(fired).toBe(false);
    clock.advance(9);
    expect(fired).toBe(false);
    expect(clock.now()).toBe(14);
    clock.advance(1);
    expect(fired).toBe(true);
    expect(clock.now()).toBe(15);
  });

  it('fires timers in due order, ties in scheduling order, and sees the due time as now', () => {
    const clock = new VirtualClock();
    const log: string[] = [];
    clock.setTimeout(() => log.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => log.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => log.push(`c@${clock.now()}`), 20);
    clock.advance(100);
    expect(log).toEqual(['a@10', 'b@20', 'c@20']);
    expect(clock.now()).toBe(100);
  });

  it('runs zero-delay timers scheduled by a callback within the same advance', () => {
    const clock = new VirtualClock();
    const log: number[] = [];
    clock.setTimeout(() => {
      log.push(1);
      clock.setTimeout(() => log.push(2), 0);
      clock.setTimeout(() => log.push(3), 50);
    }, 10);
    clock.advance(10);
    expect(log).toEqual([1, 2]);
    clock.advance(50);
    expect(log).toEqual([1, 2, 3]);
  });

  it('clearTimeout cancels; clearing unknown ids is harmless', () => {
    const clock = new VirtualClock();
    let n = 0;
    const id = clock.setTimeout(() => n++, 5);
    clock.clearTimeout(id);
    clock.clearTimeout(999);
    clock.clearTimeout(undefined);
    clock.advance(10);
    expect(n).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('setInterval repeats until cleared', () => {
    const clock = new VirtualClock();
    const at: number[] = [];
    const id = clock.setInterval(() => {
      at.push(clock.now());
      if (at.length === 3) clock.clearInterval(id);
    }, 25);
    clock.advance(1000);
    expect(at).toEqual([25, 50, 75]);
  });

  it('step jumps to the next timer and runs exactly one', () => {
    const clock = new VirtualClock();
    const log: string[] = [];
    clock.setTimeout(() => log.push('x'), 30);
    clock.setTimeout(() => log.push('y'), 30);
    expect(clock.nextDue()).toBe(30);
    expect(clock.step()).toBe(true);
    expect(log).toEqual(['x']);
    expect(clock.now()).toBe(30);
    expect(clock.step()).toBe(true);
    expect(clock.step()).toBe(false);
    expect(clock.now()).toBe(30);
  });

  it('runUntilIdle drains chains of timers and refuses endless intervals', () => {
    const clock = new VirtualClock();
    let count = 0;
    const again = (): void => {
      if (++count < 5) clock.setTimeout(again, 7);
    };
    clock.setTimeout(again, 7);
    expect(clock.runUntilIdle()).toBe(5);
    expect(clock.now()).toBe(35);
    clock.setInterval(() => {}, 1);
    expect(() => clock.runUntilIdle(50)).toThrow(/interval/);
  });

  it('rejects negative or non-finite delays with a helpful message', () => {
    const clock = new VirtualClock();
    expect(() => clock.setTimeout(() => {}, -1)).toThrow(/delay >= 0/);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
  });
});

describe('createRandom', () => {
  it('is deterministic per seed and differs across seeds', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    for (const x of seqA) expect(x >= 0 && x < 1).toBe(true);
  });

  it('forks independent, reproducible streams', () => {
    const one = createRandom('s').fork('loss');
    const two = createRandom('s').fork('loss');
    expect(one.int(1000)).toBe(two.int(1000));
    expect(createRandom('s').fork('x').next()).not.toBe(createRandom('s').fork('y').next());
  });

  it('is roughly uniform', () => {
    const r = createRandom(7);
    let below = 0;
    for (let i = 0; i < 10_000; i++) if (r.next() < 0.25) below++;
    expect(below).toBeGreaterThan(2300);
    expect(below).toBeLessThan(2700);
  });
});
