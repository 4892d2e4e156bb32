/**
 * A snippet's knobs, declared once: each option has a type, a default and a doc line (CONTRIBUTING.md,
 * 'Options are a documented schema'). The options panel is generated from the schema, the share link stores
 * only values that differ from the defaults, and every value that comes from outside (the panel, a link) is
 * checked here with a message that says what was expected.
 *
 * Three kinds are enough for what the docs teach: a number in a range (RTT, retryDelay, staleTime, loss, seed),
 * one string from a list (HTTP version, networkMode) and a switch (online/offline).
 */

interface CommonSpec {
  /** One sentence for the panel: what the knob changes. */
  readonly doc: string;
  /** The panel's label; the option's name when absent. */
  readonly label?: string;
}

export interface NumberOptionSpec extends CommonSpec {
  readonly type: 'number';
  readonly default: number;
  readonly min?: number;
  readonly max?: number;
  /** Granularity of the panel's control; values need not be multiples of it. */
  readonly step?: number;
  /** Whole numbers only. */
  readonly integer?: boolean;
}

export interface SelectOptionSpec extends CommonSpec {
  readonly type: 'select';
  readonly choices: readonly string[];
  readonly default: string;
}

export interface BooleanOptionSpec extends CommonSpec {
  readonly type: 'boolean';
  readonly default: boolean;
}

export type OptionSpec = NumberOptionSpec | SelectOptionSpec | BooleanOptionSpec;
export type OptionsSchema = Readonly<Record<string, OptionSpec>>;
export type OptionValue = number | string | boolean;

/** The values `defineOptions` returns: numbers, the literal union of a select's choices, booleans. */
export type OptionValues<S extends OptionsSchema> = {
  readonly [K in keyof S]: S[K] extends { type: 'number' } ? number : S[K] extends { type: 'select'; choices: readonly (infer C)[] } ? C : boolean;
};

/** A mistake in a schema or a value; `option` names the knob, when there is one. */
export class OptionsError extends Error {
  override readonly name = 'OptionsError';
  constructor(
    message: string,
    readonly option?: string,
  ) {
    super(message);
  }
}

const NAME = /^[A-Za-z_$][\w$]*$/;
const MAX_OPTIONS = 24;
const show = (v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : (JSON.stringify(v) ?? String(v)));

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What a value of `spec` must be, as a phrase: "a number from 0 to 1000", "one of "1.1", "2", "3"". */
export function describeExpected(spec: OptionSpec): string {
  switch (spec.type) {
    case 'boolean':
      return 'true or false';
    case 'select':
      return `one of ${spec.choices.map(show).join(', ')}`;
    case 'number': {
      const kind = spec.integer ? 'a whole number' : 'a number';
      if (spec.min !== undefined && spec.max !== undefined) return `${kind} from ${spec.min} to ${spec.max}`;
      if (spec.min !== undefined) return `${kind} of at least ${spec.min}`;
      if (spec.max !== undefined) return `${kind} of at most ${spec.max}`;
      return kind;
    }
  }
}

/** Undefined when `value` fits `spec`, else the phrase for what was expected. */
export function checkValue(spec: OptionSpec, value: unknown): string | undefined {
  const ok = (() => {
    switch (spec.type) {
      case 'boolean':
        return typeof value === 'boolean';
      case 'select':
        return typeof value === 'string' && spec.choices.includes(value);
      case 'number':
        return (
          typeof value === 'number' &&
          !Number.isNaN(value) &&
          (spec.min === undefined || value >= spec.min) &&
          (spec.max === undefined || value <= spec.max) &&
          (!spec.integer || Number.isInteger(value))
        );
    }
  })();
  return ok ? undefined : describeExpected(spec);
}

