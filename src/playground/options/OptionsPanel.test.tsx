// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act } from 'react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
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
