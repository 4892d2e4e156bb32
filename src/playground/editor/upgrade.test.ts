// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLiteEditor } from './lite';
import type { CreateEditorOptions, EditorHandle, PreparedModel } from './monaco';
import { createUpgradingEditor, MAX_WARM_WAIT_MS, type MonacoModule, UPGRADE_MARK, WARM_MARK } from './upgrade';

/** Monaco's module as the upgrade sees it: an editor that records how it was made; warm-up settles when told. */
function fakeMonaco() {
  const calls: string[] = [];
  const made: { options: CreateEditorOptions; focused: number; value: string; focusWithinAtCreate: boolean }[] = [];
  let warmUp: () => void = () => {};
  const warm = new Promise<void>((resolve) => (warmUp = resolve));
  const modelsDisposed: string[] = [];
  const module: MonacoModule = {
    prepareModel: (code) => {
      calls.push('prepare');
      return { model: { dispose: () => modelsDisposed.push(code) }, warm } as unknown as PreparedModel;
    },
    createEditor: (container, options) => {
      calls.push('create');
      // Monaco's focus tracker watches its container: focus already inside when it is made is never reported.
      const record = { options, focused: 0, value: options.code, focusWithinAtCreate: container.contains(document.activeElement) };
      made.push(record);
      return {
        getValue: () => record.value,
        showRunProblem: () => {},
        setValue: (code) => void (record.value = code),
        focus: () => void record.focused++,
        dispose: () => {},
      } satisfies EditorHandle;
    },
  };
  return { module, calls, made, warmUp: () => warmUp(), modelsDisposed };
}

function open(monaco: ReturnType<typeof fakeMonaco>, selection?: { start: number; end: number }) {
  document.body.innerHTML = '<div class="box"></div>';
  const box = document.querySelector<HTMLElement>('.box')!;
  const changes: string[] = [];
  const options: CreateEditorOptions = {
    code: 'const a = 1;\n',
    label: 'code',
    onChange: (code) => void changes.push(code),
    onRun: () => {},
    onEscape: () => {},
    beforeUpgrade: () => void monaco.calls.push('beforeUpgrade'),
    ...(selection ? { selection } : {}),
  };
  const editor = createUpgradingEditor(box, options, createLiteEditor, async () => monaco.module);
  return { box, editor, changes, area: () => box.querySelector('textarea') };
}

/** Types `text` at the textarea's cursor, as a key press would. */
function type(area: HTMLTextAreaElement, text: string) {
  area.setRangeText(text, area.selectionStart, area.selectionEnd, 'end');
  area.dispatchEvent(new Event('input'));
}

