/**
 * The query state machine as data: the shape of a query's state, the actions that change it, and one
 * pure reducer. `Query` dispatches; nothing else writes `query.state`.
 *
 *   action      status                      fetchStatus          also
 *   fetch       pending if no data          fetching | paused*   failure count/reason reset, fetchMeta
 *   failed      -                           -                    failure count/reason = attempt's
 *   pause       -                           paused
 *   continue    -                           fetching
 *   success     success                     idle (not manual)    data, dataUpdatedAt, invalidation cleared
 *   error       error                       idle                 error, errorUpdatedAt, invalidated
 *   invalidate  -                           -                    isInvalidated = true
 *   setState    whatever is given
 *
 *   * paused when networkMode 'online' and the network is down.
 */
import { canFetch } from './retryer';
import { now } from './timeoutManager';
import { transition } from './utils';
import type { FetchMeta } from './query';
import type { DefaultError, FetchStatus, InitialDataFunction, QueryOptions, QueryStatus } from './types';

export interface QueryState<TData = unknown, TError = DefaultError> {
  data: TData | undefined;
  dataUpdateCount: number;
  dataUpdatedAt: number;
  error: TError | null;
  errorUpdateCount: number;
  errorUpdatedAt: number;
  fetchFailureCount: number;
  fetchFailureReason: TError | null;
  fetchMeta: FetchMeta | null;
  isInvalidated: boolean;
  status: QueryStatus;
  fetchStatus: FetchStatus;
}

export type Action<TData, TError> =
  | { type: 'continue' }
  | { type: 'error'; error: TError }
  | { type: 'failed'; failureCount: number; error: TError }
  | { type: 'fetch'; meta?: FetchMeta }
  | { type: 'invalidate' }
  | { type: 'pause' }
  | { type: 'setState'; state: Partial<QueryState<TData, TError>> }
  | { type: 'success'; data: TData | undefined; dataUpdatedAt?: number; manual?: boolean };

type ActionOf<TData, TError, T extends Action<TData, TError>['type']> = Extract<Action<TData, TError>, { type: T }>;

/** Everything the reducer needs besides state and action; keeps it pure. */
export interface ReducerContext {
  options: QueryOptions<any, any, any, any>;
}

type Transitions = {
  [T in Action<unknown, unknown>['type']]: (state: QueryState<any, any>, action: ActionOf<any, any, T>, context: ReducerContext) => QueryState<any, any>;
};

const transitions: Transitions = {
  failed: (state, action) => ({ ...state, fetchFailureCount: action.failureCount, fetchFailureReason: action.error }),
  pause: (state) => ({ ...state, fetchStatus: 'paused' }),
  continue: (state) => ({ ...state, fetchStatus: 'fetching' }),
  fetch: (state, action, { options }) => ({
    ...state,
    ...fetchState(state.data, options),
    fetchMeta: action.meta ?? null,
  }),
  success: (state, action) => ({
    ...state,
    ...successState(action.data, action.dataUpdatedAt),
    dataUpdateCount: state.dataUpdateCount + 1,
    // setQueryData (manual) leaves a running fetch alone
    ...(!action.manual && { fetchStatus: 'idle', fetchFailureCount: 0, fetchFailureReason: null }),
  }),
  error: (state, action) => ({
    ...state,
    error: action.error,
    errorUpdateCount: state.errorUpdateCount + 1,
    errorUpdatedAt: now(),
    fetchFailureCount: state.fetchFailureCount + 1,
    fetchFailureReason: action.error,
    fetchStatus: 'idle',
    status: 'error',
    isInvalidated: true,
  }),
  invalidate: (state) => ({ ...state, isInvalidated: true }),
  setState: (state, action) => ({ ...state, ...action.state }),
};

export function queryReducer<TData, TError>(
  state: QueryState<TData, TError>,
  action: Action<TData, TError>,
  context: ReducerContext,
): QueryState<TData, TError> {
  return transition<QueryState<any, any>>(transitions, 'query', state, action, context);
}

/** The part of state a fetch start overwrites (also used for optimistic observer results). */
export function fetchState(data: unknown, options: QueryOptions<any, any, any, any>) {
  return {
    fetchFailureCount: 0,
    fetchFailureReason: null,
    fetchStatus: canFetch(options.networkMode) ? 'fetching' : 'paused',
    ...(data === undefined && ({ error: null, status: 'pending' } as const)),
  } as const;
}

export function successState<TData>(data: TData | undefined, dataUpdatedAt?: number) {
  return {
    data,
    dataUpdatedAt: dataUpdatedAt ?? now(),
    error: null,
    isInvalidated: false,
    status: 'success' as const,
  };
}

/** initialData and initialDataUpdatedAt may be given as a value or as a function (called without arguments). */
const resolveOption = <T>(option: T | (() => T)): T => (typeof option === 'function' ? (option as () => T)() : option);

/** A fresh query's state: pending, or success when initialData resolves to something. */
export function getDefaultState<TData, TError>(options: QueryOptions<any, TError, TData, any>): QueryState<TData, TError> {
  const data = resolveOption(options.initialData as TData | InitialDataFunction<TData> | undefined);
  const hasData = data !== undefined;
  return {
    data,
    dataUpdateCount: 0,
    dataUpdatedAt: hasData ? (resolveOption(options.initialDataUpdatedAt) ?? now()) : 0,
    error: null,
    errorUpdateCount: 0,
    errorUpdatedAt: 0,
    fetchFailureCount: 0,
    fetchFailureReason: null,
    fetchMeta: null,
    isInvalidated: false,
    status: hasData ? 'success' : 'pending',
    fetchStatus: 'idle',
  };
}
