/**
 * roundtrip/playground: what a snippet uses to talk to the playground around it.
 *
 * `defineOptions` declares the snippet's knobs once, with types, defaults and docs; the playground draws its
 * options panel from that declaration and re-runs the snippet when a knob changes. Outside a playground (a
 * test, a downloaded project) it simply returns the defaults.
 *
 * ```ts
 * import { defineOptions } from 'roundtrip/playground';
 * const { rtt, httpVersion } = defineOptions({
 *   rtt: { type: 'number', default: 100, min: 0, max: 1000, step: 10, doc: 'Round-trip time, virtual ms' },
 *   httpVersion: { type: 'select', choices: ['1.1', '2', '3'], default: '2', doc: 'HTTP version the client speaks' },
 * });
 * ```
 *
 * The object must be written inline as literals: the site reads it at build time, without running the
 * snippet, to show the panel before the first run.
 *
 * `show(bytes, { as: 'http1' | 'http2' | 'hpack' })` draws bytes the snippet encoded or decoded with the
 * codecs of `roundtrip/wire` in the visualizer's Messages, Frames and HPACK views (show.ts); outside a
 * playground it does nothing.
 */
import { takeOptionsContext } from './context';
import { OptionsError, resolveValues, validateSchema, type OptionsSchema, type OptionValues } from './schema';

export type {
  OptionsSchema,
  OptionSpec,
  OptionValue,
  OptionValues,
  NumberOptionSpec,
  SelectOptionSpec,
  BooleanOptionSpec,
} from './schema';
export { OptionsError } from './schema';
export { show } from './show';
export type { ShowFormat, ShowOptions } from './show';

/** Declares the snippet's options and returns their current values: the defaults, or what the reader chose. */
export function defineOptions<const S extends OptionsSchema>(schema: S): OptionValues<S> {
  const checked = validateSchema(schema);
  const { context, again } = takeOptionsContext();
  if (again) throw new OptionsError('defineOptions: a snippet declares its options once; merge the two calls into one.');
  context?.onSchema(checked);
  return resolveValues(checked, context?.overrides) as OptionValues<S>;
}
