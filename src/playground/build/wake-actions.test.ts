// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { forgetLatestWakeAction, rememberWakeAction, takeWakeActions } from './wake-actions';

describe('wake actions', () => {
  it('keeps presses in order, merges a repeat, forgets the latest, and is empty once taken', () => {
    const el = document.createElement('div');
    expect(takeWakeActions(el)).toEqual([]);
    rememberWakeAction(el, 'inspect');
    rememberWakeAction(el, 'share');
    rememberWakeAction(el, 'share');
    expect(el.dataset.wakeAction).toBe('inspect share');
    expect(forgetLatestWakeAction(el)).toBe(true);
    expect(takeWakeActions(el)).toEqual(['inspect']);
    expect(el.dataset.wakeAction).toBeUndefined();
    expect(forgetLatestWakeAction(el)).toBe(false);
    expect(takeWakeActions(null)).toEqual([]);
  });
});
