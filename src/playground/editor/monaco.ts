/**
 * Monaco, loaded only when a reader starts editing (never during SSR, never before interaction).
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
import { typescriptDefaults, ModuleKind, ModuleResolutionKind, ScriptTarget, JsxEmit } from 'monaco-editor/languages/features/typescript/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';
import roundtripTypes from 'virtual:roundtrip-types';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    return label === 'typescript' || label === 'javascript' ? new TsWorker() : new EditorWorker();
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
  /** 1-based snippet line to reveal, e.g. after an error. */
  onChange(code: string): void;
  onRun(): void;
  onEscape(): void;
  label: string;
}

const siteTheme = () => (document.documentElement.dataset.theme === 'light' ? 'vs' : 'vs-dark');

let modelCount = 0;

export function createEditor(container: HTMLElement, options: CreateEditorOptions): EditorHandle {
  const model = monaco.editor.createModel(options.code, 'typescript', monaco.Uri.parse(`file:///snippet-${++modelCount}.tsx`));
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
  });
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
