import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { defineOptions } from './index';
import { installOptionsContext } from './context';
import type { OptionsSchema } from './schema';

const declare = () =>
  defineOptions({
    rtt: { type: 'number', default: 100, min: 0, max: 1000, doc: 'Round-trip time' },
    httpVersion: { type: 'select', choices: ['1.1', '2', '3'], default: '2', doc: 'HTTP version' },
    online: { type: 'boolean', default: true, doc: 'Online' },
  });

afterEach(() => installOptionsContext(undefined));

describe('defineOptions', () => {
  it('returns the defaults outside a playground, typed by the schema', () => {
    const values = declare();
    expect(values).toEqual({ rtt: 100, httpVersion: '2', online: true });
    expectTypeOf(values.httpVersion).toEqualTypeOf<'1.1' | '2' | '3'>();
    expectTypeOf(values.rtt).toEqualTypeOf<number>();
    expectTypeOf(values.online).toEqualTypeOf<boolean>();
  });

  it('reports the schema to the playground and applies its overrides', () => {
    const seen: OptionsSchema[] = [];
    installOptionsContext({ overrides: { rtt: 300 }, onSchema: (s) => seen.push(s) });
    expect(declare()).toEqual({ rtt: 300, httpVersion: '2', online: true });
    expect(Object.keys(seen[0]!)).toEqual(['rtt', 'httpVersion', 'online']);
    expect(() => declare()).toThrow('declares its options once');
  });

  it('says what was expected when an override does not fit', () => {
    installOptionsContext({ overrides: { rtt: -5 }, onSchema: () => {} });
    expect(() => declare()).toThrow('Option "rtt" must be a number from 0 to 1000; got -5.');
  });
});
