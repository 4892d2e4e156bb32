/**
 * The sandbox's entry point, bundled as a classic script (`/sandbox/runtime.js`) for the sandbox page.
 *
 * A classic script because the sandbox's origin is opaque: module scripts would be cross-origin requests that
 * need CORS headers from whatever serves the site, while a classic script loads from anywhere. This core holds
 * the protocol, the capture and the runner; the libraries a snippet may import, and the TypeScript compiler,
 * come as separate classic chunks (chunks.mjs) loaded when a snippet needs them, and handed out through
 * `require`. The sandbox page runs the chunks it is named for before this core (`with-wire.html`, chunks.mjs
 * sandboxPageName); its address may also name chunks to start loading at once (`index.html#wire`).
 */
import type * as Wire from 'roundtrip/wire';
import type * as Query from 'roundtrip/query';
import * as playgroundModule from 'roundtrip/playground';
import { installOptionsContext } from '../options/context';
import type { CompileResult } from './compile';
import { readColumnMap } from './columns';
import { chunksFor, chunksFromHash, importedModules, SANDBOX_CHUNKS, withNeeds, type SandboxChunkName } from './chunks.mjs';
import { describeHandledLater, describeRuntimeError, describeUncaught, evaluateAsScript, loadSnippet, locateError } from './execute';
import { formatArgs } from './format';
import { adoptConsole, createSandboxConsole, reportAt, type SandboxConsole } from './console';
import { guardCallbacks, type Schedulers } from './guard';
import { HEARTBEAT_MS, parseHostMessage, SANDBOX_PROTOCOL_VERSION, type SandboxToHost } from './protocol';
import { createCapture, type Capture, type CaptureController } from './capture';
import { instrumentWireModule } from './capture-wire';
import type { ShowRecorder } from './capture-show';
import { instrumentQueryModule } from './capture-query';
import { reportCaughtErrors, type ReactDomClientLike } from './react-errors';
import { MAX_STEPS, MAX_VIRTUAL_MS, REAL_TIME_PRAGMA, VirtualTime, windowRealTime } from './virtual-time';

/** What the React chunk (chunk-react.ts) defines. */
interface ReactChunk {
  React: unknown;
  ReactDOMClient: unknown;
  jsxRuntime: unknown;
  bindings: Record<string, unknown>;
}
interface CompilerChunk {
  compileSnippet(code: string): CompileResult;
}

const loading = new Map<SandboxChunkName, Promise<void>>();

/**
 * Runs chunk `name` (a classic script next to this page), once; resolves when its global is defined. Loaded with
 * CORS, so that errors from the library's own code keep their details (chunks.mjs, sandboxPageHtml); a host that
 * does not allow it makes that load fail, and the chunk is loaded again the plain way, muted but working.
 */
function loadChunk(name: SandboxChunkName): Promise<void> {
  let done = loading.get(name);
  // Chunks the sandbox page loads itself (chunks.mjs sandboxPageHtml) have run before this core.
  if (!done && chunkGlobal(name) !== undefined) {
    done = Promise.resolve();
    loading.set(name, done);
  }
  if (!done) {
    // The page loaded it with CORS and its global is missing (every deferred script has run before this core):
    // the host refuses CORS, so no CORS attempt for this chunk or any other.
    if (document.querySelector(`script[crossorigin][src$="/${name}.js"]`)) corsRefused = true;
    done = corsRefused ? insertScript(name, false) : insertScript(name, true).catch(() => insertScript(name, false));
    loading.set(name, done);
  }
  return done;
}

/** Set once a CORS load failed: the host does not allow it, so later chunks go the plain way at once. */
let corsRefused = false;

function insertScript(name: SandboxChunkName, cors: boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    if (cors) script.crossOrigin = 'anonymous';
    script.src = `${name}.js`;
    // Inserted scripts run as soon as they arrive unless told otherwise; chunks run in insertion order, so a
    // chunk runs after the chunks it needs (whose globals are its imports).
    script.async = false;
    script.onload = () => resolve();
    script.onerror = () => {
      if (cors) corsRefused = true;
      script.remove();
      reject(new Error(`The playground could not load its ${name} library (${script.src}). Check the connection and run again.`));
    };
    document.head.append(script);
  });
}

function loadChunks(names: readonly SandboxChunkName[]): Promise<unknown> {
  return Promise.all(withNeeds(names).map(loadChunk));
}

function chunkGlobal<T>(name: SandboxChunkName): T | undefined {
  return (globalThis as Record<string, unknown>)[SANDBOX_CHUNKS[name].global] as T | undefined;
}

/**
 * The modules a run's snippet may import, from the chunks loaded so far: simulations and query clients report
 * to `capture`. roundtrip/react re-exports the query library's classes (QueryClient...): those re-exports get the
 * instrumented versions too, so `new QueryClient()` is recorded whichever module it came from.
 */
