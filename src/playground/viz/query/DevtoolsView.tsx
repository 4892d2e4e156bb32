/**
 * Query devtools, after TanStack Query Devtools: the cache's queries with status chips and counts, a filter
 * and sort, a details pane with the data explorer and actions, offline and focus toggles, and a Mutations tab.
 *
 * What it shows is the cache as of the cursor (the client's events folded up to it), so scrubbing back shows
 * the past. Actions always go to the live client in the sandbox, whose effects arrive as new events; the panel
 * (VizPanel.tsx) returns the cursor to the live end on an action, so its effect is seen. The Offline and
 * Window unfocused toggles drive the live client, so they show its state now, whatever step is shown, and say
 * when the step shown differs; a click turns the box at once, and the client's event confirms it.
 */
import { useMemo, useState } from 'react';
import type { DevtoolsAction } from '../../recording/model';
import type { ViewProps } from '../views';
import { visibleCount } from '../../recording/model';
import { NO_CLIENT_TEXT, StatusChip, useQuerySource } from './common';
import { formatQueryKey, queryStatusLabel } from './describe';
import { filterAndSort, SORT_LABELS, STATUS_ORDER, statusCounts, type SortBy } from './devtools';
import { eventIndexAt, indexClientFold } from './fold';
import { MutationsTab } from './MutationsTab';
import { QueryDetails } from './QueryDetails';
import './styles.css';

type Tab = 'queries' | 'mutations';
const TABS: readonly Tab[] = ['queries', 'mutations'];

