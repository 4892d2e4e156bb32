/**
 * Monaco, loaded only when a reader is about to edit (never during SSR, never before interaction: load.ts).
 *
 * Monaco 0.57's ESM layout: the editor API, the TypeScript grammar and the TypeScript language service are
 * separate imports, and the workers come through `self.MonacoEnvironment.getWorker`.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
// editor.api is the bare editor: every feature a reader expects from VS Code or the TypeScript playground is a
// contribution of its own. These are the ones for reading and writing a snippet: completion (with the snippets
// its items insert), hover types, F8 to the next problem, parameter hints, quick fixes, rename, find, comments,
// bracket matching, word highlights, line moves, extra cursors, formatting and the context menu.
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/suggest/register';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/snippet/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/parameterHints/register';
import 'monaco-editor/features/codeAction/register';
import 'monaco-editor/features/rename/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/format/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/languages/definitions/typescript/register';
// TypeScript's language mode, which Monaco would otherwise import on the first TypeScript model. It brings every
// editor contribution with it (through its worker manager), and their services must be registered before
// Monaco's services start, which the first model does (prepareModel makes the model before the editor):
// loaded later, the editor made after it fails with "depends on UNKNOWN service ICodeLensCache".
import 'monaco-editor/languages/features/typescript/tsMode';
import {
  getTypeScriptWorker,
  typescriptDefaults,
  ModuleKind,
  ModuleResolutionKind,
  ScriptTarget,
  JsxEmit,
} from 'monaco-editor/languages/features/typescript/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import roundtripTypes from 'virtual:roundtrip-types';
import { takeTypeScriptWorker } from './load';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    // The TypeScript worker was started with this module's download (load.ts).
    return label === 'typescript' || label === 'javascript' ? takeTypeScriptWorker() : new EditorWorker();
  },
};

typescriptDefaults.setCompilerOptions({
  target: ScriptTarget.ESNext,
  module: ModuleKind.ESNext,
  moduleResolution: ModuleResolutionKind.NodeJs,
  jsx: JsxEmit.ReactJSX,
  strict: true,
  allowNonTsExtensions: true,
});
// The real declarations of roundtrip/wire, /query and /react, generated at build time (types-plugin.mjs).
typescriptDefaults.setExtraLibs(Object.entries(roundtripTypes).map(([filePath, content]) => ({ filePath, content })));

/** A problem to mark in the editor, at 1-based snippet coordinates. */
export interface EditorProblem {
  line: number;
  column: number;
  message: string;
}

export interface EditorHandle {
  getValue(): string;
  /** Marks where the last run failed (or clears the mark with null); Monaco shows it like a type error. */
  showRunProblem(problem: EditorProblem | null): void;
  setValue(code: string): void;
  focus(): void;
  dispose(): void;
}

export interface CreateEditorOptions {
  code: string;
  onChange(code: string): void;
  onRun(): void;
  onEscape(): void;
  label: string;
  /** Where the text cursor starts, as offsets into `code` (the reader's click); the start when absent. */
  selection?: TextSelection | undefined;
  /** Called just before Monaco replaces the stand-in editor (editor/upgrade.ts), so the page can make room for it. */
  beforeUpgrade?: () => void;
}

/** A selection as offsets into the text, `start` <= `end`. */
export interface TextSelection {
  readonly start: number;
  readonly end: number;
}

const siteTheme = () => (document.documentElement.dataset.theme === 'light' ? 'vs' : 'vs-dark');

let modelCount = 0;

/**
 * A snippet's model, made before its editor, and a promise that settles once the TypeScript worker has checked
 * it (or, `failed` saying why, once it is clear it will not). Never rejects.
 */
export interface PreparedModel {
  readonly model: monaco.editor.ITextModel;
  readonly warm: Promise<{ failed?: string }>;
}

/**
 * Makes the model for `code` and has the TypeScript worker start on it now: the worker's first answer costs its
 * start-up, reading the libraries' declarations and checking the file (one to several seconds on a cold page), which
 * the reader would otherwise wait for at their first `.`. A completion list and the file's problems are
 * requested and thrown away; what they leave behind (parsed and bound declarations) makes the next ones fast.
 * Never rejects.
 */
export function prepareModel(code: string): PreparedModel {
  if (spare) {
    // Made while the pointer was over the code (prewarm): the worker has read the libraries for it already.
    const { model, warm } = spare;
    spare = undefined;
    if (model.getValue() === code) return { model, warm };
    model.setValue(code);
    return { model, warm: warm.then((spareWarm) => (spareWarm.failed ? spareWarm : checkOnce(model))) };
  }
  const model = monaco.editor.createModel(code, 'typescript', monaco.Uri.parse(`file:///snippet-${++modelCount}.tsx`));
  return { model, warm: checkOnce(model) };
}

/**
 * Has the TypeScript worker check `model` and list completions at its end; settles when it has answered, or
 * (detail.failed) when it would not, for the upgrade (upgrade.ts) not to wait for it longer.
 *
 * Monaco sets up its TypeScript support (tsMode setupTypeScript) once the first TypeScript model exists, a
 * module load later; asked before then, getTypeScriptWorker rejects ("TypeScript not registered!") at once. So
 * a rejection is retried until the worker answers: taken as an answer, it put a Monaco whose worker had not
 * even started in the reader's hands, and their first completion took seconds.
 */
