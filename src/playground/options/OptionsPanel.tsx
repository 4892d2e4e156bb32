/**
 * The options panel, generated from a snippet's schema: one labelled control per option with its doc line,
 * a message saying what was expected when an entry does not fit, and a reset to the defaults.
 *
 * Selects and switches apply at once; numbers apply when the typed value is valid and the reader pauses
 * (or leaves the field), so typing "250" does not run the snippet with 2 and 25 on the way.
 *
 * The panel is in the page's HTML before its island hydrates, so a reader can tick a switch or pick a choice
 * that no handler hears yet; React hydrates over the changed control without firing onChange, and the control
 * would show one value while the run used another. On hydration the panel reads its controls back and hands
 * what differs to onAdopt (controlsChangedBeforeHydration).
 */
import { useEffect, useRef, useState } from 'react';
import { parseInput, type NumberOptionSpec, type OptionsSchema, type OptionValue } from './schema';

export interface OptionsPanelProps {
  /** Prefix for element ids; unique on the page. */
  idPrefix: string;
  title: string;
  schema: OptionsSchema;
  /** The current value of every option (defaults merged with overrides). */
  values: Readonly<Record<string, OptionValue>>;
  /** Whether any value differs from its default. */
  changed: boolean;
  onChange(name: string, value: OptionValue): void;
  onReset(): void;
  /** Values the reader set on the controls before hydration, all at once; none is passed to onChange. */
  onAdopt?(values: Record<string, OptionValue>): void;
}

const NUMBER_SETTLE_MS = 400;

function NumberField({ id, spec, value, onCommit }: { id: string; spec: NumberOptionSpec; value: number; onCommit(v: number): void }) {
  const [text, setText] = useState(String(value));
  const [problem, setProblem] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A reset, a link or the adoption of a value typed before hydration changes the value from outside: show it
  // in the same render. (An effect would commit one render with the old text: the control would show the old
  // value while the playground holds the new one, and an Enter or a blur in that moment would commit the old
  // value back. Pressing Enter as the island hydrated did exactly that.)
  const [shownValue, setShownValue] = useState(value);
  if (!Object.is(shownValue, value)) {
    setShownValue(value);
    setText(String(value));
    setProblem(null);
  }
  useEffect(() => () => clearTimeout(timer.current), []);
  const commit = (raw: string, delay: number) => {
    clearTimeout(timer.current);
    const parsed = parseInput(spec, raw);
    if (!parsed.ok) {
      setProblem(`Expected ${parsed.expected}.`);
      return;
    }
    setProblem(null);
    if (parsed.value === value) return;
    if (delay === 0) onCommit(parsed.value as number);
    else timer.current = setTimeout(() => onCommit(parsed.value as number), delay);
  };
  return (
    <>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        value={text}
        min={spec.min}
        max={spec.max}
        step={spec.step ?? (spec.integer ? 1 : 'any')}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-doc${problem ? ` ${id}-problem` : ''}`}
        onChange={(e) => {
          setText(e.target.value);
          commit(e.target.value, NUMBER_SETTLE_MS);
        }}
        onBlur={(e) => commit(e.target.value, 0)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget.value, 0);
        }}
      />
      {problem && (
        <span id={`${id}-problem`} className="rt-option-problem" role="alert">
          {problem}
        </span>
      )}
    </>
  );
}

/**
 * What the controls of the panel (`root`) show that differs from `values`, for each value the option can take:
 * changes a reader made on the server-rendered controls before the panel hydrated.
 */
export function controlsChangedBeforeHydration(
  root: ParentNode,
  idPrefix: string,
  schema: OptionsSchema,
  values: Readonly<Record<string, OptionValue>>,
): Record<string, OptionValue> {
  const found: Record<string, OptionValue> = {};
  const controls = new Map([...root.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')].map((c) => [c.id, c]));
  for (const [name, spec] of Object.entries(schema)) {
    const control = controls.get(`${idPrefix}-opt-${name}`);
    if (!control) continue;
    const shown = control instanceof HTMLInputElement && control.type === 'checkbox' ? control.checked : control.value;
    const parsed = typeof shown === 'boolean' ? { ok: true as const, value: shown } : parseInput(spec, shown);
    const current = values[name] ?? spec.default;
    if (parsed.ok && !Object.is(parsed.value, current)) found[name] = parsed.value;
  }
  return found;
}

/**
 * A label for an option the snippet gave none: its name in words ("retryDelay" -> "Retry delay"). The docs
 * snippets all give one (labels.test.ts), since a name like "rtt" says nothing to a newcomer (issue #27); the
 * name itself is shown beside the doc line, where it ties the control to the snippet's code.
 */
export function humanName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export default function OptionsPanel({ idPrefix, title, schema, values, changed, onChange, onReset, onAdopt }: OptionsPanelProps) {
  const rootRef = useRef<HTMLFieldSetElement>(null);
  // Once, as the panel hydrates: later, every change goes through the handlers (a mount with nothing to
  // hydrate finds the controls showing exactly `values`).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on hydration (see above)
  useEffect(() => {
    if (!rootRef.current || !onAdopt) return;
    const adopted = controlsChangedBeforeHydration(rootRef.current, idPrefix, schema, values);
    if (Object.keys(adopted).length > 0) onAdopt(adopted);
  }, []);
  return (
    <fieldset ref={rootRef} className="rt-options" data-testid="options-panel">
      <legend>{title} options</legend>
      <p className="rt-options-hint">Changing an option runs the snippet again.</p>
      <div className="rt-options-grid">
        {Object.entries(schema).map(([name, spec]) => {
          const id = `${idPrefix}-opt-${name}`;
          const value = values[name] ?? spec.default;
          const label = spec.label ?? humanName(name);
          return (
            <div className="rt-option" key={name} data-option={name}>
              {spec.type === 'boolean' ? (
                <span className="rt-option-control rt-option-switch">
                  <input id={id} type="checkbox" checked={value === true} aria-describedby={`${id}-doc`} onChange={(e) => onChange(name, e.target.checked)} />
                  <label htmlFor={id}>{label}</label>
                </span>
              ) : (
                <span className="rt-option-control">
                  <label htmlFor={id}>{label}</label>
                  {spec.type === 'select' ? (
                    <select id={id} value={String(value)} aria-describedby={`${id}-doc`} onChange={(e) => onChange(name, e.target.value)}>
                      {spec.choices.map((c) => (
                        <option key={c} value={c}>
                          {c}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <NumberField id={id} spec={spec} value={value as number} onCommit={(v) => onChange(name, v)} />
                  )}
                </span>
              )}
              <span id={`${id}-doc`} className="rt-option-doc">
                <code className="rt-option-name">{name}</code>: {spec.doc}
                {Object.is(value, spec.default) ? '' : ` (default ${String(spec.default)})`}
              </span>
            </div>
          );
        })}
      </div>
      {changed && (
        <button type="button" className="rt-options-reset" onClick={onReset}>
          Reset options to defaults
        </button>
      )}
    </fieldset>
  );
}
