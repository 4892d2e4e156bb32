/**
 * How the sandbox runtime talks to `defineOptions` inside one realm (each run gets a fresh realm, so this
 * module-level slot belongs to exactly one run). Not part of `roundtrip/playground`'s public surface.
 */
import type { OptionsSchema } from './schema';
import type { ShowOptions } from './show';

export interface OptionsContext {
  /** Values the reader chose in the panel or that arrived through a link; only non-defaults. */
  readonly overrides: Readonly<Record<string, unknown>>;
  /** Told the snippet's validated schema, so the host can redraw its panel after an edit. */
  readonly onSchema: (schema: OptionsSchema) => void;
  /** Draws bytes a snippet passed to `show()` in the visualizer (sandbox/capture-show.ts); absent: show is a no-op. */
  readonly show?: (bytes: Uint8Array, options: ShowOptions) => void;
}

let current: OptionsContext | undefined;
let defined = false;

export function installOptionsContext(context: OptionsContext | undefined): void {
  current = context;
  defined = false;
}

/** Called by defineOptions: the context, and whether options were already defined in this run. */
export function takeOptionsContext(): { context: OptionsContext | undefined; again: boolean } {
  // Outside a playground (tests, a downloaded project) calling it again is harmless.
  const again = current !== undefined && defined;
  defined = true;
  return { context: current, again };
}

/** The run's context for `show()`, which may be called any number of times; undefined outside a playground. */
export function currentOptionsContext(): OptionsContext | undefined {
  return current;
}
