/**
 * The typed, versioned protocol between a playground (the host page) and its sandbox iframe.
 *
 * The sandbox is an `<iframe sandbox="allow-scripts">` without `allow-same-origin`: its origin is opaque, so
 * it cannot read the host's cookies, storage or DOM. The handshake:
 *   1. sandbox -> parent (window.postMessage): `hello` with the protocol version. The host accepts it only
 *      from its own iframe's window and from origin "null".
 *   2. host -> sandbox: `connect`, transferring one end of a MessageChannel. An opaque origin cannot be named
 *      as a postMessage target, so this one message uses "*"; it carries nothing but the port, and the
 *      sandbox accepts it only from its parent window.
 *   3. everything else travels over the private port, request ids pairing runs with their results.
 *
 * Visualizer traffic rides the same port: `viz-source` announces a simulation or query client the snippet
 * created, `viz-events` carries its events in batches (one message per source per task, not one per event),
 * and the host's `devtools` messages ask a query client to refetch, invalidate, go offline...
 */
import type { DevtoolsAction, SourceInfo, SourceKind } from '../recording/model';

export const SANDBOX_PROTOCOL_VERSION = 1;
export const HEARTBEAT_MS = 200;

export type ConsoleLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

/** Where in the snippet something happened, 1-based like an editor shows it. */
export interface SourcePosition {
  line: number;
  column: number;
}

export type HostToSandbox =
  | { v: 1; type: 'connect' }
  /**
   * `options`: the snippet's option values that differ from their defaults (roundtrip/playground). `js`: `code`
   * already compiled (at build time, for the page's own snippet), so the sandbox need not load its compiler.
   */
  | { v: 1; type: 'run'; runId: number; code: string; js?: string; options?: Record<string, unknown> }
  /** A query devtools action for one source of the run (sandbox/capture.ts routes it). */
  | { v: 1; type: 'devtools'; runId: number; sourceId: string; action: DevtoolsAction };

/**
 * A recorded event as it travels: a wire TraceEvent or a QueryVizEvent (recording/model.ts). The protocol checks only
 * what every event has, a finite `at`; the recording knows each source's kind.
 */
export type VizEventPayload = { readonly at: number };

export type SandboxToHost =
  | { v: 1; type: 'hello' }
  /** `position`: where in the snippet an error the snippet did not catch came from (an "Uncaught ..." line). */
  | { v: 1; type: 'console'; runId: number; level: ConsoleLevel; text: string; position?: SourcePosition }
  | { v: 1; type: 'done'; runId: number }
  /** The snippet rendered into the preview root; `height` is its content height in CSS pixels. */
  | { v: 1; type: 'preview'; runId: number; height: number }
  /** Sent every HEARTBEAT_MS while a run is in flight: silence means the sandbox's thread is stuck. */
  | { v: 1; type: 'alive'; runId: number }
  | { v: 1; type: 'error'; runId: number; phase: 'compile' | 'runtime'; message: string; position?: SourcePosition }
  /** The options schema the snippet declared with defineOptions (validated again by the host). */
  | { v: 1; type: 'options'; runId: number; schema: unknown }
  /** The snippet created a simulation or query client: a new source of visualizer events. */
  | { v: 1; type: 'viz-source'; runId: number; source: SourceInfo }
  /** The next events of one source, in the order they happened. */
  | { v: 1; type: 'viz-events'; runId: number; sourceId: string; events: readonly VizEventPayload[] };

/** Source ids are short and predictable ('sim-1', 'client-2'); anything else is not ours. */
const SOURCE_ID = /^[a-z][a-z0-9-]{0,31}$/;
const SOURCE_KINDS: readonly SourceKind[] = ['wire', 'query'];
/** More than this many events in one message is not something the sandbox's batching produces. */
const MAX_EVENTS_PER_MESSAGE = 50_000;

