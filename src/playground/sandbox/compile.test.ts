import { describe, expect, it } from 'vitest';
import { compileSnippet } from './compile';
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
    const { lines, done } = run(
      `import { answer } from 'lib';\nconst n: number = await Promise.resolve(answer);\nconsole.log('n', n);`,
      { lib: { answer: 42 } },
    );
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
    const error = await done.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(locateError(error)).toEqual({ line: 4, column: expect.any(Number) });
  });

  it('names unbounded recursion and the line that recursed', async () => {
    const { done } = run(`let depth = 0;\nfunction down(): number {\n  depth += 1;\n  return down() + 1;\n}\ndown();\n`);
    const error = await done.then(() => undefined, (e: unknown) => e);
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
