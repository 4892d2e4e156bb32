/**
 * The sandbox's entry point, bundled as one classic script (`/sandbox/runtime.js`) for the sandbox page.
 *
 * A classic script because the sandbox's origin is opaque: module scripts would be cross-origin requests that
 * need CORS headers from whatever serves the site, while a classic script loads from anywhere. Everything the
 * snippet may import is bundled here and handed out through `require`.
 */
import * as wire from 'roundtrip/wire';
import * as query from 'roundtrip/query';
import { compileSnippet } from './compile';
import { executeSnippet, locateError } from './execute';
import { formatArgs } from './format';
import { HEARTBEAT_MS, parseHostMessage, SANDBOX_PROTOCOL_VERSION, type ConsoleLevel, type SandboxToHost } from './protocol';

const MODULES: Readonly<Record<string, unknown>> = {
  'roundtrip/wire': wire,
  'roundtrip/query': query,
};

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

async function run(runId: number, code: string): Promise<void> {
  const compiled = compileSnippet(code);
  if (!compiled.ok) {
    const { message, position } = compiled;
    send({ v: 1, type: 'error', runId, phase: 'compile', message, ...(position ? { position } : {}) });
    return;
  }
  const heartbeat = setInterval(() => send({ v: 1, type: 'alive', runId }), HEARTBEAT_MS);
  try {
    await executeSnippet(compiled.js, MODULES, makeConsole(runId));
    send({ v: 1, type: 'done', runId });
  } catch (error) {
    const position = await locateError(error);
    const message = error instanceof Error ? `${error.name}: ${error.message}` : `Uncaught ${formatArgs([error])}`;
    send({ v: 1, type: 'error', runId, phase: 'runtime', message, ...(position ? { position } : {}) });
  } finally {
    clearInterval(heartbeat);
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
    if (msg?.type === 'run') void run(msg.runId, msg.code);
  };
});

window.parent.postMessage({ v: SANDBOX_PROTOCOL_VERSION, type: 'hello' } satisfies SandboxToHost, '*');
