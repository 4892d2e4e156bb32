/**
 * A playground's state in one place: the code, the options, the run and its console output, the visualizer's
 * recording and position, the editor's mode, and what Share, Download and a share link did. The component
 * (Playground.tsx) renders a snapshot of it through useSyncExternalStore and forwards the reader's actions.
 *
 * Everything that touches the page goes through `PlaygroundEnv` (the sandbox host, the editor, the clipboard,
 * the address bar, the lazily loaded visualizers), so the store runs and is tested in Node without a DOM;
 * store/browser.ts is the page's side.
 */
import type { SandboxHost, RunEvent } from '../sandbox/host';
import type { ConsoleLevel, SourcePosition } from '../sandbox/protocol';
import type { DevtoolsAction, Recording } from '../recording/model';
import type { RecordingStore } from '../viz/recording';
import type { VizPosition } from '../viz/VizPanel';
import type { CreateEditorOptions, EditorHandle, TextSelection } from '../editor/monaco';
import type { OptionsSchema, OptionValue } from '../options/schema';
import type { ProjectInput } from '../download/project';
import { isPanelId, FIRST_PANEL, type PanelId } from '../layout/tabs';
import { REAL_TIME_PRAGMA } from '../sandbox/virtual-time';
import { decodeShareState, encodeShareState, type ShareState } from '../share/codec';
import { formatShareHash, readShareHash } from '../share/hash';
import { initialOptions, optionsFromShare, optionsToShare, optionValues, reportSchema, setOption, type OptionsState } from './options';
import { nextGhost, type Ghost, type RunInputs } from './ghost';

export interface OutputLine {
  readonly key: number;
  readonly level: ConsoleLevel | 'status' | 'failure';
  readonly text: string;
}

/** 'lite': the textarea editor for touch and narrow screens (editor/lite.ts). */
export type EditorMode = 'static' | 'loading' | 'monaco' | 'lite';

/** Where the current (or last) run is. A run that reported an error or was stopped has failed. */
export type RunState =
  | { readonly status: 'idle' }
  | { readonly status: 'running' }
  | { readonly status: 'finished'; readonly ms: number }
  | { readonly status: 'failed' };

/** The visualizers' code: the recording store and the panel (viz/recording.ts, viz/VizPanel.tsx). */
export type VizModules = readonly [{ RecordingStore: new (options?: { realTime?: boolean }) => RecordingStore }, { default: VizPanelComponent }];
export type VizPanelComponent = typeof import('../viz/VizPanel').default;

/** One run's recording, the run it came from, and whether its sandbox still takes devtools actions. */
export interface VizRun {
  readonly key: number;
  /**
   * The panel, whose code is in by the time a run has one: rendered as is rather than through `lazy` and
   * `<Suspense>`, because React holds back a Suspense boundary's content that resolves within 300 ms of any
   * fallback shown (FALLBACK_THROTTLE_MS), which delayed a first run's first drawn event by up to 300 ms.
   */
  readonly Panel: VizPanelComponent;
  readonly recording: RecordingStore;
  /** Where the panel opens: a share link's view and step on the first run after it, else the last view. */
  readonly initial: VizPosition;
  /** The sandbox's id for the run (0 until it reported a source): devtools actions name it. */
  readonly runId: number;
  readonly live: boolean;
}

export interface PlaygroundState {
  readonly code: string;
  readonly editor: EditorMode;
  readonly panel: PanelId;
  readonly optionsOpen: boolean;
  readonly options: OptionsState;
  readonly run: RunState;
  readonly output: readonly OutputLine[];
  readonly viz: VizRun | null;
  /** The previous run, drawn faded under the current one (store/ghost.ts); null when there is none to compare. */
  readonly ghost: Ghost | null;
  /** About a share link this playground opened from. */
  readonly notice: string | null;
  readonly shareStatus: string;
  readonly downloadStatus: string;
}

