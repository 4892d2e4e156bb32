import { describe, expect, test } from 'vitest';
import * as wire from 'roundtrip/wire';
import * as query from 'roundtrip/query';
import { compileSnippet } from './compile';
import { readColumnMap } from './columns';
import { executeSnippet, locateError } from './execute';
import { createCapture } from './capture';
import { instrumentWireModule } from './capture-wire';
import { instrumentQueryModule } from './capture-query';
import { callSiteOf, withCallSite } from './callsite';

/** Runs `source` with the instrumented libraries the sandbox hands out; gives back what it threw and where. */
async function failure(source: string) {
  const compiled = compileSnippet(source);
  if (!compiled.ok) throw new Error(compiled.message);
  const capture = createCapture({ runId: 1, send: () => {}, warn: () => {} });
  const modules = { 'roundtrip/wire': instrumentWireModule(wire, capture), 'roundtrip/query': instrumentQueryModule(query, capture) };
  try {
    await executeSnippet(compiled.js, modules, console);
  } catch (error) {
    return { error, position: locateError(error, readColumnMap(compiled.js)) };
  }
  throw new Error('the snippet did not throw');
}

/** 1-based column of `token` in `line`. V8 places a method call at the method's name, as DevTools shows it. */
const column = (line: string, token: string) => line.indexOf(token) + 1;

describe('errors created inside library code point at the snippet line that called the library', () => {
  test('a rejected sim.fetch: the await line (its stack has no snippet frame: the failure happens in a simulated timer)', async () => {
    const line3 = "const res = await sim.fetch('https://example.test/nope');";
    const { error, position } = await failure(
      ["import { createSimulation } from 'roundtrip/wire';", 'const sim = createSimulation({ seed: 1 });', line3, ''].join('\n'),
    );
    expect(String(error)).toContain('Failed to fetch');
    expect((error as Error).stack).not.toContain('snippet.ts');
    expect(position).toEqual({ line: 3, column: column(line3, 'fetch(') });
  });

  test('a query whose queryFn calls a failing sim.fetch: the line of that call inside the queryFn, as the innermost snippet frame', async () => {
    const line5 = "  queryFn: () => sim.fetch('https://example.test/nope'),";
    const { error, position } = await failure(
      [
        "import { createSimulation } from 'roundtrip/wire';",
        "import { QueryClient } from 'roundtrip/query';",
        'const sim = createSimulation({ seed: 1 });',
        "await new QueryClient({ defaultOptions: { queries: { retry: false } } }).fetchQuery({ queryKey: ['a'],",
        line5,
        '});',
        '',
      ].join('\n'),
    );
    expect(String(error)).toContain('Failed to fetch');
    expect(position).toEqual({ line: 5, column: column(line5, 'fetch(') });
  });
});

describe('withCallSite', () => {
  test('passes results, rejections and synchronous throws through unchanged', async () => {
    const boom = new Error('sync');
    await expect(withCallSite(async (x: number) => x * 2)(21)).resolves.toBe(42);
    await expect(withCallSite(() => Promise.reject(boom))()).rejects.toBe(boom);
    expect(() =>
      withCallSite(() => {
        throw boom;
      })(),
    ).toThrow(boom);
    expect(withCallSite((a: string) => a.length)('abc')).toBe(3);
  });

  test('an error with a snippet frame of its own keeps it: the call site is only for errors without one', async () => {
    const lib = { call: withCallSite((callback: () => unknown) => Promise.resolve().then(callback)) };
    const line2 = "  await lib.call(() => { throw new Error('own'); });";
    const compiled = compileSnippet(["import lib from 'lib';", line2, ''].join('\n'));
    if (!compiled.ok) throw new Error(compiled.message);
    const error = await executeSnippet(compiled.js, { lib: { default: lib, __esModule: true } }, console).catch((e: unknown) => e);
    expect(String(error)).toBe('Error: own');
    expect(callSiteOf(error)).toBeUndefined();
    expect(locateError(error, readColumnMap(compiled.js))).toEqual({ line: 2, column: column(line2, 'new Error') });
  });

  test('keeps `this`', async () => {
    const target = {
      n: 7,
      get: withCallSite(async function (this: { n: number }) {
        return this.n;
      }),
    };
    await expect(target.get()).resolves.toBe(7);
  });
});
