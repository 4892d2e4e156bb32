/**
 * The page's side of the playground store (store.ts): the sandbox host, the editors, the visualizers' code, the
 * clipboard and the address bar, as a PlaygroundEnv.
 */
import { SandboxHost } from '../sandbox/host';
import { takeHandedOver } from '../sandbox/spare';
import { chunksFor, importedModules, sandboxSrc, withNeeds } from '../sandbox/chunks.mjs';
import { createLiteEditor, prefersLiteEditor } from '../editor/lite';
import { createUpgradingEditor } from '../editor/upgrade';
import { loadMonaco } from '../editor/load';
import { loadHighlighter } from '../highlight';
import type { PlaygroundConfig, PlaygroundEnv, VizModules } from './store';

const SANDBOX_DIR = '/sandbox/';

/**
 * The sandbox page's address for running `code`: the page that loads its chunks as it opens (chunks.mjs), the compiler
 * included unless `code` is the snippet compiled at build time.
 */
export function sandboxSrcFor(code: string, originalCode: string, compiled: string | undefined): string {
  const precompiled = compiled !== undefined && code === originalCode;
  const chunks = chunksFor(importedModules(precompiled ? compiled : code));
  return sandboxSrc(SANDBOX_DIR, precompiled ? chunks : withNeeds([...chunks, 'compiler']));
}

/**
 * The visualizers' code, requested once. This module runs only once the reader has shown intent (it belongs to
 * the island that `client:interaction` loads), and a reader who shows intent gets the visualizers anyway (the
 * first run needs them, and hydration prepares them): requesting them as this module runs rather than after
 * hydration lets them download while React and the island hydrate, instead of after (a cold click on Run waits
 * for them).
 */
let vizCode: Promise<VizModules> | undefined;
/**
 * `code`: the snippet about to run, whose first view loads too: the page's `view` when it names one, else the
 * first view its libraries' sources apply to (views.ts, firstViewFor).
 */
function loadVizCode(code?: string, view?: string): Promise<VizModules> {
  if (!vizCode) {
    vizCode = Promise.all([import('../viz/recording'), import('../viz/VizPanel')]);
    // A failed download is tried again by the next caller, not remembered.
    vizCode.catch(() => (vizCode = undefined));
  }
  // A failure here is the view's own lazy load to report, when the panel opens it.
  if (code !== undefined)
    void import('../viz/views')
      .then(({ VIEWS, firstViewFor }) => (VIEWS.find((v) => v.id === view) ?? firstViewFor(importedModules(code)))?.load())
      .catch(() => {});
  return vizCode;
}
if (typeof document !== 'undefined') void loadVizCode();

export interface PageParts {
  /** Holds the sandbox's iframe. */
  readonly frameHost: () => HTMLElement | null;
  readonly editorBox: () => HTMLElement | null;
  readonly runButton: () => HTMLElement | null;
  /** Renders the store's latest state before returning (react-dom's flushSync). */
  readonly renderNow: (update: () => void) => void;
}

export function browserEnv(config: PlaygroundConfig, code: () => string, parts: PageParts): PlaygroundEnv {
  return {
    createHost() {
      const container = parts.frameHost();
      if (!container) return undefined;
      const host = new SandboxHost({ src: () => sandboxSrcFor(code(), config.code, config.compiled), container });
      // It adopts the sandbox the directive opened when the reader showed intent.
      host.adopt(takeHandedOver(config.id));
      return host;
    },
    loadViz: (code) => loadVizCode(code, config.view),
    now: () => performance.now(),
    location: () => location,
    replaceUrl: (url) => history.replaceState(history.state, '', url),
    navigate: (url) => location.assign(url),
    copy: (text) => navigator.clipboard.writeText(text),
    confirm: (question) => window.confirm(question),
    async openEditor(options) {
      const box = parts.editorBox();
      if (!box) return undefined;
      // Monaco does not work with touch keyboards; phones and narrow screens keep the textarea-based editor.
      if (prefersLiteEditor()) return { editor: createLiteEditor(box, options), mode: 'lite' };
      // Elsewhere the textarea editor stands in, in this same task, until Monaco is ready (editor/upgrade.ts).
      return { editor: createUpgradingEditor(box, options, createLiteEditor, loadMonaco), mode: 'lite' };
    },
    // Monaco's code, and its TypeScript worker started on the snippet (editor/monaco.ts prewarm); and Shiki, which
    // colours the light editor that stands in meanwhile (editor/paint.ts).
    preloadEditor: () => {
      loadHighlighter().catch(() => {});
      if (!prefersLiteEditor())
        void loadMonaco().then(
          ({ prewarm }) => prewarm(code()),
          () => {},
        );
    },
    renderNow: parts.renderNow,
    focusRun: () => parts.runButton()?.focus(),
    pageTitle: () => document.querySelector('h1')?.textContent?.trim() || document.title,
    downloadProject: (input) => import('../download/project').then(({ downloadProject }) => downloadProject(input)),
  };
}