export interface PlaygroundConfig {
  readonly id: string;
  readonly title: string;
  /** The page's original snippet. */
  readonly code: string;
  /** `code` compiled at build time; runs of the unedited snippet send it and skip the sandbox's compiler. */
  readonly compiled?: string | undefined;
  readonly schema?: OptionsSchema | undefined;
  /** The full-page playground for this example, and the id of the playground there. */
  readonly openIn?: { readonly href: string; readonly id: string } | undefined;
  readonly variant?: 'embedded' | 'full';
  /** The view the page's runs open on (`view` on <Playground>); its code loads with the visualizers'. */
  readonly view?: string | undefined;
}

export type SandboxPort = Pick<SandboxHost, 'run' | 'prewarm' | 'isLive' | 'devtools' | 'reset'>;

/** The page around the store. */
export interface PlaygroundEnv {
  /** A sandbox host (made once, on first use); undefined while there is no element to hold its iframe. */
  createHost(): SandboxPort | undefined;
  /** The visualizers' code; `code` is the snippet about to run, whose first view loads too. */
  loadViz(code?: string): Promise<VizModules>;
  /** A clock in milliseconds, for a run's duration. */
  now(): number;
  /** The page's address, without the parts a share link replaces. */
  location(): { readonly origin: string; readonly pathname: string; readonly search: string; readonly hash: string };
  replaceUrl(url: string): void;
  navigate(url: string): void;
  copy(text: string): Promise<void>;
  confirm(question: string): boolean;
  /**
   * Creates the editor in its box: the textarea editor at once, which Monaco replaces when ready (calling
   * `beforeUpgrade` first), or only the textarea editor on touch and narrow screens.
   */
  openEditor(options: CreateEditorOptions): Promise<{ editor: EditorHandle; mode: 'monaco' | 'lite' } | undefined>;
  /** Starts downloading the editor's code and its TypeScript worker (the pointer is over the code: a click to edit may follow). */
  preloadEditor(): void;
  /** Applies `update` and renders it before returning (the editor box must be visible before it takes focus). */
  renderNow(update: () => void): void;
  /** Moves focus to the Run button (Escape in the editor). */
  focusRun(): void;
  /** The page's own title (its h1), which Open in playground names as where the code came from. */
  pageTitle(): string;
  downloadProject(input: ProjectInput): Promise<string>;
}

/** What woke the island (the `client:interaction` directive's data-wake-action), as one value. */
export type WakeAction =
  | { readonly kind: 'none' }
  | { readonly kind: 'run' | 'share' | 'options' | 'download' }
  /** `code` and `selection`: what the reader typed, and where, in the code made editable before hydration. */
  | { readonly kind: 'edit'; readonly code?: string; readonly selection?: TextSelection }
  | { readonly kind: 'tab'; readonly panel: PanelId };

export function parseWakeAction(raw: string | undefined): WakeAction {
  switch (raw) {
    case 'run':
    case 'edit':
    case 'share':
    case 'options':
    case 'download':
      return { kind: raw };
  }
  const panel = raw?.startsWith('tab-') ? raw.slice(4) : undefined;
  return isPanelId(panel) ? { kind: 'tab', panel } : { kind: 'none' };
}

/** A share link in the address, as it concerns one playground. */
export type LinkOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'opened'; readonly state: ShareState; readonly from?: string }
  | { readonly kind: 'damaged'; readonly message: string };

/**
 * The link in `hash` for playground `id`: null when there is none for it (known at once, so hydration need not
 * wait a tick), else its decoded state or why it could not be read.
 */
export function readLink(hash: string, id: string): Promise<LinkOutcome> | null {
  const shared = readShareHash(hash);
  if (shared?.id !== id) return null;
  return decodeShareState(shared.encoded).then((result) =>
    result.ok ? { kind: 'opened', state: result.state, ...(shared.from ? { from: shared.from } : {}) } : { kind: 'damaged', message: result.message },
  );
}

/**
 * What opening from a link changes: the code, the options (shown when the link set any), the notice, and the
 * visualizer position the next run opens at.
 */
