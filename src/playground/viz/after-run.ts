/**
 * What the player does when a run's top level has finished: the panel's one decision about playback after a
 * run (VizPanel.tsx).
 *
 * - A share link named a step: show it (the link's step wins).
 * - Otherwise show the final state at once, scrubber at the end, and keep following the live end: a run on the
 *   virtual clock (the default, sandbox/virtual-time.ts) finished in the time it took to compute, and a reader
 *   should not wait minutes for the result they asked for, as Chrome DevTools and HTTP Toolkit show a capture
 *   whole. Play replays it from the start (player.ts paces a replay to at most REPLAY_BUDGET_MS at 1x), and
 *   Step goes through it in detail. Following also keeps a query client's later events in view (what it left
 *   running, a devtools action's effect), until the reader steps or scrubs.
 *
 * Reduced motion changes nothing here: nothing plays by itself either way.
 */
import type { Recording } from '../recording/model';

export type AfterRun = { readonly kind: 'seek'; readonly step: number } | { readonly kind: 'follow' };

export function afterRun(recording: Recording, { initialStep }: { initialStep?: number | undefined }): AfterRun {
  const last = recording.steps.length - 1;
  if (last < 0 || initialStep === undefined) return { kind: 'follow' };
  return { kind: 'seek', step: Math.min(initialStep, last) };
}
