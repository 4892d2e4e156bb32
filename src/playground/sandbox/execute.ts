/**
 * Runs compiled snippet code with a `require` that only knows the modules the playground offers.
 *
 * The snippet becomes the body of an async function (so top-level `await` works) whose stack frames carry the
 * name `snippet.ts` (via `//# sourceURL`). The function wrapper adds lines above the body; that offset is
 * measured once with a probe rather than assumed, since it is an engine detail.
 */
import type { SourcePosition } from './protocol';

const SOURCE_NAME = 'snippet.ts';
const STACK_POSITION = /snippet\.ts:(\d+):(\d+)/;

type Require = (name: string) => unknown;
type SnippetFunction = (require: Require, exports: object, module: { exports: object }, console: unknown) => Promise<void>;

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => SnippetFunction;

function wrap(js: string): SnippetFunction {
  return new AsyncFunction('require', 'exports', 'module', 'console', `${js}\n//# sourceURL=${SOURCE_NAME}`);
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
  return `${error.name}: ${error.message}`;
}
