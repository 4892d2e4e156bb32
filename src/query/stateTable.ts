/**
 * The query and mutation state machines as data: (status, fetchStatus, action) -> next.
 *
 * The reducers in queryState.ts and mutation.ts are the machines that run; these tables describe them
 * row by row so the docs and the visualizers can draw them (ARCHITECTURE.md, 'State machines are data').
 * stateTable.test.ts
 * runs the real reducers over every row, so a table that drifts from its reducer fails the build.
 *
 * What is here: the transitions `Query` and `Mutation` actually dispatch, in the states they dispatch
 * them in. The reducers are total (any action in any state computes something), but a `pause` while
 * idle never happens, so it is not a row. What is deliberately not here: `setState` (reset, cancel's
 * revert, hydration), which writes whatever state it is given and so is not a transition at all.
 *
 * Conditions beyond the state (a row's `network`, `data`, `manual`) are the reducer's inputs that decide
 * between rows: whether a fetch can start (networkMode 'online' and the network is down: paused),
 * whether the query holds data (an error state may or may not), and whether a success came from a
 * fetch or from setQueryData (which leaves a running fetch alone).
 */
import type { Action as QueryAction } from './queryState';
import type { Action as MutationAction } from './mutation';
import type { FetchStatus, QueryStatus } from './types';

export interface QueryMachineState {
  readonly status: QueryStatus;
  readonly fetchStatus: FetchStatus;
}

/** The reducer actions a row can be about; `setState` is excluded (see the file header). */
export type QueryTableAction = Exclude<QueryAction<unknown, unknown>['type'], 'setState'>;

export interface QueryTransitionRow {
  /** Stable id, e.g. 'success/idle:fetch:offline'. */
  readonly id: string;
  readonly from: QueryMachineState;
  readonly action: QueryTableAction;
  /** Only for 'fetch': can the fetch start now (canFetch), or does it begin paused? */
  readonly network?: 'online' | 'offline';
  /** Only where it decides the outcome: does the query hold data when the action arrives? */
  readonly data?: boolean;
  /** Only for 'success': true for setQueryData, false for a fetch that resolved. */
  readonly manual?: boolean;
  readonly to: QueryMachineState;
  readonly note: string;
}

const STATUSES: readonly QueryStatus[] = ['pending', 'success', 'error'];
const FETCH_STATUSES: readonly FetchStatus[] = ['idle', 'fetching', 'paused'];

/** The nine (status, fetchStatus) pairs, in the order the diagrams and tables list them. */
export const QUERY_MACHINE_STATES: readonly QueryMachineState[] = /* @__PURE__ */ (() =>
  Object.freeze(STATUSES.flatMap((status) => FETCH_STATUSES.map((fetchStatus) => Object.freeze({ status, fetchStatus })))))();

export const queryStateName = (s: QueryMachineState): string => `${s.status}/${s.fetchStatus}`;

const st = (status: QueryStatus, fetchStatus: FetchStatus): QueryMachineState => ({ status, fetchStatus });

const qrow = (
  from: QueryMachineState,
  action: QueryTableAction,
  to: QueryMachineState,
  note: string,
  extra: Pick<QueryTransitionRow, 'network' | 'data' | 'manual'> = {},
): QueryTransitionRow => {
  const conditions = [
    extra.network,
    extra.data === undefined ? undefined : extra.data ? 'data' : 'no-data',
    extra.manual === undefined ? undefined : extra.manual ? 'manual' : undefined,
  ].filter((c): c is string => c !== undefined);
  const id = [queryStateName(from), action, ...conditions].join(':');
  return Object.freeze({ id, from: Object.freeze(from), action, ...extra, to: Object.freeze(to), note });
};

const fetchRows = (from: QueryStatus, to: QueryStatus, note: string, data?: boolean): QueryTransitionRow[] => [
  qrow(st(from, 'idle'), 'fetch', st(to, 'fetching'), note, { network: 'online', ...(data === undefined ? {} : { data }) }),
  qrow(st(from, 'idle'), 'fetch', st(to, 'paused'), `${note}; networkMode 'online' and offline: it waits for the network`, {
    network: 'offline',
    ...(data === undefined ? {} : { data }),
  }),
];