function modulesFor(capture: Capture, sandboxConsole: SandboxConsole): Readonly<Record<string, unknown>> {
  const modules: Record<string, unknown> = { 'roundtrip/playground': playgroundModule };
  const wire = chunkGlobal<typeof Wire>('wire');
  if (wire) modules['roundtrip/wire'] = instrumentWireModule(wire, capture);
  const query = chunkGlobal<typeof Query>('query');
  const instrumentedQuery = query ? instrumentQueryModule(query, capture) : undefined;
  if (instrumentedQuery) modules['roundtrip/query'] = instrumentedQuery;
  const reactChunk = chunkGlobal<ReactChunk>('react');
  if (reactChunk && query && instrumentedQuery) {
    const react: Record<string, unknown> = { ...reactChunk.bindings };
    for (const [name, value] of Object.entries(reactChunk.bindings)) {
      if (Object.hasOwn(query, name) && (query as Record<string, unknown>)[name] === value) react[name] = (instrumentedQuery as Record<string, unknown>)[name];
    }
    modules['roundtrip/react'] = Object.freeze(react);
    modules.react = reactChunk.React;
    // An error a boundary caught is handled: the console says so at the info level (react-errors.ts).
    modules['react-dom/client'] = reportCaughtErrors(reactChunk.ReactDOMClient as ReactDomClientLike, (line) => sandboxConsole.info(line));
    modules['react/jsx-runtime'] = reactChunk.jsxRuntime;
  }
  return modules;
}

/**
 * The chunks a snippet's code needs: those of the modules it imports, and the wire chunk when it calls
 * roundtrip/playground's `show` (what draws shown bytes travels with the wire library, chunk-wire.ts).
 */
function chunksToRun(code: string): SandboxChunkName[] {
  const modules = importedModules(code);
  const chunks = chunksFor(modules);
  return modules.includes('roundtrip/playground') && /\bshow\b/.test(code) ? withNeeds([...chunks, 'wire']) : chunks;
}

/** Every module name a snippet may import, loaded or not: what an unknown import's error lists. */
const OFFERED = ['roundtrip/playground', ...Object.values(SANDBOX_CHUNKS).flatMap((chunk) => chunk.modules)];

/**
 * A snippet that renders into `#root` gets a live preview: the host shows this frame at the content's height.
 * Chromium does not run rendering steps (so no ResizeObserver callbacks) in a hidden cross-origin frame, which
 * this one is until it has something to show; DOM mutations are observed instead, measured by forcing layout,
 * and a ResizeObserver follows size changes once the frame is visible.
 */
