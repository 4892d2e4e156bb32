import { afterEach, describe, expect, it } from 'vitest';
import { getDefaultState as mutationDefaultState, mutationReducer, type MutationState } from './mutation';
import { onlineManager } from './onlineManager';
import { queryReducer, type Action, type QueryState } from './queryState';
import {
  MUTATION_MACHINE_STATES,
  MUTATION_STATUS_TRANSITIONS,
  QUERY_MACHINE_STATES,
  QUERY_STATUS_TRANSITIONS,
  findQueryTransition,
  mutationMachineState,
  queryStateName,
  type MutationTableAction,
  type QueryMachineState,
  type QueryTableAction,
} from './stateTable';

// Every reducer action but setState; a new action type in the reducer fails to typecheck here until the
// table says what it does.
const QUERY_ACTIONS: Record<QueryTableAction, true> = { fetch: true, pause: true, continue: true, failed: true, success: true, error: true, invalidate: true };
const MUTATION_ACTIONS: Record<MutationTableAction, true> = { pending: true, pause: true, continue: true, failed: true, success: true, error: true };

const context = { options: { queryKey: ['k'], queryHash: '["k"]', networkMode: 'online' as const } };

function queryState(s: QueryMachineState, hasData: boolean): QueryState<string, Error> {
  return {
    data: hasData ? 'old' : undefined,
    dataUpdateCount: hasData ? 1 : 0,
    dataUpdatedAt: hasData ? 1 : 0,
    error: s.status === 'error' ? new Error('before') : null,
    errorUpdateCount: s.status === 'error' ? 1 : 0,
    errorUpdatedAt: 0,
    fetchFailureCount: 0,
    fetchFailureReason: null,
    fetchMeta: null,
    isInvalidated: false,
    status: s.status,
    fetchStatus: s.fetchStatus,
  };
}

function queryAction(action: QueryTableAction, manual: boolean): Action<string, Error> {
  switch (action) {
    case 'fetch':
      return { type: 'fetch' };
    case 'success':
      return { type: 'success', data: 'new', dataUpdatedAt: 2, manual };
    case 'error':
      return { type: 'error', error: new Error('boom') };
    case 'failed':
      return { type: 'failed', failureCount: 1, error: new Error('attempt') };
    default:
      return { type: action };
  }
}

/** Which data a state may hold: pending never has data, success always does, error either. */
const dataVariants = (s: QueryMachineState): boolean[] => (s.status === 'pending' ? [false] : s.status === 'success' ? [true] : [false, true]);

function runQuery(from: QueryMachineState, action: QueryTableAction, c: { online: boolean; hasData: boolean; manual: boolean }): QueryMachineState {
  onlineManager.setOnline(c.online);
  const next = queryReducer(queryState(from, c.hasData), queryAction(action, c.manual), context);
  return { status: next.status, fetchStatus: next.fetchStatus };
}

afterEach(() => onlineManager.setOnline(true));

describe('QUERY_STATUS_TRANSITIONS', () => {
  it('agrees with queryReducer on every row, for every state the row covers', () => {
    let runs = 0;
    for (const row of QUERY_STATUS_TRANSITIONS) {
      const datas = row.data === undefined ? dataVariants(row.from) : [row.data];
      for (const hasData of datas) {
        const got = runQuery(row.from, row.action, { online: row.network !== 'offline', hasData, manual: row.manual ?? false });
        expect({ row: row.id, ...got }).toEqual({ row: row.id, ...row.to });
        runs++;
      }
    }
    expect(runs).toBeGreaterThan(QUERY_STATUS_TRANSITIONS.length);
  });

  it('every state and action: the row a lookup finds is unique and is what the reducer does', () => {
    let found = 0;
    for (const from of QUERY_MACHINE_STATES) {
      for (const action of Object.keys(QUERY_ACTIONS) as QueryTableAction[]) {
        for (const online of [true, false]) {
          for (const hasData of dataVariants(from)) {
            for (const manual of [false, true]) {
              const c = { online, hasData, manual };
              const matching = QUERY_STATUS_TRANSITIONS.filter(
                (r) =>
                  queryStateName(r.from) === queryStateName(from) &&
                  r.action === action &&
                  (r.network === undefined || r.network === (online ? 'online' : 'offline')) &&
                  (r.data === undefined || r.data === hasData) &&
                  (r.manual === undefined || r.manual === manual),
              );
              expect(matching.length, `${queryStateName(from)} ${action} ${JSON.stringify(c)}`).toBeLessThanOrEqual(1);
              const row = findQueryTransition(from, action, { online, hasData, manual });
              expect(row).toBe(matching[0]);
              if (row) {
                found++;
                expect(runQuery(from, action, c)).toEqual(row.to);
              }
            }
          }
        }
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  it('ids are unique, every action has rows, every state is reachable from pending/idle', () => {
    const ids = QUERY_STATUS_TRANSITIONS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const action of Object.keys(QUERY_ACTIONS))
      expect(
        QUERY_STATUS_TRANSITIONS.some((r) => r.action === action),
        action,
      ).toBe(true);
    const seen = new Set(['pending/idle']);
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of QUERY_STATUS_TRANSITIONS) {
        if (seen.has(queryStateName(r.from)) && !seen.has(queryStateName(r.to))) {
          seen.add(queryStateName(r.to));
          grew = true;
        }
      }
    }
    expect([...seen].sort()).toEqual(QUERY_MACHINE_STATES.map(queryStateName).sort());
  });
});

describe('MUTATION_STATUS_TRANSITIONS', () => {
  const stateOf = (s: (typeof MUTATION_MACHINE_STATES)[number]): MutationState => ({
    ...mutationDefaultState(),
    status: s === 'paused' ? 'pending' : s,
    isPaused: s === 'paused',
  });

  it('agrees with mutationReducer on every row', () => {
    for (const row of MUTATION_STATUS_TRANSITIONS) {
      const action =
        row.action === 'pending'
          ? { type: 'pending' as const, isPaused: row.paused ?? false, variables: 1 }
          : row.action === 'success'
            ? { type: 'success' as const, data: 1 }
            : row.action === 'error'
              ? { type: 'error' as const, error: new Error('boom') }
              : row.action === 'failed'
                ? { type: 'failed' as const, failureCount: 1, error: null }
                : { type: row.action };
      const next = mutationReducer(stateOf(row.from), action);
      expect({ row: row.id, to: mutationMachineState(next.status, next.isPaused) }).toEqual({ row: row.id, to: row.to });
    }
  });

  it('ids are unique, every action has a row, every state is reachable from idle', () => {
    const ids = MUTATION_STATUS_TRANSITIONS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const action of Object.keys(MUTATION_ACTIONS))
      expect(
        MUTATION_STATUS_TRANSITIONS.some((r) => r.action === action),
        action,
      ).toBe(true);
    const reached = new Set(['idle', ...MUTATION_STATUS_TRANSITIONS.map((r) => r.to)]);
    expect([...reached].sort()).toEqual([...MUTATION_MACHINE_STATES].sort());
  });
});
