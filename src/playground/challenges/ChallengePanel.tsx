/**
 * The challenge part of a "Try it" playground: after each run, the challenge's check over what the run recorded
 * (catalog.ts, loaded on the first run so pages pay for it only when a reader tries), announced to screen
 * readers; the hints one at a time; the reference solution as a diff against the reader's code; and the
 * progress kept in this browser (progress.ts).
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { PlaygroundStore } from '../store/store';
import type { CheckResult } from './types';
import { diffLines } from './diff';
import { readProgress, recordAttempt, stateOf, type ChallengeState } from './progress';
import './challenges.css';

/** What the page hands the island about its challenge (plain data: the check itself is loaded on a run). */
export interface ChallengeInfo {
  readonly id: string;
  readonly hints: readonly string[];
  readonly solution: string;
}

const STATE_LABEL: Record<ChallengeState, string> = { 'not-tried': 'Not tried', tried: 'Tried', solved: 'Solved' };

type Verdict = { readonly run: number; readonly result: CheckResult } | { readonly run: number; readonly failed: string };

export default function ChallengePanel({
  challenge,
  store,
  prefix,
  wakes = [],
}: {
  challenge: ChallengeInfo;
  store: PlaygroundStore;
  prefix: string;
  /** Presses on this panel's buttons that came before the island hydrated ('challenge-hint', 'challenge-solution'). */
  wakes?: readonly string[];
}) {
  const { run, viz, output, code } = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const [state, setState] = useState<ChallengeState>('not-tried');
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [hintsShown, setHintsShown] = useState(0);
  const [solutionShown, setSolutionShown] = useState(false);
  const checked = useRef(0);

  // What the reader pressed before the island woke up happens now, as if the island had been there.
  useEffect(() => {
    for (const action of wakes) {
      if (action === 'challenge-hint') setHintsShown((n) => Math.min(n + 1, challenge.hints.length));
      else if (action === 'challenge-solution') setSolutionShown(true);
    }
  }, [wakes, challenge.hints.length]);

  // Progress is read once mounted (the server has no storage), and kept in step with other challenges' panels.
  useEffect(() => {
    setState(stateOf(challenge.id, readProgress()));
    const onProgress = (e: Event) => {
      const detail = (e as CustomEvent<{ id: string; state: ChallengeState }>).detail;
      if (detail.id === challenge.id) setState(detail.state);
    };
    window.addEventListener('rt-challenge-progress', onProgress);
    return () => window.removeEventListener('rt-challenge-progress', onProgress);
  }, [challenge.id]);

  // A finished run is checked once: its recording is complete when the run's status says so (store.ts run()).
  useEffect(() => {
    if (run.status === 'running' || run.status === 'idle' || !viz || checked.current === viz.key) return;
    const key = viz.key;
    checked.current = key;
    const lines = output.filter((l) => l.level !== 'status' && l.level !== 'failure').map((l) => l.text);
    const recording = viz.recording.snapshot();
    void import('./catalog').then(({ challengeById }) => {
      const found = challengeById(challenge.id);
      if (!found) return setVerdict({ run: key, failed: `No challenge is named "${challenge.id}".` });
      let result: CheckResult;
      try {
        result = found.check(recording, lines);
      } catch (error) {
        // A check that cannot read this run must not take the page with it.
        return setVerdict({ run: key, failed: `The check could not read this run: ${error instanceof Error ? error.message : String(error)}` });
      }
      if (run.status === 'failed' && !result.passed) result = { ...result, message: `The run stopped with an error (see the console). ${result.message}` };
      setVerdict({ run: key, result });
      setState(recordAttempt(challenge.id, result.passed));
    });
  }, [run.status, viz, output, challenge.id]);

  const result = verdict && 'result' in verdict ? verdict.result : undefined;
  return (
    <div className="rt-challenge" data-challenge-id={challenge.id} data-state={state}>
      <div className="rt-challenge-bar">
        <span className="rt-challenge-state" data-testid="challenge-state">
          {STATE_LABEL[state]}
        </span>
        {challenge.hints.length > 0 && (
          <button
            type="button"
            data-action="challenge-hint"
            onClick={() => setHintsShown((n) => Math.min(n + 1, challenge.hints.length))}
            disabled={hintsShown >= challenge.hints.length}
            aria-controls={`${prefix}-hints`}
          >
            {hintsShown === 0 ? 'Show a hint' : hintsShown < challenge.hints.length ? 'Another hint' : 'No more hints'} ({hintsShown} of{' '}
            {challenge.hints.length})
          </button>
        )}
        <button
          type="button"
          data-action="challenge-solution"
          aria-expanded={solutionShown}
          aria-controls={`${prefix}-solution`}
          onClick={() => setSolutionShown((s) => !s)}
        >
          {solutionShown ? 'Hide the solution' : 'Show a solution'}
        </button>
      </div>
      {/* Announced when a check's verdict arrives; the text says what was measured. */}
      <div className="rt-challenge-result" role="status" aria-live="polite" data-testid="challenge-result" data-passed={result?.passed}>
        {verdict === null ? (
          <p className="rt-empty">Run your code: the check reads what the run did.</p>
        ) : 'failed' in verdict ? (
          <p>{verdict.failed}</p>
        ) : (
          <>
            <p>
              <strong>{verdict.result.passed ? 'Solved.' : 'Not yet.'}</strong> {verdict.result.message}
            </p>
            {verdict.result.details.length > 0 && (
              <ul>
                {verdict.result.details.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      {/* Always there (empty and hidden until the first hint), so the hint button's aria-controls names an element. */}
      <ol id={`${prefix}-hints`} className="rt-challenge-hints" hidden={hintsShown === 0}>
        {challenge.hints.slice(0, hintsShown).map((hint) => (
          <li key={hint}>{hint}</li>
        ))}
      </ol>
      {solutionShown && (
        <figure id={`${prefix}-solution`} className="rt-challenge-solution">
          <figcaption>A solution, as changes to your code (- yours, + the solution's)</figcaption>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard (WCAG 2.1.1) */}
          <pre tabIndex={0}>
            <code>
              {diffLines(code, challenge.solution).map((line, i) => (
                <span
                  // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines are positional and redrawn whole
                  key={i}
                  className={`rt-diff-${line.kind}`}
                >
                  {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
                  {line.text}
                  {'\n'}
                </span>
              ))}
            </code>
          </pre>
        </figure>
      )}
    </div>
  );
}
