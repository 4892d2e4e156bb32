// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { usePlaygroundOptions } from './usePlaygroundOptions';
import { validateSchema } from './schema';

const schema = validateSchema({
  rtt: { type: 'number', default: 100, min: 1, max: 1000, doc: 'RTT' },
  seed: { type: 'number', default: 2, integer: true, doc: 'Seed' },
  mode: { type: 'select', choices: ['a', 'b'], default: 'a', doc: 'Mode' },
});

describe('usePlaygroundOptions', () => {
  it('keeps only overrides, and puts an integer seed in the share state\'s own field', () => {
    const { result } = renderHook(() => usePlaygroundOptions(schema));
    expect(result.current.values).toEqual({ rtt: 100, seed: 2, mode: 'a' });
    act(() => result.current.set('rtt', 250));
    act(() => result.current.set('seed', 9));
    act(() => result.current.set('mode', 'a')); // the default: not an override
    expect(result.current.overrides).toEqual({ rtt: 250, seed: 9 });
    expect(result.current.changed).toBe(true);
    expect(result.current.toShare()).toEqual({ options: { rtt: 250 }, seed: 9 });
    act(() => result.current.reset());
    expect(result.current.toShare()).toEqual({});
  });

  it('restores from a share state, and prunes overrides when the code declares other options', () => {
    const { result } = renderHook(() => usePlaygroundOptions(schema));
    act(() => result.current.fromShare({ code: '', options: { rtt: 300, mode: 'b', junk: { nested: 1 } }, seed: 4 }));
    expect(result.current.values).toEqual({ rtt: 300, seed: 4, mode: 'b' });
    let problem: string | undefined;
    act(() => {
      problem = result.current.onReported({ rtt: { type: 'number', default: 100, max: 200, doc: 'RTT' } });
    });
    expect(problem).toBeUndefined();
    // mode and seed are gone from the code; rtt 300 no longer fits max 200.
    expect(result.current.overrides).toEqual({});
    expect(result.current.values).toEqual({ rtt: 100 });
    act(() => {
      problem = result.current.onReported({ rtt: { type: 'number', default: 100 } });
    });
    expect(problem).toContain('needs a "doc" string');
  });
});
