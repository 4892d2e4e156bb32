/**
 * The options panel, generated from a snippet's schema: one labelled control per option with its doc line,
 * a message saying what was expected when an entry does not fit, and a reset to the defaults.
 *
 * Selects and switches apply at once; numbers apply when the typed value is valid and the reader pauses
 * (or leaves the field), so typing "250" does not run the snippet with 2 and 25 on the way.
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
}

const NUMBER_SETTLE_MS = 400;

function NumberField({ id, spec, value, onCommit }: { id: string; spec: NumberOptionSpec; value: number; onCommit(v: number): void }) {
  const [text, setText] = useState(String(value));
  const [problem, setProblem] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A reset or a link changes the value from outside: show it.
  useEffect(() => {
    setText(String(value));
    setProblem(null);
  }, [value]);
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

export default function OptionsPanel({ idPrefix, title, schema, values, changed, onChange, onReset }: OptionsPanelProps) {
  return (
    <fieldset className="rt-options" data-testid="options-panel">
      <legend>{title} options</legend>
      <p className="rt-options-hint">Changing an option runs the snippet again.</p>
      <div className="rt-options-grid">
        {Object.entries(schema).map(([name, spec]) => {
          const id = `${idPrefix}-opt-${name}`;
          const value = values[name] ?? spec.default;
          const label = spec.label ?? name;
          return (
            <div className="rt-option" key={name} data-option={name}>
              {spec.type === 'boolean' ? (
                <span className="rt-option-control rt-option-switch">
                  <input
                    id={id}
                    type="checkbox"
                    checked={value === true}
                    aria-describedby={`${id}-doc`}
                    onChange={(e) => onChange(name, e.target.checked)}
                  />
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
                {spec.doc}
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