function watchPreview(runId: () => number): void {
  const root = document.getElementById('root');
  if (!root) return;
  let last = -1;
  const measure = () => {
    const height = root.childNodes.length === 0 ? 0 : Math.ceil(root.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    send({ v: 1, type: 'preview', runId: runId(), height });
  };
  new MutationObserver(measure).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  new ResizeObserver(measure).observe(root);
}

/** Console entries per run: more than this and the rest are summarised, so a chatty loop cannot flood the host. */
const MAX_CONSOLE_ENTRIES = 500;

let port: MessagePort | undefined;

function send(message: SandboxToHost): void {
  port?.postMessage(message);
}

function makeConsole(runId: number): SandboxConsole {
  return createSandboxConsole({
    emit: (level, text, position) => send({ v: 1, type: 'console', runId, level, text, ...(position ? { position } : {}) }),
    now: () => performance.now(),
    max: MAX_CONSOLE_ENTRIES,
  });
}

let currentRun = 0;
let capture: CaptureController | undefined;

async function run(runId: number, code: string, js: string | undefined, options: Readonly<Record<string, unknown>> = {}): Promise<void> {
  currentRun = runId;
  // The heartbeat lasts as long as this realm (one run), not just until 'done': the host keeps watching, so work
  // left behind that never yields (a self-requeueing microtask) is stopped too.
  setInterval(() => send({ v: 1, type: 'alive', runId }), HEARTBEAT_MS);
  // What draws the snippet's show() calls comes with the wire chunk (chunk-wire.ts): set once the chunks ran.
  let showBytes: ShowRecorder | undefined;
  installOptionsContext({
    overrides: options,
    onSchema: (schema) => send({ v: 1, type: 'options', runId, schema }),
    show: (bytes, showOptions) => showBytes?.(bytes, showOptions),
  });
  // The libraries start loading before the compiler has run: source imports name them as well as the output.
  const libraries = loadChunks(chunksToRun(js ?? code));
  // Awaited below; a failure reported there, not as an unhandled rejection if compiling fails first.
  libraries.catch(() => {});
  if (js === undefined) {
    try {
      await loadChunk('compiler');
    } catch (error) {
      send({ v: 1, type: 'error', runId, phase: 'compile', message: error instanceof Error ? error.message : String(error) });
      return;
    }
    const compiled = chunkGlobal<CompilerChunk>('compiler')!.compileSnippet(code);
    if (!compiled.ok) {
      const { message, position } = compiled;
      send({ v: 1, type: 'error', runId, phase: 'compile', message, ...(position ? { position } : {}) });
      return;
    }
    js = compiled.js;
  }
  const sandboxConsole = makeConsole(runId);
  // Libraries log through the realm's console (React's caught render errors): into the same output.
  adoptConsole(console, sandboxConsole);
  const columns = readColumnMap(js);
  // What the snippet's code throws outside its own body (a timer callback, a promise nobody awaits) never reaches
  // the catch below; DevTools prints it as "Uncaught ...", and so does the playground's console. The snippet's own
  // code runs as a script of this page (evaluateAsScript) and the libraries are loaded with CORS (loadChunk), so
  // errors and rejections arrive here in full. Where a host refuses CORS, the libraries' errors are muted
  // (guard.ts): scheduled callbacks are wrapped so that their errors keep their details all the same. Installed
  // once the snippet is loaded: a snippet that does not parse is the run's error, not an uncaught one.
  const reportUncaught = (reason: unknown, inPromise: boolean) => {
    const position = locateError(reason, columns);
    // With its position, so the editor marks the line as DevTools links it.
    reportAt(sandboxConsole, 'error', describeUncaught(reason, inPromise, position), position);
  };
  const reportUncaughtFromNowOn = () => {
    guardCallbacks(window as unknown as Schedulers, (error) => reportUncaught(error, false));
    window.addEventListener('error', (event) => {
      event.preventDefault();
      if (event.error != null) reportUncaught(event.error, false);
      // A muted error ("Script error."): all the browser says is that something was thrown.
      else sandboxConsole.error('Uncaught error in a callback (the browser does not say which: add a try/catch around the callback to see it).');
    });
    window.addEventListener('unhandledrejection', (event) => {
      event.preventDefault();
      reportUncaught(event.reason, true);
    });
    window.addEventListener('rejectionhandled', (event) => {
      sandboxConsole.warn(describeHandledLater(event.reason, locateError(event.reason, columns)));
    });
  };
  const runCapture = createCapture({ runId, send, warn: sandboxConsole.warn });
  capture = runCapture;
  try {
    await libraries;
    await loadChunks(chunksToRun(js));
    showBytes = chunkGlobal<{ createShowRecorder?: (capture: Capture, warn: (text: string) => void) => ShowRecorder }>('wire')?.createShowRecorder?.(
      runCapture,
      sandboxConsole.warn,
    );
    const snippet = await loadSnippet(js, evaluateAsScript);
    // The realm's timers and Date go virtual unless the snippet opts out (virtual-time.ts): its waits then take no
    // wall time. Installed after the libraries loaded (React's scheduler keeps the real timers it took) and
    // before the guard, which wraps the virtual timers' callbacks like any others.
    const clock = REAL_TIME_PRAGMA.test(code) ? undefined : new VirtualTime(windowRealTime(window));
    clock?.install(window);
    reportUncaughtFromNowOn();
    const running = snippet(modulesFor(runCapture, sandboxConsole), sandboxConsole, OFFERED);
    const drove = clock ? await clock.drive(running) : undefined;
    if (drove?.limit) {
      const why = drove.limit === 'time' ? `${MAX_VIRTUAL_MS / 60_000} minutes of simulated time` : `${MAX_STEPS.toLocaleString('en')} timers`;
      sandboxConsole.warn(`The snippet was still waiting after ${why}; its timers follow real time from here on.`);
    }
    await running;
    // Everything recorded so far reaches the host before 'done'; later events (timers, gc) keep streaming.
    runCapture.flush();
    send({ v: 1, type: 'done', runId });
  } catch (error) {
    runCapture.flush();
    const position = locateError(error, columns);
    const message = error instanceof Error ? describeRuntimeError(error, position) : `Uncaught ${formatArgs([error])}`;
    send({ v: 1, type: 'error', runId, phase: 'runtime', message, ...(position ? { position } : {}) });
  }
}

window.addEventListener('message', (event) => {
  // Only the embedding page may hand us a port, and only once.
  if (event.source !== window.parent || port) return;
  const message = parseHostMessage(event.data);
  if (message?.type !== 'connect' || !event.ports[0]) return;
  port = event.ports[0];
  port.onmessage = (e: MessageEvent) => {
    const msg = parseHostMessage(e.data);
    if (msg?.type === 'run') void run(msg.runId, msg.code, msg.js, msg.options);
    else if (msg?.type === 'devtools' && msg.runId === currentRun) capture?.dispatch(msg.sourceId, msg.action);
  };
});

// Chunks named in the address start loading now, before any run asks for them (the host prepares sandboxes ahead).
void loadChunks(chunksFromHash(location.hash)).catch(() => {});
watchPreview(() => currentRun);
window.parent.postMessage({ v: SANDBOX_PROTOCOL_VERSION, type: 'hello' } satisfies SandboxToHost, '*');
