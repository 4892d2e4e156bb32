/**
 * TypeScript -> JavaScript for snippets, in the browser. Sucrase only strips types and rewrites imports to
 * `require` calls, and it keeps every statement on its original line, so a runtime error's line number is the
 * snippet's line number. Columns move, though: `const r: Response = f()` loses its annotation and an imported
 * `f()` becomes `_mod.f.call(void 0)`. So the output ends with a column map (see columnMap) that says, for each
 * line whose columns moved, where its tokens came from. Type checking is the editor's job (Monaco's TypeScript
 * worker), not the runner's.
 */
import { transform } from 'sucrase';
import { COLUMN_MAP_PREFIX, type ColumnMap } from './columns';
import type { SourcePosition } from './protocol';

export type CompileResult = { ok: true; js: string } | { ok: false; message: string; position?: SourcePosition };

export function compileSnippet(code: string): CompileResult {
  try {
    const { code: js, sourceMap } = transform(code, {
      transforms: ['typescript', 'imports', 'jsx'],
      jsxRuntime: 'automatic',
      production: true,
      filePath: 'snippet.tsx',
      sourceMapOptions: { compiledFilename: 'snippet.js' },
    });
    const columns = sourceMap ? columnMap(sourceMap.mappings, js.startsWith(USE_STRICT) ? USE_STRICT.length : 0) : {};
    return { ok: true, js: Object.keys(columns).length ? `${js}\n${COLUMN_MAP_PREFIX}${JSON.stringify(columns)}` : js };
  } catch (err) {
    const raw = err instanceof Error ? err.message : String(err);
    // Sucrase ends its syntax errors with "(line:column)", both 1-based.
    const m = /\((\d+):(\d+)\)\s*$/.exec(raw);
    const message = raw.replace(/\s*\(\d+:\d+\)\s*$/, '');
    if (!m) return { ok: false, message };
    return { ok: false, message, position: { line: Number(m[1]), column: Number(m[2]) } };
  }
}

/** The directive sucrase puts at the start of line 1; the runner moves it off that line (execute.ts). */
const USE_STRICT = '"use strict";';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * A source map's `mappings` (Source Map v3: per generated line, segments of base64 VLQ fields, each relative to
 * the previous segment's) reduced to what the runner needs: for each line (1-based) whose tokens moved, pairs of
 * 0-based [generated column, source column]. Sucrase never moves a token to another line, so the source line
 * is not kept. `shiftLine1`: columns the runner removes from the front of line 1 (the "use strict" directive).
 */
export function columnMap(mappings: string, shiftLine1 = 0): ColumnMap {
  const map: ColumnMap = {};
  let sourceColumn = 0;
  mappings.split(';').forEach((line, index) => {
    const pairs: number[] = [];
    let moved = false;
    let generatedColumn = 0;
    for (const segment of line ? line.split(',') : []) {
      const fields = decodeVlq(segment);
      generatedColumn += fields[0] ?? 0;
      if (fields.length < 4) continue;
      sourceColumn += fields[3] ?? 0;
      const column = index === 0 ? generatedColumn - shiftLine1 : generatedColumn;
      if (column < 0) continue;
      pairs.push(column, sourceColumn);
      if (column !== sourceColumn) moved = true;
    }
    if (moved) map[index + 1] = pairs;
  });
  return map;
}

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}
