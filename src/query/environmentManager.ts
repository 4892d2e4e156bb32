/**
 * Where are we running? On a server (no window) retries default to 0, gcTime to Infinity and
 * observers schedule no timers. Tests and SSR frameworks can override the answer.
 */
export type IsServerValue = () => boolean;

/** Static guess made once at load: no `window`, or running under Deno. */
export const isServer: boolean = typeof window === 'undefined' || 'Deno' in globalThis;

let detect: IsServerValue = () => isServer;

/** The current answer: what the detector installed with `setIsServer` says (by default, `isServer`). */
export const isServerNow = (): boolean => detect();

export const environmentManager = {
  isServer: isServerNow,
  setIsServer(value: IsServerValue): void {
    detect = value;
  },
};
