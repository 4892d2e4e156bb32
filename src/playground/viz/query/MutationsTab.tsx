/**
 * The devtools' Mutations tab: every mutation in the cache as of the cursor, newest first, with its status,
 * variables, result and error.
 */
import { useId, useState } from 'react';
import type { MutationSummary } from '../../recording/model';
import { DataExplorer, sinceStart, StatusChip } from './common';
import { formatQueryKey } from './describe';

export function MutationsTab({ mutations, start }: { mutations: readonly MutationSummary[]; start: number | null }) {
  const [chosen, setChosen] = useState<number | null>(null);
  const headingId = useId();
  if (mutations.length === 0) return <p className="rt-q-empty">No mutations in the cache at this step.</p>;
  const newestFirst = [...mutations].sort((a, b) => b.mutationId - a.mutationId);
  const selected = newestFirst.find((m) => m.mutationId === chosen) ?? newestFirst[0]!;
  return (
    <div className="rt-q-split">
      <table className="rt-q-table">
        <caption className="rt-q-sr-only">Mutations, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Mutation</th>
            <th scope="col">Status</th>
            <th scope="col">Submitted</th>
          </tr>
        </thead>
        <tbody>
          {newestFirst.map((m) => (
            <tr key={m.mutationId} aria-current={m === selected ? 'true' : undefined}>
              <td>
                <button type="button" aria-pressed={m === selected} onClick={() => setChosen(m.mutationId)}>
                  #{m.mutationId}
                  {m.mutationKey ? ` ${formatQueryKey(m.mutationKey)}` : ''}
                </button>
              </td>
              <td>
                <StatusChip kind={m.isPaused ? 'paused' : m.status} />
              </td>
              <td>{m.submittedAt > 0 ? sinceStart(m.submittedAt, start) : 'not yet'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <section className="rt-q-details" aria-labelledby={headingId}>
        <h3 id={headingId}>Mutation #{selected.mutationId}</h3>
        <dl className="rt-q-facts">
          <dt>Key</dt>
          <dd>{selected.mutationKey ? <code>{formatQueryKey(selected.mutationKey)}</code> : 'none'}</dd>
          <dt>Status</dt>
          <dd>
            {selected.status}
            {selected.isPaused ? ', paused' : ''}
          </dd>
          <dt>Failed attempts</dt>
          <dd>{selected.failureCount}</dd>
        </dl>
        <h4>Variables</h4>
        <DataExplorer preview={selected.variables} label="Variables" />
        <h4>Data</h4>
        <DataExplorer preview={selected.data} label="Data" />
        {selected.error ? (
          <>
            <h4>Error</h4>
            <DataExplorer preview={selected.error} label="Error" />
          </>
        ) : null}
      </section>
    </div>
  );
}
