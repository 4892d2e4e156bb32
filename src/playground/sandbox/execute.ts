/**
 * Runs compiled snippet code with a `require` that only knows the modules the playground offers.
 *
 * The snippet becomes the body of an async function (so top-level `await` works) whose stack frames carry the
 * name `snippet.ts` (via `//# sourceURL`). The function's head sits on a line of its own above the body, so the
 * body's line N is the source's line N + 1 and its columns are the snippet's own.
 *
 * How the function is made is up to the caller (an Evaluate). The sandbox makes it with a script element
 * (evaluateAsScript): code that `eval` or `new Function` makes belongs to the script that called them, the
 * sandbox runtime, which is cross-origin to the opaque-origin sandbox page, so the browser mutes its errors and
 * drops its unhandled promise rejections (HTML, "muted errors"); an inline script belongs to the page itself,
 * so a promise the snippet rejects and nobody handles is reported like any other.
 */
import { callSiteOf, SNIPPET_SOURCE, snippetFrame } from './callsite';
import { toSourcePosition, type ColumnMap } from './columns';
import { formatArgs } from './format';
import type { SourcePosition } from './protocol';

/** Lines the wrapper puts above the snippet's first line (see wrap). */
const WRAPPER_LINES = 1;

type Require = (name: string) => unknown;
type SnippetFunction = (require: Require, exports: object, module: { exports: object }, console: unknown) => Promise<void>;

/** Evaluates a function expression's source and gives back the function. */
export type Evaluate = (expression: string) => unknown;

/** Indirect eval: global scope, like `new Function`; what tests and non-browser hosts use. */
// biome-ignore lint/security/noGlobalEval: running the reader's own snippet is this module's job; it runs inside the sandbox
export const evaluateWithEval: Evaluate = (expression) => (0, eval)(expression);

const USE_STRICT = '"use strict";';

/**
 * The snippet as the source of an async function expression. The compiler puts `"use strict";` in front of the
 * snippet's first line, which would shift every column on that line (a typo in column 1 reported at column 14):
 * the directive moves to the wrapper's own line instead.
 */
function wrap(js: string): string {
  const body = js.startsWith(USE_STRICT) ? js.slice(USE_STRICT.length) : js;
  return `(async function (require, exports, module, console) {${USE_STRICT}\n${body}\n})\n//# sourceURL=${SNIPPET_SOURCE}`;
}

let scripts = 0;
/** Where a script the snippet became failed to parse (evaluateAsScript), in the wrapped code's lines. */
const SCRIPT_POSITION = Symbol('script position');

/**
 * An Evaluate for a browser page: the expression runs as an inline classic script (the page's
 * Content-Security-Policy must allow inline scripts), so it belongs to the page and its errors are not muted.
 * Inline, it runs within the call, with no fetch as a blob: URL script would need. A syntax error in it (one the
 * compiler lets through, such as a `let` declared twice) is thrown; load a snippet before installing the page's
 * handlers for uncaught errors (runtime.ts), which would otherwise see it first.
 */
export function evaluateAsScript(expression: string): unknown {
  const slot = `__roundtripSnippet${++scripts}`;
  const global = globalThis as unknown as Record<string, unknown>;
  let syntaxError: unknown;
  // An inline script's parse error is reported, as an error event, while it is being inserted.
  const onError = (event: ErrorEvent) => {
    // Reported to the run instead of as an uncaught error of the page. A SyntaxError's stack does not say where
    // it is; the event does, in the same lines and columns a stack would use.
    event.preventDefault();
    const error: unknown = event.error ?? new SyntaxError(event.message);
    if (error instanceof Error) {
      // Chromium words it as a failure of the DOM call that ran the script: the reader wants the engine's words.
      error.message = error.message.replace(/^Failed to execute '\w+' on '\w+': /, '');
      Object.defineProperty(error, SCRIPT_POSITION, { value: { line: event.lineno, column: event.colno } });
    }
    syntaxError = error;
  };
  const script = document.createElement('script');
  script.textContent = `globalThis.${slot} = ${expression}`;
  window.addEventListener('error', onError);
  try {
    document.head.append(script);
  } finally {
    window.removeEventListener('error', onError);
    script.remove();
  }
  if (syntaxError !== undefined) throw syntaxError;
  const made = global[slot];
  delete global[slot];
  if (!made) throw new Error('The snippet could not be loaded into the sandbox (was its script blocked?).');
  return made;
}

