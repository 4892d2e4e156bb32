/**
 * The editor a reader gets the moment they click into the code: the light editor (editor/lite.ts) at once, with
 * the text cursor where they clicked, and Monaco in its place once Monaco is ready, without losing what they
 * typed meanwhile or where their cursor was.
 *
 * Why two: Monaco and its TypeScript worker take a second or more to arrive and start on a cold page, and a
 * reader who clicked to change a number should not wait for that. "Ready" means the TypeScript worker has
 * already checked the snippet once (monaco.ts prepareModel), so the first completion after a `.` comes quickly
 * once Monaco is on screen, rather than Monaco showing early and then making the reader wait for it anyway.
 *
 * The swap is one synchronous step (read the text and selection, make room, take focus out of the light editor,
 * create Monaco, drop the light editor, focus Monaco): no key event can arrive between reading the text and Monaco
 * having focus, since events wait for the task to end and then go to the focused element. An input method's
 * composition in progress is let finish first.
 */
import type { LiteEditorHandle } from './lite';
import type { CreateEditorOptions, EditorHandle, EditorProblem, PreparedModel } from './monaco';

/** What the upgrade needs from Monaco's module (editor/monaco.ts), injected so the swap is tested without it. */
export interface MonacoModule {
  prepareModel(code: string): PreparedModel;
  createEditor(container: HTMLElement, options: CreateEditorOptions, prepared?: PreparedModel): EditorHandle;
}

/**
 * The longest the light editor waits for the TypeScript worker once Monaco's code is in: a safety net only, for
 * a worker that never answers. On a busy machine the worker's start (its 7 MB script, then reading the standard
 * library's and roundtrip's declarations and checking the snippet) can take several seconds, and a Monaco shown
 * before it is done makes the reader wait at their first `.` anyway (1.3-2.1 s with the earlier 2 s cap), with
 * nothing on screen saying why; the light editor meanwhile takes typing, so there is nothing to gain by showing
 * Monaco early.
 */
export const MAX_WARM_WAIT_MS = 10_000;

/**
 * Performance-timeline marks (User Timing), for scripts/editor-latency.mjs: when the worker had checked the
 * snippet (or `detail.failed`: gave up on it), and when Monaco replaced the light editor (`detail.warm`: whether
 * the worker had checked the snippet by then).
 */
export const WARM_MARK = 'roundtrip:editor-warm';
export const UPGRADE_MARK = 'roundtrip:editor-upgrade';
const mark = (name: string, detail?: unknown) => void globalThis.performance?.mark?.(name, detail === undefined ? undefined : { detail });

export interface UpgradingEditor extends EditorHandle {
  /** Settles once Monaco has replaced the light editor (true), or will not (false: it failed, or was disposed). */
  readonly upgraded: Promise<boolean>;
}

export function createUpgradingEditor(
  container: HTMLElement,
  options: CreateEditorOptions,
  createLite: (container: HTMLElement, options: CreateEditorOptions) => LiteEditorHandle,
  loadMonaco: () => Promise<MonacoModule>,
  maxWarmWaitMs = MAX_WARM_WAIT_MS,
): UpgradingEditor {
  const lite = createLite(container, options);
  let current: EditorHandle = lite;
  let disposed = false;
  let problem: EditorProblem | null = null;

  const swap = (monaco: MonacoModule, prepared: PreparedModel): boolean => {
    if (disposed) return false;
    const code = lite.getValue();
    const selection = lite.selection();
    const focused = lite.hasFocus();
    options.beforeUpgrade?.();
    // Monaco must be made in a container with nothing focused inside it. Its widget-focus tracker, watching the
    // container, starts out believing it has focus when focus is already within (the light editor's textarea),
    // and then never reports the focus that Monaco itself takes: the `editorFocus` context key stays false for
    // good, and every key binding that needs it (F8 to the next problem, Alt+F8, Shift+F8) does nothing.
    // The light editor stays in place, unfocused, until Monaco is made, so a Monaco that fails leaves it there.
    const active = container.ownerDocument.activeElement;
    if (active instanceof HTMLElement && container.contains(active)) active.blur();
    const editor = monaco.createEditor(container, { ...options, code, selection }, prepared);
    lite.dispose();
    current = editor;
    if (problem) editor.showRunProblem(problem);
    if (focused) editor.focus();
    // The text may have changed since the page last heard: the light editor reports each change, so this is a
    // no-op unless the model normalised something (line endings).
    if (editor.getValue() !== code) options.onChange(editor.getValue());
    return true;
  };

  const upgraded = loadMonaco().then(
    async (monaco) => {
      if (disposed) return false;
      const prepared = monaco.prepareModel(lite.getValue());
      let warm = false;
      const warmed = prepared.warm.then((result) => {
        warm = !result?.failed;
        mark(WARM_MARK, result?.failed ? { failed: result.failed } : undefined);
      });
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([warmed, new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWarmWaitMs)))]);
      clearTimeout(timer);
      if (disposed) {
        prepared.model.dispose();
        return false;
      }
      if (lite.composing()) await new Promise<void>((resolve) => lite.afterComposition(resolve));
      const done = swap(monaco, prepared);
      if (done) mark(UPGRADE_MARK, { warm });
      else prepared.model.dispose();
      return done;
    },
    // Monaco failed to download: the light editor stays, and works.
    () => false,
  );

  return {
    upgraded,
    getValue: () => current.getValue(),
    showRunProblem: (next) => {
      problem = next;
      current.showRunProblem(next);
    },
    setValue: (code) => current.setValue(code),
    focus: () => current.focus(),
    dispose: () => {
      disposed = true;
      current.dispose();
    },
  };
}
