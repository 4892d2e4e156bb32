import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../sandbox/host';
import { RecordingStore } from '../viz/recording';
import type { CreateEditorOptions, EditorHandle, EditorProblem } from '../editor/monaco';
import { decodeShareState, encodeShareState } from '../share/codec';
import { formatShareHash, readShareHash } from '../share/hash';
import { validateSchema } from '../options/schema';
import {
  applyLink,
  parseWakeAction,
  PlaygroundStore,
  readLink,
  type PlaygroundConfig,
  type PlaygroundEnv,
  type SandboxPort,
  type VizModules,
  type VizPanelComponent,
} from './store';

const ORIGINAL = "console.log('hi');\n";
const schema = validateSchema({
  rtt: { type: 'number', default: 100, min: 1, max: 1000, doc: 'RTT' },
  seed: { type: 'number', default: 2, integer: true, doc: 'Seed' },
});
const Panel = (() => null) as unknown as VizPanelComponent;

/** A sandbox that replays a script of events for each run, and records what it was asked. */
class FakeSandbox implements SandboxPort {
  runs: { code: string; options: unknown; js: string | undefined }[] = [];
  actions: unknown[][] = [];
  prewarmed = 0;
  resets = 0;
  liveRun = 0;
  constructor(private script: (runIndex: number) => RunEvent[]) {}
  async run(code: string, onEvent: (event: RunEvent) => void, options?: Readonly<Record<string, unknown>>, js?: string) {
    this.runs.push({ code, options, js });
    await Promise.resolve();
    for (const event of this.script(this.runs.length - 1)) onEvent(event);
  }
  prewarm() {
    this.prewarmed++;
  }
  isLive(runId: number) {
    return runId === this.liveRun;
  }
  devtools(runId: number, sourceId: string, action: unknown) {
    this.actions.push([runId, sourceId, action]);
    return true;
  }
  reset() {
    this.resets++;
  }
}

class FakeEditor implements EditorHandle {
  value: string;
  problems: (EditorProblem | null)[] = [];
  focused = 0;
  disposed = false;
  constructor(readonly options: CreateEditorOptions) {
    this.value = options.code;
  }
  getValue() {
    return this.value;
  }
  showRunProblem(problem: EditorProblem | null) {
    this.problems.push(problem);
  }
  setValue(code: string) {
    this.value = code;
  }
  focus() {
    this.focused++;
  }
  dispose() {
    this.disposed = true;
  }
}

function setup(config: Partial<PlaygroundConfig> = {}, script: (runIndex: number) => RunEvent[] = () => [{ v: 1, type: 'done', runId: 1 } as RunEvent]) {
  const sandbox = new FakeSandbox(script);
  const page = {
    hash: '',
    urls: [] as string[],
    navigated: [] as string[],
    copied: [] as string[],
    clipboardWorks: true,
    confirmAnswer: true,
    questions: [] as string[],
    editors: [] as FakeEditor[],
    rendersNow: 0,
    editorPreloads: 0,
    editorMode: 'monaco' as 'monaco' | 'lite',
    hostsMade: 0,
    downloads: [] as unknown[],
    clock: 0,
  };
  const modules: VizModules = [{ RecordingStore }, { default: Panel }];
  const env: PlaygroundEnv = {
    createHost: () => (page.hostsMade++, sandbox),
    loadViz: () => Promise.resolve(modules),
    now: () => (page.clock += 10),
    location: () => ({ origin: 'https://rt.test', pathname: '/http/', search: '?x=1', hash: page.hash }),
    replaceUrl: (url) => void page.urls.push(url),
    navigate: (url) => void page.navigated.push(url),
    copy: async (text) => {
      if (!page.clipboardWorks) throw new Error('denied');
      page.copied.push(text);
    },
    confirm: (question) => (page.questions.push(question), page.confirmAnswer),
    openEditor: async (options) => {
      const editor = new FakeEditor(options);
      page.editors.push(editor);
      return { editor, mode: page.editorMode };
    },
    preloadEditor: () => void page.editorPreloads++,
    renderNow: (update) => {
      page.rendersNow++;
      update();
    },
    focusRun: () => {},
    pageTitle: () => 'HTTP at a glance',
    downloadProject: async (input) => (page.downloads.push(input), `${input.id}.zip`),
  };
  const store = new PlaygroundStore({ id: 'demo', title: 'Demo', code: ORIGINAL, compiled: 'js', schema, ...config }, env);
  return { store, sandbox, page };
}

