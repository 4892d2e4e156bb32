/**
 * Runs compiled snippet code with a `require` that only knows the modules the playground offers.
 *
 * The snippet becomes the body of an async function (so top-level `await` works) whose stack frames carry the
 * name `snippet.ts` (via `//# sourceURL`). The function wrapper adds lines above the body; that offset is
 * measured once with a probe rather than assumed, since it is an engine detail.
 */
import { formatArgs } from './format';
import type { SourcePosition } from './protocol';

const SOURCE_NAME = 'snippet.ts';
const STACK_POSITION = /snippet\.ts:(\d+):(\d+)/;

type Require = (name: string) => unknown;
type SnippetFunction = (require: Require, exports: object, module: { exports: object }, console: unknown) => Promise<void>;

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => SnippetFunction;

const USE_STRICT = '"use strict";';

/**
 * The compiler puts `"use strict";` in front of the snippet's first line, which would shift every column on that
 * line (a typo in column 1 reported at column 14). The directive goes on a line of its own instead, above the
 * snippet; the line offset is measured with the same wrapper (wrapperLineOffset), so lines stay right too.
 */
function wrap(js: string): SnippetFunction {
  const body = js.startsWith(USE_STRICT) ? js.slice(USE_STRICT.length) : js;
  return new AsyncFunction('require', 'exports', 'module', 'console', `${USE_STRICT}\n${body}\n//# sourceURL=${SOURCE_NAME}`);
}

export class UnknownModuleError extends Error {
  override readonly name = 'UnknownModuleError';
}

/**
 * `offered`: every module the playground provides (for the error an unknown import gets), when `modules` holds
 * only those loaded for this snippet.
 */
export async function executeSnippet(
  js: string,
  modules: Readonly<Record<string, unknown>>,
  sandboxConsole: unknown,
  offered: readonly string[] = Object.keys(modules),
): Promise<void> {
  const require: Require = (name) => {
    if (Object.hasOwn(modules, name)) return modules[name];
    const list = offered.map((m) => `'${m}'`).join(', ');
    // A module the playground has but did not load: the import was not where the loader looks (static imports).
    if (offered.includes(name)) throw new UnknownModuleError(`Cannot import '${name}' here: import it with a static import at the top of the snippet.`);
    throw new UnknownModuleError(`Cannot import '${name}': the playground provides ${list}.`);
  };
  const module = { exports: {} };
  await wrap(js)(require, module.exports, module, sandboxConsole);
}

let offsetPromise: Promise<number> | undefined;
function wrapperLineOffset(): Promise<number> {
  offsetPromise ??= wrap('throw new Error("probe")')(() => undefined, {}, { exports: {} }, undefined).then(
    () => 0,
    (e: unknown) => (rawPosition(e)?.line ?? 1) - 1,
  );
  return offsetPromise;
}

function rawPosition(error: unknown): SourcePosition | undefined {
  const m = STACK_POSITION.exec(error instanceof Error ? (error.stack ?? '') : '');
  return m ? { line: Number(m[1]), column: Number(m[2]) } : undefined;
}

/** Maps an error thrown by a snippet to its 1-based line and column in the snippet, when the stack says. */
export async function locateError(error: unknown): Promise<SourcePosition | undefined> {
  const raw = rawPosition(error);
  if (!raw) return undefined;
  return { line: raw.line - (await wrapperLineOffset()), column: raw.column };
}

/**
 * The console's one-line description of an Error a snippet threw. A stack overflow gets named for what it
 * almost always is in a snippet, runaway recursion, with the line that kept calling (V8's "Maximum call stack
 * size exceeded" alone sends readers hunting for a loop).
 */
export function describeRuntimeError(error: Error, position?: SourcePosition): string {
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    // The line where the stack ran out: inside the recursing function, not necessarily at its call.
    const where = position ? ` at line ${position.line}` : '';
    return `RangeError: ${error.message}${where}: runaway recursion. A function kept calling itself (directly or through others) without reaching a case that stops it.`;
  }
  return formatArgs([error]);
}

/**
 * The console line for something thrown where the snippet's body could not catch it: in a timer or event
 * callback ("Uncaught Error: ..."), or a rejected promise nobody handled ("Uncaught (in promise) Error: ..."),
 * the words DevTools uses, with the snippet line when the stack names one.
 */
export function describeUncaught(reason: unknown, inPromise: boolean, position?: SourcePosition): string {
  const what = reason instanceof Error ? describeRuntimeError(reason, position) : formatArgs([reason]);
  const where = position && !(reason instanceof RangeError && /call stack/i.test(reason.message)) ? ` (line ${position.line}, column ${position.column})` : '';
  return `Uncaught${inPromise ? ' (in promise)' : ''} ${what}${where}`;
}
