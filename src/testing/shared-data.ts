/**
 * Where the shared test corpora live: `shared/` sits beside the checkout (on developers' machines and in CI
 * alike), so it is `../shared` from the repository root, never an absolute path.
 */
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function sharedDataPath(...parts: string[]): string {
  return resolve(REPO_ROOT, '..', 'shared', 'data', ...parts);
}