export function applyLink(state: PlaygroundState, link: LinkOutcome): { state: PlaygroundState; linked: VizPosition | null } {
  switch (link.kind) {
    case 'none':
      return { state, linked: null };
    case 'damaged':
      return { state: { ...state, notice: `${link.message} Showing the page's original snippet instead.` }, linked: null };
    case 'opened': {
      const { code, options, seed, view, step } = link.state;
      const linked = view !== undefined || step !== undefined ? { ...(view !== undefined ? { view } : {}), ...(step !== undefined ? { step } : {}) } : null;
      // Open in playground names the page it came from; a link someone shared says only that it is one.
      const notice = `Opened from ${link.from ? `“${link.from}”` : 'a shared link'}. Read the code, then press Run to run it${step !== undefined ? `; Run will open at step ${step + 1}` : ''}.`;
      const optionsOpen = state.optionsOpen || options !== undefined || seed !== undefined;
      return { state: { ...state, code, options: optionsFromShare(state.options, link.state), optionsOpen, notice }, linked };
    }
  }
}

export function describeFailure(phase: string, message: string, position?: SourcePosition): string {
  const where = position ? ` (line ${position.line}, column ${position.column})` : '';
  return `${phase === 'compile' ? 'Syntax error' : 'Error'}${where}: ${message}`;
}

/** The address a share link names, and how Share describes its length. */
function describeLength(url: string): string {
  // Some chat tools and browsers cut links near 2,000 characters; say how long this one is.
  return `${url.length.toLocaleString('en')} characters${url.length > 2000 ? ', long enough that some apps may cut it' : ''}`;
}

type RecordEvent = Extract<RunEvent, { type: 'viz-source' | 'viz-events' }>;

export class PlaygroundStore {
  readonly config: PlaygroundConfig;
  readonly #env: PlaygroundEnv;
  #state: PlaygroundState;
  readonly #listeners = new Set<() => void>();
  /** Keys output lines and runs' panels, so React never reuses one for another. */
  #key = 0;
  #host: SandboxPort | undefined;
  #editor: EditorHandle | null = null;
  /** Not state: the click that woke the island and its replay must not load two editors or download twice. */
  #editorLoading = false;
  #downloading = false;
  /** The view and step the panel shows, for share links; not state, since nothing here renders it. */
  #position: VizPosition = {};
  /** A link's view and step, for the next run to open at. */
  #linked: VizPosition | null = null;
  /** The last run that recorded something, and what it ran with: the next run's ghost (store/ghost.ts). */
  #lastRun: { readonly inputs: RunInputs; readonly recording: () => Recording } | undefined;

