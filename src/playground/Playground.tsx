/**
 * A playground island: static highlighted code first; Monaco once the reader starts editing; code runs in a
 * sandboxed iframe; Share puts the state in the URL fragment. Hydrated by `client:interaction`, so nothing here
 * runs until the reader touches the playground (or opens a link addressed to it).
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { ConsoleLevel, SourcePosition } from './sandbox/protocol';
import { SandboxHost, type RunEvent } from './sandbox/host';
import { takeHandedOver } from './sandbox/spare';
import type { RecordingStore } from './viz/recording';
import type { VizPosition } from './viz/VizPanel';
import type { DevtoolsAction } from './recording/model';
import type { EditorHandle } from './editor/monaco';
import { decodeShareState, encodeShareState } from './share/codec';
import { formatShareHash, readShareHash } from './share/hash';
import type { OptionsSchema } from './options/schema';
import { usePlaygroundOptions } from './options/usePlaygroundOptions';
import OptionsPanel from './options/OptionsPanel';
import { FIRST_PANEL, isPanelId, PanelTabs, panelProps, useNarrow, type PanelId } from './layout/tabs';
import { chunksFor, importedModules, sandboxSrc, withNeeds } from './sandbox/chunks.mjs';

export interface PlaygroundProps {
  /** Unique on the page; names the playground in share links. */
  id: string;
  title: string;
  /** The page's original snippet. */
  code: string;
  /** The snippet, highlighted at build time. */
  children?: ReactNode;
  /** `code` compiled to JavaScript at build time; its runs skip the sandbox's compiler. */
  compiled?: string;
  /** The snippet's options schema, read at build time (options/extract.ts); the panel shows before any run. */
  schema?: OptionsSchema;
  /** The full-page playground for this example (/playground/<id>/) and the id of the playground there. */
  openIn?: { href: string; id: string };
  /** 'full': the /playground page's one big playground. */
  variant?: 'embedded' | 'full';
}

interface OutputLine {
  key: number;
  level: ConsoleLevel | 'status' | 'failure';
  text: string;
}

/** 'lite': the textarea editor for touch and narrow screens (editor/lite.ts). */
type EditorState = 'static' | 'loading' | 'monaco' | 'lite';

const SANDBOX_DIR = '/sandbox/';

/**
 * The sandbox page's address for running `code`: the page that loads its chunks as it opens (chunks.mjs), the compiler
 * included unless `code` is the snippet compiled at build time.
 */
function sandboxSrcFor(code: string, originalCode: string, compiled: string | undefined): string {
  const precompiled = compiled !== undefined && code === originalCode;
  const chunks = chunksFor(importedModules(precompiled ? compiled : code));
  return sandboxSrc(SANDBOX_DIR, precompiled ? chunks : withNeeds([...chunks, 'compiler']));
}

/**
 * The visualizers' code, requested once. This module runs only once the reader has shown intent (it is the
 * island that `client:interaction` loads), and a reader who shows intent gets the visualizers anyway (the first
 * run needs them, and hydration prepares them): requesting them as this module runs rather than after hydration
 * lets them download while React and the island hydrate, instead of after (a cold click on Run waits for them).
 */
let vizCode: Promise<[typeof import('./viz/recording'), typeof import('./viz/VizPanel')]> | undefined;
/** `code`: the snippet about to run, whose first view (views.ts, firstViewFor) loads too. */
function loadVizCode(code?: string) {
  if (!vizCode) {
    vizCode = Promise.all([import('./viz/recording'), import('./viz/VizPanel')]);
    // A failed download is tried again by the next caller, not remembered.
    vizCode.catch(() => (vizCode = undefined));
  }
  // A failure here is the view's own lazy load to report, when the panel opens it.
  if (code !== undefined) void import('./viz/views').then(({ firstViewFor }) => firstViewFor(importedModules(code))?.load()).catch(() => {});
  return vizCode;
}
if (typeof document !== 'undefined') void loadVizCode();

