/**
 * A downloaded project runs outside the playground, where `defineOptions` returns each option's default. So the
 * values the reader chose in the options panel are written into the snippet as those defaults: the project then
 * prints what the playground printed, with no step left to the reader.
 *
 * The schema is literal by contract (options/extract.ts reads it at build time), so a text edit is enough: in the
 * `defineOptions({...})` call, find each option's `{ ... }` entry and replace the literal after its `default:`.
 * An option whose entry cannot be found that way (code edited into another shape) is named in `missed`, for the
 * README to list instead.
 */
import type { OptionValue } from '../options/schema';

const CALL = /\bdefineOptions\s*\(\s*\{/;
const LITERAL = String.raw`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|-?(?:Infinity|[\d_]*\.?[\d_]+(?:[eE][+-]?\d+)?)|true|false`;
const DEFAULT = new RegExp(String.raw`(\bdefault\s*:\s*)(${LITERAL})(?=\s*[,}])`);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The index just past the `}` that closes the `{` at `open`, skipping strings; -1 when it never closes. */
function closingBrace(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < code.length && code[i] !== c; i++) if (code[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/** `value` as a literal in the snippet's own style: single-quoted strings where nothing needs escaping. */
function literal(value: OptionValue): string {
  if (typeof value !== 'string') return String(value);
  return /['\\\n]/.test(value) ? JSON.stringify(value) : `'${value}'`;
}

export function withChosenDefaults(code: string, chosen: Readonly<Record<string, OptionValue>>): { code: string; missed: string[] } {
  const call = CALL.exec(code);
  const schemaStart = call ? call.index + call[0].length - 1 : -1;
  const schemaEnd = call ? closingBrace(code, schemaStart) : -1;
  const missed: string[] = [];
  let out = code;
  for (const [name, value] of Object.entries(chosen).sort(([a], [b]) => a.localeCompare(b))) {
    if (schemaEnd < 0) {
      missed.push(name);
      continue;
    }
    // The entry `name: {` at the top level of the schema object (its key bare or quoted).
    const key = new RegExp(String.raw`[{,\s](['"]?)${escapeRegExp(name)}\1\s*:\s*\{`, 'g');
    key.lastIndex = schemaStart;
    const entry = key.exec(out);
    const open = entry ? entry.index + entry[0].length - 1 : -1;
    const close = open >= 0 ? closingBrace(out, open) : -1;
    const body = close > 0 && close <= schemaEnd + (out.length - code.length) ? out.slice(open, close) : undefined;
    const found = body === undefined ? null : DEFAULT.exec(body);
    if (!found) {
      missed.push(name);
      continue;
    }
    const at = open + found.index + found[1]!.length;
    out = `${out.slice(0, at)}${literal(value)}${out.slice(at + found[2]!.length)}`;
  }
  return { code: out, missed };
}
