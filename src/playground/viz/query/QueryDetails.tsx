/**
 * The devtools' details pane for one query: its facts as of the cursor, the action buttons (which act on the
 * live client), the data explorer and the error.
 */
import { useId } from 'react';
import type { DevtoolsAction, QuerySummary } from '../../recording/model';
import { DataExplorer, sinceStart, StatusChip } from './common';
import { formatMs, formatQueryKey, queryStatusLabel } from './describe';
import { actionButtons, actionsDisabledReason } from './devtools';

export interface QueryDetailsProps {
  readonly summary: QuerySummary;
  /** Removed from the cache as of the cursor. */
  readonly removedAtCursor: boolean;
  /** Still in the cache at the end of the recording (what the actions reach). */
  readonly inLiveCache: boolean;
  readonly start: number | null;
  readonly onAction?: (action: DevtoolsAction) => void;
}

function formatOption(value: number | 'static' | boolean | null, unit: boolean): string {
  if (value === null) return 'not set';
  if (typeof value === 'number') return unit ? formatMs(value) : String(value);
  return String(value);
}

export function QueryDetails({ summary: q, removedAtCursor, inLiveCache, start, onAction }: QueryDetailsProps) {
  const headingId = useId();
  const reasonId = useId();
  const reason = actionsDisabledReason(onAction !== undefined, inLiveCache);
  const label = queryStatusLabel(q);
  const updated = Math.max(q.dataUpdatedAt, q.errorUpdatedAt);
  return (
    <section className="rt-q-details" aria-labelledby={headingId}>
      <h3 id={headingId}>Query details</h3>
      <dl className="rt-q-facts">
        <dt>Key</dt>
        <dd>
          <code>{formatQueryKey(q.queryKey)}</code>
        </dd>
        <dt>Status</dt>
        <dd>
          {removedAtCursor ? (
            'removed from the cache'
          ) : (
            <>
              <StatusChip kind={label} /> {q.status}, {q.fetchStatus}
              {q.isInvalidated ? ', invalidated' : ''}
              {q.isDisabled ? ', disabled' : ''}
            </>
          )}
        </dd>
        <dt>Observers</dt>
        <dd>{q.observerCount}</dd>
        <dt>Last updated</dt>
        <dd>{updated > 0 ? `${new Date(updated).toISOString().slice(11, 23)} (${sinceStart(updated, start)})` : 'never'}</dd>
        <dt>Data updates</dt>
        <dd>{q.dataUpdateCount}</dd>
        <dt>Failed attempts</dt>
        <dd>{q.fetchFailureCount}</dd>
        <dt>staleTime</dt>
        <dd>{formatOption(q.staleTime, true)}</dd>
        <dt>gcTime</dt>
        <dd>{formatOption(q.gcTime, true)}</dd>
        <dt>retry</dt>
        <dd>{q.retry === null ? 'a function' : formatOption(q.retry, false)}</dd>
      </dl>
      <div>
        <h4>Actions</h4>
        <div className="rt-q-actions" role="group" aria-label="Query actions">
          {actionButtons(q).map((b) => (
            <button
              key={b.label}
              type="button"
              disabled={reason !== null}
              aria-describedby={reason ? reasonId : undefined}
              title={b.hint}
              onClick={() => onAction?.({ type: b.action, queryHash: q.queryHash })}
            >
              {b.label}
            </button>
          ))}
        </div>
        {reason ? (
          <p id={reasonId} className="rt-q-note">
            {reason}
          </p>
        ) : null}
      </div>
      <div>
        <h4>Data</h4>
        <DataExplorer preview={q.data} label="Data" />
      </div>
      {q.error ? (
        <div>
          <h4>Error</h4>
          <DataExplorer preview={q.error} label="Error" />
        </div>
      ) : null}
    </section>
  );
}
