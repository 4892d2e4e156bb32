/** How the checks word their verdicts: one shape of result, and counts and lists as a reader reads them. */
import type { Challenge, CheckResult } from './types';

export const result = (passed: boolean, message: string, details: readonly string[] = []): CheckResult => ({ passed, message, details });
export const list = (values: readonly string[]) =>
  values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
export const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/** A challenge as catalog.ts's part files define it: its snippets are read from content/challenges by id. */
export type Definition = Omit<Challenge, 'starter' | 'solution'>;