const CONSOLE_LEVELS: readonly string[] = ['log', 'info', 'warn', 'error', 'debug'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function parsePosition(p: unknown): SourcePosition | undefined {
  return isRecord(p) && Number.isInteger(p.line) && Number.isInteger(p.column) ? { line: p.line as number, column: p.column as number } : undefined;
}

/** Validates a message from the sandbox; anything else is dropped by the host. */
export function parseSandboxMessage(data: unknown): SandboxToHost | null {
  if (!isRecord(data) || data.v !== SANDBOX_PROTOCOL_VERSION || typeof data.type !== 'string') return null;
  switch (data.type) {
    case 'hello':
      return { v: 1, type: 'hello' };
    case 'console':
      if (typeof data.runId === 'number' && typeof data.text === 'string' && CONSOLE_LEVELS.includes(data.level as string)) {
        const position = parsePosition(data.position);
        return { v: 1, type: 'console', runId: data.runId, level: data.level as ConsoleLevel, text: data.text, ...(position ? { position } : {}) };
      }
      return null;
    case 'preview':
      return typeof data.runId === 'number' && typeof data.height === 'number' && Number.isFinite(data.height) && data.height >= 0
        ? { v: 1, type: 'preview', runId: data.runId, height: Math.min(data.height, 2000) }
        : null;
    case 'done':
    case 'alive':
      return typeof data.runId === 'number' ? { v: 1, type: data.type, runId: data.runId } : null;
    case 'options':
      return typeof data.runId === 'number' && isRecord(data.schema) ? { v: 1, type: 'options', runId: data.runId, schema: data.schema } : null;
    case 'viz-source': {
      if (typeof data.runId !== 'number') return null;
      const source = parseSourceInfo(data.source);
      return source ? { v: 1, type: 'viz-source', runId: data.runId, source } : null;
    }
    case 'viz-events': {
      if (typeof data.runId !== 'number' || typeof data.sourceId !== 'string' || !SOURCE_ID.test(data.sourceId)) return null;
      const events = data.events;
      if (!Array.isArray(events) || events.length > MAX_EVENTS_PER_MESSAGE) return null;
      for (const event of events) {
        if (!isRecord(event) || Array.isArray(event) || typeof event.at !== 'number' || !Number.isFinite(event.at)) return null;
      }
      return { v: 1, type: 'viz-events', runId: data.runId, sourceId: data.sourceId, events: events as VizEventPayload[] };
    }
    case 'error': {
      if (typeof data.runId !== 'number' || typeof data.message !== 'string') return null;
      if (data.phase !== 'compile' && data.phase !== 'runtime') return null;
      const position = parsePosition(data.position);
      return { v: 1, type: 'error', runId: data.runId, phase: data.phase, message: data.message, ...(position ? { position } : {}) };
    }
    default:
      return null;
  }
}

function parseSourceInfo(value: unknown): SourceInfo | null {
  if (!isRecord(value) || typeof value.id !== 'string' || !SOURCE_ID.test(value.id)) return null;
  if (!SOURCE_KINDS.includes(value.kind as SourceKind) || typeof value.label !== 'string') return null;
  const info: { id: string; kind: SourceKind; label: string; options?: Record<string, string | number | boolean | null> } = {
    id: value.id,
    kind: value.kind as SourceKind,
    label: value.label.slice(0, 200),
  };
  if (value.options !== undefined) {
    if (!isRecord(value.options) || Array.isArray(value.options)) return null;
    const options: Record<string, string | number | boolean | null> = {};
    for (const [key, v] of Object.entries(value.options)) {
      if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return null;
      options[key] = v;
    }
    info.options = options;
  }
  return info;
}

const QUERY_ACTIONS: readonly string[] = ['refetch', 'invalidate', 'reset', 'remove', 'trigger-loading', 'trigger-error', 'restore'];

/** Validates a devtools action; null for anything the query devtools do not send. */
export function parseDevtoolsAction(value: unknown): DevtoolsAction | null {
  if (!isRecord(value) || typeof value.type !== 'string') return null;
  if (QUERY_ACTIONS.includes(value.type))
    return typeof value.queryHash === 'string' ? ({ type: value.type, queryHash: value.queryHash } as DevtoolsAction) : null;
  if (value.type === 'set-online') return typeof value.online === 'boolean' ? { type: 'set-online', online: value.online } : null;
  if (value.type === 'set-focused') return typeof value.focused === 'boolean' ? { type: 'set-focused', focused: value.focused } : null;
  return null;
}

/** Validates a message from the host; the sandbox ignores anything else. */
export function parseHostMessage(data: unknown): HostToSandbox | null {
  if (!isRecord(data) || data.v !== SANDBOX_PROTOCOL_VERSION) return null;
  if (data.type === 'connect') return { v: 1, type: 'connect' };
  if (data.type === 'run' && typeof data.runId === 'number' && typeof data.code === 'string') {
    const options = isRecord(data.options) && !Array.isArray(data.options) ? { ...data.options } : undefined;
    const js = typeof data.js === 'string' ? data.js : undefined;
    return { v: 1, type: 'run', runId: data.runId, code: data.code, ...(js !== undefined ? { js } : {}), ...(options ? { options } : {}) };
  }
  if (data.type === 'devtools' && typeof data.runId === 'number' && typeof data.sourceId === 'string' && SOURCE_ID.test(data.sourceId)) {
    const action = parseDevtoolsAction(data.action);
    return action ? { v: 1, type: 'devtools', runId: data.runId, sourceId: data.sourceId, action } : null;
  }
  return null;
}