export class UnknownModuleError extends Error {
  override readonly name = 'UnknownModuleError';
}

export type LoadedSnippet = (modules: Readonly<Record<string, unknown>>, sandboxConsole: unknown, offered?: readonly string[]) => Promise<void>;

/**
 * Turns compiled snippet code into something to run, without running any of it: a snippet that does not parse
 * fails here. Running it takes the modules it may import; `offered`: every module the playground provides (for
 * the error an unknown import gets), when `modules` holds only those loaded for this snippet.
 */
export async function loadSnippet(js: string, evaluate: Evaluate = evaluateWithEval): Promise<LoadedSnippet> {
  const snippet = (await evaluate(wrap(js))) as SnippetFunction;
  return async (modules, sandboxConsole, offered = Object.keys(modules)) => {
    const require: Require = (name) => {
      if (Object.hasOwn(modules, name)) return modules[name];
      const list = offered.map((m) => `'${m}'`).join(', ');
      // A module the playground has but did not load: the import was not where the loader looks (static imports).
      if (offered.includes(name)) throw new UnknownModuleError(`Cannot import '${name}' here: import it with a static import at the top of the snippet.`);
      throw new UnknownModuleError(`Cannot import '${name}': the playground provides ${list}.`);
    };
    const module = { exports: {} };
    await snippet(require, module.exports, module, sandboxConsole);
  };
}

/** loadSnippet, then run it. */
export async function executeSnippet(
  js: string,
  modules: Readonly<Record<string, unknown>>,
  sandboxConsole: unknown,
  offered: readonly string[] = Object.keys(modules),
  evaluate: Evaluate = evaluateWithEval,
): Promise<void> {
  await (await loadSnippet(js, evaluate))(modules, sandboxConsole, offered);
}

/**
 * Maps an error thrown by a snippet to its 1-based line and column in the snippet: the first snippet frame of its
 * stack, or, for an error made inside a library with no snippet frame, the snippet's call into that library
 * (callsite.ts); `columns`: the compiled code's column map (columns.ts), to undo what compiling moved.
 */
export function locateError(error: unknown, columns: ColumnMap = {}): SourcePosition | undefined {
  const raw =
    (error as { [SCRIPT_POSITION]?: SourcePosition } | null)?.[SCRIPT_POSITION] ??
    snippetFrame(error instanceof Error ? error.stack : undefined) ??
    callSiteOf(error);
  return raw && raw.line > WRAPPER_LINES ? toSourcePosition(columns, { line: raw.line - WRAPPER_LINES, column: raw.column }) : undefined;
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
  return `Uncaught${inPromise ? ' (in promise)' : ''} ${describeReason(reason, position)}`;
}

/**
 * The console line for a rejection reported as unhandled that got a handler afterwards (an `await` or `.catch`
 * that came later). DevTools then withdraws its "Uncaught (in promise)" line; a console that only appends says
 * so instead, as Node does ("Promise rejection was handled asynchronously").
 */
export function describeHandledLater(reason: unknown, position?: SourcePosition): string {
  return `Handled later: the rejection above (${describeReason(reason, position)}) got a handler after all.`;
}

function describeReason(reason: unknown, position?: SourcePosition): string {
  const what = reason instanceof Error ? describeRuntimeError(reason, position) : formatArgs([reason]);
  const where = position && !(reason instanceof RangeError && /call stack/i.test(reason.message)) ? ` (line ${position.line}, column ${position.column})` : '';
  return `${what}${where}`;
}
