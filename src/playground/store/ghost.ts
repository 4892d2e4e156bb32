/**
 * The ghost: the previous run, kept so the visualizers can draw the current run over it (issue #27, item 5).
 * A reader who changes an option and runs again (loss 0.1 -> 0.3, defence on -> off, retry 1 -> 3) sees what
 * moved, with the ghost labelled by what differed ("ghost: loss 0.1"). Pure functions over plain values, so the
 * store keeps one value and a test checks it without React.
 *
 * Rules, as the store applies them at the start of each run:
 * - the last run that recorded anything becomes the ghost when the new run differs from it (an option or the code);
 * - a run that differs in nothing keeps the ghost there was (it still shows what the last change moved);
 * - a pinned ghost stays, whatever runs next, until it is cleared (or unpinned);
 * - Clear drops it; the next run that changes something makes a new one.
 * Not in share links: a ghost is a comparison on this page, made by this reader.
 */
import type { Recording } from '../recording/model';
import type { OptionValue } from '../options/schema';

/** What a run ran with: its code and every option's value. */
export interface RunInputs {
  readonly code: string;
  readonly values: Readonly<Record<string, OptionValue>>;
}

export interface Ghost {
  /** The previous run's recording, as it stood when the next run started. */
  readonly recording: Recording;
  /** 'ghost: loss 0.1': the previous run's value of each option that differed (or 'previous code'). */
  readonly label: string;
  readonly pinned: boolean;
  /** Changes with each new ghost, so views can tell one from another. */
  readonly key: number;
}

function formatValue(value: OptionValue): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value === 'number') return String(+value.toPrecision(12));
  return value;
}

/** What sets `before` apart from `after`, as `before` had it; null when nothing does. */
export function ghostLabel(before: RunInputs, after: RunInputs): string | null {
  const parts: string[] = [];
  const names = new Set([...Object.keys(before.values), ...Object.keys(after.values)]);
  for (const name of names) {
    const was = before.values[name];
    if (was !== undefined && !Object.is(was, after.values[name])) parts.push(`${name} ${formatValue(was)}`);
  }
  if (before.code !== after.code) parts.push('previous code');
  return parts.length > 0 ? `ghost: ${parts.join(', ')}` : null;
}

/** The ghost for a run about to start with `next`, given the current ghost and the last run that recorded something. */
export function nextGhost(
  current: Ghost | null,
  last: { readonly inputs: RunInputs; readonly recording: () => Recording } | undefined,
  next: RunInputs,
  key: number,
): Ghost | null {
  if (current?.pinned || !last) return current;
  const label = ghostLabel(last.inputs, next);
  if (label === null) return current;
  const recording = last.recording();
  return recording.steps.length > 0 ? { recording, label, pinned: false, key } : current;
}
