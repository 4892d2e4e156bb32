import { describe, expect, test } from 'vitest';
import { adoptConsole, createSandboxConsole, formatTable, reportAt } from './console';

function setup(max = 100) {
  const lines: [string, string][] = [];
  let clock = 0;
  const c = createSandboxConsole({ emit: (level, text) => lines.push([level, text]), now: () => clock, max });
  return { c, lines, advance: (ms: number) => (clock += ms) };
}

describe('the sandbox console', () => {
  test('has every method a reader knows from DevTools, so browser code does not fail with a TypeError', () => {
    const { c } = setup();
    for (const name of [
      'log',
      'info',
      'warn',
      'error',
      'debug',
      'dir',
      'dirxml',
      'trace',
      'table',
      'assert',
      'count',
      'countReset',
      'time',
      'timeLog',
      'timeEnd',
      'group',
      'groupCollapsed',
      'groupEnd',
      'clear',
    ])
      expect(typeof (c as Record<string, unknown>)[name], name).toBe('function');
  });

  test('groups indent what is logged inside them, every line of it', () => {
    const { c, lines } = setup();
    c.group('outer');
    c.log('a\nb');
    c.groupCollapsed();
    c.warn('deep');
    c.groupEnd();
    c.groupEnd();
    c.groupEnd(); // one too many is harmless, as in DevTools
    c.log('out');
    expect(lines).toEqual([
      ['log', 'outer'],
      ['log', '  a\n  b'],
      ['log', '  console.group'],
      ['warn', '    deep'],
      ['log', 'out'],
    ]);
  });

  test('count and countReset keep one counter per label, "default" without one', () => {
    const { c, lines } = setup();
    c.count();
    c.count('x');
    c.count();
    c.countReset();
    c.count();
    c.countReset('nope');
    expect(lines).toEqual([
      ['info', 'default: 1'],
      ['info', 'x: 1'],
      ['info', 'default: 2'],
      ['info', 'default: 1'],
      ['warn', "Count for 'nope' does not exist"],
    ]);
  });

  test('time, timeLog and timeEnd measure with the injected clock', () => {
    const { c, lines, advance } = setup();
    c.time('load');
    advance(12.34567);
    c.timeLog('load', 'half');
    advance(1);
    c.timeEnd('load');
    c.timeEnd('load');
    c.time();
    c.time();
    expect(lines).toEqual([
      ['info', 'load: 12.346 ms half'],
      ['info', 'load: 13.346 ms'],
      ['warn', "Timer 'load' does not exist"],
      ['warn', "Timer 'default' already exists"],
    ]);
  });

  test('assert logs an error only when the condition is falsy', () => {
    const { c, lines } = setup();
    c.assert(true, 'never');
    c.assert(false, 'expected %s', 2);
    c.assert(0);
    expect(lines).toEqual([
      ['error', 'Assertion failed: expected %s 2'],
      ['error', 'Assertion failed'],
    ]);
  });

  test('the cap counts every method and says once that it was reached', () => {
    const { c, lines } = setup(3);
    for (let i = 0; i < 10; i++) c.count();
    expect(lines.map(([, t]) => t)).toEqual(['default: 1', 'default: 2', 'default: 3', 'Console output capped at 3 entries for this run.']);
  });

  test('dir and trace print the value; table falls back to the value for primitives', () => {
    const { c, lines } = setup();
    c.dir({ a: [1, 2] });
    c.trace('here', 1);
    c.table('just text');
    expect(lines).toEqual([
      ['log', '{ a: [1, 2] }'],
      ['log', 'Trace: here 1'],
      ['log', 'just text'],
    ]);
  });
});

describe('formatTable', () => {
  test('rows of objects get a column per key, in first-seen order, with an index column', () => {
    expect(
      formatTable([
        { id: 1, title: 'Learn HTTP' },
        { id: 2, done: true },
      ]),
    ).toBe(
      [
        '| (index) | id | title      | done |',
        '|---------|----|------------|------|',
        '| 0       | 1  | Learn HTTP |      |',
        '| 1       | 2  |            | true |',
      ].join('\n'),
    );
  });

  test('primitive rows go in a Values column; Maps and objects index by key; columns can be chosen', () => {
    expect(formatTable({ a: 1, b: { x: 2, y: 3 } }, ['x'])).toBe(
      ['| (index) | x | Values |', '|---------|---|--------|', '| a       |   | 1      |', '| b       | 2 |        |'].join('\n'),
    );
    expect(formatTable(new Map([['k', 'v']]))).toContain('| k       | v      |');
    expect(formatTable(42)).toBeUndefined();
  });

  test('a long array is cut at 50 rows and says so', () => {
    const text = formatTable(Array.from({ length: 80 }, (_, i) => i))!;
    expect(text.split('\n')).toHaveLength(2 + 50 + 1);
    expect(text).toMatch(/more rows than the 50 shown$/);
  });
});

describe('reportAt', () => {
  test('writes an entry with its snippet position, under the same cap and indentation as the console, unseen by the snippet', () => {
    const entries: [string, string, unknown][] = [];
    const c = createSandboxConsole({ emit: (level, text, position) => entries.push([level, text, position]), now: () => 0, max: 2 });
    c.group('g');
    reportAt(c, 'error', 'Uncaught Error: x', { line: 2, column: 5 });
    c.log('plain');
    reportAt(c, 'error', 'over the cap', { line: 9, column: 1 });
    expect(entries).toEqual([
      ['log', 'g', undefined],
      ['error', '  Uncaught Error: x', { line: 2, column: 5 }],
      ['warn', 'Console output capped at 2 entries for this run.', undefined],
    ]);
    expect(Object.keys(c)).not.toContain('reportAt');
  });
});

describe('adoptConsole', () => {
  test("sends what library code logs through the realm's console to the playground's console", () => {
    const lines: [string, string][] = [];
    const c = createSandboxConsole({ emit: (level, text) => lines.push([level, text]), now: () => 0, max: 10 });
    const realm = { log: () => {}, error: () => {}, memory: { used: 1 } } as unknown as Console;
    adoptConsole(realm, c);
    realm.error(new Error('caught by a boundary'));
    realm.table([{ a: 1 }]);
    expect(lines).toEqual([
      ['error', 'Error: caught by a boundary'],
      ['log', '| (index) | a |\n|---------|---|\n| 0       | 1 |'],
    ]);
    expect((realm as unknown as { memory: unknown }).memory).toEqual({ used: 1 });
  });
});
