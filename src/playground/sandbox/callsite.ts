/**
 * Where the snippet called into a library, for errors whose own stack never passes through the snippet.
 *
 * A simulated fetch fails inside a timer callback of the simulation: the TypeError is made there, and its stack
 * holds library frames only (V8 appends `at async` frames only for async functions awaiting one another, not
 * for a promise a callback rejects). DevTools, open, fills the gap with its recorded async stacks, whose first
 * snippet frame is the line that called `sim.fetch`. withCallSite does the same for one library function: it
 * remembers the call's stack, and when the call's promise rejects with an error that has no snippet frame of
 * its own, that error gets the call's snippet position (callSiteOf).
 *
 * Positions here are raw: lines and columns of the wrapped, compiled code, as a stack names them; execute.ts
 * (locateError) maps them back to the snippet.
 */
import type { SourcePosition } from './protocol';

/** The file name the snippet's frames carry (execute.ts gives it with `//# sourceURL`). */
export const SNIPPET_SOURCE = 'snippet.ts';
const STACK_POSITION = /snippet\.ts:(\d+):(\d+)/;

/** The first snippet frame of `stack`, if any: the innermost call in the snippet, as DevTools lists it first. */
export function snippetFrame(stack: string | undefined): SourcePosition | undefined {
  const m = STACK_POSITION.exec(stack ?? '');
  return m ? { line: Number(m[1]), column: Number(m[2]) } : undefined;
}

const callSites = new WeakMap<object, SourcePosition>();

/** The snippet position of the library call an error came out of, when withCallSite saw it go by. */
export function callSiteOf(error: unknown): SourcePosition | undefined {
  return typeof error === 'object' && error !== null ? callSites.get(error) : undefined;
}

function remember(error: unknown, site: Error): void {
  if (typeof error !== 'object' || error === null || callSites.has(error)) return;
  if (error instanceof Error && snippetFrame(error.stack)) return;
  const position = snippetFrame(site.stack);
  if (position) callSites.set(error, position);
}

/**
 * `fn`, returning the same values and failing with the same errors, which also remembers where the snippet called
 * it for an error that leaves it without a snippet frame. A rejection goes through one more promise reaction (so
 * it arrives one microtask later, and an unawaited call that fails is still reported as unhandled). The first
 * wrapper an error leaves is the innermost call, and it keeps that position.
 */
export function withCallSite<This, Args extends unknown[], Result>(fn: (this: This, ...args: Args) => Result): (this: This, ...args: Args) => Result {
  return function (this: This, ...args: Args): Result {
    // An Error captures its frames when made and formats them only when `.stack` is read: cheap on every call.
    const site = new Error();
    let result: Result;
    try {
      result = fn.apply(this, args);
    } catch (error) {
      remember(error, site);
      throw error;
    }
    if (!(result instanceof Promise)) return result;
    return result.then(undefined, (error: unknown) => {
      remember(error, site);
      throw error;
    }) as Result;
  };
}