  constructor(config: PlaygroundConfig, env: PlaygroundEnv) {
    this.config = config;
    this.#env = env;
    this.#state = {
      code: config.code,
      editor: 'static',
      panel: FIRST_PANEL,
      optionsOpen: config.variant === 'full',
      options: initialOptions(config.schema),
      run: { status: 'idle' },
      output: [],
      viz: null,
      ghost: null,
      notice: null,
      shareStatus: '',
      downloadStatus: '',
    };
  }

  // useSyncExternalStore's two functions, bound so they can be passed as they are.
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
  readonly getState = (): PlaygroundState => this.#state;

  #set(patch: Partial<PlaygroundState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener();
  }

  #append(level: OutputLine['level'], text: string): void {
    this.#set({ output: [...this.#state.output, { key: this.#key++, level, text }] });
  }

  #ensureHost(): SandboxPort | undefined {
    return (this.#host ??= this.#env.createHost());
  }

  get edited(): boolean {
    return this.#state.code !== this.config.code;
  }

  setCode = (code: string): void => this.#set({ code });
  /** The pointer is over the static code: a click to edit may follow. */
  prepareEditor = (): void => {
    if (!this.#editor && !this.#editorLoading) this.#env.preloadEditor();
  };
  selectPanel = (panel: PanelId): void => this.#set({ panel });
  toggleOptions = (): void => this.#set({ optionsOpen: !this.#state.optionsOpen });
  clearOutput = (): void => this.#set({ output: [] });
  /** The panel reports the view and step it shows; no step at the end, so a finished run shared reopens at its end. */
  setPosition = (position: VizPosition): void => void (this.#position = position);

  /** The state a share link (or Open in playground) carries. */
  shareState(): ShareState {
    return { code: this.#state.code, ...optionsToShare(this.#state.options), ...this.#position };
  }

  /** Options change one at a time from the panel, or all at once when it was used before hydration; both re-run. */
  setOptions = (values: Record<string, OptionValue>): void => {
    let options = this.#state.options;
    for (const [name, value] of Object.entries(values)) options = setOption(options, name, value);
    this.#set({ options });
    void this.run();
  };
  resetOptions = (): void => {
    this.#set({ options: { ...this.#state.options, overrides: {} } });
    void this.run();
  };

  /** Keeps the ghost across further runs until it is cleared (again: lets the next changed run replace it). */
  pinGhost = (pinned = true): void => {
    const { ghost } = this.#state;
    if (ghost && ghost.pinned !== pinned) this.#set({ ghost: { ...ghost, pinned } });
  };
  clearGhost = (): void => {
    if (this.#state.ghost) this.#set({ ghost: null });
  };

  devtools = (sourceId: string, action: DevtoolsAction): void => {
    const viz = this.#state.viz;
    if (viz?.live) this.#host?.devtools(viz.runId, sourceId, action);
  };

  run = async (): Promise<void> => {
    const host = this.#ensureHost();
    if (!host) return;
    const { code } = this.#state;
    // The visualizers' code loads while the sandbox runs (on a first run both take a while): what the run
    // records before the recording store is there waits in `early`.
    const vizModules = this.#env.loadViz(code);
    const initial = this.#linked ?? (this.#position.view ? { view: this.#position.view } : {});
    this.#linked = null;
    const key = (this.#key += 1);
    const inputs: RunInputs = { code, values: optionValues(this.#state.options) };
    const ghost = nextGhost(this.#state.ghost, this.#lastRun, inputs, key);
    if (ghost !== this.#state.ghost) this.#set({ ghost });
    let runId = 0;
    let viz: VizRun | undefined;
    const early: RecordEvent[] = [];
    const record = (into: VizRun, event: RecordEvent) => {
      if (event.type === 'viz-source') into.recording.addSource(event.source);
      else into.recording.append(event.sourceId, event.events);
    };
    void vizModules.then(([{ RecordingStore }, { default: Panel }]) => {
      // A run on the virtual clock finished at once: the panel plays its recording afterwards (viz/after-run.ts).
      viz = { key, Panel, recording: new RecordingStore({ realTime: REAL_TIME_PRAGMA.test(code) }), initial, runId, live: true };
      for (const event of early.splice(0)) record(viz, event);
      this.#set({ viz });
    });
    this.#set({ run: { status: 'running' }, output: [], panel: this.#state.panel === 'code' ? 'output' : this.#state.panel });
    this.#editor?.showRunProblem(null);
    // The first problem of a run keeps the editor's mark: a run error, or an uncaught error's console line.
    let marked = false;
    const markOnce = (position: SourcePosition | undefined, message: string) => {
      if (!position || marked) return;
      marked = true;
      this.#editor?.showRunProblem({ ...position, message });
    };
    let failed = false;
    const started = this.#env.now();
    const onEvent = (event: RunEvent): void => {
      switch (event.type) {
        case 'viz-source':
        case 'viz-events':
          if (event.type === 'viz-source' && event.runId !== runId) {
            runId = event.runId;
            if (viz) {
              const shown = this.#state.viz === viz;
              viz = { ...viz, runId };
              if (shown) this.#set({ viz });
            }
          }
          if (viz) record(viz, event);
          else early.push(event);
          return;
        case 'console':
          this.#append(event.level, event.text);
          return markOnce(event.position, event.text);
        case 'options': {
          const reported = reportSchema(this.#state.options, event.schema);
          if ('problem' in reported) this.#append('failure', reported.problem);
          else this.#set({ options: reported.state });
          return;
        }
        case 'done':
          return this.#append('status', `Finished in ${Math.round(this.#env.now() - started)} ms.`);
        case 'error':
          failed = true;
          this.#append('failure', describeFailure(event.phase, event.message, event.position));
          return markOnce(event.position, event.message);
        case 'timeout':
          failed = true;
          return this.#append('failure', event.message);
      }
    };
    const compiled = code === this.config.code ? this.config.compiled : undefined;
    await host.run(code, onEvent, this.#state.options.overrides, compiled);
    await vizModules;
    const finished = viz!;
    finished.recording.finish();
    // Snapshot taken when the next run starts: events a finished run still records (timers, gc) belong to it.
    if (finished.recording.length > 0) this.#lastRun = { inputs, recording: () => finished.recording.snapshot() };
    // A stopped run's sandbox is gone: its devtools actions have nowhere to go.
    if (finished.runId !== 0 && !host.isLive(finished.runId) && this.#state.viz === finished) this.#set({ viz: { ...finished, live: false } });
    this.#set({ run: failed ? { status: 'failed' } : { status: 'finished', ms: Math.round(this.#env.now() - started) } });
  };

  /**
   * Opens the editor on the code, with the cursor at `selection` (where the reader clicked in the static code),
   * or focuses it when it is open.
   */
  startEditing = async (selection?: TextSelection): Promise<void> => {
    if (this.#editor) return this.#editor.focus();
    if (this.#editorLoading) return;
    this.#editorLoading = true;
    this.#set({ editor: 'loading', panel: 'code' });
    const opened = await this.#env.openEditor({
      code: this.#state.code,
      label: `${this.config.title}: code editor. Press Escape, then Tab, to move focus out.`,
      onChange: this.setCode,
      onRun: () => void this.run(),
      onEscape: () => this.#env.focusRun(),
      ...(selection ? { selection } : {}),
      // Monaco takes the stand-in's place: the box gets Monaco's height before Monaco measures it.
      beforeUpgrade: () => this.#env.renderNow(() => this.#set({ editor: 'monaco' })),
    });
    if (!opened) {
      this.#editorLoading = false;
      return this.#set({ editor: 'static' });
    }
    this.#editor = opened.editor;
    this.#env.renderNow(() => this.#set({ editor: opened.mode }));
    opened.editor.focus();
  };

  #shareHash(id: string, from?: string): Promise<string> {
    return encodeShareState(this.shareState()).then((encoded) => formatShareHash({ id, encoded, from }));
  }

  share = async (): Promise<void> => {
    const { origin, pathname, search } = this.#env.location();
    const url = `${origin}${pathname}${search}${await this.#shareHash(this.config.id)}`;
    this.#env.replaceUrl(url);
    try {
      await this.#env.copy(url);
      this.#set({ shareStatus: `Link copied to the clipboard (${describeLength(url)}).` });
    } catch {
      this.#set({ shareStatus: `The address bar now holds the link to share (${describeLength(url)}).` });
    }
  };

  /**
   * Carries the code, options, view and step, as Share does, to the full-page playground through its fragment,
   * with the page's title, so the playground there says where the code came from rather than calling it a shared link.
   */
  openInPlayground = async (): Promise<void> => {
    const { openIn } = this.config;
    if (openIn) this.#env.navigate(`${openIn.href}${await this.#shareHash(openIn.id, this.#env.pageTitle())}`);
  };

  download = async (): Promise<void> => {
    if (this.#downloading) return;
    this.#downloading = true;
    this.#set({ downloadStatus: 'Preparing the project…' });
    try {
      const { id, title } = this.config;
      const name = await this.#env.downloadProject({ id, title, code: this.#state.code, options: optionsToShare(this.#state.options) });
      this.#set({ downloadStatus: `Downloaded ${name}.` });
    } catch (error) {
      this.#set({ downloadStatus: `Could not build the project: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      this.#downloading = false;
    }
  };

  reset = (): void => {
    if (this.edited && !this.#env.confirm('Discard your changes and restore the original snippet?')) return;
    this.#set({ code: this.config.code, notice: null });
    this.#editor?.setValue(this.config.code);
    // A share link in the address would bring the discarded code back on reload.
    const { pathname, search, hash } = this.#env.location();
    if (readShareHash(hash)?.id === this.config.id) this.#env.replaceUrl(`${pathname}${search}`);
  };

  /**
   * On hydration: restores the state a link in `hash` addressed to this playground holds, then performs the
   * actions that woke the island (the presses before hydration, in order). `cancel` abandons what is still to do (the island unmounted); `settled` says
   * when it is done (or abandoned).
   */
  hydrate(hash: string, wake: WakeAction | readonly WakeAction[]): { cancel(): void; settled: Promise<void> } {
    let cancelled = false;
    const proceed = (link: LinkOutcome) => {
      if (cancelled) return;
      if (link.kind === 'opened' && link.from !== undefined) this.#dropFrom();
      const { state, linked } = applyLink(this.#state, link);
      if (state !== this.#state) this.#set(state);
      if (linked) this.#linked = linked;
      for (const each of Array.isArray(wake) ? wake : [wake]) this.#wake(each);
    };
    const pending = readLink(hash, this.config.id);
    if (!pending) proceed({ kind: 'none' });
    return { cancel: () => void (cancelled = true), settled: pending ? pending.then(proceed) : Promise.resolve() };
  }

  /**
   * Open in playground names the page the code came from (`&from=`) for the notice only: once read, it leaves
   * the address, so a reload or a copied address does not claim the code still comes from that page (the share
   * state stays, and a reload still shows the code).
   */
  #dropFrom(): void {
    const { pathname, search, hash } = this.#env.location();
    const shared = readShareHash(hash);
    if (shared?.id !== this.config.id || shared.from === undefined) return;
    this.#env.replaceUrl(`${pathname}${search}${formatShareHash({ id: shared.id, encoded: shared.encoded })}`);
  }

  /**
   * A link that arrives once the island is awake (only the fragment changed, so the page did not reload): its
   * state replaces the code and options, as on hydration, and the notice says so. It never runs: Run does that.
   * A fragment for another playground, or none, changes nothing.
   */
  openLink = async (hash: string): Promise<void> => {
    const link = await readLink(hash, this.config.id);
    if (!link) return;
    if (link.kind === 'opened' && link.from !== undefined) this.#dropFrom();
    if (link.kind === 'damaged' && this.edited) return this.#set({ notice: `${link.message} The code here is unchanged.` });
    const { state, linked } = applyLink(this.#state, link);
    this.#set(state);
    this.#linked = linked;
    this.#editor?.setValue(state.code);
  };

  #wake(wake: WakeAction): void {
    switch (wake.kind) {
      case 'run':
        // The run starts the sandbox and loads the visualizers itself.
        return void this.run();
      case 'edit':
        if (wake.code !== undefined) this.#set({ code: wake.code });
        void this.startEditing(wake.selection);
        break;
      case 'share':
        void this.share();
        break;
      case 'options':
        this.#set({ optionsOpen: true });
        break;
      case 'download':
        void this.download();
        break;
      case 'tab':
        this.#set({ panel: wake.panel });
        break;
    }
    // The reader is engaging with this playground: have its first sandbox starting (the directive may have
    // opened it already) and the visualizers' code loading, so Run answers at once.
    const host = this.#ensureHost();
    if (host) {
      host.prewarm();
      void this.#env.loadViz(this.#state.code);
    }
  }

  /** The island is going away: its editor and sandbox with it. */
  dispose(): void {
    this.#editor?.dispose();
    this.#host?.reset();
  }
}
