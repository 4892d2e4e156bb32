import { expect, test, vi } from 'vitest';
import { guardCallbacks, type Schedulers } from './guard';

function fakeWindow() {
  const queued: (() => void)[] = [];
  const target: Schedulers = {
    setTimeout: (handler, _ms, ...args) => queued.push(() => handler(...args)),
    setInterval: (handler, _ms, ...args) => queued.push(() => handler(...args)),
    queueMicrotask: (callback) => void queued.push(callback),
    requestAnimationFrame: (callback) => queued.push(() => callback(16)),
  };
  return { target, flush: () => queued.splice(0).forEach((task) => task()) };
}

test('an error thrown in any scheduled callback is reported with the error object, and stops there', () => {
  const { target, flush } = fakeWindow();
  const report = vi.fn();
  guardCallbacks(target, report);
  const boom = (name: string) => () => {
    throw new TypeError(name);
  };
  target.setTimeout(boom('timeout'), 10);
  target.setInterval(boom('interval'), 10);
  target.queueMicrotask!(boom('microtask'));
  target.requestAnimationFrame!(boom('frame'));
  expect(() => flush()).not.toThrow();
  expect(report.mock.calls.map(([error]) => [error.constructor, error.message])).toEqual([
    [TypeError, 'timeout'],
    [TypeError, 'interval'],
    [TypeError, 'microtask'],
    [TypeError, 'frame'],
  ]);
});

test('callbacks that do not throw run as before, with their arguments and return value', () => {
  const { target, flush } = fakeWindow();
  const report = vi.fn();
  guardCallbacks(target, report);
  const seen: unknown[] = [];
  target.setTimeout((a, b) => seen.push(a, b), 0, 'x', 2);
  target.requestAnimationFrame!((time) => seen.push(time));
  flush();
  expect(seen).toEqual(['x', 2, 16]);
  expect(report).not.toHaveBeenCalled();
});