/** One run's recording, the run it came from, and whether its sandbox still takes devtools actions. */
interface VizRun {
  readonly key: number;
  /**
   * The panel, whose code is in by the time a run has one: rendered as is rather than through `lazy` and
   * `<Suspense>`, because React holds back a Suspense boundary's content that resolves within 300 ms of any
   * fallback shown (FALLBACK_THROTTLE_MS), which delayed a first run's first drawn event by up to 300 ms.
   */
  readonly Panel: typeof import('./viz/VizPanel').default;
  readonly store: RecordingStore;
  /** Where the panel opens: a share link's view and step on the first run after it, else the last view. */
  readonly initial: VizPosition;
  runId: number;
  live: boolean;
}

function describeFailure(phase: string, message: string, position?: SourcePosition): string {
  const where = position ? ` (line ${position.line}, column ${position.column})` : '';
  return `${phase === 'compile' ? 'Syntax error' : 'Error'}${where}: ${message}`;
}

export default function Playground({ id, title, code: originalCode, children, compiled, schema, openIn, variant = 'embedded' }: PlaygroundProps) {
  const [code, setCode] = useState(originalCode);
  const options = usePlaygroundOptions(schema);
  const [optionsOpen, setOptionsOpen] = useState(variant === 'full');
  const narrow = useNarrow();
  const [panel, setPanel] = useState<PanelId>(FIRST_PANEL);
  const prefix = `rt-${id}`;
  const [editorState, setEditorState] = useState<EditorState>('static');
  const [output, setOutput] = useState<OutputLine[]>([]);
  const [running, setRunning] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [shareStatus, setShareStatus] = useState<string>('');
  const rootRef = useRef<HTMLElement>(null);
  const editorBoxRef = useRef<HTMLDivElement>(null);
  const runButtonRef = useRef<HTMLButtonElement>(null);
  const frameHostRef = useRef<HTMLDivElement>(null);
  const sandboxRef = useRef<SandboxHost | null>(null);
  const editorRef = useRef<EditorHandle | null>(null);
  const codeRef = useRef(code);
  codeRef.current = code;
  const lineKey = useRef(0);
  const [vizRun, setVizRun] = useState<VizRun | null>(null);
  /** The view and step to carry in share links; a link's view and step, for the next run to open at. */
  const vizPosition = useRef<VizPosition>({});
  const linkedViz = useRef<VizPosition | null>(null);

  const append = useCallback((level: OutputLine['level'], text: string) => {
    setOutput((lines) => [...lines, { key: lineKey.current++, level, text }]);
  }, []);

  /** The sandbox host, made once; it adopts the sandbox the directive opened when the reader showed intent. */
  const ensureHost = useCallback((container: HTMLElement): SandboxHost => {
    if (!sandboxRef.current) {
      sandboxRef.current = new SandboxHost({ src: () => sandboxSrcFor(codeRef.current, originalCode, compiled), container });
      sandboxRef.current.adopt(takeHandedOver(id));
    }
    return sandboxRef.current;
  }, [compiled, id, originalCode]);

  const run = useCallback(async () => {
    if (!frameHostRef.current) return;
    const host = ensureHost(frameHostRef.current);
    // The visualizers' code loads while the sandbox runs (on a first run both take a while): what the run
    // records before the recording store is there waits in `early`.
    const vizModules = loadVizCode(codeRef.current);
    const lastView = vizPosition.current.view;
    const initial = linkedViz.current ?? (lastView ? { view: lastView } : {});
    linkedViz.current = null;
    const key = (lineKey.current += 1);
    let viz: VizRun | undefined;
    let runId = 0;
    const early: Extract<RunEvent, { type: 'viz-source' | 'viz-events' }>[] = [];
    const record = (into: VizRun, event: (typeof early)[number]) => {
      if (event.type === 'viz-source') into.store.addSource(event.source);
      else into.store.append(event.sourceId, event.events);
    };
    void vizModules.then(([{ RecordingStore }, { default: Panel }]) => {
      const made: VizRun = { key, Panel, store: new RecordingStore(), initial, runId, live: true };
      for (const event of early) record(made, event);
      early.length = 0;
      viz = made;
      setVizRun(made);
    });
    setRunning(true);
    setOutput([]);
    setPanel((p) => (p === 'code' ? 'output' : p));
    editorRef.current?.showRunProblem(null);
    // The first problem of a run keeps the editor's mark: a run error, or an uncaught error's console line.
    let marked = false;
    const markOnce = (position: SourcePosition | undefined, message: string) => {
      if (!position || marked) return;
      marked = true;
      editorRef.current?.showRunProblem({ ...position, message });
    };
    const started = performance.now();
    const source = codeRef.current;
    await host.run(source, (event) => {
      if (event.type === 'viz-source' || event.type === 'viz-events') {
        if (event.type === 'viz-source') {
          runId = event.runId;
          if (viz) viz.runId = event.runId;
        }
        if (viz) record(viz, event);
        else early.push(event);
      } else if (event.type === 'console') {
        append(event.level, event.text);
        markOnce(event.position, event.text);
      }
      else if (event.type === 'options') {
        const problem = options.onReported(event.schema);
        if (problem) append('failure', problem);
      }
      else if (event.type === 'done') append('status', `Finished in ${Math.round(performance.now() - started)} ms.`);
      else if (event.type === 'error') {
        append('failure', describeFailure(event.phase, event.message, event.position));
        markOnce(event.position, event.message);
      } else if (event.type === 'timeout') append('failure', event.message);
    }, options.overridesRef.current, source === originalCode ? compiled : undefined);
    await vizModules;
    const finished = viz!;
    finished.store.finish();
    // A stopped run's sandbox is gone: its devtools actions have nowhere to go.
    if (finished.runId !== 0 && !host.isLive(finished.runId)) setVizRun((v) => (v === finished ? { ...finished, live: false } : v));
    setRunning(false);
  }, [append, ensureHost, compiled, originalCode, options.onReported, options.overridesRef]);

  const editorLoading = useRef(false);
  const startEditing = useCallback(async () => {
    if (editorRef.current) {
      editorRef.current.focus();
      return;
    }
    // A ref, not state: the click that woke the island and its replay must not load two editors.
    if (editorLoading.current || !editorBoxRef.current) return;
    editorLoading.current = true;
    setEditorState('loading');
    setPanel('code');
    const editorOptions = {
      code: codeRef.current,
      label: `${title}: code editor. Press Escape, then Tab, to move focus out.`,
      onChange: setCode,
      onRun: () => void run(),
      onEscape: () => runButtonRef.current?.focus(),
    };
    // Monaco does not work with touch keyboards; phones and narrow screens get a textarea-based editor.
    const lite = await import('./editor/lite');
    if (lite.prefersLiteEditor()) {
      editorRef.current = lite.createLiteEditor(editorBoxRef.current, editorOptions);
      // Rendered now, not later: the editor box must be visible before it can take focus.
      flushSync(() => setEditorState('lite'));
    } else {
      const { createEditor } = await import('./editor/monaco');
      editorRef.current = createEditor(editorBoxRef.current, editorOptions);
      flushSync(() => setEditorState('monaco'));
    }
    editorRef.current.focus();
  }, [run, title]);

  const share = useCallback(async () => {
    const encoded = await encodeShareState({ code: codeRef.current, ...options.toShare(), ...vizPosition.current });
    const url = `${location.origin}${location.pathname}${location.search}${formatShareHash({ id, encoded })}`;
    history.replaceState(history.state, '', url);
    // Some chat tools and browsers cut links near 2,000 characters; say how long this one is.
    const length = `${url.length.toLocaleString('en')} characters${url.length > 2000 ? ', long enough that some apps may cut it' : ''}`;
    try {
      await navigator.clipboard.writeText(url);
      setShareStatus(`Link copied to the clipboard (${length}).`);
    } catch {
      setShareStatus(`The address bar now holds the link to share (${length}).`);
    }
  }, [id, options.toShare]);

  /**
   * Carries the current state (code, options, and the visualizer view and step, as Share does) to the full-page
   * playground through its share fragment.
   */
  const openInPlayground = useCallback(async () => {
    if (!openIn) return;
    const encoded = await encodeShareState({ code: codeRef.current, ...options.toShare(), ...vizPosition.current });
    location.assign(`${openIn.href}${formatShareHash({ id: openIn.id, encoded })}`);
  }, [openIn, options.toShare]);

  const [downloadStatus, setDownloadStatus] = useState('');
  const downloading = useRef(false);
  const download = useCallback(async () => {
    // A ref, not state: the click that woke the island and its replay must not download twice.
    if (downloading.current) return;
    downloading.current = true;
    setDownloadStatus('Preparing the project…');
    try {
      const { downloadProject } = await import('./download/project');
      const name = await downloadProject({ id, title, code: codeRef.current, options: options.toShare() });
      setDownloadStatus(`Downloaded ${name}.`);
    } catch (error) {
      setDownloadStatus(`Could not build the project: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      downloading.current = false;
    }
  }, [id, title, options.toShare]);

  const changeOption = useCallback(
    (name: string, value: string | number | boolean) => {
      options.set(name, value);
      void run();
    },
    [options.set, run],
  );
  // Chosen on the server-rendered panel before it hydrated: taken as one change, and run like any other.
  const adoptOptions = useCallback(
    (values: Record<string, string | number | boolean>) => {
      for (const [name, value] of Object.entries(values)) options.set(name, value);
      void run();
    },
    [options.set, run],
  );
  const resetOptions = useCallback(() => {
    options.reset();
    void run();
  }, [options.reset, run]);

  const reset = useCallback(() => {
    if (codeRef.current !== originalCode && !window.confirm('Discard your changes and restore the original snippet?')) return;
    setCode(originalCode);
    editorRef.current?.setValue(originalCode);
    setNotice(null);
    // A share link in the address would bring the discarded code back on reload.
    if (readShareHash(location.hash)?.id === id) history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  }, [id, originalCode]);

  // On hydration: restore state from a link addressed to this playground, then perform the action that woke us.
  useEffect(() => {
    let cancelled = false;
    const island = rootRef.current?.closest<HTMLElement>('astro-island');
    const wakeAction = island?.dataset.wakeAction;
    if (island) delete island.dataset.wakeAction;
    (async () => {
      const shared = readShareHash(location.hash);
      if (shared?.id === id) {
        const result = await decodeShareState(shared.encoded);
        if (cancelled) return;
        if (result.ok) {
          setCode(result.state.code);
          options.fromShare(result.state);
          if (result.state.options || result.state.seed !== undefined) setOptionsOpen(true);
          const { view, step } = result.state;
          if (view !== undefined || step !== undefined) linkedViz.current = { ...(view !== undefined ? { view } : {}), ...(step !== undefined ? { step } : {}) };
          setNotice(
            `Opened from a shared link. Read the code, then press Run to run it${step !== undefined ? `; Run will replay to step ${step + 1}` : ''}.`,
          );
        } else {
          setNotice(`${result.message} Showing the page's original snippet instead.`);
        }
      }
      if (wakeAction === 'run') void run();
      else if (wakeAction === 'edit') void startEditing();
      else if (wakeAction === 'share') void share();
      else if (wakeAction === 'options') setOptionsOpen(true);
      else if (wakeAction === 'download') void download();
      else if (wakeAction?.startsWith('tab-') && isPanelId(wakeAction.slice(4))) setPanel(wakeAction.slice(4) as PanelId);
      // The reader is engaging with this playground: have its first sandbox starting (the directive may have
      // opened it already) and the visualizers' code loading, so Run answers at once.
      if (wakeAction !== 'run' && frameHostRef.current && !cancelled) {
        ensureHost(frameHostRef.current).prewarm();
        void loadVizCode(codeRef.current);
      }
    })();
    return () => {
      cancelled = true;
    };
    // Runs once, on hydration.
  }, []);

  useEffect(() => () => {
    editorRef.current?.dispose();
    sandboxRef.current?.reset();
  }, []);

  const edited = code !== originalCode;
  const editing = editorState === 'monaco' || editorState === 'lite';
  const hasOptions = options.schema !== undefined && Object.keys(options.schema).length > 0;
  const maxLines = variant === 'full' ? 40 : 28;
  return (
    <section
      ref={rootRef}
      className={`rt-playground not-content${variant === 'full' ? ' rt-playground-full' : ''}`}
      data-playground-id={id}
      data-sandbox-src={sandboxSrcFor(originalCode, originalCode, compiled)}
      // For the directive: a press on Run before hydration starts this in the sandbox at once (spare.ts startEarlyRun).
      data-compiled={compiled}
      aria-label={`Playground: ${title}`}
    >
      <div className="rt-toolbar" role="toolbar" aria-label={`${title} controls`}>
        <span className="rt-title">{title}</span>
        {/* aria-disabled, not disabled: a disabled button loses focus, and a keyboard user's place with it. */}
        <button
          type="button"
          data-action="run"
          ref={runButtonRef}
          onClick={() => !running && void run()}
          aria-disabled={running || undefined}
          aria-keyshortcuts="Control+Enter Meta+Enter"
        >
          {running ? 'Running…' : 'Run'}
        </button>
        {editorState === 'static' && (
          <button type="button" data-action="edit" onClick={() => void startEditing()}>
            Edit
          </button>
        )}
        {hasOptions && (
          <button type="button" data-action="options" aria-expanded={optionsOpen} aria-controls={`${prefix}-options`} onClick={() => setOptionsOpen((o) => !o)}>
            Options{options.changed && <span aria-hidden="true"> •</span>}
          </button>
        )}
        <button type="button" data-action="share" onClick={() => void share()}>
          Share
        </button>
        {openIn && (
          <a
            className="rt-toolbar-link"
            href={openIn.href}
            data-action="open"
            onClick={(e) => {
              e.preventDefault();
              void openInPlayground();
            }}
          >
            Open in playground
          </a>
        )}
        {variant === 'full' && (
          <button type="button" data-action="download" onClick={() => void download()}>
            Download project
          </button>
        )}
        {edited && (
          <button type="button" data-action="reset" onClick={reset}>
            Reset
          </button>
        )}
      </div>
      {notice && (
        <p className="rt-notice" role="status">
          {notice}
        </p>
      )}
      {hasOptions && optionsOpen && (
        <div id={`${prefix}-options`}>
          <OptionsPanel
            idPrefix={prefix}
            title={title}
            schema={options.schema!}
            values={options.values}
            changed={options.changed}
            onChange={changeOption}
            onReset={resetOptions}
            onAdopt={adoptOptions}
          />
        </div>
      )}
      <PanelTabs prefix={prefix} title={title} active={panel} narrow={narrow} onSelect={setPanel} />
      <div className="rt-panel rt-panel-code" {...panelProps(prefix, 'code', panel, narrow)}>
        {!editing && (
          <div className="rt-code" data-action="edit" onClick={() => void startEditing()} aria-busy={editorState === 'loading'}>
            {edited || !children ? (
              <pre className="rt-plain">
                <code>{code}</code>
              </pre>
            ) : (
              children
            )}
          </div>
        )}
        <div
          ref={editorBoxRef}
          className={`rt-editor${editorState === 'lite' ? ' rt-editor-lite' : ''}`}
          hidden={!editing}
          style={editorState === 'monaco' ? { height: `${Math.min(Math.max(code.split('\n').length, 6), maxLines) * 19 + 16}px` } : undefined}
        />
        {editing && <p className="rt-hint">Ctrl/Cmd+Enter runs. Esc leaves the editor; Tab then moves focus.</p>}
      </div>
      <div className="rt-panel rt-panel-output" {...panelProps(prefix, 'output', panel, narrow)}>
        {output.length > 0 && !running && (
          <div className="rt-output-bar">
            <button type="button" data-action="clear" onClick={() => setOutput([])}>
              Clear console
            </button>
          </div>
        )}
        <div className="rt-output" role="log" aria-live="polite" aria-label={`${title} console output`}>
          {output.length === 0 ? (
            <p className="rt-empty">Console output appears here.</p>
          ) : (
            output.map((line) => (
              <pre key={line.key} className={`rt-line rt-${line.level}`}>
                {line.text}
              </pre>
            ))
          )}
        </div>
        <div ref={frameHostRef} className="rt-frame-host" />
      </div>
      <div className="rt-panel rt-panel-timeline" {...panelProps(prefix, 'timeline', panel, narrow)}>
        {/* The visualizer panel: below the output on wide screens, the Timeline tab on phones. */}
        {vizRun ? (
          <vizRun.Panel
            key={vizRun.key}
            store={vizRun.store}
            idPrefix={prefix}
            playgroundId={id}
            title={title}
            {...(vizRun.live ? { onAction: (sourceId: string, action: DevtoolsAction) => void sandboxRef.current?.devtools(vizRun.runId, sourceId, action) } : {})}
            initial={vizRun.initial}
            onPosition={(position) => (vizPosition.current = position)}
          />
        ) : (
          <p className="rt-empty rt-timeline-placeholder">Run the snippet to record its timeline.</p>
        )}
      </div>
      <p className="rt-share-status" role="status">
        {shareStatus || downloadStatus}
      </p>
    </section>
  );
}
