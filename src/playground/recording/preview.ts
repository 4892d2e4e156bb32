/**
 * ValuePreview: turns whatever a snippet put in a query (data, errors, variables, keys) into JSON-safe text
 * in the sandbox, before it crosses to the host. The host never sees the live object, only this text.
 *
 * What JSON cannot say is written as a string inside the JSON, so an untruncated preview of an object still
 * parses (the data explorer relies on that): functions '[Function name]', Dates as ISO text, Errors
 * 'Error: message', Maps and Sets as '[Map(n)]'-tagged entry lists, cycles '[Circular]', bigint '12n'.
 * A bare Error or function at the top level is just its description, like the devtools show it.
 */
import type { ValuePreview } from './model';

export interface PreviewLimits {
  /** Longest text kept; beyond it the text is cut and `truncated` is set. */
  readonly maxChars: number;
  /** Deeper nesting is replaced by '[Object]' / '[Array(n)]'. */
  readonly maxDepth: number;
  /** Array items / object keys kept per level; the rest are summarised as one '... n more' entry. */
  readonly maxEntries: number;
}

// 4,000 characters is about a screenful of pretty-printed JSON; larger data is rarely read in a side panel and
// would slow every cache notification that re-serialises it.
export const DEFAULT_PREVIEW_LIMITS: PreviewLimits = Object.freeze({ maxChars: 4000, maxDepth: 8, maxEntries: 100 });

function describeError(error: Error): string {
  const name = error.name || 'Error';
  return error.message ? `${name}: ${error.message}` : name;
}

function describeFunction(fn: { readonly name: string }): string {
  return fn.name ? `[Function ${fn.name}]` : '[Function (anonymous)]';
}

/** A JSON-compatible copy of `value`, with the non-JSON parts described as strings. */
export function toJsonSafe(value: unknown, limits: PreviewLimits = DEFAULT_PREVIEW_LIMITS): unknown {
  const ancestors: object[] = [];
  const walk = (v: unknown, depth: number): unknown => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        // JSON has no NaN or Infinity; JSON.stringify would print null and hide the surprise
        return Number.isFinite(v) ? v : String(v);
      case 'bigint':
        return `${v}n`;
      case 'undefined':
        return '[undefined]';
      case 'symbol':
        return v.toString();
      case 'function':
        return describeFunction(v);
    }
    if (v === null) return null;
    const object = v as object;
    if (object instanceof Date) return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
    if (object instanceof Error) return describeError(object);
    if (object instanceof RegExp) return String(object);
    if (ancestors.includes(object)) return '[Circular]';
    if (depth >= limits.maxDepth) {
      if (Array.isArray(object)) return `[Array(${object.length})]`;
      if (object instanceof Map) return `[Map(${object.size})]`;
      if (object instanceof Set) return `[Set(${object.size})]`;
      return '[Object]';
    }
    ancestors.push(object);
    try {
      if (Array.isArray(object)) return walkList(object, depth);
      if (object instanceof Map) {
        const entries = walkList([...object.entries()], depth + 1);
        return { [`[Map(${object.size})]`]: entries };
      }
      if (object instanceof Set) return { [`[Set(${object.size})]`]: walkList([...object.values()], depth + 1) };
      if (ArrayBuffer.isView(object)) return `[${object.constructor.name}(${object.byteLength} bytes)]`;
      const out: Record<string, unknown> = {};
      let kept = 0;
      const keys = Object.keys(object);
      for (const key of keys) {
        if (kept === limits.maxEntries) {
          out['...'] = `${keys.length - kept} more keys`;
          break;
        }
        let item: unknown;
        try {
          item = (object as Record<string, unknown>)[key];
        } catch (error) {
          item = `[getter threw ${error instanceof Error ? describeError(error) : String(error)}]`;
        }
        out[key] = walk(item, depth + 1);
        kept++;
      }
      return out;
    } finally {
      ancestors.pop();
    }
  };
  const walkList = (list: readonly unknown[], depth: number): unknown[] => {
    const out = list.slice(0, limits.maxEntries).map((item) => walk(item, depth + 1));
    if (list.length > limits.maxEntries) out.push(`... ${list.length - limits.maxEntries} more items`);
    return out;
  };
  return walk(value, 0);
}

/** Preview of a value for the devtools: JSON text (pretty, capped), or a one-line description. */
export function previewValue(value: unknown, limits: PreviewLimits = DEFAULT_PREVIEW_LIMITS): ValuePreview {
  let text: string;
  if (value instanceof Error) text = describeError(value);
  else if (typeof value === 'function') text = describeFunction(value);
  else if (value === undefined) text = 'undefined';
  else text = JSON.stringify(toJsonSafe(value, limits), null, 2);
  if (text.length <= limits.maxChars) return Object.freeze({ text, truncated: false });
  return Object.freeze({ text: text.slice(0, limits.maxChars), truncated: true });
}

/** A query or mutation key made safe to clone and print (keys are JSON-like by contract; this enforces it). */
export function jsonSafeKey(key: readonly unknown[]): readonly unknown[] {
  return Array.isArray(key) ? (toJsonSafe(key) as unknown[]) : [toJsonSafe(key)];
}
