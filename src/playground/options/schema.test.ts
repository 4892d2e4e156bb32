import { describe, expect, it } from 'vitest';
import { checkValue, nonDefaultValues, parseInput, resolveValues, validateSchema, OptionsError } from './schema';

const schema = validateSchema({
  rtt: { type: 'number', default: 100, min: 0, max: 1000, step: 10, doc: 'Round-trip time' },
  retry: { type: 'number', default: 3, min: 0, max: 10, integer: true, doc: 'Retries' },
  httpVersion: { type: 'select', choices: ['1.1', '2', '3'], default: '2', doc: 'HTTP version' },
  online: { type: 'boolean', default: true, doc: 'Online', label: 'Network online' },
});

describe('options schema', () => {
  it('keeps a valid schema as declared', () => {
    expect(schema.rtt).toEqual({ type: 'number', default: 100, min: 0, max: 1000, step: 10, doc: 'Round-trip time' });
    expect(schema.online).toEqual({ type: 'boolean', default: true, doc: 'Online', label: 'Network online' });
  });

  it('rejects schemas it could not draw, saying what was expected', () => {
    const bad = (raw: unknown) => () => validateSchema(raw);
    expect(bad({ rtt: { type: 'number', default: 2000, max: 1000, doc: 'd' } })).toThrow(
      'option "rtt" has default 2000, but its values must be a number of at most 1000',
    );
    expect(bad({ v: { type: 'select', choices: [], default: 'x', doc: 'd' } })).toThrow('needs "choices": a non-empty array of strings');
    expect(bad({ v: { type: 'text', default: 'x', doc: 'd' } })).toThrow('has type "text"; expected "number", "select" or "boolean"');
    expect(bad({ v: { type: 'boolean', default: true } })).toThrow('needs a "doc" string');
    expect(bad({ v: { type: 'number', default: 1, min: 5, max: 2, doc: 'd' } })).toThrow('has min 5 above max 2');
    expect(bad({ 'not a name': { type: 'boolean', default: true, doc: 'd' } })).toThrow('plain identifier');
    expect(bad([1])).toThrow(OptionsError);
  });

  it('resolves defaults and overrides, and names the option and the expectation for a bad value', () => {
    expect(resolveValues(schema)).toEqual({ rtt: 100, retry: 3, httpVersion: '2', online: true });
    expect(resolveValues(schema, { rtt: 250, online: false, gone: 1 })).toEqual({ rtt: 250, retry: 3, httpVersion: '2', online: false });
    expect(() => resolveValues(schema, { httpVersion: '4' })).toThrow('Option "httpVersion" must be one of "1.1", "2", "3"; got "4".');
    expect(() => resolveValues(schema, { retry: 1.5 })).toThrow('Option "retry" must be a whole number from 0 to 10; got 1.5.');
    expect(() => resolveValues(schema, { online: 'yes' })).toThrow('Option "online" must be true or false; got "yes".');
  });

  it('keeps only valid non-default values for a share link', () => {
    expect(nonDefaultValues(schema, { rtt: 100, retry: 5, httpVersion: '9', online: false, other: 1 })).toEqual({ retry: 5, online: false });
  });

  it('parses the panel inputs', () => {
    expect(parseInput(schema.rtt!, '250')).toEqual({ ok: true, value: 250 });
    expect(parseInput(schema.rtt!, '')).toEqual({ ok: false, expected: 'a number from 0 to 1000' });
    expect(parseInput(schema.rtt!, '5000')).toEqual({ ok: false, expected: 'a number from 0 to 1000' });
    expect(parseInput(schema.online!, 'false')).toEqual({ ok: true, value: false });
    expect(checkValue(schema.httpVersion!, '3')).toBeUndefined();
  });
});
