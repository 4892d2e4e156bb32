// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, useLayoutEffect, useRef, useState } from 'react';
import { renderToString } from 'react-dom/server';
import { createRoot, hydrateRoot } from 'react-dom/client';
import OptionsPanel, { type OptionsPanelProps } from './OptionsPanel';
import { validateSchema, type OptionValue } from './schema';

const schema = validateSchema({
  online: { type: 'boolean', default: false, doc: 'Start online' },
  mode: { type: 'select', choices: ['online', 'always'], default: 'online', doc: 'Mode' },
  wait: { type: 'number', default: 50, min: 0, max: 100, doc: 'Wait' },
});
const defaults = { online: false, mode: 'online', wait: 50 };

/** Server-renders the panel, lets `before` play the reader's part on the static HTML, then hydrates it. */
async function hydrateAfter(before: (el: HTMLElement) => void) {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const adopted: Record<string, OptionValue>[] = [];
  const changed: [string, OptionValue][] = [];
  const props: OptionsPanelProps = {
    idPrefix: 'p',
    title: 'T',
    schema,
    values: defaults,
    changed: false,
    onChange: (name, value) => changed.push([name, value]),
    onReset: () => {},
    onAdopt: (values) => adopted.push(values),
  };
  const el = document.createElement('div');
  el.innerHTML = renderToString(<OptionsPanel {...props} />);
  document.body.append(el);
  before(el);
  await act(async () => {
    hydrateRoot(el, <OptionsPanel {...props} />);
  });
  el.remove();
  return { adopted, changed };
}

describe('OptionsPanel hydration', () => {
  it('adopts, in one batch, the values the reader set on the server-rendered controls before the island hydrated', async () => {
    const { adopted, changed } = await hydrateAfter((el) => {
      (el.querySelector('#p-opt-online') as HTMLInputElement).checked = true;
      (el.querySelector('#p-opt-mode') as HTMLSelectElement).value = 'always';
      (el.querySelector('#p-opt-wait') as HTMLInputElement).value = '75';
    });
    expect(adopted).toEqual([{ online: true, mode: 'always', wait: 75 }]);
    expect(changed).toEqual([]);
  });

  it('adopts nothing when the controls show what was rendered, or hold what the option cannot take', async () => {
    expect((await hydrateAfter(() => {})).adopted).toEqual([]);
    const { adopted } = await hydrateAfter((el) => {
      (el.querySelector('#p-opt-wait') as HTMLInputElement).value = '500';
    });
    expect(adopted).toEqual([]);
  });
});

describe('OptionsPanel: a value the reader typed before hydration, committed with Enter as the island hydrates', () => {
  /** Holds the values as the playground's store does: adopted and committed values replace the shown ones. */
  function Stateful({ log }: { log: Record<string, OptionValue>[] }) {
    const [values, setValues] = useState<Record<string, OptionValue>>(defaults);
    const merge = (next: Record<string, OptionValue>) => {
      log.push(next);
      setValues((v) => ({ ...v, ...next }));
    };
    return (
      <OptionsPanel
        idPrefix="p"
        title="T"
        schema={schema}
        values={values}
        changed={false}
        onChange={(name, value) => merge({ [name]: value })}
        onReset={() => {}}
        onAdopt={merge}
      />
    );
  }

  it('keeps the typed value: adopted on hydration, and the Enter that forced the hydration commits the same value', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    const log: Record<string, OptionValue>[] = [];
    const el = document.createElement('div');
    el.innerHTML = renderToString(<Stateful log={[]} />);
    document.body.append(el);
    const wait = el.querySelector('#p-opt-wait') as HTMLInputElement;
    wait.value = '75';
    await act(async () => {
      hydrateRoot(el, <Stateful log={log} />);
      // A discrete event on a control not yet hydrated makes React finish hydrating at once, then dispatch it.
      wait.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    expect(log.map((v) => v.wait)).not.toContain(50);
    expect(log.at(-1)).toEqual({ wait: 75 });
    expect(wait.value).toBe('75');
    el.remove();
  });

  it('shows a value changed from outside (an adoption, a reset, a link) in the same commit that brings it, never the old one for a render', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    const seen: string[] = [];
    function Probe({ wait }: { wait: number }) {
      const ref = useRef<HTMLDivElement>(null);
      useLayoutEffect(() => {
        seen.push(ref.current?.querySelector<HTMLInputElement>('#p-opt-wait')?.value ?? 'missing');
      });
      return (
        <div ref={ref}>
          <OptionsPanel idPrefix="p" title="T" schema={schema} values={{ ...defaults, wait }} changed={false} onChange={() => {}} onReset={() => {}} />
        </div>
      );
    }
    const el = document.createElement('div');
    document.body.append(el);
    const root = createRoot(el);
    await act(async () => root.render(<Probe wait={50} />));
    await act(async () => root.render(<Probe wait={20} />));
    expect(seen).toEqual(['50', '20']);
    await act(async () => root.unmount());
    el.remove();
  });
});
