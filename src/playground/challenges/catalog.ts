/**
 * Every challenge on the site, grouped by page in the order of the docs (http-challenges.ts, then
 * query-challenges.ts). Each one's starting snippet and reference solution live in
 * content/challenges/<id>.start.ts and <id>.solution.ts (.tsx for React), read here as text at build time.
 */
import { HTTP_CHALLENGES } from './http-challenges';
import { QUERY_CHALLENGES } from './query-challenges';
import type { Challenge } from './types';

const files = import.meta.glob<string>('../../../content/challenges/*', { query: '?raw', import: 'default', eager: true });

function code(id: string, part: 'start' | 'solution'): string {
  const found = Object.entries(files).find(([path]) => path.endsWith(`/${id}.${part}.ts`) || path.endsWith(`/${id}.${part}.tsx`));
  if (!found) throw new Error(`challenge ${id}: content/challenges/${id}.${part}.ts is missing`);
  return found[1];
}

export const CHALLENGES: readonly Challenge[] = [...HTTP_CHALLENGES, ...QUERY_CHALLENGES].map((d) => ({
  ...d,
  starter: code(d.id, 'start'),
  solution: code(d.id, 'solution'),
}));

export function challengeById(id: string): Challenge | undefined {
  return CHALLENGES.find((c) => c.id === id);
}
