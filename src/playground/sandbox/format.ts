/**
 * Turns console arguments into display text, the way a browser console would show them at a glance:
 * strings as they are at the top level, quoted inside structures; objects and arrays inline with a depth
 * and length cap so a huge or cyclic value cannot flood the panel.
 */
export interface FormatLimits {
  depth: number;
  items: number;
  chars: number;
}

export const DEFAULT_LIMITS: FormatLimits = { depth: 4, items: 50, chars: 10_000 };

export function formatArgs(args: readonly unknown[], limits: FormatLimits = DEFAULT_LIMITS): string {
  const text = args.map((a) => (typeof a === 'string' ? a : formatValue(a, limits))).join(' ');
  return text.length > limits.chars ? `${text.slice(0, limits.chars)}… (${text.length - limits.chars} more characters)` : text;
}

export function formatValue(value: unknown, limits: FormatLimits = DEFAULT_LIMITS): string {
  return format(value, limits, 0, new Set());
}

function format(value: unknown, limits: FormatLimits, depth: number, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'undefined':
      return 'undefined';
    case 'boolean':
      return String(value);
    case 'symbol':
      return value.toString();
    case 'function':
      return `[Function${value.name ? `: ${value.name}` : ' (anonymous)'}]`;
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (seen.has(obj)) return '[Circular]';
  if (obj instanceof Error) {
    const text = `${obj.name}: ${obj.message}`;
    // fetch (and sim.fetch) reject with a bare "Failed to fetch" and put the reason in `cause`; DevTools shows it.
    if (obj.cause === undefined) return text;
    if (depth >= limits.depth) return `${text} (caused by …)`;
    seen.add(obj);
    try {
      return `${text} (caused by ${format(obj.cause, limits, depth + 1, seen)})`;
    } finally {
      seen.delete(obj);
    }
  }
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
  if (obj instanceof RegExp) return String(obj);
  if (obj instanceof Uint8Array) return `Uint8Array(${obj.length}) [${[...obj.subarray(0, limits.items)].join(', ')}${obj.length > limits.items ? ', …' : ''}]`;
  if (depth >= limits.depth) return Array.isArray(obj) ? '[Array]' : '[Object]';
  seen.add(obj);
  try {
    const inner = (entries: string[], total: number) => (total > limits.items ? [...entries, `… ${total - limits.items} more`] : entries);
    if (Array.isArray(obj)) {
      const items = obj.slice(0, limits.items).map((v) => format(v, limits, depth + 1, seen));
      return `[${inner(items, obj.length).join(', ')}]`;
    }
    if (obj instanceof Map) {
      const items = [...obj].slice(0, limits.items).map(([k, v]) => `${format(k, limits, depth + 1, seen)} => ${format(v, limits, depth + 1, seen)}`);
      return `Map(${obj.size}) {${items.length ? ` ${inner(items, obj.size).join(', ')} ` : ''}}`;
    }
    if (obj instanceof Set) {
      const items = [...obj].slice(0, limits.items).map((v) => format(v, limits, depth + 1, seen));
      return `Set(${obj.size}) {${items.length ? ` ${inner(items, obj.size).join(', ')} ` : ''}}`;
    }
    const keys = Object.keys(obj);
    const items = keys.slice(0, limits.items).map((k) => {
      const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
      return `${key}: ${format((obj as Record<string, unknown>)[k], limits, depth + 1, seen)}`;
    });
    const name = obj.constructor && obj.constructor !== Object && typeof obj.constructor.name === 'string' ? `${obj.constructor.name} ` : '';
    return items.length ? `${name}{ ${inner(items, keys.length).join(', ')} }` : `${name}{}`;
  } finally {
    seen.delete(obj);
  }
}
