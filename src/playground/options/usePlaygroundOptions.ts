/**
 * The host's side of a snippet's options: the schema (read at build time, then as reported by each run, so
 * edits to the code take effect), the reader's overrides, and their share-link form.
 *
 * Only overrides are kept, never a full copy of the values, so a link stores just what differs from the
 * defaults. A `seed` option travels in ShareState's own `seed` field: the seed is part of the state that makes
 * a run replay identically, whichever snippet declares it.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ShareState } from '../share/codec';
import { nonDefaultValues, OptionsError, validateSchema, type OptionsSchema, type OptionValue } from './schema';

export interface PlaygroundOptions {
  schema: OptionsSchema | undefined;
  /** Every option's current value (defaults merged with overrides). */
  values: Record<string, OptionValue>;
  overrides: Readonly<Record<string, OptionValue>>;
  /** Always the latest overrides, for a run started from a callback. */
  overridesRef: { readonly current: Readonly<Record<string, OptionValue>> };
  changed: boolean;
  set(name: string, value: OptionValue): void;
  reset(): void;
  /** The sandbox reported the schema the code declares now; returns an error message if it is unusable. */
  onReported(raw: unknown): string | undefined;
  /** The options part of a share state. */
  toShare(): Pick<ShareState, 'options' | 'seed'>;
  /** Takes the options part of a decoded share state (checked again when the run resolves them). */
  fromShare(state: ShareState): void;
}

export function usePlaygroundOptions(initialSchema: OptionsSchema | undefined): PlaygroundOptions {
  const [schema, setSchema] = useState(initialSchema);
  const [overrides, setOverridesState] = useState<Readonly<Record<string, OptionValue>>>({});
  const overridesRef = useRef(overrides);
  const setOverrides = useCallback((next: Readonly<Record<string, OptionValue>>) => {
    overridesRef.current = next;
    setOverridesState(next);
  }, []);

  const values = useMemo(() => {
    const out: Record<string, OptionValue> = {};
    for (const [name, spec] of Object.entries(schema ?? {})) out[name] = Object.hasOwn(overrides, name) ? overrides[name]! : spec.default;
    return out;
  }, [schema, overrides]);

  const set = useCallback(
    (name: string, value: OptionValue) => {
      const next = { ...overridesRef.current, [name]: value };
      const spec = schema?.[name];
      if (spec && Object.is(spec.default, value)) delete next[name];
      setOverrides(next);
    },
    [schema, setOverrides],
  );

  const onReported = useCallback(
    (raw: unknown) => {
      try {
        const reported = validateSchema(raw);
        setSchema(reported);
        // Drop overrides for options the edited code no longer declares or no longer accepts.
        setOverrides(nonDefaultValues(reported, overridesRef.current));
        return undefined;
      } catch (error) {
        return error instanceof OptionsError ? error.message : String(error);
      }
    },
    [setOverrides],
  );

  const toShare = useCallback((): Pick<ShareState, 'options' | 'seed'> => {
    const { seed, ...options } = schema ? nonDefaultValues(schema, overridesRef.current) : {};
    const out: Pick<ShareState, 'options' | 'seed'> = {};
    if (typeof seed === 'number' && Number.isInteger(seed)) out.seed = seed;
    else if (seed !== undefined) options.seed = seed;
    if (Object.keys(options).length > 0) out.options = options;
    return out;
  }, [schema]);

  const fromShare = useCallback(
    (state: ShareState) => {
      const next: Record<string, OptionValue> = {};
      for (const [k, v] of Object.entries(state.options ?? {})) {
        // Anything else cannot be a knob's value; the run's resolveValues names the option if a value is wrong.
        if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') next[k] = v;
      }
      if (state.seed !== undefined) next.seed = state.seed;
      setOverrides(next);
    },
    [setOverrides],
  );

  return {
    schema,
    values,
    overrides,
    overridesRef,
    changed: Object.keys(overrides).length > 0,
    set,
    reset: useCallback(() => setOverrides({}), [setOverrides]),
    onReported,
    toShare,
    fromShare,
  };
}
