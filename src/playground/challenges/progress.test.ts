import { describe, expect, it } from 'vitest';
import { diffLines } from './diff';
import { readProgress, recordAttempt, stateOf, type ProgressStorage } from './progress';

function memory(initial?: string): ProgressStorage & { value: string | null } {
  const box = {
    value: initial ?? null,
    getItem: () => box.value,
    setItem: (_: string, v: string) => void (box.value = v),
  };
  return box;
}

describe('progress', () => {
  it('not tried, then tried on a failed check, then solved; a later failure keeps it solved', () => {
    const storage = memory();
    expect(stateOf('a', readProgress(storage))).toBe('not-tried');
    expect(recordAttempt('a', false, storage)).toBe('tried');
    expect(recordAttempt('a', true, storage)).toBe('solved');
    expect(recordAttempt('a', false, storage)).toBe('solved');
    expect(JSON.parse(storage.value!)).toEqual({ a: 'solved' });
  });

  it('unreadable or foreign storage reads as no progress, and is replaced on the next attempt', () => {
    for (const bad of ['{', '[1]', '"solved"', '{"a":"done","b":"tried"}']) {
      const storage = memory(bad);
      expect(readProgress(storage)).toEqual(bad.includes('"b"') ? { b: 'tried' } : {});
      recordAttempt('c', true, storage);
      expect(readProgress(storage).c).toBe('solved');
    }
  });

  it('a storage that throws costs the memory, not the page', () => {
    const throwing: ProgressStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readProgress(throwing)).toEqual({});
    expect(recordAttempt('a', true, throwing)).toBe('solved');
  });
});

describe('diffLines', () => {
  it('keeps common lines and marks the changed ones, removed before added', () => {
    expect(diffLines('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'B' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'd' },
    ]);
  });

  it('an unchanged text is all kept lines', () => {
    expect(diffLines('x\ny', 'x\ny').every((l) => l.kind === 'same')).toBe(true);
  });

  it('finds the longest run of common lines, not the first match', () => {
    const kinds = diffLines('k\na\nb\nc', 'a\nb\nc\nk')
      .map((l) => l.kind[0])
      .join('');
    expect(kinds).toBe('rsssa');
  });
});