const console_ = (text: string, position?: { line: number; column: number }): RunEvent =>
  ({ v: 1, type: 'console', runId: 1, level: 'log', text, ...(position ? { position } : {}) }) as RunEvent;

describe('PlaygroundStore: runs', () => {
  it('goes idle -> running -> finished, with the console lines and a status line, and notifies on each change', async () => {
    const { store, sandbox } = setup({}, () => [console_('one'), console_('two'), { v: 1, type: 'done', runId: 1 } as RunEvent]);
    let notified = 0;
    store.subscribe(() => notified++);
    expect(store.getState().run).toEqual({ status: 'idle' });
    const running = store.run();
    expect(store.getState().run.status).toBe('running');
    await running;
    const state = store.getState();
    expect(state.run.status).toBe('finished');
    expect(state.output.map((l) => [l.level, l.text])).toEqual([
      ['log', 'one'],
      ['log', 'two'],
      ['status', 'Finished in 10 ms.'],
    ]);
    expect(new Set(state.output.map((l) => l.key)).size).toBe(3);
    // The unedited snippet runs precompiled, with no overrides.
    expect(sandbox.runs).toEqual([{ code: ORIGINAL, options: {}, js: 'js' }]);
    expect(notified).toBeGreaterThan(3);
  });

  it('fails on an error, describes it with its position, and marks only the first problem in the editor', async () => {
    const { store, page } = setup({}, () => [
      console_('Uncaught TypeError: x', { line: 3, column: 5 }),
      { v: 1, type: 'error', runId: 1, phase: 'runtime', message: 'boom', position: { line: 7, column: 1 } } as RunEvent,
    ]);
    await store.startEditing();
    await store.run();
    expect(store.getState().run).toEqual({ status: 'failed' });
    expect(store.getState().output.at(-1)).toMatchObject({ level: 'failure', text: 'Error (line 7, column 1): boom' });
    expect(page.editors[0]!.problems).toEqual([null, { line: 3, column: 5, message: 'Uncaught TypeError: x' }]);
  });

  it('says "Syntax error" for a compile failure and fails on a timeout', async () => {
    const { store } = setup({}, (i) =>
      i === 0
        ? [{ v: 1, type: 'error', runId: 1, phase: 'compile', message: "';' expected." } as RunEvent]
        : [{ type: 'timeout', runId: 2, message: 'Stopped: the snippet blocked for 2 s.' }],
    );
    await store.run();
    expect(store.getState().output.map((l) => l.text)).toEqual(["Syntax error: ';' expected."]);
    await store.run();
    expect(store.getState().output.map((l) => l.text)).toEqual(['Stopped: the snippet blocked for 2 s.']);
    expect(store.getState().run.status).toBe('failed');
  });

  it('records the run for the visualizer, events that came before its code included, and knows when the sandbox is gone', async () => {
    const { store, sandbox } = setup({}, () => [
      { v: 1, type: 'viz-source', runId: 4, source: { id: 'sim-1', kind: 'wire', label: 'Simulation 1' } } as RunEvent,
      { v: 1, type: 'viz-events', runId: 4, sourceId: 'sim-1', events: [{ at: 0 }] } as RunEvent,
      { v: 1, type: 'done', runId: 4 } as RunEvent,
    ]);
    sandbox.liveRun = 4;
    await store.run();
    const viz = store.getState().viz!;
    expect(viz.Panel).toBe(Panel);
    expect(viz.runId).toBe(4);
    expect(viz.live).toBe(true);
    expect(viz.recording.snapshot().steps).toEqual([{ sourceId: 'sim-1', index: 0 }]);
    store.devtools('client-1', { type: 'set-online', online: false });
    expect(sandbox.actions).toEqual([[4, 'client-1', { type: 'set-online', online: false }]]);

    sandbox.liveRun = 0;
    await store.run();
    expect(store.getState().viz!.live).toBe(false);
    expect(store.getState().viz!.key).not.toBe(viz.key);
    store.devtools('client-1', { type: 'set-online', online: true });
    expect(sandbox.actions).toHaveLength(1);
  });

  it('moves from the Code tab to Output when a run starts, and leaves other tabs alone', async () => {
    const { store } = setup();
    store.selectPanel('code');
    await store.run();
    expect(store.getState().panel).toBe('output');
    store.selectPanel('timeline');
    await store.run();
    expect(store.getState().panel).toBe('timeline');
  });

  it('runs edited code with the compiler and the overrides; an option change and a reset each re-run', async () => {
    const { store, sandbox } = setup();
    store.setCode('console.log(2);');
    expect(store.edited).toBe(true);
    store.setOptions({ rtt: 250 });
    await Promise.resolve();
    store.setOptions({ rtt: 100 });
    store.resetOptions();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sandbox.runs.map((r) => [r.options, r.js])).toEqual([
      [{ rtt: 250 }, undefined],
      [{}, undefined],
      [{}, undefined],
    ]);
  });

  it('takes the schema a run reports, dropping overrides it no longer accepts, and prints an unusable one', async () => {
    let reported: unknown = { rtt: { type: 'number', default: 100, max: 200, doc: 'RTT' } };
    const { store } = setup({}, () => [{ v: 1, type: 'options', runId: 1, schema: reported } as RunEvent]);
    store.setOptions({ rtt: 300 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(Object.keys(store.getState().options.schema!)).toEqual(['rtt']);
    expect(store.getState().options.overrides).toEqual({});
    reported = { rtt: { type: 'number', default: 100 } };
    await store.run();
    expect(store.getState().output.map((l) => [l.level, l.text])).toEqual([['failure', expect.stringContaining('needs a "doc" string')]]);
  });
});

describe('PlaygroundStore: share state', () => {
  it('puts code, non-default options, the seed and the visualizer position in the fragment, and it decodes back', async () => {
    const { store, page } = setup();
    store.setCode('edited();');
    store.setOptions({ rtt: 250, seed: 9 });
    store.setPosition({ view: 'frames', step: 3 });
    await store.share();
    const url = page.urls[0]!;
    expect(page.copied).toEqual([url]);
    expect(url.startsWith('https://rt.test/http/?x=1#pg=demo&s=1.')).toBe(true);
    expect(store.getState().shareStatus).toBe(`Link copied to the clipboard (${url.length} characters).`);
    const shared = readShareHash(new URL(url).hash)!;
    expect(shared.id).toBe('demo');
    expect(await decodeShareState(shared.encoded)).toMatchObject({
      ok: true,
      state: { code: 'edited();', options: { rtt: 250 }, seed: 9, view: 'frames', step: 3 },
    });

    // The link opened in a fresh playground restores the same share state.
    const fresh = setup();
    await fresh.store.hydrate(new URL(url).hash, { kind: 'none' }).settled;
    expect(fresh.store.shareState()).toEqual({ code: 'edited();', options: { rtt: 250 }, seed: 9 });
    expect(fresh.store.getState().optionsOpen).toBe(true);
  });

  it('a run shared at its end reopens at its end: the link names no step, and the next run opens with none', async () => {
    const { store, page } = setup();
    // The panel reports no step while it shows the last one (VizPanel's onPosition).
    store.setPosition({ view: 'frames' });
    await store.share();
    const shared = readShareHash(new URL(page.urls[0]!).hash)!;
    const decoded = await decodeShareState(shared.encoded);
    expect(decoded).toMatchObject({ ok: true, state: { view: 'frames' } });
    expect(decoded.ok && 'step' in decoded.state).toBe(false);
    const fresh = setup();
    await fresh.store.hydrate(new URL(page.urls[0]!).hash, { kind: 'run' }).settled;
    expect(fresh.store.getState().notice).not.toContain('step');
    expect(fresh.store.getState().viz!.initial).toEqual({ view: 'frames' });
  });

  it('says the address bar holds the link when the clipboard refuses', async () => {
    const { store, page } = setup();
    page.clipboardWorks = false;
    await store.share();
    expect(store.getState().shareStatus).toMatch(/^The address bar now holds the link to share \(\d+ characters\)\.$/);
  });

  it('Open in playground carries the state to the full page, under its id there, and says which page it came from', async () => {
    const { store, page } = setup({ openIn: { href: '/playground/demo/', id: 'big' } });
    await store.openInPlayground();
    const target = page.navigated[0]!;
    expect(target.startsWith('/playground/demo/#pg=big&s=')).toBe(true);
    const hash = target.slice(target.indexOf('#'));
    expect(await decodeShareState(readShareHash(hash)!.encoded)).toMatchObject({ ok: true, state: { code: ORIGINAL } });
    const there = setup({ id: 'big' });
    there.page.hash = hash;
    await there.store.hydrate(hash, { kind: 'none' }).settled;
    expect(there.store.getState().notice).toBe('Opened from “HTTP at a glance”. Read the code, then press Run to run it.');
    // The page's name leaves the address once read; the share state stays.
    expect(there.page.urls).toEqual([`/http/?x=1${formatShareHash({ id: 'big', encoded: readShareHash(hash)!.encoded })}`]);
    expect(there.page.urls[0]).not.toContain('from=');
  });

  it('a shared link without a page name stays in the address as it is', async () => {
    const { store, page } = setup();
    page.hash = formatShareHash({ id: 'demo', encoded: await encodeShareState({ code: 'x' }) });
    await store.hydrate(page.hash, { kind: 'none' }).settled;
    expect(store.getState().code).toBe('x');
    expect(page.urls).toEqual([]);
  });

  it('a wake by code typed in place before hydration opens the editor on that code, at that cursor', async () => {
    const { store, page } = setup();
    store.hydrate('', { kind: 'edit', code: "console.log('hi!');\n", selection: { start: 16, end: 16 } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState().code).toBe("console.log('hi!');\n");
    expect(page.editors[0]!.options.code).toBe("console.log('hi!');\n");
    expect(page.editors[0]!.options.selection).toEqual({ start: 16, end: 16 });
  });

  it('the editor opens with the cursor where the reader clicked, and the page makes room as Monaco replaces the stand-in', async () => {
    const { store, page } = setup();
    page.editorMode = 'lite';
    store.prepareEditor();
    expect(page.editorPreloads).toBe(1);
    await store.startEditing({ start: 4, end: 4 });
    const editor = page.editors[0]!;
    expect(editor.options.selection).toEqual({ start: 4, end: 4 });
    expect(store.getState().editor).toBe('lite');
    store.prepareEditor();
    expect(page.editorPreloads).toBe(1);
    // The stand-in's upgrade: the mode changes, rendered at once, before Monaco measures its box.
    page.rendersNow = 0;
    editor.options.beforeUpgrade?.();
    expect(page.rendersNow).toBe(1);
    expect(store.getState().editor).toBe('monaco');
  });

  it('Reset asks before discarding edits, and drops a link to this playground from the address', async () => {
    const { store, page } = setup();
    await store.startEditing();
    store.setCode('mine();');
    page.confirmAnswer = false;
    store.reset();
    expect(store.getState().code).toBe('mine();');
    page.confirmAnswer = true;
    page.hash = formatShareHash({ id: 'demo', encoded: await encodeShareState({ code: 'mine();' }) });
    store.reset();
    expect(page.questions).toHaveLength(2);
    expect(store.getState().code).toBe(ORIGINAL);
    expect(page.editors[0]!.value).toBe(ORIGINAL);
    expect(page.urls).toEqual(['/http/?x=1']);
  });

  it('Download sends the code and options once at a time and reports the file', async () => {
    const { store, page } = setup();
    store.setOptions({ seed: 5 });
    const first = store.download();
    void store.download();
    await first;
    expect(page.downloads).toEqual([{ id: 'demo', title: 'Demo', code: ORIGINAL, options: { seed: 5 } }]);
    expect(store.getState().downloadStatus).toBe('Downloaded demo.zip.');
  });
});

describe('PlaygroundStore: editor', () => {
  it('loads one editor, renders it before focusing it, and focuses it again later', async () => {
    const { store, page } = setup();
    const loading = store.startEditing();
    void store.startEditing();
    expect(store.getState()).toMatchObject({ editor: 'loading', panel: 'code' });
    await loading;
    expect(page.editors).toHaveLength(1);
    expect(page.rendersNow).toBe(1);
    expect(store.getState().editor).toBe('monaco');
    expect(page.editors[0]!.focused).toBe(1);
    page.editors[0]!.options.onChange('typed');
    expect(store.getState().code).toBe('typed');
    await store.startEditing();
    expect(page.editors[0]!.focused).toBe(2);
    store.dispose();
    expect(page.editors[0]!.disposed).toBe(true);
  });
});

describe('hydration', () => {
  const hashFor = async (id: string, state: Parameters<typeof encodeShareState>[0]) => formatShareHash({ id, encoded: await encodeShareState(state) });

  it('reads the wake action the directive left', () => {
    expect(parseWakeAction(undefined)).toEqual({ kind: 'none' });
    expect(parseWakeAction('run')).toEqual({ kind: 'run' });
    expect(parseWakeAction('download')).toEqual({ kind: 'download' });
    expect(parseWakeAction('tab-timeline')).toEqual({ kind: 'tab', panel: 'timeline' });
    expect(parseWakeAction('tab-nowhere')).toEqual({ kind: 'none' });
    expect(parseWakeAction('dance')).toEqual({ kind: 'none' });
  });

  it('decides about a link: none for another playground, the state for this one, the reason for a damaged one', async () => {
    expect(readLink('', 'demo')).toBeNull();
    expect(readLink(await hashFor('other', { code: 'x' }), 'demo')).toBeNull();
    expect(await readLink(await hashFor('demo', { code: 'x', step: 2 }), 'demo')).toEqual({ kind: 'opened', state: { code: 'x', step: 2 } });
    expect(await readLink('#pg=demo', 'demo')).toMatchObject({ kind: 'damaged', message: expect.stringContaining('damaged') });
  });

  it('applies a link: code, options, the notice, and where the next run opens', () => {
    const { store } = setup();
    const base = store.getState();
    expect(applyLink(base, { kind: 'none' })).toEqual({ state: base, linked: null });
    const damaged = applyLink(base, { kind: 'damaged', message: 'The link is damaged.' });
    expect(damaged.state.notice).toBe("The link is damaged. Showing the page's original snippet instead.");
    expect(damaged.state.code).toBe(ORIGINAL);
    const plain = applyLink(base, { kind: 'opened', state: { code: 'x' } });
    expect(plain.state).toMatchObject({ code: 'x', optionsOpen: false, notice: 'Opened from a shared link. Read the code, then press Run to run it.' });
    expect(plain.linked).toBeNull();
    const full = applyLink(base, { kind: 'opened', state: { code: 'y', seed: 7, view: 'frames', step: 4 } });
    expect(full.state).toMatchObject({ code: 'y', optionsOpen: true, options: { overrides: { seed: 7 } } });
    expect(full.state.notice).toContain('Run will open at step 5');
    expect(full.linked).toEqual({ view: 'frames', step: 4 });
  });

  it('without a link, performs the wake action at once and prepares the sandbox and visualizers', () => {
    const { store, sandbox } = setup();
    store.hydrate('', { kind: 'tab', panel: 'timeline' });
    expect(store.getState().panel).toBe('timeline');
    expect(sandbox.prewarmed).toBe(1);
    const other = setup();
    other.store.hydrate('', { kind: 'options' });
    expect(other.store.getState().optionsOpen).toBe(true);
  });

  it('a wake by Run runs (the run prepares its own sandbox); a link is restored first, and its position is used once', async () => {
    const { store, sandbox } = setup({}, () => [{ v: 1, type: 'viz-source', runId: 1, source: { id: 'sim-1', kind: 'wire', label: 'S' } } as RunEvent]);
    await store.hydrate(await hashFor('demo', { code: 'linked();', view: 'frames', step: 1 }), { kind: 'run' }).settled;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sandbox.prewarmed).toBe(0);
    expect(sandbox.runs.map((r) => r.code)).toEqual(['linked();']);
    expect(store.getState().viz!.initial).toEqual({ view: 'frames', step: 1 });
    store.setPosition({ view: 'sequence', step: 0 });
    await store.run();
    expect(store.getState().viz!.initial).toEqual({ view: 'sequence' });
  });

  it('several presses before hydration are all performed, in order: Options, then Run', async () => {
    const { store, sandbox } = setup();
    await store.hydrate('', [{ kind: 'options' }, { kind: 'run' }]).settled;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState().optionsOpen).toBe(true);
    expect(sandbox.runs.map((r) => r.code)).toEqual([ORIGINAL]);
  });

  it('opens on the Code panel (what the page asks the reader to edit), and a run moves it to Output', async () => {
    const { store } = setup();
    expect(store.getState().panel).toBe('code');
    await store.run();
    expect(store.getState().panel).toBe('output');
  });

  it('a link that arrives after hydration (hashchange) loads its state and says so, without running', async () => {
    const { store, sandbox, page } = setup();
    store.hydrate('', { kind: 'none' });
    await store.startEditing();
    await store.openLink(await hashFor('demo', { code: 'later();', step: 2 }));
    expect(store.getState()).toMatchObject({
      code: 'later();',
      notice: 'Opened from a shared link. Read the code, then press Run to run it; Run will open at step 3.',
    });
    expect(page.editors[0]!.value).toBe('later();');
    expect(sandbox.runs).toEqual([]);
    // A damaged link keeps the reader's code, and says so; one for another playground, or a plain anchor, changes nothing.
    await store.openLink('#pg=demo&s=1.AAAA');
    expect(store.getState().code).toBe('later();');
    expect(store.getState().notice).toMatch(/damaged.*The code here is unchanged\.$/);
    await store.openLink(await hashFor('other', { code: 'nope();' }));
    await store.openLink('#try-it');
    expect(store.getState().code).toBe('later();');
    await store.run();
    expect(sandbox.runs.map((r) => r.code)).toEqual(['later();']);
    expect(store.getState().viz!.initial).toEqual({ step: 2 });
  });

  it('does nothing once cancelled while the link decodes', async () => {
    const { store, sandbox } = setup();
    const hydration = store.hydrate(await hashFor('demo', { code: 'late();' }), { kind: 'share' });
    hydration.cancel();
    await hydration.settled;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState().code).toBe(ORIGINAL);
    expect(store.getState().shareStatus).toBe('');
    expect(sandbox.prewarmed).toBe(0);
  });
});
