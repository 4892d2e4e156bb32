import { describe, expect, it } from 'vitest';
import { validateSchema } from '../options/schema';
import { initialOptions, optionsChanged, optionsFromShare, optionsToShare, optionValues, reportSchema, setOption } from './options';

const schema = validateSchema({
  rtt: { type: 'number', default: 100, min: 1, max: 1000, doc: 'RTT' },
  seed: { type: 'number', default: 2, integer: true, doc: 'Seed' },
  mode: { type: 'select', choices: ['a', 'b'], default: 'a', doc: 'Mode' },
});

describe('options state', () => {
  it("keeps only overrides, and puts an integer seed in the share state's own field", () => {
    let state = initialOptions(schema);
    expect(optionValues(state)).toEqual({ rtt: 100, seed: 2, mode: 'a' });
    expect(optionsChanged(state)).toBe(false);
    state = setOption(state, 'rtt', 250);
    state = setOption(state, 'seed', 9);
    state = setOption(state, 'mode', 'a'); // the default: not an override
    expect(state.overrides).toEqual({ rtt: 250, seed: 9 });
    expect(optionsChanged(state)).toBe(true);
    expect(optionsToShare(state)).toEqual({ options: { rtt: 250 }, seed: 9 });
    expect(optionsToShare(setOption(state, 'seed', 2))).toEqual({ options: { rtt: 250 } });
  });

  it('restores from a share state, and prunes overrides when the code declares other options', () => {
    let state = optionsFromShare(initialOptions(schema), { code: '', options: { rtt: 300, mode: 'b', junk: { nested: 1 } }, seed: 4 });
    expect(optionValues(state)).toEqual({ rtt: 300, seed: 4, mode: 'b' });
    const reported = reportSchema(state, { rtt: { type: 'number', default: 100, max: 200, doc: 'RTT' } });
    if (!('state' in reported)) throw new Error(reported.problem);
    state = reported.state;
    // mode and seed are gone from the code; rtt 300 no longer fits max 200.
    expect(state.overrides).toEqual({});
    expect(optionValues(state)).toEqual({ rtt: 100 });
    expect(reportSchema(state, { rtt: { type: 'number', default: 100 } })).toEqual({ problem: expect.stringContaining('needs a "doc" string') });
  });
});
