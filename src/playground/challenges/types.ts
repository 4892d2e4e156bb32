/**
 * A challenge: a starting snippet that runs but misses a goal, a check over what a run recorded, hints, and a
 * reference solution. Checks read only the run (its Recording and console lines), never the code's text, so
 * any code that does the thing passes.
 */
import type { Recording } from '../recording/model';

export interface CheckResult {
  readonly passed: boolean;
  /** What the run did against the goal, with the measured value: 'the page loaded in 812 ms; goal: under 600 ms'. */
  readonly message: string;
  /** Further facts the check saw, one line each ('4 of 7 requests waited for a free connection'). */
  readonly details: readonly string[];
}

/** A check over one run: its recording, and the lines its console printed. */
export type Check = (recording: Recording, console: readonly string[]) => CheckResult;

export interface Challenge {
  /** Unique on the site; names the challenge in share links and in stored progress. */
  readonly id: string;
  /** The docs page it belongs to, as its path: '/query/errors/'. */
  readonly page: string;
  readonly title: string;
  /** The goal in one or two sentences. */
  readonly goal: string;
  /** The starting snippet: it runs without error and fails the check. */
  readonly starter: string;
  /** A reference solution: it passes the check. */
  readonly solution: string;
  /** Up to three hints, each giving away more than the one before. */
  readonly hints: readonly string[];
  readonly check: Check;
  /** The playground view a run opens on, the one that shows what the check measures (viz/views.ts id). */
  readonly view: string;
  /** The snippet is a React app (.tsx): it renders into the playground's root. */
  readonly react?: boolean;
}
