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
 */
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
  | { v: 1; type: 'run'; runId: number; code: string };

export type SandboxToHost =
  | { v: 1; type: 'hello' }
  | { v: 1; type: 'console'; runId: number; level: ConsoleLevel; text: string }
  | { v: 1; type: 'done'; runId: number }
  /** The snippet rendered into the preview root; `height` is its content height in CSS pixels. */
  | { v: 1; type: 'preview'; runId: number; height: number }
  /** Sent every HEARTBEAT_MS while a run is in flight: silence means the sandbox's thread is stuck. */
  | { v: 1; type: 'alive'; runId: number }
  | { v: 1; type: 'error'; runId: number; phase: 'compile' | 'runtime'; message: string; position?: SourcePosition };

const CONSOLE_LEVELS: readonly string[] = ['log', 'info', 'warn', 'error', 'debug'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Validates a message from the sandbox; anything else is dropped by the host. */
export function parseSandboxMessage(data: unknown): SandboxToHost | null {
  if (!isRecord(data) || data.v !== SANDBOX_PROTOCOL_VERSION || typeof data.type !== 'string') return null;
  switch (data.type) {
    case 'hello':
      return { v: 1, type: 'hello' };
    case 'console':
      if (typeof data.runId === 'number' && typeof data.text === 'string' && CONSOLE_LEVELS.includes(data.level as string))
        return { v: 1, type: 'console', runId: data.runId, level: data.level as ConsoleLevel, text: data.text };
      return null;
    case 'preview':
      return typeof data.runId === 'number' && typeof data.height === 'number' && Number.isFinite(data.height) && data.height >= 0
        ? { v: 1, type: 'preview', runId: data.runId, height: Math.min(data.height, 2000) }
        : null;
    case 'done':
    case 'alive':
      return typeof data.runId === 'number' ? { v: 1, type: data.type, runId: data.runId } : null;
    case 'error': {
      if (typeof data.runId !== 'number' || typeof data.message !== 'string') return null;
      if (data.phase !== 'compile' && data.phase !== 'runtime') return null;
      const p = data.position;
      const position =
        isRecord(p) && Number.isInteger(p.line) && Number.isInteger(p.column)
          ? { line: p.line as number, column: p.column as number }
          : undefined;
      return { v: 1, type: 'error', runId: data.runId, phase: data.phase, message: data.message, ...(position ? { position } : {}) };
    }
    default:
      return null;
  }
}

/** Validates a message from the host; the sandbox ignores anything else. */
export function parseHostMessage(data: unknown): HostToSandbox | null {
  if (!isRecord(data) || data.v !== SANDBOX_PROTOCOL_VERSION) return null;
  if (data.type === 'connect') return { v: 1, type: 'connect' };
  if (data.type === 'run' && typeof data.runId === 'number' && typeof data.code === 'string')
    return { v: 1, type: 'run', runId: data.runId, code: data.code };
  return null;
}
