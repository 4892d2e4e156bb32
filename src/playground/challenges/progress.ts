/**
 * A reader's progress on the challenges, kept in this browser only (localStorage; nothing is sent anywhere).
 * A storage that throws (private windows, a full quota, a blocked origin) or holds something unreadable costs
 * the remembered progress, never the page: reads then give "not tried" and writes are dropped.
 */
export type ChallengeState = 'not-tried' | 'tried' | 'solved';

export const PROGRESS_KEY = 'roundtrip:challenges:v1';

type Stored = Record<string, 'tried' | 'solved'>;

/** The part of the Web Storage API used here, so tests can hand in their own. */
export type ProgressStorage = Pick<Storage, 'getItem' | 'setItem'>;

function defaultStorage(): ProgressStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // reading the property itself throws where storage is blocked
  }
}

export function readProgress(storage: ProgressStorage | undefined = defaultStorage()): Stored {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(PROGRESS_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const out: Stored = {};
    for (const [id, state] of Object.entries(parsed)) if (state === 'tried' || state === 'solved') out[id] = state;
    return out;
  } catch {
    return {};
  }
}

export function stateOf(id: string, progress: Stored): ChallengeState {
  return progress[id] ?? 'not-tried';
}

/** Records a checked run: solved stays solved; a failed check marks the challenge tried. Returns the new state. */
export function recordAttempt(id: string, passed: boolean, storage: ProgressStorage | undefined = defaultStorage()): ChallengeState {
  const progress = readProgress(storage);
  const next = passed || progress[id] === 'solved' ? 'solved' : 'tried';
  progress[id] = next;
  try {
    storage?.setItem(PROGRESS_KEY, JSON.stringify(progress));
  } catch {
    // Quota or a blocked storage: the attempt still counts on the page, it is just not remembered.
  }
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent('rt-challenge-progress', { detail: { id, state: next } }));
  return next;
}
