/**
 * The QueryClient methods @tanstack/query-core marks `@deprecated` are marked in ours too, and no others, so an
 * editor strikes out the same calls in both. Read from the two sources: the JSDoc block right before each
 * method's declaration.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Names of the class methods in `source` whose JSDoc carries `@deprecated`. */
function deprecatedMethods(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*\n\s*(?:async\s+)?([A-Za-z]\w*)\s*[<(]/g)) {
    if (/@deprecated/.test(match[1]!)) names.add(match[2]!);
  }
  return [...names].sort();
}

const require = createRequire(import.meta.url);
const reference = readFileSync(join(dirname(require.resolve('@tanstack/query-core/package.json')), 'src', 'queryClient.ts'), 'utf8');
const ours = readFileSync(join(__dirname, 'queryClient.ts'), 'utf8');

describe('QueryClient deprecations', () => {
  it('are the fetch, prefetch and ensure methods in @tanstack/query-core 5.108', () => {
    expect(deprecatedMethods(reference)).toEqual([
      'ensureInfiniteQueryData',
      'ensureQueryData',
      'fetchInfiniteQuery',
      'fetchQuery',
      'prefetchInfiniteQuery',
      'prefetchQuery',
    ]);
  });

  it('match ours method for method', () => {
    expect(deprecatedMethods(ours)).toEqual(deprecatedMethods(reference));
  });

  it('point ours at the replacement TanStack names', () => {
    for (const name of deprecatedMethods(ours)) {
      const doc = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*\\n\\s*${name}<`).exec(ours)?.[1] ?? '';
      expect(doc, name).toMatch(name.includes('Infinite') ? /`infiniteQuery\(/ : /`query\(/);
    }
  });
});
