/**
 * The sandbox's entry point, bundled as one classic script (`/sandbox/runtime.js`) for the sandbox page.
 *
 * A classic script because the sandbox's origin is opaque: module scripts would be cross-origin requests that
 * need CORS headers from whatever serves the site, while a classic script loads from anywhere. Everything the
 * snippet may import is bundled here and handed out through `require`.
 */
import * as wire from 'roundtrip/wire';
import * as query from 'roundtrip/query';
import * as reactBindings from 'roundtrip/react';
import * as playgroundModule from 'roundtrip/playground';
import { installOptionsContext } from '../options/context';
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import * as jsxRuntime from 'react/jsx-runtime';
import { compileSnippet } from './compile';
import { describeRuntimeError, executeSnippet, locateError } from './execute';
import { formatArgs } from './format';
import { HEARTBEAT_MS, parseHostMessage, SANDBOX_PROTOCOL_VERSION, type ConsoleLevel, type SandboxToHost } from './protocol';
import { createCapture, type Capture, type CaptureController } from './capture';
import { instrumentWireModule } from './capture-wire';
import { instrumentQueryModule } from './capture-query';

/**
 * The modules a run's snippet may import: MODULES with simulations and query clients reporting to `capture`.
 * roundtrip/react re-exports the query library's classes (QueryClient...): those re-exports get the
 * instrumented versions too, so `new QueryClient()` is recorded whichever module it came from.
 */
function modulesFor(capture: Capture): Readonly<Record<string, unknown>> {
  const instrumentedQuery = instrumentQueryModule(query, capture);
  const react: Record<string, unknown> = { ...reactBindings };
  for (const [name, value] of Object.entries(reactBindings)) {
    if (Object.hasOwn(query, name) && (query as Record<string, unknown>)[name] === value) react[name] = (instrumentedQuery as Record<string, unknown>)[name];
  }
  return {
    ...MODULES,
    'roundtrip/wire': instrumentWireModule(wire, capture),
    'roundtrip/query': instrumentedQuery,
    'roundtrip/react': Object.freeze(react),
  };
}

const MODULES: Readonly<Record<string, unknown>> = {
  'roundtrip/wire': wire,
  'roundtrip/query': query,
  'roundtrip/react': reactBindings,
  'roundtrip/playground': playgroundModule,
  react: React,
  'react-dom/client': ReactDOMClient,
  'react/jsx-runtime': jsxRuntime,
};

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

function makeConsole(runId: number) {
  let count = 0;
  const emit = (level: ConsoleLevel) => (...args: unknown[]) => {
    count += 1;
    if (count <= MAX_CONSOLE_ENTRIES) send({ v: 1, type: 'console', runId, level, text: formatArgs(args) });
    else if (count === MAX_CONSOLE_ENTRIES + 1)
      send({ v: 1, type: 'console', runId, level: 'warn', text: `Console output capped at ${MAX_CONSOLE_ENTRIES} entries for this run.` });
  };
  return { log: emit('log'), info: emit('info'), warn: emit('warn'), error: emit('error'), debug: emit('debug') };
}

let currentRun = 0;
let capture: CaptureController | undefined;

async function run(runId: number, code: string, options: Readonly<Record<string, unknown>> = {}): Promise<void> {
  currentRun = runId;
  // The heartbeat lasts as long as this realm (one run), not just until 'done': the host keeps watching, so work
  // left behind that never yields (a self-requeueing microtask) is stopped too.
  setInterval(() => send({ v: 1, type: 'alive', runId }), HEARTBEAT_MS);
  installOptionsContext({ overrides: options, onSchema: (schema) => send({ v: 1, type: 'options', runId, schema }) });
  const compiled = compileSnippet(code);
  if (!compiled.ok) {
    const { message, position } = compiled;
    send({ v: 1, type: 'error', runId, phase: 'compile', message, ...(position ? { position } : {}) });
    return;
  }
  const sandboxConsole = makeConsole(runId);
  const runCapture = createCapture({ runId, send, warn: sandboxConsole.warn });
  capture = runCapture;
  try {
    await executeSnippet(compiled.js, modulesFor(runCapture), sandboxConsole);
    // Everything recorded so far reaches the host before 'done'; later events (timers, gc) keep streaming.
    runCapture.flush();
    send({ v: 1, type: 'done', runId });
  } catch (error) {
    runCapture.flush();
    const position = await locateError(error);
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
    if (msg?.type === 'run') void run(msg.runId, msg.code, msg.options);
    else if (msg?.type === 'devtools' && msg.runId === currentRun) capture?.dispatch(msg.sourceId, msg.action);
  };
});

watchPreview(() => currentRun);
window.parent.postMessage({ v: SANDBOX_PROTOCOL_VERSION, type: 'hello' } satisfies SandboxToHost, '*');
