/**
 * The core's one instrumentation seam. Queries, mutations, observers and the retryer report what they do
 * as `trace(client, type, owner, ...facts)`: raw facts, no event objects. An `Instrumentation` (see
 * instrumentation.ts) attaches a hook per client and turns the facts into events; the core never imports
 * it, so an app that does not instrument pays for this file and the call sites only, the way TanStack's
 * devtools live outside query-core.
 */
export type TraceHook = (type: string, owner: object, a?: unknown, b?: unknown, c?: unknown) => void;

const hooks = new WeakMap<object, TraceHook>();
// Until some client is instrumented, a trace is one read of this counter (no map lookup on hot paths).
let attached = 0;

export function trace(client: object | undefined, type: string, owner: object, a?: unknown, b?: unknown, c?: unknown): void {
  if (attached) hooks.get(client!)?.(type, owner, a, b, c);
}

/** @internal Instrumentation's side of the seam: one hook per client. */
export function attachTrace(client: object, hook: TraceHook): void {
  hooks.set(client, hook);
  attached++;
}
