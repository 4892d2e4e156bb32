import { describe, expect, it } from 'vitest';
import { jsonSafeKey, previewValue, toJsonSafe } from './preview';

describe('previewValue', () => {
  it('describes what JSON cannot hold, inside valid JSON', () => {
    const value = {
      n: NaN,
      big: 12n,
      missing: undefined,
      when: new Date(Date.UTC(2026, 0, 2)),
      err: new RangeError('too far'),
      set: new Set([1]),
      fn: () => 1,
    };
    expect(JSON.parse(previewValue(value).text)).toEqual({
      n: 'NaN',
      big: '12n',
      missing: '[undefined]',
      when: '2026-01-02T00:00:00.000Z',
      err: 'RangeError: too far',
      set: { '[Set(1)]': [1] },
      fn: '[Function fn]',
    });
  });

  it('a top-level Error or function is its one-line description', () => {
    expect(previewValue(new Error('HTTP 500'))).toEqual({ text: 'Error: HTTP 500', truncated: false });
    expect(previewValue(function fetchTodos() {}).text).toBe('[Function fetchTodos]');
    expect(previewValue(undefined).text).toBe('undefined');
  });

  it('marks cycles but repeats shared (non-cyclic) objects', () => {
    const shared = { id: 1 };
    const node: Record<string, unknown> = { a: shared, b: shared };
    node.me = node;
    expect(toJsonSafe(node)).toEqual({ a: { id: 1 }, b: { id: 1 }, me: '[Circular]' });
  });

  it('caps size, depth and entries', () => {
    const long = previewValue({ text: 'x'.repeat(10_000) });
    expect(long.truncated).toBe(true);
    expect(long.text).toHaveLength(4000);
    const limits = { maxChars: 1000, maxDepth: 2, maxEntries: 3 };
    expect(toJsonSafe({ a: { b: { c: 1 } } }, limits)).toEqual({ a: { b: '[Object]' } });
    expect(toJsonSafe([1, 2, 3, 4, 5], limits)).toEqual([1, 2, 3, '... 2 more items']);
  });

  it('keeps keys JSON-like', () => {
    expect(jsonSafeKey(['todos', { page: 2, at: new Date(0) }])).toEqual(['todos', { page: 2, at: '1970-01-01T00:00:00.000Z' }]);
  });
});
