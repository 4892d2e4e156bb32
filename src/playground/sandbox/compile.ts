/**
 * TypeScript -> JavaScript for snippets, in the browser. Sucrase only strips types and rewrites imports to
 * `require` calls, and it keeps every statement on its original line, so a runtime error's line number is the
 * snippet's line number. Type checking is the editor's job (Monaco's TypeScript worker), not the runner's.
 */
import { transform } from 'sucrase';
import type { SourcePosition } from './protocol';

export type CompileResult = { ok: true; js: string } | { ok: false; message: string; position?: SourcePosition };

export function compileSnippet(code: string): CompileResult {
  try {
    const { code: js } = transform(code, {
      transforms: ['typescript', 'imports', 'jsx'],
      jsxRuntime: 'automatic',
      production: true,
      filePath: 'snippet.tsx',
    });
    return { ok: true, js };
  } catch (err) {
    const raw = err instanceof Error ? err.message : String(err);
    // Sucrase ends its syntax errors with "(line:column)", both 1-based.
    const m = /\((\d+):(\d+)\)\s*$/.exec(raw);
    const message = raw.replace(/\s*\(\d+:\d+\)\s*$/, '');
    if (!m) return { ok: false, message };
    return { ok: false, message, position: { line: Number(m[1]), column: Number(m[2]) } };
  }
}