describe('the editor that opens at once and becomes Monaco', () => {
  afterEach(() => void vi.useRealTimers());

  it('is editable at once with the cursor where the reader clicked; Monaco takes over the text, the cursor and focus once its worker is warm', async () => {
    const monaco = fakeMonaco();
    const { editor, changes, area } = open(monaco, { start: 6, end: 6 });
    const textarea = area()!;
    expect(textarea.value).toBe('const a = 1;\n');
    textarea.focus();
    expect([textarea.selectionStart, textarea.selectionEnd]).toEqual([6, 6]);
    type(textarea, 'b');
    expect(changes).toEqual(['const ba = 1;\n']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Monaco's code is in, but its TypeScript worker is still starting: the stand-in stays.
    expect(monaco.calls).toEqual(['prepare']);
    expect(area()).not.toBeNull();
    type(textarea, 'c');
    monaco.warmUp();
    expect(await editor.upgraded).toBe(true);
    expect(monaco.calls).toEqual(['prepare', 'beforeUpgrade', 'create']);
    expect(area()).toBeNull();
    const made = monaco.made[0]!;
    expect(made.options.code).toBe('const bca = 1;\n');
    expect(made.options.selection).toEqual({ start: 8, end: 8 });
    expect(made.focused).toBe(1);
    expect(editor.getValue()).toBe('const bca = 1;\n');
  });

  it('makes Monaco in a box with nothing focused inside, though the light editor had focus (else F8 and the other editor-focus keys do nothing)', async () => {
    const monaco = fakeMonaco();
    const { editor, area } = open(monaco);
    area()!.focus();
    expect(document.activeElement).toBe(area());
    monaco.warmUp();
    expect(await editor.upgraded).toBe(true);
    expect(monaco.made[0]!.focusWithinAtCreate).toBe(false);
    // Focus still goes to Monaco once it is made.
    expect(monaco.made[0]!.focused).toBe(1);
  });

  it('waits for a TypeScript worker that takes seconds to start, rather than showing Monaco before it can complete', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    performance.clearMarks();
    const monaco = fakeMonaco();
    const { editor, area } = open(monaco);
    await vi.advanceTimersByTimeAsync(5000);
    expect(monaco.calls).toEqual(['prepare']);
    expect(area()).not.toBeNull();
    monaco.warmUp();
    expect(await editor.upgraded).toBe(true);
    // The marks scripts/editor-latency.mjs reads: Monaco came with the worker warm.
    expect(performance.getEntriesByName(WARM_MARK)).toHaveLength(1);
    expect((performance.getEntriesByName(UPGRADE_MARK)[0] as PerformanceMark).detail).toEqual({ warm: true });
  });

  it('shows Monaco anyway once the safety cap has passed, for a worker that never answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    performance.clearMarks();
    const monaco = fakeMonaco();
    const { editor } = open(monaco);
    await vi.advanceTimersByTimeAsync(MAX_WARM_WAIT_MS - 1);
    expect(monaco.calls).toEqual(['prepare']);
    await vi.advanceTimersByTimeAsync(1);
    expect(await editor.upgraded).toBe(true);
    expect(monaco.calls).toEqual(['prepare', 'beforeUpgrade', 'create']);
    expect(performance.getEntriesByName(WARM_MARK)).toHaveLength(0);
    expect((performance.getEntriesByName(UPGRADE_MARK)[0] as PerformanceMark).detail).toEqual({ warm: false });
  });

  it('does not wait for a slow TypeScript worker longer than it is allowed to', async () => {
    const monaco = fakeMonaco();
    document.body.innerHTML = '<div class="box"></div>';
    const box = document.querySelector<HTMLElement>('.box')!;
    const editor = createUpgradingEditor(
      box,
      { code: 'x', label: 'code', onChange: () => {}, onRun: () => {}, onEscape: () => {} },
      createLiteEditor,
      async () => monaco.module,
      5,
    );
    // The worker never answers; Monaco comes anyway.
    expect(await editor.upgraded).toBe(true);
    expect(monaco.calls).toEqual(['prepare', 'create']);
  });

  it('lets an input method finish composing before Monaco takes over', async () => {
    const monaco = fakeMonaco();
    // The reader clicked at the end of the code.
    const { editor, area } = open(monaco, { start: 13, end: 13 });
    const textarea = area()!;
    textarea.dispatchEvent(new CompositionEvent('compositionstart'));
    monaco.warmUp();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(monaco.calls).toEqual(['prepare']);
    type(textarea, 'é');
    textarea.dispatchEvent(new CompositionEvent('compositionend'));
    expect(await editor.upgraded).toBe(true);
    expect(monaco.made[0]!.options.code).toBe('const a = 1;\né');
  });

  it('an editor closed before Monaco was ready never becomes Monaco', async () => {
    const monaco = fakeMonaco();
    const { editor } = open(monaco);
    await new Promise((resolve) => setTimeout(resolve, 0));
    editor.dispose();
    monaco.warmUp();
    expect(await editor.upgraded).toBe(false);
    expect(monaco.calls).toEqual(['prepare']);
    expect(monaco.modelsDisposed).toHaveLength(1);
  });

  it('keeps the light editor, working, when Monaco fails to download', async () => {
    document.body.innerHTML = '<div class="box"></div>';
    const box = document.querySelector<HTMLElement>('.box')!;
    const editor = createUpgradingEditor(box, { code: 'x', label: 'code', onChange: () => {}, onRun: () => {}, onEscape: () => {} }, createLiteEditor, () =>
      Promise.reject(new Error('offline')),
    );
    expect(await editor.upgraded).toBe(false);
    editor.setValue('y');
    expect(box.querySelector('textarea')?.value).toBe('y');
  });
});
