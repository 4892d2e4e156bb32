/**
 * Reads a snippet's `defineOptions({...})` at build time, without running it, so the options panel can be drawn
 * before the first run (the sandbox reports the schema again on every run, so edits take effect).
 *
 * Uses the TypeScript compiler's parser on the snippet and evaluates only literals: numbers (with a leading
 * minus), strings, booleans, `Infinity`, arrays and objects of those. Anything else in the schema (a variable,
 * a call) is a build error naming the snippet's line, since the panel could not show it.
 * Build-time only: imports `typescript`, which no browser bundle should carry.
 */
import ts from 'typescript';
import { OptionsError, validateSchema, type OptionsSchema } from './schema';

const MODULE = 'roundtrip/playground';

function literal(node: ts.Expression, sf: ts.SourceFile, file: string): unknown {
  const where = () => {
    const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    return `${file}:${line + 1}:${character + 1}`;
  };
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return literal(node.expression, sf, file);
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isIdentifier(node) && node.text === 'Infinity') return Infinity;
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    const v = literal(node.operand, sf, file);
    if (typeof v === 'number') return -v;
  }
  if (ts.isArrayLiteralExpression(node)) return node.elements.map((e) => literal(e, sf, file));
  if (ts.isObjectLiteralExpression(node)) {
    const out: Record<string, unknown> = {};
    for (const prop of node.properties) {
      if (!ts.isPropertyAssignment(prop) || !(ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name))) {
        throw new OptionsError(
          `${file}:${sf.getLineAndCharacterOfPosition(prop.getStart(sf)).line + 1}: defineOptions takes plain "name: value" entries, so the site can read them without running the snippet.`,
        );
      }
      out[prop.name.text] = literal(prop.initializer, sf, file);
    }
    return out;
  }
  throw new OptionsError(
    `${where()}: defineOptions needs literal values (numbers, strings, true/false, arrays, objects), so the site can read them without running the snippet; found \`${node.getText(sf)}\`.`,
  );
}

/**
 * The schema a snippet declares, or undefined when it declares none. Throws OptionsError (naming `file` and
 * the line) for a schema the panel could not show.
 */
export function extractOptionsSchema(code: string, file = 'snippet.ts'): OptionsSchema | undefined {
  const sf = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  // The local name(s) the snippet imported defineOptions under.
  const names = new Set<string>();
  for (const stmt of sf.statements) {
    if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier) || stmt.moduleSpecifier.text !== MODULE) continue;
    const bindings = stmt.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const el of bindings.elements) if ((el.propertyName ?? el.name).text === 'defineOptions') names.add(el.name.text);
  }
  if (names.size === 0) return undefined;
  let found: ts.CallExpression | undefined;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && names.has(node.expression.text)) {
      if (found) throw new OptionsError(`${file}: defineOptions is called twice; a snippet declares its options once.`);
      found = node;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!found) return undefined;
  const arg = found.arguments[0];
  if (!arg || found.arguments.length !== 1) throw new OptionsError(`${file}: defineOptions takes exactly one argument, the options object.`);
  try {
    return validateSchema(literal(arg, sf, file));
  } catch (error) {
    if (error instanceof OptionsError && !error.message.startsWith(file)) {
      const line = sf.getLineAndCharacterOfPosition(found.getStart(sf)).line + 1;
      throw new OptionsError(`${file}:${line}: ${error.message}`, error.option);
    }
    throw error;
  }
}