// The tables are built inside pure-annotated functions so that bundlers drop them from apps that never
// import them (only the docs' diagrams do): a top-level call with arguments is kept as a possible side effect.
export const QUERY_STATUS_TRANSITIONS: readonly QueryTransitionRow[] = /* @__PURE__ */ (() =>
  Object.freeze([
    ...fetchRows('pending', 'pending', 'first fetch: no data yet, so the query stays pending'),
    ...fetchRows('success', 'success', 'background refetch: the data stays, so does success'),
    ...fetchRows('error', 'pending', 'retrying a query that never had data: back to pending', false),
    ...fetchRows('error', 'error', 'refetching after an error while old data is kept: status stays error', true),
    ...STATUSES.flatMap((s) => [
      qrow(st(s, 'fetching'), 'pause', st(s, 'paused'), 'the retryer cannot go on (offline, or unfocused for refetchOnWindowFocus-style modes)'),
      qrow(st(s, 'paused'), 'continue', st(s, 'fetching'), 'the network (or focus) came back: the fetch resumes'),
      qrow(st(s, 'fetching'), 'failed', st(s, 'fetching'), 'an attempt failed and a retry is scheduled: only failureCount changes'),
      qrow(st(s, 'fetching'), 'success', st('success', 'idle'), 'the queryFn resolved: data, dataUpdatedAt; invalidation cleared', { manual: false }),
      qrow(st(s, 'fetching'), 'error', st('error', 'idle'), 'the last attempt failed: error, errorUpdatedAt; marked invalidated'),
      qrow(st(s, 'paused'), 'error', st('error', 'idle'), 'cancelled while paused without a state to revert to'),
    ]),
    ...QUERY_MACHINE_STATES.map((s) =>
      qrow(s, 'success', st('success', s.fetchStatus), 'setQueryData: new data, a running fetch is left alone', { manual: true }),
    ),
    ...QUERY_MACHINE_STATES.map((s) => qrow(s, 'invalidate', s, 'invalidateQueries: isInvalidated = true; state otherwise unchanged')),
  ]))();

/** The row for a transition, or undefined when the table has none (the Query never dispatches it). */
export function findQueryTransition(
  from: QueryMachineState,
  action: QueryTableAction,
  conditions: { readonly online?: boolean; readonly hasData?: boolean; readonly manual?: boolean } = {},
): QueryTransitionRow | undefined {
  return QUERY_STATUS_TRANSITIONS.find(
    (r) =>
      r.from.status === from.status &&
      r.from.fetchStatus === from.fetchStatus &&
      r.action === action &&
      (r.network === undefined || r.network === ((conditions.online ?? true) ? 'online' : 'offline')) &&
      (r.data === undefined || r.data === (conditions.hasData ?? from.status === 'success')) &&
      (r.manual === undefined || r.manual === (conditions.manual ?? false)),
  );
}

// --- mutations ----------------------------------------------------------------------------------

/** A mutation's status, with a pending mutation that cannot run yet (isPaused) as its own state. */
export type MutationMachineState = 'idle' | 'pending' | 'paused' | 'success' | 'error';

export const MUTATION_MACHINE_STATES: readonly MutationMachineState[] = /* @__PURE__ */ (() =>
  Object.freeze(['idle', 'pending', 'paused', 'success', 'error'] as const))();

export type MutationTableAction = MutationAction<unknown, unknown, unknown, unknown>['type'];

export interface MutationTransitionRow {
  readonly id: string;
  readonly from: MutationMachineState;
  readonly action: MutationTableAction;
  /** Only for 'pending': the isPaused it carries (the mutation cannot start: offline, or its scope is busy). */
  readonly paused?: boolean;
  readonly to: MutationMachineState;
  readonly note: string;
}

const mrow = (from: MutationMachineState, action: MutationTableAction, to: MutationMachineState, note: string, paused?: boolean): MutationTransitionRow =>
  Object.freeze({
    id: `${from}:${action}${paused === undefined ? '' : paused ? ':paused' : ':ready'}`,
    from,
    action,
    ...(paused === undefined ? {} : { paused }),
    to,
    note,
  });

export const MUTATION_STATUS_TRANSITIONS: readonly MutationTransitionRow[] = /* @__PURE__ */ (() =>
  Object.freeze([
    mrow('idle', 'pending', 'pending', 'mutate(): variables and submittedAt recorded, onMutate runs', false),
    mrow('idle', 'pending', 'paused', 'mutate() while it cannot run (offline, or another mutation of its scope is running)', true),
    mrow('pending', 'pending', 'pending', 'onMutate returned a context: stored with the same status', false),
    mrow('paused', 'pending', 'paused', 'onMutate returned a context while the mutation waits', true),
    mrow('pending', 'pause', 'paused', 'an attempt cannot start or retry: it waits for the network or its scope'),
    mrow('paused', 'continue', 'pending', 'resumed (online again, its turn in the scope, or resumePausedMutations)'),
    mrow('pending', 'failed', 'pending', 'an attempt failed and a retry is scheduled: only failureCount changes'),
    mrow('pending', 'success', 'success', 'the mutationFn resolved: data; onSuccess and onSettled have run'),
    mrow('pending', 'error', 'error', 'the last attempt failed: error; onError and onSettled have run'),
  ]))();

/** The machine state of a mutation's (status, isPaused). */
export const mutationMachineState = (status: MutationMachineState | 'pending', isPaused: boolean): MutationMachineState =>
  status === 'pending' && isPaused ? 'paused' : status;
