/**
 * Where a column of compiled snippet code was in the snippet: compile.ts appends a column map to its output as
 * a last-line comment (so a snippet compiled at build time carries it too), and the runner reads it back to put
 * error positions where the reader wrote the code. Kept apart from compile.ts, which pulls in the compiler.
 */
import type { SourcePosition } from './protocol';

/** Per 1-based line whose tokens moved: [generated column, source column, ...] pairs, 0-based, in order. */
export type ColumnMap = Record<number, number[]>;

export const COLUMN_MAP_PREFIX = '//# roundtrip-columns=';

/** The column map at the end of compiled code, or none (no line moved, or code compiled before maps existed). */
export function readColumnMap(js: string): ColumnMap {
  const at = js.lastIndexOf(`\n${COLUMN_MAP_PREFIX}`);
  if (at < 0) return {};
  try {
    const map: unknown = JSON.parse(js.slice(at + 1 + COLUMN_MAP_PREFIX.length));
    return map && typeof map === 'object' ? (map as ColumnMap) : {};
  } catch {
    return {};
  }
}

/**
 * `position` (1-based, in compiled code) in the snippet: the column moves with the token it falls in, found as
 * the last mapped token that starts at or before it. A column in text the compiler inserted after a token (the
 * `.call(void 0, ` after an imported function's name, where V8 places the call) goes to that token's start.
 */
export function toSourcePosition(map: ColumnMap, position: SourcePosition): SourcePosition {
  const pairs = map[position.line];
  if (!pairs) return position;
  const column = position.column - 1;
  let found = -1;
  for (let i = 0; i < pairs.length && (pairs[i] ?? Infinity) <= column; i += 2) found = i;
  if (found < 0) return position;
  const [generated = 0, source = 0, , nextSource = Infinity] = pairs.slice(found, found + 4);
  const offset = column - generated;
  return { line: position.line, column: source + (offset < nextSource - source ? offset : 0) + 1 };
}
