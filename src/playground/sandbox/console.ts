/**
 * The `console` a snippet sees: every method a reader knows from Chrome DevTools (log, table, group, count,
 * time, assert...), each turned into one line of text at a level, for the host's output panel.
 *
 * Readers paste code written for the browser; a missing `console.table` would fail their run with a TypeError
 * that has nothing to do with what they are learning. Output is plain text, so the shapes are text too: groups
 * indent, a table is drawn with `|` columns. The clock is injected (the sandbox passes `performance.now`), so
 * `console.time` is testable.
 */
import { formatArgs, formatValue } from './format';
import type { ConsoleLevel, SourcePosition } from './protocol';

export interface SandboxConsoleOptions {
  /**
   * Receives each entry; called at most `max` times plus one for the notice that the cap was reached. `position`:
   * the snippet line an entry written with reportAt is about.
   */
  emit(level: ConsoleLevel, text: string, position?: SourcePosition): void;
  /** Milliseconds, for console.time. */
  now(): number;
  /** Entries per run; more and the rest are dropped, with one warning saying so. */
  max: number;
}

export type SandboxConsole = ReturnType<typeof createSandboxConsole>;

/** Rows and columns console.table draws at most; the rest is counted, like a big array in formatValue. */
const TABLE_LIMIT = 50;

/** Chrome's label for console.count and console.time without one. */
const DEFAULT_LABEL = 'default';

function cell(value: unknown): string {
  return typeof value === 'string' ? value : formatValue(value, { depth: 1, items: 10, chars: 80 });
}

/**
 * `data` as a text table: one row per entry (array index or object key), one column per key of the rows that
 * are objects, plus a "Values" column for rows that are not (as DevTools does). Column order is first seen.
 */
export function formatTable(data: unknown, only?: readonly string[]): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const entries = (data instanceof Map ? [...data] : Object.entries(data)).slice(0, TABLE_LIMIT + 1);
  const more = entries.length > TABLE_LIMIT;
  if (more) entries.pop();
  const columns: string[] = [];
  let values = false;
  for (const [, row] of entries) {
    if (typeof row === 'object' && row !== null) {
      for (const key of Object.keys(row)) if (!columns.includes(key) && (!only || only.includes(key))) columns.push(key);
    } else values = true;
  }
  const shown = columns.slice(0, TABLE_LIMIT);
  const header = ['(index)', ...shown, ...(values ? ['Values'] : [])];
  const rows = entries.map(([index, row]) => {
    const isObject = typeof row === 'object' && row !== null;
    const cells = shown.map((key) => (isObject && Object.hasOwn(row, key) ? cell((row as Record<string, unknown>)[key]) : ''));
    return [String(index), ...cells, ...(values ? [isObject ? '' : cell(row)] : [])];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  const text = [line(header), rule, ...rows.map(line)];
  if (more) text.push(`… more rows than the ${TABLE_LIMIT} shown`);
  return text.join('\n');
}

type Write = (level: ConsoleLevel, text: string, position?: SourcePosition) => void;
/** Each console's writer, for reportAt: the console itself is the snippet's, and shows only DevTools' methods. */
const writers = new WeakMap<object, Write>();

/**
 * Writes an entry the runtime itself reports (an error the snippet did not catch) with the snippet position it
 * is about, so the host can mark that line; counted and indented like the snippet's own entries.
 */
export function reportAt(sandboxConsole: SandboxConsole, level: ConsoleLevel, text: string, position?: SourcePosition): void {
  writers.get(sandboxConsole)?.(level, text, position);
}

export function createSandboxConsole({ emit, now, max }: SandboxConsoleOptions) {
  let count = 0;
  let depth = 0;
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  const write: Write = (level, text, position) => {
    count += 1;
    const indent = '  '.repeat(depth);
    if (count <= max) emit(level, indent ? text.replace(/^/gm, indent) : text, position);
    else if (count === max + 1) emit('warn', `Console output capped at ${max} entries for this run.`);
  };
  const at =
    (level: ConsoleLevel) =>
    (...args: unknown[]) =>
      write(level, formatArgs(args));
  const label = (value: unknown) => (value === undefined ? DEFAULT_LABEL : String(value));
  const elapsed = (name: string) => `${name}: ${Number((now() - timers.get(name)!).toFixed(3))} ms`;
  const group = (...args: unknown[]) => {
    write('log', args.length ? formatArgs(args) : 'console.group');
    depth += 1;
  };
  const sandboxConsole = {
    log: at('log'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    debug: at('debug'),
    dir: (value: unknown) => write('log', formatValue(value)),
    dirxml: at('log'),
    trace: (...args: unknown[]) => write('log', `Trace${args.length ? `: ${formatArgs(args)}` : ''}`),
    table: (data: unknown, columns?: readonly string[]) => write('log', formatTable(data, columns) ?? formatArgs([data])),
    assert: (condition?: unknown, ...args: unknown[]) => {
      if (!condition) write('error', `Assertion failed${args.length ? `: ${formatArgs(args)}` : ''}`);
    },
    count: (name?: unknown) => {
      const key = label(name);
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      write('info', `${key}: ${n}`);
    },
    countReset: (name?: unknown) => {
      const key = label(name);
      if (counts.has(key)) counts.set(key, 0);
      else write('warn', `Count for '${key}' does not exist`);
    },
    time: (name?: unknown) => {
      const key = label(name);
      if (timers.has(key)) write('warn', `Timer '${key}' already exists`);
      else timers.set(key, now());
    },
    timeLog: (name?: unknown, ...args: unknown[]) => {
      const key = label(name);
      if (!timers.has(key)) write('warn', `Timer '${key}' does not exist`);
      else write('info', `${elapsed(key)}${args.length ? ` ${formatArgs(args)}` : ''}`);
    },
    timeEnd: (name?: unknown) => {
      const key = label(name);
      if (!timers.has(key)) write('warn', `Timer '${key}' does not exist`);
      else {
        write('info', elapsed(key));
        timers.delete(key);
      }
    },
    group,
    groupCollapsed: group,
    groupEnd: () => {
      depth = Math.max(0, depth - 1);
    },
    // The host's output is not the sandbox's to clear; say where the button is rather than fail.
    clear: () => write('info', 'console.clear() does not clear the playground output: use the Clear console button.'),
  };
  writers.set(sandboxConsole, write);
  return sandboxConsole;
}

/**
 * Points the realm's own `console` (`realm`, the sandbox window's) at the playground's: what the libraries log,
 * React reporting an error an error boundary caught or a warning of the query library, then shows where the
 * reader looks, as it would in DevTools. The snippet gets the playground's console directly; each run has its own
 * realm, so nothing needs putting back.
 */
export function adoptConsole(realm: Console, sandboxConsole: SandboxConsole): void {
  for (const [name, method] of Object.entries(sandboxConsole)) (realm as unknown as Record<string, unknown>)[name] = method;
}