async function checkOnce(model: monaco.editor.ITextModel): Promise<{ failed?: string }> {
  const name = model.uri.toString();
  const giveUpAt = performance.now() + CHECK_RETRY_MS;
  for (;;) {
    try {
      const worker = await (await getTypeScriptWorker())(model.uri);
      if (model.isDisposed()) return {};
      await Promise.all([worker.getSemanticDiagnostics(name), worker.getCompletionsAtPosition(name, model.getValueLength())]);
      return {};
    } catch (error) {
      if (model.isDisposed()) return {};
      if (performance.now() >= giveUpAt) return { failed: String(error) };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
/** How long checkOnce keeps asking a worker that is not there: past it, a worker that fails fails again, visibly, when the editor asks. */
const CHECK_RETRY_MS = 10_000;

/** A model prepared ahead of the reader's click, for the next prepareModel to take. At most one. */
let spare: PreparedModel | undefined;

/**
 * The pointer is over `code`: a click to edit it may follow. Starts the TypeScript worker on it now, so the
 * editor that the click opens (prepareModel) finds the worker warm or nearly so.
 */
export function prewarm(code: string): void {
  if (!spare && modelCount === 0) spare = prepareModel(code);
}

/**
 * Makes the completion list's widget now, with the editor, rather than at the reader's first `.`. Monaco makes
 * the suggest controller at the first key press and its widget when the page is next idle, or on demand: on a
 * page still busy (the island hydrating, the sandbox starting) that was at the first `.`, in the way of the
 * completion the reader is waiting for. Reaches into Monaco's internals (SuggestController.widget, an idle
 * value), so a Monaco that changes them only loses the head start.
 */
function readySuggestions(editor: monaco.editor.IStandaloneCodeEditor): void {
  try {
    const suggest = editor.getContribution<monaco.editor.IEditorContribution & { widget?: { value?: unknown } }>('editor.contrib.suggestController');
    void suggest?.widget?.value;
  } catch {
    // Only a head start.
  }
}

export function createEditor(container: HTMLElement, options: CreateEditorOptions, prepared?: PreparedModel): EditorHandle {
  const model = prepared?.model ?? prepareModel(options.code).model;
  if (model.getValue() !== options.code) model.setValue(options.code);
  const editor = monaco.editor.create(container, {
    model,
    theme: siteTheme(),
    automaticLayout: true,
    minimap: { enabled: false },
    scrollBeyondLastLine: false,
    fontSize: 14,
    lineNumbersMinChars: 3,
    tabSize: 2,
    ariaLabel: options.label,
    // Tab inserts indentation; Ctrl+M (Monaco's toggle) or Esc lets Tab move focus instead.
    tabFocusMode: false,
    // No kind of inlay hint is switched on (typescriptDefaults' inlay hint options are all off), so every request
    // for them comes back empty; made on each change, they would only queue ahead of a completion in the worker.
    inlayHints: { enabled: 'off' },
  });
  readySuggestions(editor);
  if (options.selection) {
    const start = model.getPositionAt(options.selection.start);
    const end = model.getPositionAt(options.selection.end);
    editor.setSelection(new monaco.Selection(start.lineNumber, start.column, end.lineNumber, end.column));
    editor.revealPositionInCenterIfOutsideViewport(end);
  }
  const themeObserver = new MutationObserver(() => monaco.editor.setTheme(siteTheme()));
  themeObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const changes = model.onDidChangeContent(() => options.onChange(model.getValue()));
  editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => options.onRun());
  // Esc leaves the editor only when Monaco has nothing of its own to close: a suggestion list, the find box,
  // parameter hints, a rename box, snippet placeholders, or extra cursors (Esc collapses them to one first).
  const monacoUsesEscape = [
    'suggestWidgetVisible',
    'findWidgetVisible',
    'parameterHintsVisible',
    'renameInputVisible',
    'inSnippetMode',
    'editorHasMultipleSelections',
  ];
  editor.addCommand(monaco.KeyCode.Escape, () => options.onEscape(), monacoUsesEscape.map((key) => `!${key}`).join(' && '));
  return {
    getValue: () => model.getValue(),
    showRunProblem: (problem) => {
      const markers = problem
        ? [
            {
              severity: monaco.MarkerSeverity.Error,
              message: problem.message,
              source: 'run',
              startLineNumber: problem.line,
              startColumn: problem.column,
              endLineNumber: problem.line,
              endColumn: model.getLineMaxColumn(Math.min(problem.line, model.getLineCount())),
            },
          ]
        : [];
      monaco.editor.setModelMarkers(model, 'roundtrip-run', markers);
      if (problem) editor.revealLineInCenterIfOutsideViewport(problem.line);
    },
    setValue: (code) => model.setValue(code),
    focus: () => editor.focus(),
    dispose: () => {
      themeObserver.disconnect();
      changes.dispose();
      editor.dispose();
      model.dispose();
    },
  };
}
