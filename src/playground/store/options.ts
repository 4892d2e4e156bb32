/**
 * A snippet's options as the playground store keeps them: the schema (read at build time, then as each run
 * reports it, so edits to the code take effect) and the reader's overrides. Plain functions over an immutable
 * value, so the store can hold them and a test can check them without React.
 *
 * Only overrides are kept, never a full copy of the values, so a link stores just what differs from the
 * defaults. A `seed` option travels in ShareState's own `seed` field: the seed is part of the state that makes
 * a run replay identically, whichever snippet declares it.
 */
import type { ShareState } from '../share/codec';
import { nonDefaultValues, OptionsError, validateSchema, type OptionsSchema, type OptionValue } from '../options/schema';

export interface OptionsState {
  readonly schema: OptionsSchema | undefined;
  readonly overrides: Readonly<Record<string, OptionValue>>;
}

export type SharedOptions = Pick<ShareState, 'options' | 'seed'>;

export function initialOptions(schema: OptionsSchema | undefined): OptionsState {
  return { schema, overrides: {} };
}

/** Every option's current value: defaults merged with overrides. */
export function optionValues({ schema, overrides }: OptionsState): Record<string, OptionValue> {
  const out: Record<string, OptionValue> = {};
  for (const [name, spec] of Object.entries(schema ?? {})) out[name] = Object.hasOwn(overrides, name) ? overrides[name]! : spec.default;
  return out;
}

export function hasOptions({ schema }: OptionsState): boolean {
  return schema !== undefined && Object.keys(schema).length > 0;
}

export function optionsChanged({ overrides }: OptionsState): boolean {
  return Object.keys(overrides).length > 0;
}

/** `name` set to `value`; a default value is no override. */
export function setOption(state: OptionsState, name: string, value: OptionValue): OptionsState {
  const overrides = { ...state.overrides, [name]: value };
  const spec = state.schema?.[name];
  if (spec && Object.is(spec.default, value)) delete overrides[name];
  return { ...state, overrides };
}

/**
 * The sandbox reported the schema the code declares now: the new state, or the message saying why the schema
 * is unusable. Overrides for options the edited code no longer declares or no longer accepts are dropped.
 */
export function reportSchema(state: OptionsState, raw: unknown): { state: OptionsState } | { problem: string } {
  try {
    const schema = validateSchema(raw);
    return { state: { schema, overrides: nonDefaultValues(schema, state.overrides) } };
  } catch (error) {
    return { problem: error instanceof OptionsError ? error.message : String(error) };
  }
}

/** The options part of a share state. */
export function optionsToShare({ schema, overrides }: OptionsState): SharedOptions {
  const { seed, ...options } = schema ? nonDefaultValues(schema, overrides) : {};
  const out: SharedOptions = {};
  if (typeof seed === 'number' && Number.isInteger(seed)) out.seed = seed;
  else if (seed !== undefined) options.seed = seed;
  if (Object.keys(options).length > 0) out.options = options;
  return out;
}

/** Takes the options part of a decoded share state (checked again when the run resolves them). */
export function optionsFromShare(state: OptionsState, shared: ShareState): OptionsState {
  const overrides: Record<string, OptionValue> = {};
  for (const [k, v] of Object.entries(shared.options ?? {})) {
    // Anything else cannot be a knob's value; the run's resolveValues names the option if a value is wrong.
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') overrides[k] = v;
  }
  if (shared.seed !== undefined) overrides.seed = shared.seed;
  return { ...state, overrides };
}
