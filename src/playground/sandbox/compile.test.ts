import { describe, expect, it } from 'vitest';
import { readColumnMap } from './columns';
import { columnMap, compileSnippet } from './compile';
import { describeRuntimeError, executeSnippet, locateError } from './execute';

function run(code: string, modules: Record<string, unknown> = {}) {
  const compiled = compileSnippet(code);
  if (!compiled.ok) throw new Error(`compile failed: ${compiled.message}`);
  const lines: unknown[][] = [];
  const fakeConsole = { log: (...args: unknown[]) => lines.push(args) };
  return { lines, done: executeSnippet(compiled.js, modules, fakeConsole) };
}

describe('snippet compile and execute', () => {
  it('strips types, resolves playground modules and supports top-level await', async () => {
    const { lines, done } = run(`import { answer } from 'lib';\nconst n: number = await Promise.resolve(answer);\nconsole.log('n', n);`, {
      lib: { answer: 42 },
    });
    await done;
    expect(lines).toEqual([['n', 42]]);
  });

  it('refuses modules the playground does not offer, naming the ones it does', async () => {
    const { done } = run(`import fs from 'node:fs';\nconsole.log(fs);`, { 'roundtrip/wire': {} });
    await expect(done).rejects.toThrow("Cannot import 'node:fs': the playground provides 'roundtrip/wire'.");
  });

  it('reports syntax errors with the snippet line and column', () => {
    const result = compileSnippet('const a = 1;\nconst b = ;\n');
    expect(result).toMatchObject({ ok: false, position: { line: 2, column: 11 } });
  });

  it('maps runtime errors to the snippet line and column despite type annotations', async () => {
    const { done } = run(`type T = { a: number };\nconst t: T = { a: 1 };\n\n  (t as any).missing.call();\n`);
    const error = await done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(locateError(error)).toEqual({ line: 4, column: expect.any(Number) });
  });

  it('puts the column where the reader wrote the code, though compiling removed types and rewrote imports', async () => {
    const source = `import { fail } from 'lib';\nconst n: number = 1; const label: string = 'x'; missing(n);\nconst m: number = 2; fail(m);\n`;
    const compiled = compileSnippet(source);
    if (!compiled.ok) throw new Error(compiled.message);
    const columns = readColumnMap(compiled.js);
    const lib = {
      fail: () => {
        throw new Error('from the library');
      },
    };
    const errorOf = (code: string) =>
      executeSnippet(compiled.js.replace('missing(n);', code), { lib }, console).then(
        () => undefined,
        (e: unknown) => e,
      );
    const line2 = source.split('\n')[1] ?? '';
    // V8 places a ReferenceError at the name, a throwing call's frame at the callee.
    expect(locateError(await errorOf('missing(n);'), columns)).toEqual({ line: 2, column: line2.indexOf('missing') + 1 });
    expect(locateError(await errorOf(';'), columns)).toEqual({ line: 3, column: 22 });
    // Without the map, the columns are the compiled code's: what readers saw before.
    expect(locateError(await errorOf('missing(n);'))).not.toEqual({ line: 2, column: line2.indexOf('missing') + 1 });
  });

  it('leaves code whose columns did not move without a map', () => {
    const compiled = compileSnippet('const a = 1;\nconsole.log(a);\n');
    expect(compiled.ok && readColumnMap(compiled.js)).toEqual({});
    // Line 1's generated columns drop the "use strict"; the runner drops it from the code too.
    expect(columnMap('AAAA,aAAA', 13)).toEqual({});
    expect(columnMap('AAAA,aAAA')).toEqual({ 1: [0, 0, 13, 0] });
  });

  it('names unbounded recursion and the line that recursed', async () => {
    const { done } = run(`let depth = 0;\nfunction down(): number {\n  depth += 1;\n  return down() + 1;\n}\ndown();\n`);
    const error = await done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RangeError);
    const position = locateError(error);
    // Inside the recursing function (lines 2-5); which line the stack runs out on is the engine's business.
    expect(position?.line).toBeGreaterThanOrEqual(2);
    expect(position?.line).toBeLessThanOrEqual(5);
    expect(describeRuntimeError(error as Error, position)).toBe(
      `RangeError: Maximum call stack size exceeded at line ${position?.line}: runaway recursion. A function kept calling itself (directly or through others) without reaching a case that stops it.`,
    );
    expect(describeRuntimeError(new TypeError('x'))).toBe('TypeError: x');
  });
});