export default function DevtoolsView({ recording, cursor, onAction }: ViewProps) {
  const { source, picker } = useQuerySource(recording);
  const [tab, setTab] = useState<Tab>('queries');
  const [filter, setFilter] = useState('');
  const [sortBy, setSortBy] = useState<SortBy>('status');
  const [descending, setDescending] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  // A toggle's new value from the click until the sandbox's event confirms it, so the box turns at once.
  const [pending, setPending] = useState<{ online?: boolean; focused?: boolean }>({});

  // Folded once per source with checkpoints, so a step resumes from the nearest one instead of event 0.
  const folds = useMemo(() => (source ? indexClientFold(source.events) : undefined), [source]);
  const count = source ? visibleCount(recording, source.id, cursor) : 0;
  const state = useMemo(() => (folds ?? indexClientFold([])).at(count), [folds, count]);
  const live = useMemo(() => (source && folds ? folds.at(source.events.length) : undefined), [source, folds]);

  if (!source || !live) return <p className="rt-q-empty">{NO_CLIENT_TEXT}</p>;

  const act = onAction ? (action: DevtoolsAction) => onAction(source.id, action) : undefined;
  // Confirmed (the live client reached the value): drop it (adjusting state while rendering).
  if ((pending.online !== undefined && pending.online === live.online) || (pending.focused !== undefined && pending.focused === live.focused)) {
    setPending({
      ...(pending.online !== undefined && pending.online !== live.online ? { online: pending.online } : {}),
      ...(pending.focused !== undefined && pending.focused !== live.focused ? { focused: pending.focused } : {}),
    });
  }
  const online = act ? (pending.online ?? live.online) : live.online;
  const focused = act ? (pending.focused ?? live.focused) : live.focused;
  const toggle = (change: { online: boolean } | { focused: boolean }) => {
    if (!act) return;
    setPending((p) => ({ ...p, ...change }));
    act('online' in change ? { type: 'set-online', online: change.online } : { type: 'set-focused', focused: change.focused });
  };
  const counts = statusCounts(state.queries.values());
  const list = filterAndSort(state.queries.values(), filter, sortBy, descending);
  const atCursor = source.events[eventIndexAt(recording, source, cursor)];
  const cursorHash =
    atCursor?.kind === 'query'
      ? atCursor.query.queryHash
      : atCursor?.kind === 'instrumentation' && atCursor.event.subject.kind === 'query'
        ? atCursor.event.subject.queryHash
        : undefined;
  const selectedHash = [picked, cursorHash, list[0]?.summary.queryHash].find((h): h is string => !!h && (state.queries.has(h) || state.removed.has(h)));
  const selected = selectedHash ? (state.queries.get(selectedHash) ?? state.removed.get(selectedHash)) : undefined;
  const toggleHint = act ? undefined : 'Needs a running sandbox: press Run.';

  return (
    <div className="rt-q rt-q-devtools">
      <div className="rt-q-toolbar">
        {picker}
        <label title={toggleHint}>
          <input type="checkbox" checked={!online} disabled={!act} onChange={(e) => toggle({ online: !e.target.checked })} />
          Offline
        </label>
        <label title={toggleHint}>
          <input type="checkbox" checked={!focused} disabled={!act} onChange={(e) => toggle({ focused: !e.target.checked })} />
          Window unfocused
        </label>
        {state.online !== online || state.focused !== focused ? (
          <span className="rt-q-note" data-testid="devtools-then">
            At the step shown: {state.online ? 'online' : 'offline'}, window {state.focused ? 'focused' : 'unfocused'}.
          </span>
        ) : null}
        {!act ? <span className="rt-q-note">Toggles and actions need a running sandbox.</span> : null}
      </div>

      {/* A two-way switch, not ARIA tabs: the views already sit in the panel's tablist, and nested tablists confuse. */}
      <div className="rt-q-tabs" role="group" aria-label="Devtools section">
        {TABS.map((t) => (
          <button key={t} type="button" aria-pressed={tab === t} onClick={() => setTab(t)}>
            {t === 'queries' ? `Queries (${state.queries.size})` : `Mutations (${state.mutations.size})`}
          </button>
        ))}
      </div>

      {tab === 'queries' ? (
        <section aria-label="Queries" className="rt-q">
          <ul className="rt-q-counts" aria-label="Queries per status">
            {STATUS_ORDER.map((s) => (
              <li key={s}>
                <StatusChip kind={s}>
                  {s} {counts[s]}
                </StatusChip>
              </li>
            ))}
          </ul>
          <div className="rt-q-toolbar">
            <label>
              Filter by key <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="todos" />
            </label>
            <label>
              Sort by{' '}
              <select value={sortBy} onChange={(e) => setSortBy(e.target.value as SortBy)}>
                {(Object.keys(SORT_LABELS) as SortBy[]).map((k) => (
                  <option key={k} value={k}>
                    {SORT_LABELS[k]}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" aria-pressed={descending} onClick={() => setDescending(!descending)}>
              {descending ? 'Descending' : 'Ascending'}
            </button>
          </div>
          <div className="rt-q-split">
            {list.length === 0 ? (
              <p className="rt-q-empty">{state.queries.size === 0 ? 'No queries in the cache at this step.' : `No query key contains “${filter}”.`}</p>
            ) : (
              <ul className="rt-q-list" aria-label="Queries">
                {list.map(({ summary }) => (
                  <li key={summary.queryHash}>
                    <button type="button" aria-current={summary.queryHash === selectedHash ? 'true' : undefined} onClick={() => setPicked(summary.queryHash)}>
                      <StatusChip kind={queryStatusLabel(summary)} />
                      <span className="rt-q-key">{formatQueryKey(summary.queryKey)}</span>
                      <span className="rt-q-observers" title="Observers">
                        <span className="rt-q-sr-only">observers: </span>
                        {summary.observerCount}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {selected ? (
              <QueryDetails
                summary={selected.summary}
                removedAtCursor={!state.queries.has(selected.summary.queryHash)}
                inLiveCache={live.queries.has(selected.summary.queryHash)}
                start={state.start}
                onAction={act}
              />
            ) : null}
          </div>
        </section>
      ) : (
        <section aria-label="Mutations">
          <MutationsTab mutations={[...state.mutations.values()].map((m) => m.summary)} start={state.start} />
        </section>
      )}
    </div>
  );
}