function validateSpec(name: string, raw: unknown): OptionSpec {
  const fail = (what: string): never => {
    throw new OptionsError(`defineOptions: option "${name}" ${what}.`, name);
  };
  if (!NAME.test(name)) fail('needs a name that is a plain identifier (letters, digits, _ or $)');
  if (!isRecord(raw)) return fail('must be an object like { type: "number", default: 0, doc: "…" }');
  if (typeof raw.doc !== 'string' || raw.doc.trim() === '') fail('needs a "doc" string saying what it changes');
  if (raw.label !== undefined && typeof raw.label !== 'string') fail('has a "label" that is not a string');
  const common = { doc: raw.doc as string, ...(raw.label !== undefined ? { label: raw.label as string } : {}) };
  let spec: OptionSpec;
  switch (raw.type) {
    case 'boolean':
      spec = { type: 'boolean', default: raw.default as boolean, ...common };
      break;
    case 'select': {
      const choices = raw.choices;
      if (!Array.isArray(choices) || choices.length === 0 || !choices.every((c) => typeof c === 'string'))
        fail('needs "choices": a non-empty array of strings');
      if (new Set(choices as string[]).size !== (choices as string[]).length) fail('lists a choice twice');
      spec = { type: 'select', choices: [...(choices as string[])], default: raw.default as string, ...common };
      break;
    }
    case 'number': {
      for (const key of ['min', 'max', 'step'] as const) {
        const v = raw[key];
        if (v !== undefined && (typeof v !== 'number' || Number.isNaN(v))) fail(`has a "${key}" that is not a number`);
      }
      if (raw.integer !== undefined && typeof raw.integer !== 'boolean') fail('has an "integer" flag that is not true or false');
      if (typeof raw.min === 'number' && typeof raw.max === 'number' && raw.min > raw.max) fail(`has min ${raw.min} above max ${raw.max}`);
      if (typeof raw.step === 'number' && !(raw.step > 0)) fail('needs a "step" above 0');
      spec = {
        type: 'number',
        default: raw.default as number,
        ...(raw.min !== undefined ? { min: raw.min as number } : {}),
        ...(raw.max !== undefined ? { max: raw.max as number } : {}),
        ...(raw.step !== undefined ? { step: raw.step as number } : {}),
        ...(raw.integer !== undefined ? { integer: raw.integer as boolean } : {}),
        ...common,
      };
      break;
    }
    default:
      return fail(`has type ${show(raw.type)}; expected "number", "select" or "boolean"`);
  }
  const problem = checkValue(spec, raw.default);
  if (problem) fail(`has default ${show(raw.default)}, but its values must be ${problem}`);
  return spec;
}

/** Checks a schema (from a snippet, a build step or a message) and returns a clean copy; throws OptionsError. */
export function validateSchema(raw: unknown): OptionsSchema {
  if (!isRecord(raw)) throw new OptionsError('defineOptions: expected an object mapping option names to { type, default, doc }.');
  const names = Object.keys(raw);
  if (names.length > MAX_OPTIONS) throw new OptionsError(`defineOptions: ${names.length} options is more than a panel can show (at most ${MAX_OPTIONS}).`);
  const out: Record<string, OptionSpec> = {};
  for (const name of names) out[name] = validateSpec(name, raw[name]);
  return out;
}

/**
 * The values a run sees: each option's default, replaced by an override when there is one. An override that
 * does not fit its option throws, naming the option and what it expected; an override for an option the
 * schema no longer has (the reader deleted it from the code) is ignored.
 */
export function resolveValues<S extends OptionsSchema>(schema: S, overrides: Readonly<Record<string, unknown>> = {}): OptionValues<S> {
  const out: Record<string, OptionValue> = {};
  for (const [name, spec] of Object.entries(schema)) {
    if (!Object.hasOwn(overrides, name)) {
      out[name] = spec.default;
      continue;
    }
    const value = overrides[name];
    const problem = checkValue(spec, value);
    if (problem) throw new OptionsError(`Option "${name}" must be ${problem}; got ${show(value)}.`, name);
    out[name] = value as OptionValue;
  }
  return out as OptionValues<S>;
}

/** Only the entries that differ from the defaults and fit the schema: what a share link stores. */
export function nonDefaultValues(schema: OptionsSchema, values: Readonly<Record<string, unknown>>): Record<string, OptionValue> {
  const out: Record<string, OptionValue> = {};
  for (const [name, spec] of Object.entries(schema)) {
    if (!Object.hasOwn(values, name)) continue;
    const value = values[name];
    if (checkValue(spec, value) === undefined && !Object.is(value, spec.default)) out[name] = value as OptionValue;
  }
  return out;
}

/** The panel's text input -> a value, or the phrase for what was expected. */
export function parseInput(spec: OptionSpec, text: string): { ok: true; value: OptionValue } | { ok: false; expected: string } {
  let value: unknown = text;
  if (spec.type === 'number') value = text.trim() === '' ? Number.NaN : Number(text);
  else if (spec.type === 'boolean') value = text === 'true' ? true : text === 'false' ? false : text;
  const problem = checkValue(spec, value);
  return problem ? { ok: false, expected: problem } : { ok: true, value: value as OptionValue };
}
