import { describe, expect, test } from 'vitest';
import { compileSnippet } from './compile';
import { describeHandledLater, describeRuntimeError, describeUncaught, executeSnippet, locateError } from './execute';

async function thrown(source: string): Promise<unknown> {
  const compiled = compileSnippet(source);
  if (!compiled.ok) throw new Error(compiled.message);
  try {
    await executeSnippet(compiled.js, {}, console);
  } catch (error) {
    return error;
  }
  throw new Error('the snippet did not throw');
}

describe('executeSnippet error positions', () => {
  test('an error on the first line is placed at its own column, not after the compiler\'s "use strict"', async () => {
    const error = await thrown("consol.log('hi')");
    expect(String(error)).toContain('consol is not defined');
    expect(locateError(error)).toEqual({ line: 1, column: 1 });
  });

  test('later lines keep their line and column', async () => {
    expect(locateError(await thrown('const a = 1;\n  missing(a);'))).toEqual({ line: 2, column: 3 });
  });

  test('the snippet still runs in strict mode', async () => {
    expect(String(await thrown('undeclared = 1;'))).toContain('undeclared is not defined');
  });
});

describe('describeHandledLater', () => {
  test('names the rejection it takes back, with its position', () => {
    expect(describeHandledLater(new Error('refused'), { line: 2, column: 7 })).toBe(
      'Handled later: the rejection above (Error: refused (line 2, column 7)) got a handler after all.',
    );
    expect(describeHandledLater(42)).toBe('Handled later: the rejection above (42) got a handler after all.');
  });
});

describe('describeUncaught', () => {
  test('uses the words DevTools uses, with the position when known', () => {
    expect(describeUncaught(new TypeError('x is not a function'), false, { line: 3, column: 5 })).toBe(
      'Uncaught TypeError: x is not a function (line 3, column 5)',
    );
    expect(describeUncaught(new Error('nobody caught me'), true)).toBe('Uncaught (in promise) Error: nobody caught me');
    expect(describeUncaught({ code: 42 }, true)).toBe('Uncaught (in promise) { code: 42 }');
    expect(describeUncaught('text', false)).toBe('Uncaught text');
  });

  test("an error's cause is shown: a failed sim.fetch says why it failed", () => {
    const failed = new TypeError('Failed to fetch', { cause: new Error('no route to other.example') });
    expect(describeRuntimeError(failed)).toBe('TypeError: Failed to fetch (caused by Error: no route to other.example)');
  });
});
