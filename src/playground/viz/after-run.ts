/**
 * What the player does when a run's top level has finished: the panel's one decision about playback after a
 * run (VizPanel.tsx).
 *
 * - A share link named a step: show it.
 * - The run was on the virtual clock (the default, sandbox/virtual-time.ts): it finished at once, so nothing was
 *   seen moving while it ran. Play the recording from the start, at the reader's speed, so a retry countdown
 *   or a stale time still ticks on screen; under reduced motion, show the final state instead.
 * - A real-time run (`// @playground real-time`) was watched live as it happened: a run with wire events replays
 *   as before (the network's steps go by too fast to follow live); one with only query clients keeps following
 *   them, since they may go on producing events after the top level has finished.
 */
import type { Recording } from '../recording/model';

export type AfterRun = { readonly kind: 'seek'; readonly step: number } | { readonly kind: 'play' } | { readonly kind: 'follow' };

export function afterRun(
  recording: Recording,
  { initialStep, realTime, reducedMotion }: { initialStep?: number | undefined; realTime: boolean; reducedMotion: boolean },
): AfterRun {
  const last = recording.steps.length - 1;
  if (last < 0) return { kind: 'follow' };
  if (initialStep !== undefined) return { kind: 'seek', step: Math.min(initialStep, last) };
  const replays = !realTime || recording.sources.some((s) => s.kind === 'wire' && s.events.length > 0);
  if (!replays) return { kind: 'follow' };
  return reducedMotion ? { kind: 'seek', step: last } : { kind: 'play' };
}
